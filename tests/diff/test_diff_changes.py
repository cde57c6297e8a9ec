"""``pack-studio diff``: each kind of change, planted in a real git repository, is reported where the issue says.

Every test diffs the pack at a tag against the working tree (``--from``), or two refs (``--to``), or two folders.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import NAME, Repo, diff_json, git, run_diff

SPLITS = "compiled/splits/lending-policy"


def test_identical_trees_report_nothing_and_exit_0(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    before = repo.status()
    code, data = diff_json(capsys, str(repo.pack), "--from", "v1")
    assert code == 0 and data["identical"] is True
    assert data["frontmatter"] == [] and data["files"] == {"added": [], "removed": [], "changed": [], "renamed": []}
    assert data["claims"]["added"] == data["claims"]["removed"] == data["claims"]["changed"] == []
    assert data["findings"] == {"added": [], "removed": []}
    assert all(not t["changed"] and t["tokens_before"] == t["tokens_after"] > 0 for t in data["tiers"].values())
    assert data["resolver"] and all(not r["added"] and not r["removed"] for r in data["resolver"])
    assert data["evals"]["regressed"] == data["evals"]["improved"] == []
    code, out, _ = run_diff(capsys, str(repo.pack), "--from", "v1")
    assert code == 0 and "no differences" in out
    assert repo.status() == before  # nothing written into the working tree


def test_frontmatter_changes_list_status_and_trust_first(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.edit("KNOWLEDGE.md", 'version: "2026.5.1"', 'version: "2026.6.0"')
    repo.edit("KNOWLEDGE.md", "status: ready", "status: disputed")
    repo.edit("KNOWLEDGE.md", "trust: official", "trust: community")
    repo.edit("KNOWLEDGE.md", "language: en\n", "")
    repo.edit("KNOWLEDGE.md", "    name: policy-reference-builder", "    name: policy-builder")
    code, data = diff_json(capsys, str(repo.pack), "--from", "v1")
    assert code == 1 and data["identical"] is False
    changes = [(c["key"], c["before"], c["after"]) for c in data["frontmatter"]]
    assert changes[:2] == [("status", "ready", "disputed"), ("trust", "official", "community")]
    assert ("version", "2026.5.1", "2026.6.0") in changes
    assert ("language", "en", None) in changes
    assert ("metadata.producedBy.name", "policy-reference-builder", "policy-builder") in changes


def test_files_added_removed_changed_and_renamed_with_tokens(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    git(repo.top, "mv", f"packs/{NAME}/compiled/facts.md", f"packs/{NAME}/compiled/key-facts.md")
    (repo.pack / SPLITS / "products.md").unlink()
    (repo.pack / "compiled" / "glossary.md").write_text("# Glossary\n\nDSCR: debt service coverage ratio.\n")
    repo.edit(f"{SPLITS}/underwriting.md", "## ", "## Extra words about coverage ratios\n\n## ")
    wiki = repo.pack / "wiki" / "index.md"
    moved = repo.pack / "wiki" / "home.md"
    moved.write_text(wiki.read_text() + "\nOne more line.\n")  # renamed and edited a little
    wiki.unlink()
    code, data = diff_json(capsys, str(repo.pack), "--from", "v1")
    files = data["files"]
    assert code == 1
    assert files["added"] == ["compiled/glossary.md"]
    assert files["removed"] == [f"{SPLITS}/products.md"]
    changed = {c["path"]: c for c in files["changed"]}
    assert set(changed) == {f"{SPLITS}/underwriting.md"}
    assert changed[f"{SPLITS}/underwriting.md"]["tokens_after"] > changed[f"{SPLITS}/underwriting.md"]["tokens_before"]
    renames = {(r["from"], r["to"]): r["similarity"] for r in files["renamed"]}
    assert renames[("compiled/facts.md", "compiled/key-facts.md")] == 1.0
    assert 0.6 <= renames[("wiki/index.md", "wiki/home.md")] < 1.0


def test_claims_added_removed_changed_and_status(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    path = repo.pack / "indexes" / "source-map.json"
    data = json.loads(path.read_text())
    claims = {c["claim_id"]: c for c in data["claims"]}
    claims["atl-term-loan"]["status"] = "disputed"
    claims["atl-line-of-credit"]["text"] = "Lines of credit run to USD 150,000."
    claims["atl-line-of-credit"]["source"]["anchor"] = "#L11"
    del claims["atl-no-rates"]
    claims["atl-new"] = {"claim_id": "atl-new", "text": "A new claim.", "status": "confirmed",
                         "source": {"path": "sources/underwriting-manual-2026.md", "anchor": "#L3"}}
    data["claims"] = list(claims.values())
    path.write_text(json.dumps(data, indent=2))
    code, report = diff_json(capsys, str(repo.pack), "--from", "v1")
    assert code == 1
    assert report["claims"]["added"] == ["atl-new"] and report["claims"]["removed"] == ["atl-no-rates"]
    changed = {c["id"]: c["fields"] for c in report["claims"]["changed"]}
    assert changed == {"atl-term-loan": ["status"], "atl-line-of-credit": ["text", "fragment"]}
    assert report["claims"]["status_changes"] == [{"id": "atl-term-loan", "before": "confirmed", "after": "disputed"}]


def test_findings_new_and_resolved(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.edit("KNOWLEDGE.md", "status: ready", "status: draft")  # adds the status-draft finding
    repo.commit("draft", tag="v2")
    code, data = diff_json(capsys, str(repo.pack), "--from", "v1", "--to", "v2")
    assert code == 1
    assert [f["code"] for f in data["findings"]["added"]] == ["status-draft"] and not data["findings"]["removed"]
    added = data["findings"]["added"][0]
    assert added["file"] == "KNOWLEDGE.md" and added["line"] > 1 and "/tmp" not in added["message"]
    code, data = diff_json(capsys, str(repo.pack), "--from", "v2", "--to", "v1")
    assert [f["code"] for f in data["findings"]["removed"]] == ["status-draft"] and not data["findings"]["added"]


def test_tiers_give_tokens_before_and_after_and_a_text_diff(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.edit("KNOWLEDGE.md", "description: Atlas Credit Union", "description: Atlas Credit Union (2027 edition)")
    repo.edit("compiled/boundaries.md", "\n", "\nNever quote an interest rate, even an old one.\n")
    code, data = diff_json(capsys, str(repo.pack), "--from", "v1")
    tiers = data["tiers"]
    assert code == 1 and set(tiers) == {"catalog", "guide", "fence"}
    assert tiers["catalog"]["changed"] and tiers["catalog"]["tokens_after"] > tiers["catalog"]["tokens_before"]
    assert any(line.startswith("+") and "2027 edition" in line for line in tiers["catalog"]["text_diff"])
    assert tiers["fence"]["changed"] and tiers["fence"]["tokens_after"] > tiers["fence"]["tokens_before"]
    assert any("Never quote an interest rate" in line for line in tiers["fence"]["text_diff"])
    # The ref is read from a temporary folder, but the tiers say where the pack lives: no path-only difference.
    assert not any("pack-studio-diff-" in line for t in tiers.values() for line in t["text_diff"])


def test_resolver_picks_for_a_task_before_and_after(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    task = "Which business loan products does Atlas offer?"
    (repo.pack / SPLITS / "products.md").unlink()
    code, data = diff_json(capsys, str(repo.pack), "--from", "v1", "--task", task, "--no-suite-tasks",
                           "--budget", "3000")
    assert code == 1 and len(data["resolver"]) == 1
    delta = data["resolver"][0]
    assert (delta["task"], delta["budget"], delta["source"]) == (task, 3000, "--task")
    assert f"{SPLITS}/products.md" in delta["removed"] and f"{SPLITS}/products.md" in delta["picked_before"]
    reasons = {r["item"]: (r["before"], r["after"]) for r in delta["reasons"]}
    assert reasons[f"{SPLITS}/products.md"] == ("relevant", None)
    assert all(k in delta["picked_after"] for k in delta["added"])


def test_suite_prompts_are_resolver_tasks_too(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = diff_json(capsys, str(repo.pack), "--from", "v1")
    assert code == 0
    assert {r["source"] for r in data["resolver"]} == {"evals/answer-quality.json"} and len(data["resolver"]) == 6


def test_evals_regressed_and_improved(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    (repo.pack / SPLITS / "products.md").unlink()  # the loan-products case needs it
    repo.commit("drop products", tag="v2")
    code, data = diff_json(capsys, str(repo.pack), "--from", "v1", "--to", "v2")
    assert code == 1 and "loan-products" in data["evals"]["regressed"] and not data["evals"]["improved"]
    case = next(c for c in data["evals"]["cases"] if c["id"] == "loan-products")
    assert (case["suite"], case["passed_before"], case["passed_after"]) == ("evals/answer-quality.json", True, False)
    assert case["recall_before"] == 1.0 and case["recall_after"] == 0.0
    suite = next(s for s in data["evals"]["suites"] if s["suite"] == "evals/answer-quality.json")
    assert suite["recall_before"] > suite["recall_after"] and suite["mrr_before"] is not None
    code, data = diff_json(capsys, str(repo.pack), "--from", "v2", "--to", "v1")
    assert "loan-products" in data["evals"]["improved"] and not data["evals"]["regressed"]


def test_two_folders(repo: Repo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "copy" / NAME
    shutil.copytree(repo.pack, other)
    code, data = diff_json(capsys, str(repo.pack), str(other))
    assert code == 0 and data["identical"]  # the folders differ in where they are, not in what they hold
    (other / "compiled" / "facts.md").write_text("# Facts\n\nNone.\n")
    code, out, _ = run_diff(capsys, str(repo.pack), str(other))
    assert code == 1 and "~ compiled/facts.md" in out and "files: 0 added, 0 removed, 1 changed" in out


def test_nothing_to_compare_is_said_apart_from_no_change(repo: Repo, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_diff(capsys, str(repo.pack), "--from", "v1")
    assert "evals: no case changed" in out and "  suite evals/answer-quality.json: passed" in out
    bare_old, bare_new = tmp_path / "old" / NAME, tmp_path / "new" / NAME
    for bare in (bare_old, bare_new):
        shutil.copytree(repo.pack, bare, ignore=shutil.ignore_patterns("evals"))
    (bare_new / "compiled" / "facts.md").write_text("# Facts\n\nNone.\n")
    code, out, _ = run_diff(capsys, str(bare_old), str(bare_new))
    assert code == 1 and "resolver: no task to compare" in out and "evals: no eval suite in either version" in out
    code, out, _ = run_diff(capsys, str(bare_old), str(bare_new), "--format", "markdown")
    assert "No task to compare" in out and "No eval suite in either version." in out


def test_text_output_is_grouped(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.edit("KNOWLEDGE.md", "status: ready", "status: draft")
    (repo.pack / SPLITS / "products.md").unlink()
    code, out, err = run_diff(capsys, str(repo.pack), "--from", "v1")
    assert code == 1 and err == ""
    heads = [line.split(":")[0] for line in out.splitlines() if line and not line.startswith(" ")]
    assert heads[:4] == ["diff atlas-lending-policy", "frontmatter", "files", "findings"]
    assert "status: \"ready\" -> \"draft\"" in out and "regressed evals/answer-quality.json loan-products" in out


def test_discovery_cases_say_what_the_client_did(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.edit("KNOWLEDGE.md", "status: ready", "status: draft")  # a client now asks before loading the pack
    code, data = diff_json(capsys, str(repo.pack), "--from", "v1", "--no-suite-tasks")
    regressed = [c for c in data["evals"]["cases"] if c["suite"] == "evals/discovery.train.json"]
    assert code == 1 and regressed and all(c["change"] == "regressed" for c in regressed)
    assert {(c["actual_before"], c["actual_after"]) for c in regressed} == {("select", "warn")}
    assert data["resolver"] == []  # --no-suite-tasks and no --task: nothing to resolve
