"""``pack-studio diff`` on bad input: each case is one clear line (exit 2) or a note, never a traceback, and
nothing is written (the ``private_tmp`` fixture checks that every temporary folder was removed)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import EXAMPLE, NAME, Repo, diff_json, git, run_diff

from studio.core.diff import files as diff_files
from studio.core.diff import git_tree


def _trouble(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run_diff(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_a_ref_that_does_not_exist(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    assert "no commit 'v9'" in _trouble(capsys, str(repo.pack), "--from", "v9")
    assert "no commit 'v9'" in _trouble(capsys, str(repo.pack), "--from", "v1", "--to", "v9")
    assert "not a git ref" in _trouble(capsys, str(repo.pack), "--from=--output=x")  # never an option to git


def test_a_ref_without_the_pack(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    later = repo.top / "packs" / "later"
    shutil.copytree(EXAMPLE, later)
    repo.commit("add later", tag="v2")
    err = _trouble(capsys, str(later), "--from", "v1")
    assert "v1 has no folder packs/later" in err


def test_a_folder_outside_any_repository(tmp_path: Path, private_tmp: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    pack = tmp_path / "loose" / NAME
    shutil.copytree(EXAMPLE, pack)
    assert "not inside a git repository" in _trouble(capsys, str(pack), "--from", "HEAD")


def test_a_folder_that_is_not_a_pack(repo: Repo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "is not a pack" in _trouble(capsys, str(empty), str(repo.pack))
    assert "does not exist" in _trouble(capsys, str(tmp_path / "missing"), str(repo.pack))
    # A name typed for a folder is said to be missing, not to lie outside a repository.
    assert "does not exist" in _trouble(capsys, "atlas-lending-policy", "--from", "HEAD")
    (repo.pack / "KNOWLEDGE.md").unlink()
    repo.commit("no knowledge", tag="v2")
    assert "v2" in _trouble(capsys, str(repo.pack), "--from", "v2", "--to", "v1")


def test_two_unrelated_packs(repo: Repo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = EXAMPLE.parent / "northwind-espresso"
    err = _trouble(capsys, str(repo.pack), str(other))
    assert "unrelated packs" in err and "northwind-espresso" in err
    code, _, _ = run_diff(capsys, str(repo.pack), str(other), "--renamed", "--no-suite-tasks")
    assert code == 1


def test_usage_errors(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    assert "--to needs --from" in _trouble(capsys, str(repo.pack), str(repo.pack), "--to", "v1")
    assert "either two folders" in _trouble(capsys, str(repo.pack), str(repo.pack), "--from", "v1")
    assert "two pack folders" in _trouble(capsys, str(repo.pack))


def test_git_not_installed(repo: Repo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(git_tree.shutil, "which", lambda _name: None)
    assert "git is not installed" in _trouble(capsys, str(repo.pack), "--from", "v1")


def test_a_shallow_clone(repo: Repo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo.edit("KNOWLEDGE.md", "status: ready", "status: draft")
    repo.commit("v2")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo.top}", str(clone)], check=True,
                   capture_output=True)
    pack = clone / "packs" / NAME
    err = _trouble(capsys, str(pack), "--from", "HEAD~1")
    assert "shallow clone" in err
    code, data = diff_json(capsys, str(pack), "--from", "HEAD")  # what the clone has is read as usual
    assert code == 0 and data["identical"]


def test_a_submodule_is_noted_not_compared(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    commit = git(repo.top, "rev-parse", "HEAD").strip()
    git(repo.top, "update-index", "--add", "--cacheinfo", f"160000,{commit},packs/{NAME}/vendor/lib")
    git(repo.top, "commit", "-q", "-m", "gitlink")
    git(repo.top, "tag", "v2")
    code, data = diff_json(capsys, str(repo.pack), "--from", "v1", "--to", "v2")
    assert code == 0 and data["identical"]
    assert any("vendor/lib is a submodule" in note for note in data["notes"])


def test_a_symlink_out_of_the_pack_is_never_followed(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    (repo.top / "secret.txt").write_text("TOPSECRET outside the pack\n")
    os.symlink("../../../secret.txt", repo.pack / "compiled" / "leak.md")
    os.symlink("/etc/hostname", repo.pack / "compiled" / "host.md")
    repo.commit("links", tag="v2")
    for argv in (("--from", "v1", "--to", "v2"), ("--from", "v1")):
        code, out, err = run_diff(capsys, str(repo.pack), *argv, "--format", "json")
        assert code == 1 and "TOPSECRET" not in out and "Traceback" not in err
        data = json.loads(out)
        assert {"compiled/leak.md", "compiled/host.md"} <= set(data["files"]["added"])
        assert not data["tiers"]["fence"]["changed"]  # a link that leads out is no runtime file
    os.unlink(repo.pack / "compiled" / "leak.md")
    os.symlink("../../../elsewhere.txt", repo.pack / "compiled" / "leak.md")
    code, data = diff_json(capsys, str(repo.pack), "--from", "v2")
    assert {"path": "compiled/leak.md", "tokens_before": None, "tokens_after": None, "kind": "symlink"} in \
        data["files"]["changed"]


def test_binary_files_have_no_token_count(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    (repo.pack / "assets").mkdir()
    (repo.pack / "assets" / "chart.png").write_bytes(b"\x89PNG\x00\x01\x02")
    repo.commit("chart", tag="v2")
    (repo.pack / "assets" / "chart.png").write_bytes(b"\x89PNG\x00\x01\x03\x04")
    code, data = diff_json(capsys, str(repo.pack), "--from", "v2")
    assert code == 1
    assert data["files"]["changed"] == [{"path": "assets/chart.png", "tokens_before": None, "tokens_after": None,
                                         "kind": "binary"}]


def test_huge_files_are_compared_by_size_only(repo: Repo, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(diff_files, "MAX_BLOB_BYTES", 50_000)
    (repo.pack / "sources" / "scan.txt").write_text("x" * 60_000)
    repo.commit("scan", tag="v2")
    code, data = diff_json(capsys, str(repo.pack), "--from", "v2")
    assert code == 0 and any("sources/scan.txt is larger than" in n for n in data["notes"])
    (repo.pack / "sources" / "scan.txt").write_text("y" * 70_000)
    code, data = diff_json(capsys, str(repo.pack), "--from", "v2")
    assert code == 1 and data["files"]["changed"][0]["kind"] == "too-large"


def test_a_file_name_that_is_not_utf8(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    name = os.path.join(os.fsencode(repo.pack / "sources"), b"caf\xe9.md")
    try:
        with open(name, "wb") as out:
            out.write(b"# Latin-1 name\n")
    except OSError:
        pytest.skip("this file system refuses names that are not UTF-8")
    repo.commit("latin-1 name", tag="v2")
    code, out, err = run_diff(capsys, str(repo.pack), "--from", "v1", "--to", "v2", "--format", "json")
    assert code in (0, 1) and "Traceback" not in err
    data = json.loads(out.encode("utf-8"))
    assert any("not UTF-8" in note and "caf\\xe9.md" in note for note in data["notes"])
    code, out, err = run_diff(capsys, str(repo.pack), "--from", "v1")  # the working tree has it: text is escaped
    assert code == 1 and "Traceback" not in err and "caf\\xe9.md" in out


def test_the_working_tree_and_the_temp_folder_are_left_as_they_were(repo: Repo, private_tmp: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    repo.edit("KNOWLEDGE.md", "status: ready", "status: draft")
    before = repo.status()
    stamp = {p: p.stat().st_mtime_ns for p in repo.pack.rglob("*")}
    run_diff(capsys, str(repo.pack), "--from", "v1")
    _trouble(capsys, str(repo.pack), "--from", "v9")
    assert repo.status() == before
    assert {p: p.stat().st_mtime_ns for p in repo.pack.rglob("*")} == stamp
    assert os.listdir(private_tmp) == []


def test_a_crafted_tree_cannot_write_outside_the_temporary_folder(tmp_path: Path, private_tmp: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A tree git itself would never make: a symlink and a folder of the same name, '..' and '.git' entries."""
    top = tmp_path / NAME
    shutil.copytree(EXAMPLE, top)
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "v1")
    outside = tmp_path / "outside"
    outside.mkdir()
    blob = git(top, "hash-object", "-w", "--stdin", data=b"# planted\n").strip()
    link = git(top, "hash-object", "-w", "--stdin", data=str(outside).encode()).strip()
    inner = git(top, "mktree", data=f"100644 blob {blob}\tplanted.md\n".encode()).strip()
    listing = git(top, "ls-tree", "HEAD").replace("\tcompiled\n", "\tcompiled-old\n")
    crafted = listing + (f"120000 blob {link}\tassets\n040000 tree {inner}\tassets\n"
                         f"100644 blob {blob}\t..\n100644 blob {blob}\t.git\n040000 tree {inner}\t.GIT\n")
    tree = git(top, "mktree", data=crafted.encode()).strip()
    commit = git(top, "commit-tree", tree, "-p", "HEAD", "-m", "crafted").strip()
    code, out, err = run_diff(capsys, str(top), "--from", commit, "--format", "json")
    assert code == 1 and "Traceback" not in err, err
    data = json.loads(out)
    assert os.listdir(outside) == []  # nothing was written through the link
    notes = " ".join(data["notes"])
    assert "'..'" in notes and "'.git'" in notes and "'.GIT'" in notes and "assets appears twice" in notes
    assert "assets/planted.md" in data["files"]["removed"]
