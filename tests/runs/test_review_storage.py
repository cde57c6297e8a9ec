"""Review on hostile storage and under concurrency (issue #12, causes 7 and 8).

Real failures, not mocks: a read-only bind mount, a full tmpfs, ``RLIMIT_FSIZE`` in a child process, and two
threads committing at the same moment. Every failure must be a clear error (exit 2, no traceback), and no
``runs/review-*.json`` may claim a status change that did not land.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from runs_support import knowledge_text

from studio.core.review import ReviewError, ReviewPlan, commit_review, plan_review

REVIEW = ["review", "--decision", "confirm", "--reason", "checked the sources", "--reviewer", "ann",
          "--set-status", "ready"]


def _run_cli(root: Path, *, fsize: int | None = None, reason: str = "checked the sources",
             ) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    argv = [sys.executable, "-m", "studio", "review", str(root), *REVIEW[1:]]
    argv[argv.index("--reason") + 1] = reason
    return subprocess.run(argv, capture_output=True, text=True, preexec_fn=limit, timeout=60)


def _mount(*args: str) -> None:
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount here: {done.stderr.strip()}")


@pytest.fixture
def mounts() -> Iterator[list[Path]]:
    """Mount points made by a test, unmounted afterwards (innermost first)."""
    made: list[Path] = []
    yield made
    for point in reversed(made):
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def _read_only(path: Path, mounts: list[Path]) -> None:
    _mount("--bind", str(path), str(path))
    mounts.append(path)
    _mount("-o", "remount,bind,ro", str(path))


def _records(root: Path) -> list[Path]:
    return sorted((root / "runs").glob("review-*.json")) if (root / "runs").is_dir() else []


def _assert_clean_failure(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and words in done.stderr, done.stderr


def test_read_only_pack_gives_a_clear_error_and_writes_nothing(runs_pack, mounts: list[Path]) -> None:
    root = runs_pack({}, knowledge=knowledge_text(status="disputed"))
    (root / "runs").mkdir()
    before = (root / "KNOWLEDGE.md").read_bytes()
    _read_only(root, mounts)
    done = _run_cli(root)
    _assert_clean_failure(done, "read-only")
    assert (root / "KNOWLEDGE.md").read_bytes() == before and _records(root) == []


def test_read_only_runs_folder_leaves_no_edit_behind(runs_pack, mounts: list[Path]) -> None:
    """The edit can land but its record cannot: the edit is undone, and the error says so."""
    root = runs_pack({}, knowledge=knowledge_text(status="disputed"))
    (root / "runs").mkdir()
    before = (root / "KNOWLEDGE.md").read_bytes()
    _read_only(root / "runs", mounts)
    done = _run_cli(root)
    _assert_clean_failure(done, "read-only")
    assert "undone" in done.stderr
    assert (root / "KNOWLEDGE.md").read_bytes() == before and _records(root) == []


def test_full_storage_gives_a_clear_error_and_no_false_record(runs_pack, tmp_path: Path,
                                                               mounts: list[Path]) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    _mount("-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk))
    mounts.append(disk)
    root = disk / "pack"
    root.mkdir()
    (root / "KNOWLEDGE.md").write_text(knowledge_text(status="disputed"))
    (root / "runs").mkdir()
    before = (root / "KNOWLEDGE.md").read_bytes()
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)  # fill every block that is left
    try:
        while os.write(fd, b"x" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    done = _run_cli(root)
    _assert_clean_failure(done, "no space")
    assert (root / "KNOWLEDGE.md").read_bytes() == before and _records(root) == []
    assert not [p for p in root.rglob(".*.tmp")]  # no temp file left behind


def test_file_size_limit_on_the_record_undoes_the_edit(runs_pack) -> None:
    """RLIMIT_FSIZE big enough for the edit, too small for the record: EFBIG, edit undone, exit 2."""
    root = runs_pack({}, knowledge=knowledge_text(status="disputed"))
    (root / "runs").mkdir()
    before = (root / "KNOWLEDGE.md").read_bytes()
    done = _run_cli(root, fsize=len(before) + 16, reason="checked every source, " * 200)
    _assert_clean_failure(done, "size limit")
    assert (root / "KNOWLEDGE.md").read_bytes() == before and _records(root) == []


def test_file_size_limit_on_the_edit_writes_nothing(runs_pack) -> None:
    root = runs_pack({}, knowledge=knowledge_text(status="disputed"))
    before = (root / "KNOWLEDGE.md").read_bytes()
    done = _run_cli(root, fsize=16)
    _assert_clean_failure(done, "size limit")
    assert (root / "KNOWLEDGE.md").read_bytes() == before and _records(root) == []


def _commit(root: Path, plans: list[ReviewPlan], outcomes: list[object], barrier: threading.Barrier, i: int) -> None:
    barrier.wait()
    try:
        outcomes[i] = commit_review(root, plans[i])
    except ReviewError as exc:
        outcomes[i] = exc


def test_two_reviews_committed_at_once_never_both_succeed(runs_pack) -> None:
    """A compare-and-swap on the file's identity: one lands, the other is told 'changed on disk, not applied'."""
    root = runs_pack({}, knowledge=knowledge_text(status="disputed"))
    for round_ in range(25):
        (root / "KNOWLEDGE.md").write_text(knowledge_text(status="disputed"))
        plans = [plan_review(root, "confirm", f"round {round_} {who}", reviewer=who, set_status=status)
                 for who, status in (("ann", "ready"), ("bo", "stale"))]
        barrier = threading.Barrier(2)
        outcomes: list[object] = [None, None]
        threads = [threading.Thread(target=_commit, args=(root, plans, outcomes, barrier, i)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        won = [i for i, o in enumerate(outcomes) if not isinstance(o, ReviewError)]
        assert len(won) == 1, outcomes
        lost = outcomes[1 - won[0]]
        assert isinstance(lost, ReviewError) and "not applied" in str(lost)
        winner_status = ("ready", "stale")[won[0]]
        assert f"status: {winner_status}\n" in (root / "KNOWLEDGE.md").read_text()
        # Every record on disk names an edit that landed: this round adds exactly the winner's.
        reasons = [json.loads(p.read_text())["reason"] for p in _records(root)]
        assert reasons.count(f"round {round_} {('ann', 'bo')[won[0]]}") == 1
        assert f"round {round_} {('ann', 'bo')[1 - won[0]]}" not in reasons
