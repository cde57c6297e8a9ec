"""``pack-studio eval``: both suite kinds, the envelope, the reference, comparisons, records, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from studio.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def _json(capsys, *argv: str) -> tuple[int, dict]:  # type: ignore[no-untyped-def, type-arg]
    code = main(["eval", *argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_discovery_envelope_is_a_superset_of_the_reference(capsys) -> None:  # type: ignore[no-untyped-def]
    code, data = _json(capsys, str(EXAMPLES / "northwind-espresso"), "--suite", "evals/discovery.validation.json",
                       "--reference")
    assert code == 0 and data["ok"] is True and data["status"] == "passed"
    assert (data["command"], data["pack"], data["kind"]) == ("eval", "northwind-espresso", "discovery")
    assert {"id", "prompt", "expected", "actual", "passed", "score", "reason"} <= data["results"][0].keys()
    assert {"passed", "failed", "total", "pass_rate", "precision", "recall", "false_positives",
            "false_negatives"} <= data["summary"].keys()
    reference = {r["id"]: r["actual"] for r in data["reference"]["results"]}
    assert reference["generic-latte-art"] == "select"  # the smoke test's false positive, shown for comparison
    assert set(reference.values()) <= {"select", "reject"}


def test_context_suite_and_a_failing_case_exit_1(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, data = _json(capsys, str(EXAMPLES / "atlas-lending-policy"), "--suite", "evals/answer-quality.json",
                       "--budget", "500")
    assert data["kind"] == "context" and code == 1 and data["ok"] is False
    case = data["results"][0]
    assert {"id", "prompt", "selected", "required_context", "context_recall", "reciprocal_rank", "ndcg_at_10",
            "tokens_used"} <= case.keys()
    assert all(case["tokens_used"] <= 500 for case in data["results"])
    assert {"context_recall", "mrr", "ndcg_at_10", "recall_at_5", "tokens_mean"} <= data["summary"].keys()


def test_compare_a_second_budget_in_text(capsys) -> None:  # type: ignore[no-untyped-def]
    main(["eval", str(EXAMPLES / "atlas-lending-policy"), "--suite", "evals/answer-quality.json", "--compare",
          "budget=600"])
    out = capsys.readouterr().out
    assert "compare bm25f, budget 4000 -> bm25f, budget 600" in out and "regressed" in out


def test_write_run_then_compare_with_the_last_record(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    pack = tmp_path / "orbit-launch-notes"
    shutil.copytree(EXAMPLES / "orbit-launch-notes", pack)
    code, data = _json(capsys, str(pack), "--suite", "evals/answer-quality.json", "--write-run")
    written = Path(data["written"])
    assert written.is_file() and written.parent.parent == pack / "runs"
    assert main(["validate-run", str(written)]) == 0
    capsys.readouterr()
    code, data = _json(capsys, str(pack), "--suite", "evals/answer-quality.json", "--compare", "last")
    assert data["comparison"]["counts"]["unchanged"] == len(data["results"])


def test_bad_suite_reports_findings_and_runs_the_valid_cases(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    suite = tmp_path / "suite.json"
    suite.write_text(json.dumps({"pack_name": "northwind-espresso", "cases": [
        {"id": "a", "prompt": "Northwind Pro 2 price", "expected": "select"},
        {"id": "a", "prompt": "again", "expected": "select"},
        {"id": "b", "prompt": "x", "expected": "perhaps"}]}, indent=1), encoding="utf-8")
    code, data = _json(capsys, str(EXAMPLES / "northwind-espresso"), "--suite", str(suite))
    assert code == 1 and [r["id"] for r in data["results"]] == ["a"]
    assert {f["code"] for f in data["findings"]} == {"eval-suite-duplicate-id", "eval-suite-schema-violation"}
    assert all(f["line"] > 1 for f in data["findings"])


def test_usage_errors_exit_2(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert main(["eval", str(tmp_path), "--suite", "x.json"]) == 2
    assert main(["eval", str(EXAMPLES / "orbit-launch-notes"), "--suite", "evals/answer-quality.json",
                 "--compare", "colour=blue"]) == 2
    capsys.readouterr()
    assert main(["eval", str(EXAMPLES / "orbit-launch-notes"), "--suite", "evals/answer-quality.json",
                 "--compare", "colour=\x1b[31mblue"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pack-studio eval: --compare ") and "\x1b" not in err  # named, and the text inert


def test_version_and_validate_do_not_import_ir_measures() -> None:
    code = ("import sys; from studio.cli import main; main(['validate', '" + str(EXAMPLES / "orbit-launch-notes")
            + "']); assert 'ir_measures' not in sys.modules and 'numpy' not in sys.modules, 'imported'")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_a_suite_file_that_does_not_exist_is_a_usage_error(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["eval", str(EXAMPLES / "orbit-launch-notes"), "--suite", "evals/nope.json"]) == 2
    captured = capsys.readouterr()
    assert "the suite file evals/nope.json does not exist" in captured.err
    assert captured.out == ""  # no "discovery" header, no "0/0 passed (0%)"


def test_an_unreadable_suite_is_not_reported_as_a_discovery_run(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    suite = tmp_path / "broken.json"
    suite.write_text("{not json", encoding="utf-8")
    assert main(["eval", str(EXAMPLES / "orbit-launch-notes"), "--suite", str(suite)]) == 1
    out = capsys.readouterr().out
    assert "not run: the suite could not be read" in out and "eval-suite-malformed-json" in out
    assert "discovery" not in out and "0/0" not in out


def test_eval_and_evidence_take_a_pack_name(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    project = tmp_path / "project"
    shutil.copytree(EXAMPLES / "northwind-espresso", project / ".agents" / "knowledge" / "northwind-espresso")
    scopes = ["--project", str(project), "--home", str(project), "--no-builtin"]
    suite = ["--suite", "evals/discovery.validation.json", "--format", "json"]
    by_path = main(["eval", str(project / ".agents/knowledge/northwind-espresso"), *suite])
    path_out = json.loads(capsys.readouterr().out)
    assert main(["eval", "northwind-espresso", *suite, *scopes]) == by_path == 0
    assert json.loads(capsys.readouterr().out)["results"] == path_out["results"]
    assert main(["evidence", "northwind-espresso", *scopes]) in (0, 1)
    assert " claims: " in capsys.readouterr().out
    for command in (["eval", "nosuch", "--suite", "x.json"], ["evidence", "nosuch"]):
        assert main([*command, *scopes]) == 2
        assert "nosuch: no such folder, and no pack of that name" in capsys.readouterr().err


def test_discovery_text_and_json_give_each_case_its_margin(capsys) -> None:  # type: ignore[no-untyped-def]
    main(["eval", str(EXAMPLES / "northwind-espresso"), "--suite", "evals/discovery.validation.json"])
    text = capsys.readouterr().out
    assert "margin +" in text and "margin -" in text  # selected cases above the line, rejected ones below
    _, data = _json(capsys, str(EXAMPLES / "northwind-espresso"), "--suite", "evals/discovery.validation.json")
    # Activated exactly when the margin is not negative (a match on common words alone is the one exception).
    assert all((r["margin"] >= 0) == (r["actual"] != "reject") for r in data["results"] if "common" not in r["reason"])


def test_comparing_budgets_of_a_discovery_suite_says_the_budget_plays_no_part(capsys) -> None:  # type: ignore[no-untyped-def]
    code = main(["eval", str(EXAMPLES / "northwind-espresso"), "--suite", "evals/discovery.validation.json",
                 "--compare", "budget=1000"])
    err = capsys.readouterr().err
    assert code == 2 and "does not depend on the budget" in err and "ranking=" in err
    assert main(["eval", str(EXAMPLES / "northwind-espresso"), "--suite", "evals/discovery.validation.json",
                 "--compare", "threshold=0.5"]) in (0, 1)  # a setting discovery does use still compares
