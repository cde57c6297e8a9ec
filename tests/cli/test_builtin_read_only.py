"""The built-in examples ship inside the installed package: no command writes into them (exit status 2, nothing
written), whether the pack is given by its path or found by name in the built-in scope."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.resources import examples_dir, in_builtin_scope

ORBIT = examples_dir() / "orbit-launch-notes"


def files_under(root: Path) -> set[str]:
    return {os.path.join(d, f) for d, _, names in os.walk(root) for f in names if "__pycache__" not in d}


@pytest.fixture
def untouched() -> Iterator[None]:
    """The examples hold the same files after the test; a regression's stray record is removed, then reported."""
    before = files_under(examples_dir())
    mtimes = {p: os.stat(p).st_mtime_ns for p in before}
    yield
    after = files_under(examples_dir())
    for stray in after - before:
        os.unlink(stray)
    changed = sorted(p for p in before & after if os.stat(p).st_mtime_ns != mtimes[p])
    assert (sorted(after - before), changed) == ([], [])


def scopes(tmp_path: Path) -> list[str]:
    """Only the built-in scope has packs: the project and home are empty folders."""
    (tmp_path / "project").mkdir(exist_ok=True)
    return ["--project", str(tmp_path / "project"), "--home", str(tmp_path / "project")]


@pytest.mark.parametrize("argv", [
    ["eval", str(ORBIT), "--suite", "evals/answer-quality.json", "--write-run"],
    ["eval", str(ORBIT), "--suite", "evals/discovery.validation.json", "--write-run", "--format", "json"],
    ["resolve", str(ORBIT), "--task", "launch window", "--write-run"],
    ["feedback", str(ORBIT), "--file", "KNOWLEDGE.md", "--outcome", "helpful", "--task", "launch window"],
    ["review", str(ORBIT), "--decision", "confirm", "--reason", "looks right"],
    ["format", str(ORBIT / "KNOWLEDGE.md"), "--write"],
    ["fix", str(ORBIT), "--write"],
], ids=lambda argv: " ".join(a for a in argv if a.startswith("-") or a.isalpha()))
def test_a_write_into_a_builtin_pack_given_by_path_is_refused(argv: list[str], untouched: None,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "is a built-in example pack, shipped read-only" in captured.err and "Traceback" not in captured.err
    assert captured.out == ""
    first = captured.err.splitlines()[0]
    assert first.startswith(f"pack-studio {argv[0]}: ") and f"{argv[0]}: {argv[0]}:" not in first  # named once


def test_a_builtin_pack_found_by_name_is_refused_too(untouched: None, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["eval", "orbit-launch-notes", "--suite", "evals/answer-quality.json", *scopes(tmp_path)]
    assert main([*argv, "--write-run"]) == 2
    assert "pack-studio eval: --write-run:" in capsys.readouterr().err
    assert main(argv) == 1 and "FAIL open-questions" in capsys.readouterr().out  # it runs: only writing is refused
    assert main(["resolve", "orbit-launch-notes", "--task", "launch window", "--write-run", *scopes(tmp_path)]) == 2


def test_a_copy_of_a_builtin_pack_is_the_users_and_writable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    copy = tmp_path / "orbit"
    shutil.copytree(ORBIT, copy)
    assert in_builtin_scope(ORBIT) and in_builtin_scope(ORBIT / "evals") and not in_builtin_scope(copy)
    link = tmp_path / "link"
    link.symlink_to(ORBIT, target_is_directory=True)
    assert in_builtin_scope(link)  # a link to an example is the example
    assert main(["eval", str(copy), "--suite", "evals/answer-quality.json", "--write-run"]) == 1  # a case fails
    assert list((copy / "runs").glob("eval-*/answer-results.json"))
