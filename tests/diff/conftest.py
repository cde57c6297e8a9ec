"""A real git repository holding a copy of the atlas example pack, for ``pack-studio diff`` tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "atlas-lending-policy"
NAME = "atlas-lending-policy"


def git(cwd: Path, *args: str, data: bytes | None = None) -> str:
    done = subprocess.run(["git", "-c", "user.name=Test", "-c", "user.email=test@example.com",
                           "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args],
                          cwd=cwd, input=data, capture_output=True, check=True)
    return done.stdout.decode("utf-8", "replace")


@dataclass
class Repo:
    top: Path
    pack: Path

    def commit(self, message: str, tag: str | None = None) -> None:
        git(self.top, "add", "-A")
        git(self.top, "commit", "-q", "--allow-empty", "-m", message)
        if tag:
            git(self.top, "tag", tag)

    def edit(self, rel: str, old: str, new: str) -> None:
        path = self.pack / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def status(self) -> str:
        return git(self.top, "status", "--porcelain", "--ignored")


@pytest.fixture
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The temp folder the diff writes refs into, watched: every test checks that it is left empty."""
    folder = tmp_path / "system-tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", None)
    yield folder
    assert os.listdir(folder) == [], "a temporary folder of the diff was left behind"


@pytest.fixture
def repo(tmp_path: Path, private_tmp: Path) -> Repo:
    top = tmp_path / "repo"
    top.mkdir()
    git(top, "init", "-q")
    pack = top / "packs" / NAME
    shutil.copytree(EXAMPLE, pack)
    made = Repo(top, pack)
    made.commit("v1", tag="v1")
    return made


def run_diff(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["diff", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def diff_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code, out, err = run_diff(capsys, *argv, "--format", "json")
    assert code in (0, 1), err
    return code, json.loads(out)
