"""``.pre-commit-hooks.yaml``: other repositories can run ``pack-studio validate`` as a pre-commit hook."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from packaging_support import REPO
from pre_commit.clientlib import load_manifest

from studio.cli import main

BROKEN = "---\nname: bad\ndescription: x\ntype: domain-reference\nstatus: redy\nprofile: wiki-first\n---\n# G\n"


def hook() -> dict[str, object]:
    (only,) = load_manifest(str(REPO / ".pre-commit-hooks.yaml"))  # pre-commit's own schema check
    return only


def test_manifest_is_valid_and_runs_validate_on_the_repository() -> None:
    entry = hook()
    assert entry["id"] == "pack-studio-validate" and entry["language"] == "python"
    assert entry["entry"] == "pack-studio validate" and entry["args"] == ["."]
    assert entry["pass_filenames"] is False  # validate scans the folder; file names would be taken as packs


def test_hook_command_fails_on_a_broken_pack_and_passes_a_clean_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_pack: Callable[..., Path]) -> None:
    entry = hook()
    argv = [*shlex.split(str(entry["entry"]))[1:], *entry["args"]]  # type: ignore[misc]
    monkeypatch.chdir(tmp_path)
    make_pack("bad", BROKEN, {"wiki/index.md": "# I\n"}, parent=tmp_path / "packs")
    assert main(argv) == 1
    (tmp_path / "packs" / "bad" / "KNOWLEDGE.md").write_text(BROKEN.replace("redy", "ready"), encoding="utf-8")
    assert main(argv) == 0


@pytest.mark.slow
def test_pre_commit_try_repo_runs_the_hook(tmp_path: Path) -> None:
    """The real thing: pre-commit installs this repository into its own environment and runs the hook."""
    git = shutil.which("git")
    pre_commit = shutil.which("pre-commit") or str(Path(sys.executable).with_name("pre-commit"))
    if git is None or not (REPO / ".git").exists() or not Path(pre_commit).exists():
        pytest.skip("needs git, a git checkout and pre-commit")
    repo = tmp_path / "other-repo"
    pack = repo / "packs" / "bad"
    pack.mkdir(parents=True)
    (pack / "KNOWLEDGE.md").write_text(BROKEN, encoding="utf-8")
    (pack / "wiki").mkdir()
    (pack / "wiki" / "index.md").write_text("# I\n", encoding="utf-8")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "packs"]):
        subprocess.run([git, *argv], cwd=repo, env=env, check=True, timeout=60)
    result = subprocess.run([pre_commit, "try-repo", str(REPO), "pack-studio-validate", "--all-files"],
                            cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert "error invalid-status 'status: redy'" in result.stdout
    assert "1 pack (0 load): 1 error, " in result.stdout
