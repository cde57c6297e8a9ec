"""Discovery: which folders the scanner reports as packs, and what it tells the user about the rest."""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.core.diagnostics import Severity
from studio.core.scan import ScanResult, find_pack_dirs

PACK = "---\nname: x\ndescription: y\n---\nbody\n"


def tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``{"a/b/KNOWLEDGE.md": text, "c/": ""}`` under root (a trailing slash makes a folder)."""
    for rel, text in files.items():
        target = root / rel
        if rel.endswith("/"):
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


def found(result: ScanResult) -> list[str]:
    return [p.relative_to(result.root).as_posix() or "." for p in result.pack_dirs]


def codes(result: ScanResult) -> list[str]:
    return sorted(d.code for d in result.diagnostics)


def test_finds_packs_and_stops_at_each_pack(tmp_path: Path) -> None:
    tree(tmp_path, {
        "alpha/KNOWLEDGE.md": PACK,
        "group/beta/KNOWLEDGE.md": PACK,
        "group/gamma/KNOWLEDGE.md": PACK,
        "alpha/documents/nested/KNOWLEDGE.md": PACK,  # inside a pack: not a separate pack
        "plain/readme.md": "hi",
    })
    result = find_pack_dirs(tmp_path)
    assert found(result) == ["alpha", "group/beta", "group/gamma"]
    assert result.diagnostics == []
    assert not result.truncated


def test_root_that_is_a_pack_is_reported_alone(tmp_path: Path) -> None:
    tree(tmp_path, {"KNOWLEDGE.md": PACK, "wiki/sub/KNOWLEDGE.md": PACK})
    assert find_pack_dirs(tmp_path).pack_dirs == [tmp_path]


def test_skips_dependency_build_hidden_and_index_folders(tmp_path: Path) -> None:
    skipped = [".git", "node_modules", "__pycache__", ".venv", "venv", "dist", "build", "target",
               ".tox", ".mypy_cache", ".pytest_cache", ".cache", ".hidden", "indexes"]
    tree(tmp_path, {f"{name}/p/KNOWLEDGE.md": PACK for name in skipped})
    tree(tmp_path, {"kept/KNOWLEDGE.md": PACK})
    assert found(find_pack_dirs(tmp_path)) == ["kept"]


def test_hidden_root_itself_is_scanned(tmp_path: Path) -> None:
    root = tree(tmp_path / ".agents", {"knowledge/p/KNOWLEDGE.md": PACK})
    assert found(find_pack_dirs(root)) == ["knowledge/p"]


def test_gitignore_at_root_and_nested(tmp_path: Path) -> None:
    tree(tmp_path, {
        ".gitignore": "drafts/\n/scratch\n",
        "drafts/a/KNOWLEDGE.md": PACK,
        "scratch/b/KNOWLEDGE.md": PACK,
        "sub/scratch/c/KNOWLEDGE.md": PACK,  # "/scratch" is anchored to the root
        "sub/.gitignore": "old-*\n!old-keep\n",
        "sub/old-one/KNOWLEDGE.md": PACK,
        "sub/old-keep/KNOWLEDGE.md": PACK,
        "other/old-two/KNOWLEDGE.md": PACK,  # the nested rule does not reach here
    })
    assert found(find_pack_dirs(tmp_path)) == ["other/old-two", "sub/old-keep", "sub/scratch/c"]
    everything = find_pack_dirs(tmp_path, honor_gitignore=False)
    assert len(everything.pack_dirs) == 6


def test_nested_gitignore_can_reinclude(tmp_path: Path) -> None:
    tree(tmp_path, {
        ".gitignore": "tmp-*/\n",
        "area/.gitignore": "!tmp-keep/\n",
        "area/tmp-keep/KNOWLEDGE.md": PACK,
        "area/tmp-drop/KNOWLEDGE.md": PACK,
    })
    assert found(find_pack_dirs(tmp_path)) == ["area/tmp-keep"]


def test_broken_gitignore_pattern_does_not_stop_the_scan(tmp_path: Path) -> None:
    tree(tmp_path, {".gitignore": "!\nskip/\n", "skip/p/KNOWLEDGE.md": PACK, "keep/KNOWLEDGE.md": PACK})
    result = find_pack_dirs(tmp_path)
    assert found(result) == ["keep"]
    assert codes(result) == ["gitignore-invalid-pattern"]


def test_depth_limit_reports_unentered_folders(tmp_path: Path) -> None:
    tree(tmp_path, {
        "a/KNOWLEDGE.md": PACK,
        "l1/l2/KNOWLEDGE.md": PACK,
        "l1/l2b/l3/KNOWLEDGE.md": PACK,
        "l1/l2c/l3/KNOWLEDGE.md": PACK,
    })
    result = find_pack_dirs(tmp_path, max_depth=2)
    assert found(result) == ["a", "l1/l2"]
    [diag] = result.diagnostics
    assert (diag.code, diag.severity) == ("scan-depth-limit", Severity.WARNING)  # a scan that stopped early
    assert "2 pack(s)" in diag.message and str(tmp_path / "l1/l2b/l3") in diag.message
    assert diag.file == str(tmp_path) and diag.pack == ""
    assert len(find_pack_dirs(tmp_path, max_depth=3).pack_dirs) == 4


def test_the_depth_limit_counts_from_each_scope_root_found_below(tmp_path: Path) -> None:
    """A monorepo: ``projects/x/packages/y/.agents/knowledge/z`` lies 7 levels down, 1 below its scope root."""
    tree(tmp_path, {
        "projects/x/packages/y/.agents/knowledge/z/KNOWLEDGE.md": PACK,
        "projects/x/packages/y/.agents/knowledge/g/h/i/j/KNOWLEDGE.md": PACK,  # 4 below its scope root
        "projects/x/packages/y/.agents/knowledge/g/h/i/j2/k/KNOWLEDGE.md": PACK,  # 5: too deep
        "projects/x/packages/y/docs/pack/KNOWLEDGE.md": PACK,  # 6 below the scan root, under no scope root
        "projects/x/.pack-studio/knowledge/w/KNOWLEDGE.md": PACK,
        "node_modules/.agents/knowledge/never/KNOWLEDGE.md": PACK,
    })
    result = find_pack_dirs(tmp_path)
    assert found(result) == ["projects/x/.pack-studio/knowledge/w", "projects/x/packages/y/.agents/knowledge/g/h/i/j",
                             "projects/x/packages/y/.agents/knowledge/z"]
    [diag] = result.diagnostics
    assert (diag.code, diag.severity) == ("scan-depth-limit", Severity.WARNING)
    assert "2 pack(s)" in diag.message


def test_dir_limit_stops_and_warns(tmp_path: Path) -> None:
    tree(tmp_path, {f"d{i:02}/KNOWLEDGE.md": PACK for i in range(20)})
    result = find_pack_dirs(tmp_path, max_dirs=6)
    assert result.truncated
    assert result.dirs_visited == 6
    assert found(result) == [f"d{i:02}" for i in range(5)]  # breadth-first, in name order
    [diag] = result.diagnostics
    assert (diag.code, diag.severity) == ("scan-dir-limit", Severity.WARNING)
    assert "15 more" in diag.message


def test_symlink_loop_terminates(tmp_path: Path) -> None:
    tree(tmp_path, {"a/b/KNOWLEDGE.md": PACK, "a/c/": ""})
    (tmp_path / "a" / "c" / "up").symlink_to(tmp_path / "a", target_is_directory=True)
    (tmp_path / "self").symlink_to(tmp_path, target_is_directory=True)
    result = find_pack_dirs(tmp_path, max_depth=50)
    assert found(result) == ["a/b"]
    assert not result.truncated


def test_symlink_leaving_the_root_is_not_followed(tmp_path: Path) -> None:
    outside = tree(tmp_path / "outside", {"secret/KNOWLEDGE.md": PACK})
    root = tree(tmp_path / "root", {"mine/KNOWLEDGE.md": PACK})
    link = root / "linked"
    link.symlink_to(outside, target_is_directory=True)
    result = find_pack_dirs(root)
    assert found(result) == ["mine"]
    [diag] = result.diagnostics
    assert (diag.code, diag.severity, diag.file) == ("symlink-escape", Severity.INFO, str(link))


def test_symlink_inside_the_root_is_followed_once(tmp_path: Path) -> None:
    tree(tmp_path, {"real/pack/KNOWLEDGE.md": PACK})
    (tmp_path / "alias").symlink_to(tmp_path / "real", target_is_directory=True)
    (tmp_path / "zzz-alias").symlink_to(tmp_path / "real", target_is_directory=True)
    result = find_pack_dirs(tmp_path)
    assert found(result) == ["alias/pack"]  # first way in, in name order; never twice


def test_symlink_to_a_pack_inside_is_found(tmp_path: Path) -> None:
    tree(tmp_path, {"store/.hidden-pack/KNOWLEDGE.md": PACK})
    (tmp_path / "visible").symlink_to(tmp_path / "store" / ".hidden-pack", target_is_directory=True)
    assert found(find_pack_dirs(tmp_path)) == ["visible"]


def test_wrong_case_decoy_is_reported_not_loaded(tmp_path: Path) -> None:
    tree(tmp_path, {"decoy/knowledge.md": PACK, "good/KNOWLEDGE.md": PACK})
    result = find_pack_dirs(tmp_path)
    assert found(result) == ["good"]
    [diag] = result.diagnostics
    assert (diag.code, diag.severity) == ("wrong-case-knowledge-md", Severity.INFO)
    assert diag.file == str(tmp_path / "decoy" / "knowledge.md")


def test_directory_named_knowledge_md_is_not_a_pack(tmp_path: Path) -> None:
    tree(tmp_path, {"odd/KNOWLEDGE.md/inner.txt": "x"})
    result = find_pack_dirs(tmp_path)
    assert result.pack_dirs == []
    assert codes(result) == ["knowledge-md-is-directory"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_unreadable_folder_warns_and_continues(tmp_path: Path) -> None:
    tree(tmp_path, {"locked/p/KNOWLEDGE.md": PACK, "open/KNOWLEDGE.md": PACK})
    locked = tmp_path / "locked"
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running with privileges that ignore permissions")
        result = find_pack_dirs(tmp_path)
    finally:
        locked.chmod(0o755)
    assert found(result) == ["open"]
    [diag] = result.diagnostics
    assert (diag.code, diag.severity, diag.file) == ("scan-permission-denied", Severity.WARNING, str(locked))


def test_missing_root_gives_a_diagnostic_not_an_exception(tmp_path: Path) -> None:
    result = find_pack_dirs(tmp_path / "nope")
    assert result.pack_dirs == [] and result.dirs_visited == 0
    assert codes(result) == ["scan-unreadable-dir"]


def test_cancel_stops_the_scan(tmp_path: Path) -> None:
    tree(tmp_path, {f"d{i}/KNOWLEDGE.md": PACK for i in range(10)})
    calls = 0

    def cancel() -> bool:
        nonlocal calls
        calls += 1
        return calls > 3

    result = find_pack_dirs(tmp_path, cancelled=cancel)
    assert result.cancelled and result.truncated
    assert result.dirs_visited == 3


def test_order_is_deterministic(tmp_path: Path) -> None:
    names = ["b", "a-b", "a/b", "A", "a/a", "Z/z"]
    tree(tmp_path, {f"{n}/KNOWLEDGE.md": PACK for n in names if n != "a"})
    first = find_pack_dirs(tmp_path).pack_dirs
    assert first == find_pack_dirs(tmp_path).pack_dirs
    assert first == sorted(first, key=lambda p: p.parts)


def _snapshot(root: Path) -> dict[str, tuple[str, int]]:
    snap: dict[str, tuple[str, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.lstat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
            snap[str(path)] = (digest, st.st_mtime_ns)
    return snap


def test_scanning_writes_nothing(tmp_path: Path) -> None:
    tree(tmp_path, {
        ".gitignore": "ignored/\n",
        "a/KNOWLEDGE.md": PACK,
        "a/documents/guide.md": "text",
        "b/knowledge.md": PACK,
        "c/d/KNOWLEDGE.md": PACK,
        "ignored/x/KNOWLEDGE.md": PACK,
    })
    before = _snapshot(tmp_path)
    find_pack_dirs(tmp_path)
    assert _snapshot(tmp_path) == before


def _finishes(func: Callable[[], object], seconds: float = 10.0) -> object:
    """Run ``func`` in a thread; fail instead of hanging the suite if it blocks (e.g. on a FIFO)."""
    box: list[object] = []
    worker = threading.Thread(target=lambda: box.append(func()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "scan blocked"
    return box[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifos_are_never_opened(tmp_path: Path) -> None:
    tree(tmp_path, {"fifo-pack/": "", "fifo-ignore/": "", "fifo-ignore/p/KNOWLEDGE.md": PACK})
    os.mkfifo(tmp_path / "fifo-pack" / "KNOWLEDGE.md")
    os.mkfifo(tmp_path / "fifo-ignore" / ".gitignore")
    result = _finishes(lambda: find_pack_dirs(tmp_path))
    assert isinstance(result, ScanResult)
    assert found(result) == ["fifo-ignore/p"]


def test_scope_dot_directories_are_entered(tmp_path: Path) -> None:
    """Scanning a folder of projects finds packs in their .agents/knowledge folders, not in other dot-dirs."""
    for rel in ("proj/.agents/knowledge/a", "proj/.pack-studio/knowledge/b", "proj/.cache/c"):
        (tmp_path / rel).mkdir(parents=True)
        (tmp_path / rel / "KNOWLEDGE.md").write_text("---\nname: x\n---\n")
    found = find_pack_dirs(tmp_path, max_depth=6)
    assert [p.relative_to(tmp_path).as_posix() for p in found.pack_dirs] == [
        "proj/.agents/knowledge/a", "proj/.pack-studio/knowledge/b"]
