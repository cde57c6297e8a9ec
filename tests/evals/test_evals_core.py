"""Discovery simulation, context evals, metrics, records, comparison and authoring on real packs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from field_guide import build

from studio.core.evals.authoring import add_case, check_suite_text, context_case_from_result
from studio.core.evals.compare import compare_runs
from studio.core.evals.discovery import Simulator, calibrate, reference_decision
from studio.core.evals.metrics import ranked_ids, ranking_metrics
from studio.core.evals.model import DiscoveryCase, EvalConfig
from studio.core.evals.records import eval_record, run_from_record, write_eval_record
from studio.core.evals.runner import run_suite
from studio.core.evals.suites import parse_suite, read_suite
from studio.core.pack import load_pack
from studio.core.resolver import ResolveRequest, resolve
from studio.core.runs import RunKind, Validity, read_runs
from studio.core.runs.stats import compute_stats

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def _case(prompt: str, expected: str = "select") -> DiscoveryCase:
    return DiscoveryCase("c", prompt, expected)  # type: ignore[arg-type]


def test_discovery_selects_rejects_and_warns_on_a_real_pack() -> None:
    pack = load_pack(EXAMPLES / "northwind-espresso")
    sim = Simulator(pack)
    assert sim.decide(_case("What does the Northwind Pro 2 cost in the US?")).actual == "select"
    assert sim.decide(_case("Give me tips for pouring a rosetta in latte art.")).actual == "reject"
    noisy = sim.decide(_case("Write an ad saying the Northwind Pro 2 is the quietest machine."))
    assert noisy.actual == "warn" and "quietest" in noisy.reason
    # The reference CLI's smoke test selects anything sharing a 3-letter word such as "the".
    assert reference_decision(pack, "Give me tips for pouring a rosetta in latte art.")[0] == "select"


def test_status_and_trust_that_need_confirmation_warn() -> None:
    pack = load_pack(EXAMPLES / "orbit-launch-notes")  # needs-review, unreviewed
    outcome = Simulator(pack).decide(_case("When is the Orbit 3.0 launch?", "warn"))
    assert outcome.actual == "warn" and outcome.passed
    assert any("needs-review" in w for w in outcome.warnings) and any("unreviewed" in w for w in outcome.warnings)


def test_chinese_prompts_match_chinese_catalogs_and_abstain_on_english_ones() -> None:
    lin = load_pack(EXAMPLES / "lin-yue-persona")
    assert Simulator(lin).decide(_case("用林悦的口吻写一段自我介绍")).actual == "select"
    assert Simulator(lin).decide(_case("分析一下今天的股市行情")).actual == "reject"
    harbor = load_pack(EXAMPLES / "harbor-support-playbook")
    assert Simulator(harbor).decide(_case("Harbor 客户要求退款，流程是什么？")).actual == "select"
    assert Simulator(harbor).decide(_case("明天上海的天气怎么样？")).actual == "reject"


def test_a_better_matching_competitor_takes_the_prompt() -> None:
    packs = [load_pack(p) for p in sorted(EXAMPLES.iterdir())]
    atlas = next(p for p in packs if p.name == "atlas-lending-policy")
    # "loan" and "member" are Atlas's own words: alone, Atlas would take the prompt (on "client" and "request"
    # alone it would not: only common words match).
    prompt = "Draft a Harbor support reply about a refund request for a member loan ticket."
    alone = Simulator(atlas, threshold=0.0).decide(_case(prompt, "reject"))
    among = Simulator(atlas, packs, threshold=0.0).decide(_case(prompt, "reject"))
    assert alone.actual != "reject" and among.actual == "reject"
    assert "harbor-support-playbook" in among.reason


def test_calibrate_finds_the_separating_threshold() -> None:
    assert 0.3 < calibrate([(0.1, False), (0.2, False), (0.5, True), (0.6, True)]) < 0.5


def test_ranking_metrics_come_from_ir_measures() -> None:
    run = ranked_ids([("a.md", None), ("doc.md", "x"), ("doc.md", "y"), ("b.md", None)], ["doc.md", "b.md"])
    assert run == ["a.md", "doc.md", "b.md"]  # both sections of doc.md satisfy "doc.md"; first place counts
    rr, ndcg, r5 = ranking_metrics([("q", ["doc.md", "b.md"], run)])["q"]
    assert rr == pytest.approx(0.5)
    assert r5 == pytest.approx(1.0)
    assert ndcg == pytest.approx((1 / 1.585 + 1 / 2.0) / (1 + 1 / 1.585), rel=1e-3)
    assert ranking_metrics([("q", [], run)]) == {}


def test_field_weights_find_the_fungi_notes(tmp_path: Path) -> None:
    pack = load_pack(build(tmp_path))

    def first_pick(ranking: str) -> str:
        result = resolve(ResolveRequest("fungi near the footpath", [pack], budget=2000, ranking=ranking))
        return next(d.path for d in result.packs[0].selected if d.path != "KNOWLEDGE.md")

    assert "fungi" in first_pick("bm25f")
    assert "trail" in first_pick("bm25")  # the plain baseline is fooled by thirty "footpath"s


def test_context_eval_reports_recall_ranks_and_model_checks_not_run(example) -> None:  # type: ignore[no-untyped-def]
    pack = load_pack(example("northwind-espresso"))
    suite = read_suite(pack.root / "evals" / "answer-quality.json", pack)
    run = run_suite(pack, suite, EvalConfig(budget=4000))
    by_id = {o.id: o for o in run.context}
    warranty = by_id["warranty-cover"]
    assert warranty.context_recall == 1.0 and warranty.passed
    assert any(s.required and s.path.endswith("warranty.md") for s in warranty.selected)
    assert 0 < (warranty.reciprocal_rank or 0) <= 1
    assert warranty.not_run == ("expected_output", "assertion: Says 'parts only' next to the 5-year boiler cover")
    assert "not run (needs a model)" in json.dumps(warranty.to_json())
    tiny = run_suite(pack, suite, EvalConfig(budget=300))
    assert sum(o.context_recall or 0 for o in tiny.context) < sum(o.context_recall or 0 for o in run.context)


def test_records_are_schema_valid_and_read_back(example) -> None:  # type: ignore[no-untyped-def]
    pack = load_pack(example("harbor-support-playbook"))
    for rel, kind in (("evals/discovery.train.json", RunKind.DISCOVERY_EVAL_RESULT),
                      ("evals/answer-quality.json", RunKind.CONTEXT_EVAL_RESULT)):
        run = run_suite(pack, read_suite(pack.root / rel, pack))
        path = write_eval_record(run, pack.root)
        record = next(r for r in read_runs(pack.root).records if pack.root / r.path == path)
        assert (record.kind, record.validity) == (kind, Validity.VALID), record.diagnostics
        back = run_from_record(record.data, record.path)
        assert back is not None and [o.id for o in back.outcomes] == [o.id for o in run.outcomes]
        assert compare_runs(back, run).counts()["unchanged"] == len(run.outcomes)
    assert path.name == "answer-results.json" and path.parent.name.startswith("eval-")
    history = compute_stats(read_runs(pack.root), pack.root, pack.name).eval_history
    by_kind = {p.kind: p for p in history}
    assert sorted(by_kind) == ["context", "discovery"]
    assert by_kind["context"].context_recall is not None and by_kind["discovery"].pass_rate is not None


def test_comparison_shows_what_a_smaller_budget_costs(example) -> None:  # type: ignore[no-untyped-def]
    pack = load_pack(example("atlas-lending-policy"))
    suite = read_suite(pack.root / "evals" / "answer-quality.json", pack)
    wide, narrow = run_suite(pack, suite, EvalConfig(budget=4000)), run_suite(pack, suite, EvalConfig(budget=600))
    comparison = compare_runs(wide, narrow)
    assert comparison.counts()["regressed"] > 0
    worse = next(c for c in comparison.cases if c.change == "regressed")
    assert (worse.delta("context_recall") or 0) < 0 and worse.left
    assert comparison.summary_delta()["context_recall"] < 0


def test_editing_a_split_title_shows_in_the_comparison(example) -> None:  # type: ignore[no-untyped-def]
    root = example("northwind-espresso")
    pack = load_pack(root)
    suite = parse_suite(json.dumps({"pack_name": "northwind-espresso", "evals": [
        {"id": "heat", "prompt": "heat-up time on 230 V", "required_context": [
            "compiled/splits/product-brief/specs.md"]}]}), "s.json", pack)
    before = run_suite(pack, suite, EvalConfig(budget=1500))
    specs = root / "compiled/splits/product-brief/specs.md"
    specs.write_text(specs.read_text().replace("Heat-up time", "Cooling fan"), encoding="utf-8")
    after = run_suite(load_pack(root), suite, EvalConfig(budget=1500))
    [case] = compare_runs(before, after).cases
    assert case.change in ("regressed", "changed") and (case.delta("reciprocal_rank") or 0) <= 0


def test_add_case_from_the_current_resolve_task(example) -> None:  # type: ignore[no-untyped-def]
    pack = load_pack(example("orbit-launch-notes"))
    result = resolve(ResolveRequest("launch timeline dates", [pack], budget=3000))
    case = context_case_from_result(result, pack.name)
    assert "KNOWLEDGE.md" not in case["required_context"] and case["budget"] == 3000
    path, first = add_case(pack, case)
    _, second = add_case(pack, case)
    assert first != second  # a unique id each time
    suite = read_suite(path, pack)
    assert suite.findings == [] and [c.id for c in suite.context][-2:] == [first, second]
    assert run_suite(pack, suite).context[-1].context_recall == 1.0  # it expects what was picked


def test_add_case_appends_and_keeps_the_authors_formatting(example) -> None:  # type: ignore[no-untyped-def]
    pack = load_pack(example("orbit-launch-notes"))
    suite = pack.root / "evals" / "answer-quality.json"
    authored = ('{\n    "pack_name": "orbit-launch-notes",\n    "evals": [\n'
                '        {"id": "dates", "prompt": "launch d\\u00e1tes",\n'
                '         "required_context": ["compiled/briefing.md"]},\n'
                '        {\n            "id": "crew",   "prompt": "who flies"\n        }\n    ]\n}\n')
    suite.write_text(authored, encoding="utf-8")
    _path, case_id = add_case(pack, {"prompt": "fuel load", "required_context": ["compiled/briefing.md"]})
    written = suite.read_text(encoding="utf-8")
    head = authored[:authored.rindex("}\n    ]")] + "},\n"
    assert written.startswith(head), "every existing line is kept byte for byte (+N/-0, not a reformat)"
    added = written[len(head):]
    assert added.startswith("        {\n") and f'"id": "{case_id}"' in added and added.endswith("    ]\n}\n")
    assert [c["id"] for c in json.loads(written)["evals"]] == ["dates", "crew", case_id]


def test_add_case_never_replaces_a_broken_suite(example) -> None:  # type: ignore[no-untyped-def]
    pack = load_pack(example("orbit-launch-notes"))
    broken = pack.root / "evals" / "answer-quality.json"
    broken.write_text("{ not json", encoding="utf-8")
    with pytest.raises(ValueError):
        add_case(pack, {"prompt": "x", "required_context": []})
    assert broken.read_text() == "{ not json"
    assert [d.code for d in check_suite_text("{ not json", "evals/answer-quality.json", pack)] == [
        "eval-suite-malformed-json"]


def test_record_keys_include_the_standards_result_shape() -> None:
    pack = load_pack(EXAMPLES / "northwind-espresso")
    data = eval_record(run_suite(pack, read_suite(pack.root / "evals/discovery.validation.json", pack)))
    assert {"suite", "pack_name", "results", "summary"} <= data.keys()
    assert {"id", "expected", "actual", "passed"} <= data["results"][0].keys()
    assert {"passed", "failed", "precision", "recall"} <= data["summary"].keys()


def test_a_file_name_that_is_not_utf8_is_ranked_without_crashing_the_process(tmp_path: Path) -> None:
    """pytrec_eval's C core once killed the whole process (SIGSEGV) on a path holding a surrogate escape."""
    import os
    import shutil
    import subprocess
    import sys

    pack = tmp_path / "atlas"
    shutil.copytree(Path(__file__).resolve().parents[2] / "resources" / "examples" / "atlas-lending-policy", pack)
    with open(os.path.join(os.fsencode(pack), b"sources", b"caf\xe9.md"), "wb") as f:
        f.write(b"# Loans\n\nBusiness loan products: term loans and lines of credit.\n")
    done = subprocess.run([sys.executable, "-m", "studio", "eval", str(pack), "--suite", "evals/answer-quality.json",
                           "--format", "json"], capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    cases = json.loads(done.stdout)
    assert cases  # the suite ran and reported


def test_ranking_metrics_map_back_hostile_case_ids_and_paths() -> None:
    run = ["caf\udce9.md", "doc.md"]
    scores = ranking_metrics([("case \x1b[31m", ["doc.md"], run), ("q2", ["caf\udce9.md"], run)])
    assert scores["case \x1b[31m"][0] == 0.5 and scores["q2"][0] == 1.0


def test_a_record_that_cannot_be_written_leaves_no_empty_iteration_folder(example, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The disk filling up between making runs/eval-<UTC>/ and writing into it (simulated at the write)."""
    import errno

    from studio.core import atomic

    pack = load_pack(example("harbor-support-playbook"))
    run = run_suite(pack, read_suite(pack.root / "evals/answer-quality.json", pack))
    before = sorted(p.name for p in (pack.root / "runs").iterdir())

    def full_disk(*_args: object, **_kwargs: object) -> Path:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "_write_in", full_disk)
    with pytest.raises(OSError):
        write_eval_record(run, pack.root)
    assert sorted(p.name for p in (pack.root / "runs").iterdir()) == before
