"""Timeline statistics: selection counts, never-selected files, missing and changed files."""

from __future__ import annotations

import hashlib
import os

from runs_support import VALID_COMPILE

from studio.core.pack import load_pack
from studio.core.provenance import read_provenance
from studio.core.runs import read_runs
from studio.core.runs.stats import compute_stats


def context(run_id: str, files: list[str], warnings: int = 0, pack: str = "demo") -> dict[str, object]:
    return {"run_id": run_id, "query": "q", "status": "passed", "activated_packs": [
        {"name": pack, "activation": "explicit", "selected_files": files,
         "warnings": [{"severity": "warning", "message": f"w{i}"} for i in range(warnings)]},
        {"name": "other-pack", "activation": "implicit", "selected_files": ["compiled/elsewhere.md"]},
    ]}


def test_selection_counts_and_gaps_over_time(runs_pack) -> None:
    notes = b"# Notes\nThe widget is blue.\nIt weighs 2 kg.\n"
    compile_run = dict(VALID_COMPILE, run_id="compile-2026-05-01T09-00-00Z", status="needs-review", inputs=[
        {"path": "sources/notes.md", "sha256": hashlib.sha256(notes).hexdigest()},
        {"path": "documents/brief.md", "sha256": "sha256:" + "0" * 64},
        {"path": "sources/gone.md", "sha256": "..."},
    ], outputs=[{"path": "compiled/facts.md", "operation": "updated"},
                {"path": "compiled/old.md", "operation": "deleted"},
                {"path": "compiled/lost.md", "operation": "created"}])
    root = runs_pack({
        "runs/compile-2026-05-01T09-00-00Z.json": compile_run,
        "runs/context-2026-05-01T10-00-00Z.json": context("c1", ["compiled/facts.md", "compiled/removed.md"]),
        "runs/context-2026-05-02T10-00-00Z.json": context("c2", ["compiled/facts.md#prices"], warnings=2),
        "runs/usage-1.json": {"pack": "demo", "selected_files": ["documents/brief.md"],
                              "citation_gaps": ["a", "b", "c"], "timestamp": "2026-05-03T00:00:00Z"},
    }, files={"compiled/briefing.md": "# Briefing\n"})
    stats = compute_stats(read_runs(root), root, "demo")
    assert stats.selection_records == 3
    assert stats.selection_counts == {"compiled/facts.md": 2, "compiled/removed.md": 1, "documents/brief.md": 1}
    assert stats.never_selected == ["compiled/briefing.md"]
    assert stats.selected_missing == ["compiled/removed.md"]
    # documents/brief.md was selected and hashed by the compile run; its content differs now.
    assert [(c.path, c.record) for c in stats.selected_modified] == [
        ("documents/brief.md", "runs/compile-2026-05-01T09-00-00Z.json")]
    # No record hashes compiled/facts.md: it is named as not checked, never guessed from its file time.
    assert stats.selected_unhashed == ["compiled/facts.md"]
    assert "1 of 2 selected files have no recorded content hash" in stats.selected_change_note
    assert [(p.kind, p.warnings, p.citation_gaps) for p in stats.over_time] == [
        ("compile-run", 0, 0), ("context-resolution", 0, 0), ("context-resolution", 2, 0), ("usage-record", 0, 3)]
    assert [status for _t, _p, status in stats.compile_history] == ["needs-review"]
    assert {h.path: h.state for h in stats.hash_checks} == {
        "sources/notes.md": "unchanged", "documents/brief.md": "changed", "sources/gone.md": "missing"}
    assert stats.outputs_missing == [("compiled/lost.md", "runs/compile-2026-05-01T09-00-00Z.json")]


def test_a_fresh_clone_with_new_file_times_is_not_reported_as_modified(runs_pack) -> None:
    root = runs_pack({"runs/context-2020-01-01T00-00-00Z.json": context("c", ["compiled/facts.md"])})
    os.utime(root / "compiled/facts.md")  # newer than the 2020 selection, as after a clone
    stats = compute_stats(read_runs(root), root, "demo")
    assert stats.selected_modified == []
    assert stats.selected_unhashed == ["compiled/facts.md"]
    assert stats.selected_change_note.startswith("No record carries a content hash")


