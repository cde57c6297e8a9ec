"""Every area that reads or writes pack files does it through the pack's descriptors (``pack_fs``, ``atomic``).

Two kinds of test per area. A file or folder inside the pack is a symlink to a secret OUTSIDE the pack: the
operation must not return, print, count or copy the secret. And, where the area looked at a path before opening
it, a deterministic swap: the module's own next step is wrapped so that the folder or file is replaced by a
symlink to the secret right between the check and the read or write. Real files under ``tmp_path``; only the
moment of the swap is arranged.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from race_support import after_first_call, before_first_call, swap_for_link

from studio.core import atomic
from studio.core.pack import load_pack
from studio.core.pack_fs import PackFS

SECRET = "OUTSIDE-SECRET-TEXT"
KNOWLEDGE = """---
name: inside
description: A pack with symlinks to a secret outside it. Use in tests.
type: domain-reference
status: needs-review
profile: document-first
metadata:
  primaryDocument: documents/brief.md
---
# Guide

Read compiled/facts.md first.
"""
FILES = {"documents/brief.md": "# Brief\n\nThe widget is blue.\n", "compiled/facts.md": "- The widget is blue.\n",
         "compiled/briefing.md": "# Briefing\n\nBlue.\n", "sources/notes.md": "# Notes\nThe widget is blue.\n"}


@pytest.fixture
def pack(make_pack: Callable[..., Path], tmp_path: Path) -> tuple[Path, Path]:
    """A pack, and an ``outside`` folder holding the secret (as text, as a file name, as JSON)."""
    root = make_pack("inside", KNOWLEDGE, FILES)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"# {SECRET}\n\n{SECRET} line two.\n")
    (outside / f"{SECRET}.md").write_text(f"# {SECRET}\n")
    return root, outside


def link(root: Path, rel: str, target: Path) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return path



def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def secret_in_pack(root: Path) -> list[str]:
    """Regular files of the pack (symlinks not followed) whose bytes hold the secret."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path) and SECRET.encode() in Path(path).read_bytes():
                found.append(os.path.relpath(path, root))
    return found


# -- eval suites ---------------------------------------------------------------------------------------------


def suite_text(prompt: str, required: list[str] | None = None) -> str:
    return json.dumps({"pack_name": "inside", "evals": [
        {"id": "c1", "prompt": prompt, "required_context": required or ["compiled/facts.md"]}]})


@pytest.fixture
def outside_suite(pack: tuple[Path, Path]) -> Path:
    suite = pack[1] / "suite.json"
    suite.write_text(suite_text(SECRET))
    return suite


def test_suites_linked_out_are_neither_listed_nor_read(pack: tuple[Path, Path], outside_suite: Path) -> None:
    from studio.core.evals.suites import pack_suites, read_suite

    root, _outside = pack
    link(root, "evals/answer-quality.json", outside_suite)
    link(root, "evals/extra.json", outside_suite)
    (root / "evals" / "own.json").write_text(suite_text("what colour is the widget"))
    assert pack_suites(root) == ["evals/own.json"]
    suite = read_suite(root / "evals" / "answer-quality.json", load_pack(root))
    assert suite.kind is None and not suite.context
    assert [f.code for f in suite.findings] == ["eval-suite-unreadable"]
    assert "outside the pack" in suite.findings[0].message and SECRET not in repr(suite)


def test_a_suites_folder_linked_out_is_not_read(pack: tuple[Path, Path], outside_suite: Path) -> None:
    from studio.core.evals.suites import pack_suites, read_suite

    root, outside = pack
    os.rename(outside_suite, outside / "answer-quality.json")
    link(root, "evals", outside)
    assert pack_suites(root) == []
    suite = read_suite(root / "evals" / "answer-quality.json", load_pack(root))
    assert suite.kind is None and SECRET not in repr(suite)


def test_required_context_linked_out_stops_the_case(pack: tuple[Path, Path]) -> None:
    from studio.core.evals.suites import parse_suite

    root, outside = pack
    link(root, "compiled/leak.md", outside / "secret.md")
    suite = parse_suite(suite_text("widget", ["compiled/leak.md", "compiled/facts.md"]), "s.json", load_pack(root))
    assert not suite.context and [f.code for f in suite.findings] == ["eval-suite-path-outside-pack"]


def test_a_case_is_never_added_through_a_suite_linked_out(pack: tuple[Path, Path], outside_suite: Path) -> None:
    from studio.core.evals.authoring import add_case

    root, _outside = pack
    before = outside_suite.read_bytes()
    link(root, "evals/answer-quality.json", outside_suite)
    with pytest.raises(PermissionError, match="outside the pack"):
        add_case(load_pack(root), {"id": "", "prompt": "widget", "required_context": ["compiled/facts.md"]})
    assert outside_suite.read_bytes() == before
    assert (root / "evals" / "answer-quality.json").is_symlink() and secret_in_pack(root) == []


