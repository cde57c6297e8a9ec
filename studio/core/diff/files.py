"""The files of two versions of a pack: added, removed, changed (with tokens before and after), renamed.

Each version is listed through ``PackFS`` (symlinks are listed with their target, never followed; ``.git`` is
not entered) and every regular file is read bounded. A rename is a removed file whose content reappears under
an added path: identical bytes first, then text files whose lines match closely (``RENAME_SIMILARITY``), the
way ``git diff -M`` judges it. The line comparison is bounded (``MAX_RENAME_PAIRS``, ``MAX_RENAME_BYTES``).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from studio.core.blake2 import blake2b
from studio.core.diff.report import FileChange, FileRename, FilesDiff
from studio.core.pack_fs import PackFS
from studio.core.render.costs import count_tokens
from studio.core.textfiles import is_binary
from studio.core.tokens import Tokenizer

MAX_FILES = 20_000
MAX_BLOB_BYTES = 16 * 1024 * 1024
"""Larger files are compared by size only (far above what the loader or the resolver read of a file)."""
RENAME_SIMILARITY = 0.6
MAX_RENAME_PAIRS = 2_500
MAX_RENAME_BYTES = 256 * 1024


@dataclass(frozen=True, slots=True)
class Entry:
    """One file of a version: what it is, and enough to tell whether it changed."""

    path: str
    kind: str
    """``text``, ``binary``, ``symlink``, ``too-large``, ``unreadable`` or ``special`` (a FIFO, socket or
    device)."""
    digest: str
    """Content hash (a symlink: of its target; too-large: its size)."""
    data: bytes = b""
    """The content (a symlink: its target), empty for too-large and special entries."""


@dataclass(slots=True)
class Listing:
    entries: dict[str, Entry]
    notes: list[str]

    @property
    def regular(self) -> dict[str, bytes]:
        """The bytes of every regular file read (not symlinks, not files too large to compare)."""
        return {path: e.data for path, e in self.entries.items() if e.kind in ("text", "binary")}


def list_files(root: Path) -> Listing:
    """Every file of the pack at ``root``; one over ``MAX_BLOB_BYTES`` is compared by its size only."""
    entries: dict[str, Entry] = {}
    notes: list[str] = []
    with PackFS(root) as fs:
        tree = fs.walk("", max_entries=MAX_FILES, enter=lambda _rel, name: name != ".git", classify_links=False)
        targets = {link.rel: link.target for link in tree.links}
        for item in tree.files:
            if item.is_link:
                target = targets.get(item.rel, "").encode("utf-8", "surrogateescape")
                entries[item.rel] = Entry(item.rel, "symlink", _hash(b"link:" + target), target)
            elif not item.is_regular:
                entries[item.rel] = Entry(item.rel, "special", "special")
            elif item.size > MAX_BLOB_BYTES:
                entries[item.rel] = Entry(item.rel, "too-large", f"size:{item.size}")
                notes.append(f"{item.rel} is larger than {MAX_BLOB_BYTES // (1024 * 1024)} MB: compared by size only")
            else:
                read = fs.read(item.rel, MAX_BLOB_BYTES + 1, follow=False)
                if read.data is None:  # swapped or unreadable since the listing: say so, compare the state
                    entries[item.rel] = Entry(item.rel, "unreadable", f"unreadable:{read.status}")
                    notes.append(f"{item.rel} could not be read ({read.error or read.status})")
                    continue
                data = read.data
                kind = "binary" if is_binary(data) or not _utf8(data) else "text"
                entries[item.rel] = Entry(item.rel, kind, _hash(data), data)
        if not tree.complete:
            notes.append(f"the pack has more than {MAX_FILES} files or folders nested too deep: only the first are "
                         "compared")
    return Listing(entries, notes)


def diff_files(old: Listing, new: Listing, tokenizer: Tokenizer) -> FilesDiff:
    out = FilesDiff()
    for path in sorted(old.entries.keys() & new.entries.keys()):
        a, b = old.entries[path], new.entries[path]
        if a.digest != b.digest or a.kind != b.kind:
            out.changed.append(FileChange(path, _tokens(a, tokenizer), _tokens(b, tokenizer),
                                          b.kind if b.kind == a.kind else f"{a.kind}->{b.kind}"))
    removed = sorted(old.entries.keys() - new.entries.keys())
    added = sorted(new.entries.keys() - old.entries.keys())
    for before, after, similarity in _renames([old.entries[p] for p in removed], [new.entries[p] for p in added]):
        out.renamed.append(FileRename(before, after, similarity, _tokens(old.entries[before], tokenizer),
                                      _tokens(new.entries[after], tokenizer)))
    gone = {r.before for r in out.renamed}
    came = {r.after for r in out.renamed}
    out.removed = [p for p in removed if p not in gone]
    out.added = [p for p in added if p not in came]
    out.renamed.sort(key=lambda r: r.after)
    return out


def _renames(removed: list[Entry], added: list[Entry]) -> list[tuple[str, str, float]]:
    found: list[tuple[str, str, float]] = []
    by_digest: dict[str, list[Entry]] = {}
    for e in added:
        if e.kind not in ("special", "too-large", "unreadable"):
            by_digest.setdefault(e.digest, []).append(e)
    left: list[Entry] = []
    taken: set[str] = set()
    for e in removed:
        comparable = e.kind not in ("too-large", "unreadable")
        twins = [t for t in by_digest.get(e.digest, []) if t.path not in taken] if comparable else []
        if twins:
            found.append((e.path, twins[0].path, 1.0))
            taken.add(twins[0].path)
        else:
            left.append(e)
    candidates = [e for e in added if e.path not in taken and _comparable(e)]
    olds = [e for e in left if _comparable(e)]
    if not olds or not candidates or len(olds) * len(candidates) > MAX_RENAME_PAIRS:
        return found
    scored = []
    for a in olds:
        lines_a = a.data.decode("utf-8").splitlines()
        for b in candidates:
            matcher = difflib.SequenceMatcher(None, lines_a, b.data.decode("utf-8").splitlines(), autojunk=False)
            if matcher.real_quick_ratio() >= RENAME_SIMILARITY and matcher.quick_ratio() >= RENAME_SIMILARITY:
                ratio = matcher.ratio()
                if ratio >= RENAME_SIMILARITY:
                    scored.append((ratio, a.path, b.path))
    used_old: set[str] = set()
    for ratio, before, after in sorted(scored, key=lambda s: (-s[0], s[1], s[2])):
        if before not in used_old and after not in taken:
            found.append((before, after, ratio))
            used_old.add(before)
            taken.add(after)
    return found


def _comparable(e: Entry) -> bool:
    return e.kind == "text" and 0 < len(e.data) <= MAX_RENAME_BYTES


def _tokens(e: Entry, tokenizer: Tokenizer) -> int | None:
    if e.kind != "text":
        return None
    return count_tokens(e.data.decode("utf-8"), tokenizer).tokens


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _hash(data: bytes) -> str:
    return blake2b(data, digest_size=20).hexdigest()
