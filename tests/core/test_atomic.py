"""Atomic writes keep the file's permissions (a save must not make KNOWLEDGE.md private)."""

from __future__ import annotations

import os
from pathlib import Path

from studio.core.atomic import write_atomic


def test_replacing_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "KNOWLEDGE.md"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomic(target, "new")
    assert target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o640


def test_new_files_follow_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "runs" / "review.json", "{}", exclusive=True)
    finally:
        os.umask(old)
    assert ((tmp_path / "runs" / "review.json").stat().st_mode & 0o777) == 0o644
    assert [p.name for p in (tmp_path / "runs").iterdir()] == ["review.json"]  # no temp file left behind