def test_a_suite_swapped_for_a_link_after_it_was_read_is_not_written(
        pack: tuple[Path, Path], outside_suite: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.core.evals import authoring

    root, _outside = pack
    suite = root / "evals" / "answer-quality.json"
    suite.parent.mkdir()
    suite.write_text(suite_text("what colour is the widget"))
    before = outside_suite.read_bytes()
    # case_id_for runs between the read of the suite and its write.
    after_first_call(authoring, "case_id_for", lambda: swap_for_link(suite, outside_suite), monkeypatch)
    with pytest.raises(OSError, match="changed on disk"):
        authoring.add_case(load_pack(root), {"id": "", "prompt": "widget size", "required_context": []})
    assert outside_suite.read_bytes() == before and suite.is_symlink() and secret_in_pack(root) == []


@pytest.mark.parametrize("kind", ["context", "discovery"])
def test_an_eval_record_never_lands_outside_when_runs_is_swapped(
        pack: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, kind: Any) -> None:
    from studio.core.evals import records
    from studio.core.evals.model import EvalConfig, EvalRun

    root, outside = pack
    (root / "runs").mkdir()
    before = listing(outside)
    # The folder check passes on the real runs/; the write that follows must not go through the link.
    before_first_call(atomic, "write_new", lambda: swap_for_link(root / "runs", outside), monkeypatch)
    with pytest.raises(PermissionError, match="symlink or leads outside"):
        records.write_eval_record(EvalRun("inside", "evals/x.json", kind, EvalConfig()), root)
    assert listing(outside) == before


# -- feedback ------------------------------------------------------------------------------------------------


def feedback_json(file: str, pack_name: str = "inside") -> str:
    from studio.core.feedback import FeedbackRecord

    return json.dumps(FeedbackRecord(pack_name, file, "helpful", "widget colour", reviewer="r",
                                     timestamp="2026-05-01T10:30:00Z").to_dict(), indent=2)


def test_feedback_about_a_file_linked_out_is_refused_and_not_counted(pack: tuple[Path, Path]) -> None:
    from studio.core.feedback import FeedbackError, aggregate_feedback, make_feedback_record
    from studio.core.runs import read_runs

    root, outside = pack
    link(root, "compiled/leak.md", outside / "secret.md")
    with pytest.raises(FeedbackError, match="outside the pack"):
        make_feedback_record(root, "inside", "compiled/leak.md", "helpful", "widget colour")
    (root / "runs").mkdir()
    (root / "runs" / "feedback-2026-05-01T10-30-00Z.json").write_text(feedback_json("compiled/leak.md"))
    summary = aggregate_feedback(read_runs(root), "inside", root)
    assert (summary.records, summary.not_counted, summary.files) == (0, 1, [])
    assert [d.code for d in summary.diagnostics] == ["feedback-outside-pack"]
    assert summary.diagnostics[0].line == 4  # the record was re-read (by descriptor) to place the finding


def test_a_feedback_record_never_lands_outside_when_runs_is_swapped(
        pack: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.core.feedback import FeedbackError, record

    root, outside = pack
    (root / "runs").mkdir()
    before = listing(outside)
    # The folder check passes on the real runs/; the write that follows must not go through the link.
    before_first_call(atomic, "write_new", lambda: swap_for_link(root / "runs", outside), monkeypatch)
    with pytest.raises(FeedbackError, match="not written outside the pack"):
        record.record_feedback(root, "compiled/facts.md", "helpful", "widget colour", pack_name="inside")
    assert listing(outside) == before


def test_the_resolvers_feedback_never_reads_runs_linked_out(pack: tuple[Path, Path]) -> None:
    from studio.core.resolver.feedback import load_feedback

    root, outside = pack
    (outside / "feedback-2026-05-01T10-30-00Z.json").write_text(feedback_json("compiled/facts.md"))
    link(root, "runs", outside)
    summary = load_feedback(load_pack(root))
    assert (summary.records, summary.files) == (0, [])


# -- resolver records and the reference dry run -------------------------------------------------------------


def test_a_context_record_never_lands_outside_when_runs_is_swapped(
        pack: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.core.resolver import ResolveRequest, resolve
    from studio.core.resolver.records import write_context_record

    root, outside = pack
    (root / "runs").mkdir()
    result = resolve(ResolveRequest("widget colour", [load_pack(root)], budget=2000))
    before = listing(outside)
    before_first_call(atomic, "write_new", lambda: swap_for_link(root / "runs", outside), monkeypatch)
    with pytest.raises(PermissionError, match="symlink or leads outside"):
        write_context_record(result, root)
    assert listing(outside) == before


def test_the_reference_dry_run_never_counts_a_file_linked_out(pack: tuple[Path, Path]) -> None:
    from studio.core.resolver.reference import reference_candidates, reference_dry_run

    root, outside = pack
    (outside / "big.md").write_text(SECRET * 10_000)
    link(root, "compiled/boundaries.md", outside / "big.md")
    dry = reference_dry_run(load_pack(root), "widget")
    assert "compiled/boundaries.md" not in reference_candidates(load_pack(root))
    assert "compiled/boundaries.md" not in dry["selected_files"] and dry["token_estimate"] < 100


def test_the_reference_dry_run_never_reads_a_file_swapped_after_it_was_chosen(
        pack: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.core.resolver import reference

    root, outside = pack
    (outside / "big.md").write_text(SECRET * 10_000)
    pack_ = load_pack(root)
    # Called after the candidates are chosen and before they are read.
    after_first_call(reference, "reference_asks_for_sources",
                     lambda: swap_for_link(root / "compiled" / "facts.md", outside / "big.md"), monkeypatch)
    dry = reference.reference_dry_run(pack_, "widget")
    assert "compiled/facts.md" in dry["selected_files"] and dry["token_estimate"] < 100


# -- review reasons ------------------------------------------------------------------------------------------


def review_json(reason: str) -> str:
    from studio.core.jsonwrite import dumps
    from studio.core.review import make_review_record

    return dumps(make_review_record("inside", "confirm", reason, reviewer="r", before={}, after={}).to_dict())


REVIEW = "review-2026-05-01T10-00-00Z.json"


def test_review_reasons_never_list_or_read_what_is_linked_out(pack: tuple[Path, Path]) -> None:
    from studio.core.review_reasons import gather_review_reasons, last_decision

    root, outside = pack
    (outside / "map.json").write_text(json.dumps({"claims": [
        {"claim_id": "c", "text": SECRET, "status": "disputed", "source": {"path": "sources/notes.md"}}]}))
    (outside / REVIEW).write_text(review_json(SECRET))
    link(root, "wiki/open-questions", outside)
    link(root, "documents/open-questions.md", outside / "secret.md")
    link(root, "indexes/source-map.json", outside / "map.json")
    link(root, f"runs/{REVIEW}", outside / REVIEW)
    pack_ = load_pack(root)
    reasons = gather_review_reasons(pack_)
    assert SECRET not in repr(reasons) and [r.kind for r in reasons] == ["status"]
    assert last_decision(pack_) is None


def test_a_review_record_swapped_after_listing_is_not_read(
        pack: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.core import review_reasons

    root, outside = pack
    (root / "runs").mkdir()
    (root / "runs" / REVIEW).write_text(review_json("checked inside"))
    (outside / REVIEW).write_text(review_json(SECRET))
    assert review_reasons.last_decision(load_pack(root)) is not None  # the real record is found
    # runs/ is listed, then swapped for a link to a folder holding a record of the same name, then read.
    before_first_call(review_reasons, "read_run_in", lambda: swap_for_link(root / "runs", outside), monkeypatch)
    decision = review_reasons.last_decision(load_pack(root))
    assert decision is None or SECRET not in repr(decision)


# -- tool form (read_files) --------------------------------------------------------------------------------


def test_read_files_never_reads_a_file_linked_out(pack: tuple[Path, Path]) -> None:
    from studio.core.render.tool_form import read_text

    root, outside = pack
    link(root, "compiled/leak.md", outside / "secret.md")
    text, why = read_text(load_pack(root), "compiled/leak.md")
    assert text is None and "outside the pack" in why and SECRET not in why


def test_read_files_never_reads_through_a_folder_swapped_for_a_link(pack: tuple[Path, Path]) -> None:
    from studio.core.render.tool_form import read_text_in

    root, outside = pack
    (outside / "facts.md").write_text(SECRET)
    with PackFS(root) as fs:  # the pack is held open, then compiled/ becomes a link
        swap_for_link(root / "compiled", outside)
        text, why = read_text_in(fs, "compiled/facts.md")
        assert SECRET not in f"{text}{why}"
        assert SECRET not in f"{read_text_in(fs, 'compiled/briefing.md')}"


def test_the_tool_form_counts_no_file_linked_out(pack: tuple[Path, Path], make_pack: Callable[..., Path]) -> None:
    from studio.core.render.tool_form import build_tool_form
    from studio.core.tokens import CharEstimator

    root, outside = pack
    (outside / "big.md").write_text(SECRET * 10_000)
    link(root, "compiled/leak.md", outside / "big.md")
    form = build_tool_form(load_pack(root), tokenizer=CharEstimator())
    counts = {f.path: f.tokens for f in form.files}
    assert counts.get("compiled/leak.md") is None and max(t or 0 for t in counts.values()) < 100


# -- authoring ---------------------------------------------------------------------------------------------


def test_completion_never_lists_files_linked_out(pack: tuple[Path, Path], make_pack: Callable[..., Path]) -> None:
    from studio.core.authoring.completion import pack_files

    root, outside = pack
    link(root, "documents/linked", outside)
    link(root, "documents/leak.md", outside / "secret.md")
    assert pack_files(root, "documents", (".md",)) == ["documents/brief.md"]
    other = make_pack("other", KNOWLEDGE.replace("name: inside", "name: other"))
    link(other, "documents", outside)
    assert pack_files(other, "documents", (".md",)) == []


def test_sibling_pack_names_never_read_a_knowledge_file_linked_out(pack: tuple[Path, Path],
                                                                   make_pack: Callable[..., Path]) -> None:
    from studio.core.authoring.names import collision, sibling_pack_names

    _root, outside = pack
    (outside / "KNOWLEDGE.md").write_text(KNOWLEDGE.replace("name: inside", "name: secret-name"))
    into = outside.parent / "packs"
    a = make_pack("a", KNOWLEDGE.replace("name: inside", "name: alpha"), parent=into)
    (into / "b").mkdir()
    link(into, "b/KNOWLEDGE.md", outside / "KNOWLEDGE.md")
    assert sibling_pack_names(into) == [("alpha", a)]
    assert collision("secret-name", into) is None and collision("alpha", into) is not None


def test_a_new_file_is_never_written_through_a_folder_swapped_for_a_link(
        pack: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.core.authoring import files

    root, outside = pack
    before = listing(outside)
    before_first_call(files, "write_atomic", lambda: swap_for_link(root / "documents", outside), monkeypatch)
    with pytest.raises(files.FileOpError, match="outside the pack"):
        files.create_file(root, "documents/new.md", "# New\n")
    assert listing(outside) == before


def test_a_new_folder_is_never_made_through_a_link(pack: tuple[Path, Path]) -> None:
    from studio.core.authoring.files import FileOpError, create_file, create_folder

    root, outside = pack
    link(root, "wiki", outside)
    before = listing(outside)
    for make in (lambda: create_folder(root, "wiki/sub"), lambda: create_file(root, "wiki/page.md", "x")):
        with pytest.raises(FileOpError):
            make()
    assert listing(outside) == before


def test_a_rename_never_moves_a_file_through_a_folder_swapped_for_a_link(pack: tuple[Path, Path]) -> None:
    from studio.core.authoring.files import FileOpError, plan_rename, rename

    root, outside = pack
    (outside / "brief.md").write_text(SECRET)
    plan = plan_rename(root, root / "documents" / "brief.md", "renamed.md")
    swap_for_link(root / "documents", outside)
    with pytest.raises(FileOpError):
        rename(plan)
    assert "renamed.md" not in listing(outside) and (outside / "brief.md").read_text() == SECRET


def test_a_rename_inside_the_pack_still_works(pack: tuple[Path, Path]) -> None:
    from studio.core.authoring.files import plan_rename, rename

    root, _outside = pack
    rename(plan_rename(root, root / "documents" / "brief.md", "Brief.md"))  # case only: via a temporary name
    rename(plan_rename(root, root / "documents" / "Brief.md", "summary.md"))
    assert listing(root / "documents") == ["summary.md"]


# -- evidence ----------------------------------------------------------------------------------------------


def test_excerpts_never_read_a_source_linked_out(pack: tuple[Path, Path]) -> None:
    from studio.core.evidence.report import build_evidence

    root, outside = pack
    link(root, "sources/leak.md", outside / "secret.md")
    (root / "indexes").mkdir()
    (root / "indexes" / "source-map.json").write_text(json.dumps({"claims": [
        {"claim_id": "c1", "text": "t", "status": "confirmed", "source": {"path": "sources/leak.md#L1"}}]}))
    report = build_evidence(root)
    assert report.claims[0].excerpt.state.value == "outside"
    assert SECRET not in json.dumps(report.to_dict())


def test_an_excerpt_source_swapped_after_it_was_looked_at_is_not_read(
        pack: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.core.evidence import excerpts
    from studio.core.evidence.anchors import parse_anchor

    root, outside = pack
    after_first_call(excerpts, "pointer_status",
                     lambda: swap_for_link(root / "sources" / "notes.md", outside / "secret.md"), monkeypatch)
    excerpt = excerpts.SourceReader(root).excerpt("sources/notes.md", parse_anchor("L1"))
    assert excerpt.state.value == "outside" and SECRET not in excerpt.text


# -- run statistics, checks, the source map, Markdown images -----------------------------------------------


def test_run_statistics_never_hash_a_file_linked_out(pack: tuple[Path, Path]) -> None:
    from studio.core.runs import read_runs
    from studio.core.runs.stats import compute_stats

    root, outside = pack
    link(root, "compiled/leak.md", outside / "secret.md")
    digest = hashlib.sha256((outside / "secret.md").read_bytes()).hexdigest()
    (root / "runs").mkdir()
    (root / "runs" / "compile-2026-05-01T10-30-00Z.json").write_text(json.dumps({
        "run_id": "compile-2026-05-01T10-30-00Z", "trigger": "ingest", "status": "passed",
        "inputs": [{"path": "compiled/leak.md", "sha256": digest}],
        "outputs": [{"path": "compiled/leak.md", "operation": "updated"}], "diagnostics": []}))
    stats = compute_stats(read_runs(root), root, "inside")
    assert [(h.path, h.state) for h in stats.hash_checks] == [("compiled/leak.md", "outside")]
    assert stats.outputs_missing == []


def test_a_boundaries_view_linked_out_is_no_guidance(pack: tuple[Path, Path], make_pack: Callable[..., Path]) -> None:
    _root, outside = pack
    persona = KNOWLEDGE.replace("name: inside", "name: persona").replace("metadata:", "runtime:\n  mode: persona\n"
                                                                            "metadata:")
    root = make_pack("persona", persona, FILES)
    link(root, "compiled/boundaries.md", outside / "secret.md")
    assert "persona-without-boundaries" in {d.code for d in load_pack(root).diagnostics}
    os.unlink(root / "compiled" / "boundaries.md")
    (root / "compiled" / "boundaries.md").write_text("# Boundaries\n\nNever guess prices.\n")
    assert "persona-without-boundaries" not in {d.code for d in load_pack(root).diagnostics}


def test_checks_never_read_suites_or_sources_linked_out(pack: tuple[Path, Path]) -> None:
    root, outside = pack
    (outside / "suite.json").write_text(json.dumps({"pack_name": "inside", "cases": [], SECRET: 1}))
    link(root, "evals/discovery.train.json", outside / "suite.json")
    link(root, "sources/leak.md", outside / "secret.md")
    (root / "indexes").mkdir()
    (root / "indexes" / "source-map.json").write_text(json.dumps({"claims": [
        {"claim_id": "c1", "text": "t", "status": "confirmed", "source": {"path": "sources/leak.md"}}]}, indent=2))
    diags = load_pack(root, content=True).diagnostics
    assert SECRET not in repr(diags)
    missing = [d.message for d in diags if d.code == "source-map-missing-source"]
    assert missing == ["Claim c1: source 'sources/leak.md' points outside the pack"]


def test_a_source_map_linked_out_is_reported_not_read(pack: tuple[Path, Path]) -> None:
    from studio.core.sourcemap import read_source_map

    root, outside = pack
    (outside / "map.json").write_text(json.dumps({"claims": [{"claim_id": SECRET, "text": SECRET}]}))
    link(root, "indexes/source-map.json", outside / "map.json")
    found = read_source_map(root)
    assert found.present and not found.claims and [d.code for d in found.diagnostics] == ["symlink-escape"]
    link(root, "indexes/gone.json", root / "nowhere.json")
    os.replace(root / "indexes" / "gone.json", root / "indexes" / "source-map.json")
    assert read_source_map(root).present  # a link to nothing is a map that cannot be read, not "no map"


def test_markdown_never_shows_an_image_linked_out(pack: tuple[Path, Path]) -> None:
    from studio.core.render.markdown import render_markdown_html

    root, outside = pack
    (outside / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    link(root, "documents/pic.png", outside / "pic.png")
    (root / "documents" / "own.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    html = render_markdown_html("![a](documents/pic.png) ![b](documents/own.png)", base=root)
    assert html.count("<img") == 1 and "own.png" in html and "not a file inside the pack" in html


@pytest.fixture(autouse=True)
def _no_descriptor_leak() -> Iterator[None]:
    """Every PackFS these operations open is closed again (a leak would show in a 1,000-pack session)."""
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0
    yield
    after = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0
    assert after <= before + 2