def test_selected_file_whose_content_changed_since_it_was_hashed_is_listed(runs_pack) -> None:
    facts = b"- The widget is blue. [source: sources/notes.md#L2]\n"
    digest = hashlib.sha256(facts).hexdigest()
    compile_run = dict(VALID_COMPILE, inputs=[{"path": "compiled/facts.md", "sha256": digest}])
    root = runs_pack({"runs/compile-2020-01-01T00-00-00Z.json": compile_run,
                      "runs/context-2020-01-02T00-00-00Z.json": context("c", ["compiled/facts.md"])})
    assert compute_stats(read_runs(root), root, "demo").selected_modified == []  # same content: not listed
    (root / "compiled/facts.md").write_text("- The widget is red.\n", encoding="utf-8")
    stats = compute_stats(read_runs(root), root, "demo")
    assert [(c.path, c.last_selected) for c in stats.selected_modified] == [("compiled/facts.md",
                                                                             "2020-01-02 00:00:00Z")]
    assert stats.selected_change_note == ""


_SHAPES = [5, "compiled/facts.md", None, True, {"a": 1}, [[1]], [{"name": "demo"}], 1.5]


def test_records_of_any_json_shape_are_tolerated(runs_pack) -> None:
    records: dict[str, object] = {}
    for i, value in enumerate(_SHAPES):
        records[f"runs/context-2026-05-0{i % 9 + 1}T0{i % 10}-00-00Z.json"] = {
            "activated_packs": [{"name": "demo", "selected_files": value, "selected_documents": value,
                                 "selected_splits": value, "warnings": value}], "missing": value}
        records[f"runs/context-2026-06-0{i % 9 + 1}T0{i % 10}-00-00Z.json"] = {"activated_packs": value}
        records[f"runs/usage-{i}.json"] = {"pack": value, "selected_files": value, "warnings": value,
                                           "citation_gaps": value}
        records[f"runs/usage-demo-{i}.json"] = {"pack": "demo", "selected_files": value}
        records[f"runs/compile-2026-07-0{i % 9 + 1}T0{i % 10}-00-00Z.json"] = dict(
            VALID_COMPILE, inputs=value, documents=value, outputs=value, diagnostics=value)
    records["runs/context-2026-08-01T00-00-00Z.json"] = context("ok", ["compiled/facts.md", 7, None])
    root = runs_pack(records)
    stats = compute_stats(read_runs(root), root, "demo")
    assert stats.selection_counts == {"compiled/facts.md": 1}
    assert stats.selected_missing == []
    # The provenance view reads the same records (activated_packs of every shape above).
    pack = load_pack(root)
    assert all(ref.compile_run for ref in read_provenance(pack, read_runs(root)).run_builders)


def test_unopenable_selected_paths_are_missing_not_a_crash(runs_pack) -> None:
    long_name = "compiled/" + "a" * 300 + ".md"  # over NAME_MAX: ENAMETOOLONG from is_file() on 3.11
    nul_name = "compiled/a\x00b.md"  # ValueError: embedded null byte
    compile_run = dict(VALID_COMPILE, inputs=[{"path": long_name, "sha256": "0" * 64},
                                              {"path": nul_name, "sha256": "0" * 64}],
                       outputs=[{"path": long_name, "operation": "created"},
                                {"path": nul_name, "operation": "created"}])
    root = runs_pack({
        "runs/context-2026-05-01T10-00-00Z.json": context("c", [long_name, nul_name, "compiled/facts.md"]),
        "runs/usage-1.json": {"pack": "demo", "selected_files": [long_name + "#x", nul_name],
                              "timestamp": "2026-05-03T00:00:00Z"},
        "runs/compile-2026-05-01T09-00-00Z.json": compile_run,
    })
    stats = compute_stats(read_runs(root), root, "demo")
    assert stats.selected_missing == sorted([long_name, nul_name])
    assert stats.selected_unhashed == ["compiled/facts.md"]
    assert {h.path: h.state for h in stats.hash_checks} == {long_name: "outside", nul_name: "outside"}


def test_a_compile_record_without_a_status_says_so(runs_pack) -> None:  # type: ignore[no-untyped-def]
    unreadable = {k: v for k, v in VALID_COMPILE.items() if k != "status"}
    root = runs_pack({"runs/compile-2026-05-01T09-00-00Z.json": unreadable})
    stats = compute_stats(read_runs(root), root, "demo")
    assert [status for _t, _p, status in stats.compile_history] == ["(no status)"]  # never the word "None"
