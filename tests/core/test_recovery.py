"""The recovery store: copies live outside the pack, round-trip, and a garbled file is a message, not a crash."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.core.file_stamp import FileStamp
from studio.core.recovery import (
    SET_ASIDE_SUFFIX,
    DiskState,
    RecoveryProblem,
    RecoveryStore,
    disk_state,
    key_for,
)

KNOWLEDGE = "---\nname: tiny\ndescription: A tiny pack.\n---\n# Tiny\n"


@pytest.fixture
def pack(make_pack: Callable[..., Path]) -> Path:
    return make_pack("tiny", KNOWLEDGE, {"compiled/facts.md": "fact one\n"})


@pytest.fixture
def store(tmp_path: Path) -> RecoveryStore:
    return RecoveryStore(tmp_path / "appdata" / "recovery")


def fingerprint(path: Path) -> FileStamp:
    data = path.read_bytes()
    st = path.stat()
    return FileStamp(st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest())


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_copy_round_trips_outside_the_pack(pack: Path, store: RecoveryStore) -> None:
    before = snapshot(pack)
    facts = pack / "compiled" / "facts.md"
    written = store.write(facts, pack, "fact one\nfact two 中文\n", fingerprint(facts))
    assert snapshot(pack) == before
    assert [p.name for p in store.directory.iterdir()] == [f"{key_for(facts)}.json"]
    assert (store.directory.stat().st_mode & 0o777) == 0o700  # typed text stays private to the user
    [copy] = store.pending()
    assert copy == written
    assert copy.path == facts and copy.pack_root == pack and copy.relpath == "compiled/facts.md"
    assert copy.text == "fact one\nfact two 中文\n" and copy.pid == os.getpid()
    assert copy.written_at.tzinfo is not None


def test_writing_again_replaces_the_one_copy_and_discard_removes_it(pack: Path, store: RecoveryStore) -> None:
    facts = pack / "compiled" / "facts.md"
    store.write(facts, pack, "first", None)
    store.write(facts, pack, "second", None)
    store.write(pack / "KNOWLEDGE.md", pack, "guide", None)
    assert sorted(c.text for c in store.pending()) == ["guide", "second"]
    assert store.discard(facts) is True
    assert store.discard(facts) is False
    assert [c.relpath for c in store.pending()] == ["KNOWLEDGE.md"]


def test_no_directory_means_nothing_pending(store: RecoveryStore) -> None:
    problems: list[RecoveryProblem] = []
    assert store.pending(problems) == [] and problems == []
    assert not store.directory.exists()  # reading never creates the folder


def test_disk_state_tells_unchanged_changed_missing_and_same_text(pack: Path, store: RecoveryStore) -> None:
    facts = pack / "compiled" / "facts.md"
    copy = store.write(facts, pack, "fact one\nedited\n", fingerprint(facts))
    assert disk_state(copy) is DiskState.UNCHANGED
    facts.write_text("someone else's change\n")
    assert disk_state(copy) is DiskState.CHANGED
    facts.write_bytes(b"fact one\r\nedited\r\n")  # saved with CRLF endings: the same text
    assert disk_state(copy) is DiskState.SAME_TEXT
    facts.unlink()
    assert disk_state(copy) is DiskState.MISSING
    facts.write_text("back\n")
    assert disk_state(store.write(facts, pack, "x", None)) is DiskState.CHANGED  # no fingerprint: assume changed


def test_disk_state_never_follows_a_symlink_out_of_the_pack(pack: Path, store: RecoveryStore, tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("x")
    link = pack / "compiled" / "link.md"
    link.symlink_to(outside)
    assert disk_state(store.write(link, pack, "x", None)) is DiskState.MISSING


GARBLED: dict[str, bytes] = {
    "not-json": b"{ this is not json",
    "not-utf8": b"\xff\xfe\x00garbage",
    "a-list": b"[1, 2, 3]",
    "newer-format": json.dumps({"format": 99}).encode(),
    "no-text": json.dumps({"format": 1, "path": "/p/a.md", "pack_root": "/p", "written_at": "2024-01-01T00:00:00",
                           "pid": 1, "opened": None}).encode(),
    "relative-path": json.dumps({"format": 1, "path": "a.md", "pack_root": "/p", "text": "t",
                                 "written_at": "2024-01-01T00:00:00", "pid": 1, "opened": None}).encode(),
    "outside-pack": json.dumps({"format": 1, "path": "/etc/passwd", "pack_root": "/p", "text": "t",
                                "written_at": "2024-01-01T00:00:00", "pid": 1, "opened": None}).encode(),
    "bad-time": json.dumps({"format": 1, "path": "/p/a.md", "pack_root": "/p", "text": "t",
                            "written_at": "yesterday", "pid": 1, "opened": None}).encode(),
    "bad-fingerprint": json.dumps({"format": 1, "path": "/p/a.md", "pack_root": "/p", "text": "t",
                                   "written_at": "2024-01-01T00:00:00", "pid": 1,
                                   "opened": {"mtime_ns": 1, "size": True, "sha256": "zz"}}).encode(),
    "lone-surrogate": b'{"format": 1, "path": "/p/a.md", "pack_root": "/p", "text": "\\ud800",'
                      b' "written_at": "2024-01-01T00:00:00", "pid": 1, "opened": null}',
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "truncated": b'{"format": 1, "path": "/p/a.md", "text": "half a wri',
}


@pytest.mark.parametrize("case", sorted(GARBLED))
def test_a_garbled_file_is_skipped_and_reported(case: str, pack: Path, store: RecoveryStore) -> None:
    good = store.write(pack / "KNOWLEDGE.md", pack, "kept", None)
    bad = store.directory / f"{case}.json"
    bad.write_bytes(GARBLED[case])
    problems: list[RecoveryProblem] = []
    assert store.pending(problems) == [good]
    assert [p.file for p in problems] == [bad]
    assert problems[0].message  # a sentence for the user, not a traceback


def test_a_copy_under_the_wrong_name_is_reported(pack: Path, store: RecoveryStore) -> None:
    store.write(pack / "KNOWLEDGE.md", pack, "text", None)
    [file] = store.directory.iterdir()
    file.rename(store.directory / "renamed.json")
    problems: list[RecoveryProblem] = []
    assert store.pending(problems) == []
    assert "another recovery file" in problems[0].message


def test_set_aside_keeps_the_file_but_stops_reporting_it(store: RecoveryStore) -> None:
    store.directory.mkdir(parents=True)
    bad = store.directory / "bad.json"
    bad.write_text("nonsense")
    problems: list[RecoveryProblem] = []
    store.pending(problems)
    moved = store.set_aside(problems[0].file)
    assert moved == bad.with_name("bad.json" + SET_ASIDE_SUFFIX) and moved.read_text() == "nonsense"
    again: list[RecoveryProblem] = []
    assert store.pending(again) == [] and again == []


def test_temp_files_from_an_interrupted_write_are_ignored(pack: Path, store: RecoveryStore) -> None:
    store.write(pack / "KNOWLEDGE.md", pack, "text", None)
    (store.directory / ".abc.json.x1y2.tmp").write_text("half")
    problems: list[RecoveryProblem] = []
    assert len(store.pending(problems)) == 1 and problems == []


def test_a_fifo_in_the_folder_does_not_block(pack: Path, store: RecoveryStore) -> None:
    store.write(pack / "KNOWLEDGE.md", pack, "text", None)
    os.mkfifo(store.directory / "pipe.json")
    problems: list[RecoveryProblem] = []
    assert len(store.pending(problems)) == 1
    assert [p.file.name for p in problems] == ["pipe.json"]


def test_the_json_is_readable_by_a_human(pack: Path, store: RecoveryStore) -> None:
    store.write(pack / "KNOWLEDGE.md", pack, "中文 text", None)
    [file] = store.directory.iterdir()
    raw = file.read_text(encoding="utf-8")
    assert "中文 text" in raw  # not \\u escapes: the text can be rescued with any editor
    assert list(json.loads(raw))[-1] == "text"
