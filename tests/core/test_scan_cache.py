"""The scan's cache: a scan answered from the result cache finds exactly what a fresh scan finds.

The differential test changes the folders above the packs at random (folders of packs made, renamed, deleted,
linked from inside and from outside, links whose far target comes and goes, a .gitignore edited in place to
the same size with its mtime put back, KNOWLEDGE.md renamed to other letter case or swapped for a folder or a
link, folders too deep or past the folder limit) and after every step compares a cached scan with a fresh one.
The racy margin is 0 (as in ``test_result_cache``): the test sleeps past the clock's tick between steps.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from sneaky_edits import toggle_keeping_mtime

from studio.core import result_cache
from studio.core.result_cache import CacheSpec, CacheStats, spec_for
from studio.core.scan import ScanResult, find_pack_dirs
from studio.core.scan_cache import find_pack_dirs_cached
from studio.core.workspace import WorkspaceOptions, find_packs, open_workspace

GUIDE = "---\nname: {name}\ndescription: A pack about refunds.\ntype: brand-product\nstatus: ready\n---\n# Guide\n"
LIMITS = {"max_depth": 3, "max_dirs": 150, "honor_gitignore": True}


def _pack(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "KNOWLEDGE.md").write_text(GUIDE.format(name="p"))
    (folder / "wiki").mkdir(exist_ok=True)
    return folder


def _seen(result: ScanResult) -> list[object]:
    """Everything a scan reports (its watch aside, which only says what it was decided from)."""
    return [[(f.path, sorted(f.top_dirs), f.stamp) for f in result.found],
            [(d.code, d.file, d.message) for d in result.diagnostics], result.dirs_visited, result.truncated,
            result.cancelled]


def _scan(root: Path, cache: CacheSpec | None, stats: CacheStats | None = None) -> tuple[ScanResult, bool]:
    return find_pack_dirs_cached(root, cache, stats=stats, **LIMITS)  # type: ignore[arg-type]


def _folders(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_dir() and not p.is_symlink() and p.name != "wiki"
                  and not (p / "KNOWLEDGE.md").exists())


def _edit(root: Path, far: Path, rng: random.Random) -> str:
    folders = [root, *_folders(root)]
    packs = sorted(p.parent for p in root.rglob("KNOWLEDGE.md") if p.is_file())
    folder = rng.choice(folders)
    kinds = ["new-pack", "new-folder", "rename-folder", "delete-folder", "rename-pack", "delete-pack", "ignore",
             "link-in", "link-out", "case", "knowledge-folder", "knowledge-link", "sneaky-new-pack", "deep-pack",
             "many-folders", "inside-pack", "far-flips", "target-flips"]
    # Changes far from every folder the scan lists are the ones only the cache's own checks can see: more of them.
    kind = rng.choices(kinds, weights=[1] * (len(kinds) - 2) + [3, 4])[0]
    tag = rng.randrange(10**6)
    if kind == "new-pack":
        _pack(folder / f"p{tag}")
    elif kind == "new-folder":
        (folder / f"f{tag}").mkdir()
    elif kind in ("rename-folder", "delete-folder") and folder != root:
        if kind == "rename-folder":
            folder.rename(folder.with_name(f"r{tag}"))
        else:
            shutil.rmtree(folder)
    elif kind in ("rename-pack", "delete-pack") and packs:
        pack = rng.choice(packs)
        if kind == "rename-pack":
            pack.rename(pack.with_name(f"q{tag}"))
        else:
            shutil.rmtree(pack)
    elif kind == "ignore":  # the same size and the old mtime: only the .gitignore's ctime tells
        toggle_keeping_mtime(root / ".gitignore", "x*/\n", "f*/\n")
    elif kind == "link-in" and folder != root:
        (root / f"l{tag}").symlink_to(folder)
    elif kind == "link-out":
        (folder / f"o{tag}").symlink_to(far)
    elif kind == "far-flips":
        # Where the links out of the tree lead: no folder the scan lists changes when it comes and goes.
        if far.exists():
            shutil.rmtree(far)
        else:
            _pack(far / "elsewhere")
    elif kind == "case" and packs:
        guide = rng.choice(packs) / "KNOWLEDGE.md"
        guide.rename(guide.with_name("knowledge.md"))
    elif kind == "knowledge-folder":
        (folder / f"k{tag}" / "KNOWLEDGE.md").mkdir(parents=True)
    elif kind == "knowledge-link" and packs:
        # A KNOWLEDGE.md that is a link: a pack while its target is a file.
        target = root.parent / f"target-{tag}.md"
        target.write_text(GUIDE.format(name="linked"))
        (folder / f"m{tag}").mkdir()
        (folder / f"m{tag}" / "KNOWLEDGE.md").symlink_to(target)
    elif kind == "target-flips":
        # Where a linked KNOWLEDGE.md leads comes and goes: no folder the scan lists changes.
        links = sorted(p for p in root.rglob("KNOWLEDGE.md") if p.is_symlink())
        if links:
            target = Path(os.readlink(rng.choice(links)))
            if target.exists():
                target.unlink()
            else:
                target.write_text(GUIDE.format(name="linked"))
    elif kind == "sneaky-new-pack":
        # A pack made in a folder whose mtime is then put back: only the folder's ctime tells.
        st = folder.stat()
        _pack(folder / f"s{tag}")
        os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns))
    elif kind == "deep-pack":
        _pack(folder / "a" / "b" / "c" / "d" / f"deep{tag}")
    elif kind == "many-folders":
        for i in range(8):  # toward the folder limit
            (folder / f"n{tag}-{i}").mkdir()
    elif kind == "inside-pack" and packs:
        wiki = rng.choice(packs) / "wiki"
        wiki.mkdir(exist_ok=True)
        (wiki / f"page-{tag}.md").write_text("Refunds.\n")  # nothing the scan lists (once the wiki is there)
    return f"{kind} {folder.relative_to(root.parent)}"


@pytest.mark.slow
def test_a_cached_scan_finds_what_a_fresh_scan_finds_after_every_random_edit(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    for name in ("alpha", "beta", "group/gamma", "group/sub/delta"):
        _pack(root / name)
    far = tmp_path / "far"
    spec = spec_for(tmp_path / "cache", racy_ns=0)
    rng = random.Random(20261127)
    done: list[str] = []
    answered = 0
    _scan(root, spec)
    for _step in range(120):
        time.sleep(0.015)  # past the file system clock's tick, as any edit after a run is
        done.append(_edit(root, far, rng))
        time.sleep(0.015)
        warm, from_cache = _scan(root, spec)
        answered += from_cache
        assert _seen(warm) == _seen(find_pack_dirs(root, **LIMITS)), done  # type: ignore[arg-type]
        again, second = _scan(root, spec)  # nothing changed since: answered from the cache, and the same
        assert second and _seen(again) == _seen(warm), done
    assert answered > 15, answered  # edits inside packs and far away leave the scan to the cache


def test_a_cached_scan_lists_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "ws"
    for name in ("a", "b/c", "b/d/e"):
        _pack(root / name)
    spec = spec_for(tmp_path / "cache", racy_ns=0)
    time.sleep(0.015)
    first, cached = _scan(root, spec)
    assert not cached and len(first.found) == 3

    def no_listing(path: object) -> object:
        raise AssertionError(f"listed {path}")

    monkeypatch.setattr(os, "scandir", no_listing)
    again, cached = _scan(root, spec)
    assert cached and _seen(again) == _seen(first)


def test_each_pack_found_carries_its_folders_stamp_as_a_stat_now_sees_it(tmp_path: Path) -> None:
    # The search index compares each pack folder's times with its records; it takes them from here, no stat.
    root = tmp_path / "ws"
    for name in ("a", "b/c"):
        _pack(root / name)
    spec = spec_for(tmp_path / "cache", racy_ns=0)
    options = WorkspaceOptions(explicit=[root, root / "a"], builtin=False, cache=spec)
    time.sleep(0.015)
    for _run in ("fresh", "cached"):
        found = find_packs(options)
        assert [f.root for f in found] == [str(root / "a"), str(root / "b" / "c")]
        for f in found:
            st = os.stat(f.root)
            assert f.stamp == (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    time.sleep(0.015)
    (root / "b" / "c" / "notes.md").write_text("new\n")  # the folder's times move: the cached scan is not used
    after = find_packs(options)[1]
    st = os.stat(after.root)
    assert after.stamp == (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    named = find_packs(WorkspaceOptions(explicit=[root / "a"], builtin=False, cache=spec))
    assert [(f.root, f.stamp) for f in named] == [(str(root / "a"), None)]  # named directly: not listed


@pytest.mark.parametrize("why", ["just changed", "cancelled"])
def test_a_scan_of_just_changed_folders_or_a_cancelled_one_is_not_stored(tmp_path: Path, why: str) -> None:
    """A folder changed within the clock's tick of the scan could keep its stamp: such a scan is not vouched for;
    nor is a scan that stopped half-way."""
    root = tmp_path / "ws"
    _pack(root / "a")
    if why == "just changed":
        spec = spec_for(tmp_path / "cache")  # the default margin: folders made a moment ago are too recent
        _scan(root, spec)
    else:
        spec = spec_for(tmp_path / "cache", racy_ns=0)
        time.sleep(0.015)
        result, _ = find_pack_dirs_cached(root, spec, cancelled=lambda: True, **LIMITS)  # type: ignore[arg-type]
        assert result.cancelled and result.found == []
    assert not _scan(root, spec)[1]


def test_no_cache_writes_nothing_and_a_damaged_row_is_scanned_afresh(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _pack(root / "a")
    spec = spec_for(tmp_path / "cache", racy_ns=0)
    time.sleep(0.015)
    options = WorkspaceOptions(explicit=[root], builtin=False, cache=None)
    assert [f.root for f in find_packs(options)] == [str(root / "a")]
    assert not spec.path.exists()  # --no-cache
    _scan(root, spec)
    conn = sqlite3.connect(spec.path)
    with conn:
        conn.execute("UPDATE scans SET payload = ?", (b"\x80\x04not a pickle",))
    conn.close()
    result_cache.forget_readers()
    result, cached = _scan(root, spec)
    assert not cached and [f.path for f in result.found] == [str(root / "a")]
    assert _scan(root, spec)[1]  # stored again, whole


def test_a_damaged_cache_file_is_rebuilt_with_a_notice_by_the_scan(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _pack(root / "a")
    spec = spec_for(tmp_path / "cache", racy_ns=0)
    spec.folder.mkdir()
    spec.path.write_bytes(b"this is not a database at all" * 100)
    time.sleep(0.015)
    notes: list[object] = []
    options = WorkspaceOptions(explicit=[root], builtin=False, cache=spec)
    assert [f.root for f in find_packs(options, notes)] == [str(root / "a")]  # type: ignore[arg-type]
    assert [getattr(n, "code", None) for n in notes] == ["cache-rebuilt"]
    ws = open_workspace(options)
    assert ws.locations[0].from_cache and [str(p.root) for p in ws.packs] == [str(root / "a")]


def test_a_folder_whose_name_is_not_utf8_is_scanned_and_cached(tmp_path: Path) -> None:
    odd = os.fsencode(tmp_path) + b"/ws-caf\xe9"
    os.mkdir(odd)
    root = Path(os.fsdecode(odd))
    _pack(root / "p\udce9")
    spec = spec_for(tmp_path / "cache", racy_ns=0)
    time.sleep(0.015)
    first, _ = _scan(root, spec)
    again, cached = _scan(root, spec)
    assert cached and _seen(again) == _seen(first) and len(first.found) == 1


def _scan_in_child(root: str, folder: str, rounds: int) -> None:
    spec = spec_for(Path(folder), racy_ns=0)
    for i in range(rounds):
        _pack(Path(root) / f"child-{os.getpid()}-{i}")
        time.sleep(0.01)
        _scan(Path(root), spec)


def test_two_processes_storing_scans_at_once_both_finish_and_the_cache_stays_whole(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _pack(root / "a")
    spec = spec_for(tmp_path / "cache", racy_ns=0)
    ctx = multiprocessing.get_context("spawn")
    children = [ctx.Process(target=_scan_in_child, args=(str(root), str(spec.folder), 6)) for _ in range(2)]
    for child in children:
        child.start()
    for child in children:
        child.join(60)
        assert child.exitcode == 0
    time.sleep(0.015)
    warm, _ = _scan(root, spec)
    assert _seen(warm) == _seen(find_pack_dirs(root, **LIMITS))  # type: ignore[arg-type]
    assert len(warm.found) == 13 and _scan(root, spec)[1]
