"""Review records and the minimal KNOWLEDGE.md edit: only the edited values change, byte for byte."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from runs_support import knowledge_text

from studio.core.review import (
    ReviewError,
    commit_review,
    edit_status_trust,
    plan_review,
    write_knowledge_edit,
)
from studio.core.runs import RunKind, Validity, read_runs

NOW = datetime(2026, 5, 1, 10, 30, 0, tzinfo=UTC)


def changed_spans(old: str, new: str) -> tuple[str, str]:
    """The differing middle of two strings (common prefix and suffix removed)."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return old[start: len(old) - end], new[start: len(new) - end]


def test_edit_changes_only_the_value() -> None:
    text = knowledge_text(status="disputed", trust="unreviewed")
    edit = edit_status_trust(text, status="ready")
    assert changed_spans(text, edit.new_text) == ("disputed", "ready")
    assert edit.changes == {"status": ("disputed", "ready")}
    assert "-status: disputed\n+status: ready\n" in edit.diff


def test_crlf_file_keeps_every_other_byte() -> None:
    lf = knowledge_text(status="needs-review", trust="unreviewed").replace(
        "status: needs-review", 'status: "needs-review"   # set by the builder')
    text = "\ufeff" + lf.replace("\n", "\r\n")
    edit = edit_status_trust(text, status="ready", trust="official")
    assert edit.new_text == text.replace('"needs-review"', '"ready"').replace(
        "trust: unreviewed", "trust: official")
    assert edit.new_text.count("\r\n") == text.count("\r\n")
    assert "\n" not in edit.new_text.replace("\r\n", "")


def test_missing_trust_is_inserted_after_status_with_the_same_line_ending() -> None:
    text = knowledge_text(status="disputed", trust=None).replace("\n", "\r\n")
    edit = edit_status_trust(text, trust="user-confirmed")
    lines = edit.new_text.split("\r\n")
    at = lines.index("status: disputed")
    assert lines[at + 1] == "trust: user-confirmed"
    assert edit.new_text.replace("trust: user-confirmed\r\n", "", 1) == text


@pytest.mark.parametrize("bad", [
    {"status": "approved"}, {"trust": "very"},
])
def test_unknown_values_are_refused(bad: dict[str, str]) -> None:
    with pytest.raises(ReviewError):
        edit_status_trust(knowledge_text(), **bad)


@pytest.mark.parametrize("text", [
    "no frontmatter here\n",
    "---\nstatus: |\n  ready\n---\n",
    "---\nstatus: ready\nstatus: draft\n---\n",
    "---\nstatus: [ready]\n---\n",
])
def test_unsafe_edits_are_refused(text: str) -> None:
    with pytest.raises(ReviewError):
        edit_status_trust(text, status="ready")


def test_review_writes_a_valid_record_listed_by_the_reader(runs_pack) -> None:
    root = runs_pack({}, knowledge=knowledge_text(status="disputed"))
    before = (root / "KNOWLEDGE.md").read_bytes()
    plan = plan_review(root, "confirm", "Checked the warranty source.", reviewer="ann", set_status="ready",
                       files_examined=["sources/notes.md"], now=NOW)
    assert (root / "KNOWLEDGE.md").read_bytes() == before  # planning writes nothing
    record_path, knowledge = commit_review(root, plan)
    assert record_path.name == "review-2026-05-01T10-30-00Z.json"
    assert knowledge is not None
    saved = json.loads(record_path.read_text())
    assert saved["before"] == {"status": "disputed", "trust": "unreviewed"}
    assert saved["after"] == {"status": "ready", "trust": "unreviewed"}
    [record] = read_runs(root).records
    assert (record.kind, record.validity) == (RunKind.REVIEW_RECORD, Validity.VALID)
    assert b"status: ready\n" in (root / "KNOWLEDGE.md").read_bytes()


def test_same_second_reviews_get_unique_names(runs_pack) -> None:
    root = runs_pack({})
    names = []
    for _ in range(3):
        path, _ = commit_review(root, plan_review(root, "needs-review", "again", reviewer="bo", now=NOW))
        names.append(path.name)
    assert names == ["review-2026-05-01T10-30-00Z.json", "review-2026-05-01T10-30-00Z-2.json",
                     "review-2026-05-01T10-30-00Z-3.json"]
    assert len(read_runs(root).records) == 3


def test_edit_is_refused_when_the_file_changed_meanwhile(runs_pack) -> None:
    root = runs_pack({})
    edit = edit_status_trust((root / "KNOWLEDGE.md").read_text(), status="stale")
    (root / "KNOWLEDGE.md").write_text(knowledge_text(status="draft"))
    with pytest.raises(ReviewError):
        write_knowledge_edit(root, edit)
    assert "status: draft" in (root / "KNOWLEDGE.md").read_text()


def test_review_record_requires_a_reason(runs_pack) -> None:
    root = runs_pack({})
    with pytest.raises(ReviewError):
        plan_review(root, "confirm", "   ")
    assert not (root / "runs").exists()


def test_knowledge_edit_round_trip_keeps_untouched_file_identical(tmp_path: Path) -> None:
    text = knowledge_text(status="ready")
    edit = edit_status_trust(text, status="ready")
    assert not edit.changed and edit.diff == ""


def test_review_of_a_pack_with_a_bogus_status_is_still_a_valid_record(runs_pack) -> None:
    root = runs_pack({}, knowledge=knowledge_text(status="bogus"))
    path, _ = commit_review(root, plan_review(root, "reject", "status is not a standard value", reviewer="al",
                                              set_status="needs-review", now=NOW))
    [record] = read_runs(root).records
    assert record.validity is Validity.VALID
    assert record.data["before"]["status"] == "bogus" and record.data["after"]["status"] == "needs-review"


def test_examined_files_must_stay_in_the_pack(runs_pack) -> None:
    root = runs_pack({})
    with pytest.raises(ReviewError):
        plan_review(root, "confirm", "ok", files_examined=["../../etc/passwd"])


def test_never_writes_through_a_symlinked_runs_folder(runs_pack, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = runs_pack({})
    (root / "runs").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ReviewError):
        commit_review(root, plan_review(root, "confirm", "ok", reviewer="x", now=NOW))
    assert list(elsewhere.iterdir()) == []


def _review_file(root: Path, stamp: str, **fields: object) -> None:
    data = {"record": "review", "pack": "demo", "reviewer": "Ann", "decision": "confirm", "reason": "ok",
            "after": {"status": "ready"}} | fields
    (root / "runs").mkdir(exist_ok=True)
    (root / "runs" / f"review-{stamp}.json").write_text(json.dumps(data), encoding="utf-8")


def test_last_decision_is_the_newest_review_of_this_pack_and_says_whether_it_stands(runs_pack) -> None:
    from studio.core.pack import load_pack
    from studio.core.review_reasons import last_decision

    root = runs_pack({})
    pack = load_pack(root)
    assert last_decision(pack) is None
    _review_file(root, "2026-05-01T10-00-00Z", reviewer="Old", timestamp="2026-05-01T10:00:00Z")
    _review_file(root, "2026-05-02T10-00-00Z", reviewer="New\x1b[31m", timestamp="2026-05-02T10:00:00Z")
    _review_file(root, "2026-05-03T10-00-00Z", pack="someone-else", timestamp="2026-05-03T10:00:00Z")
    (root / "runs" / "review-2026-05-04T10-00-00Z.json").write_text("{broken", encoding="utf-8")
    found = last_decision(pack)
    assert found is not None and found.reviewer == "New [31m"  # control characters never reach the queue
    assert found.record == "runs/review-2026-05-02T10-00-00Z.json" and found.stands  # status is still ready
    assert found.summary == "confirm, New [31m, 2026-05-02"
    # A compile run recorded after the decision reopens it.
    (root / "runs" / "compile-2026-05-05T00-00-00Z.json").write_text("{}", encoding="utf-8")
    reopened = last_decision(pack)
    assert reopened is not None and not reopened.stands and reopened.newer_run == "compile-2026-05-05T00-00-00Z.json"
