"""Working out what changed in a pack, off the writing thread: stamps compared, changed files read and cut.

``produce`` yields one ``PackWork`` per pack (files to index, files touched but unchanged, files gone);
``produce_threaded`` runs it in a second thread a few packs ahead of the writer. A file to index arrives
``Prepared``: its rows already hold the text the engine is given (``textprep.index_text``), so the writer only
hands it over. Nothing here writes.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from studio.core.pack_fs import PackFS
from studio.core.search.files import FileStamp, ReadFile, decode_file, digest_of, list_pack_files, read_data, stamp_file
from studio.core.search.folders import FolderStamp
from studio.core.search.textprep import index_text


@dataclass(slots=True)
class RefreshReport:
    """What one refresh or update did."""

    packs: int = 0
    files: int = 0
    """Indexable files seen."""
    indexed: int = 0
    """Files read and (re)indexed."""
    unchanged: int = 0
    removed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    """Files (and folders) left out, by reason: ``binary``, ``too-large``, ``undecodable``, ``symlink-escape`` ..."""
    bytes_read: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    compacted: bool = False
    trusted: int = 0
    """Packs not walked: every folder had the times of the last walk (``folders``)."""

    def add(self, other: RefreshReport) -> None:
        """Count ``other``'s files and bytes in too (the part of a refresh a worker process did)."""
        self.files += other.files
        self.indexed += other.indexed
        self.unchanged += other.unchanged
        self.removed += other.removed
        self.skipped.update(other.skipped)
        self.bytes_read += other.bytes_read

    def to_json(self) -> dict[str, Any]:
        return {"packs": self.packs, "files": self.files, "indexed": self.indexed, "unchanged": self.unchanged,
                "removed": self.removed, "skipped": dict(sorted(self.skipped.items())),
                "bytes_read": self.bytes_read, "seconds": round(self.seconds, 3), "cancelled": self.cancelled,
                "trusted": self.trusted}


@dataclass(slots=True)
class Known:
    file_id: int
    size: int
    mtime_ns: int
    digest: bytes


PreparedRow = tuple[str, str | None, int, int, str, str]
"""kind, heading, first line, last line, then the heading and body text as the engine is given them."""


class Prepared(NamedTuple):
    """A file read, cut into rows and turned into the engine's text: all the writer needs of it (a named tuple, like
    ``FileStamp``, because it crosses from the worker process)."""

    stamp: FileStamp
    digest: bytes
    title: str
    path_text: str
    """The file's path as the engine is given it."""
    rows: list[PreparedRow]
    chars: int
    """Characters of engine text in ``rows`` (what a write transaction is sized by)."""


def prepare(read: ReadFile) -> Prepared:
    rows: list[PreparedRow] = []
    chars = 0
    for row in read.rows:
        body = index_text(row.text)
        chars += len(body)
        rows.append((row.kind, row.heading, row.start_line, row.end_line, index_text(row.headings), body))
    return Prepared(read.stamp, read.digest, read.title, index_text(read.stamp.path), rows, chars)


@dataclass(slots=True)
class PackWork:
    """One pack's changes, prepared off the writing thread. Files are named by path, never by row id: what the
    index holds is compared again inside the write transaction (``writes``), since another process may have
    written the same files since this one looked."""

    root: str
    name: str | None
    files: list[Prepared] = field(default_factory=list)
    """Files to (re)index."""
    touched: list[tuple[str, int]] = field(default_factory=list)
    """(path, new mtime) of files whose content did not change."""
    removed: list[str] = field(default_factory=list)
    """Paths of files gone, or no longer indexed."""
    seen: int = 0
    folders: list[FolderStamp] | None = None
    """The stamps of every folder of a whole-pack walk (``folders``); None for an update of a few files."""

    @property
    def text_bytes(self) -> int:
        return sum(f.chars for f in self.files)


def produce(roots: list[str], known: dict[str, dict[str, Known]], report: RefreshReport,
             stop: Callable[[], bool]) -> Generator[PackWork | int, None, None]:
    listings = []
    for root in roots:
        listing = list_pack_files(root)
        report.skipped.update(listing.skipped)
        listings.append((root, listing))
    yield sum(len(listing.files) for _, listing in listings)
    for root, listing in listings:
        if stop():
            return
        yield pack_work(root, listing.files, known.get(root, {}), report, listing.folders)


def produce_threaded(roots: list[str], known: dict[str, dict[str, Known]], report: RefreshReport,
                      stop: Callable[[], bool]) -> Generator[PackWork | int, None, None]:
    """``produce`` in a second thread, a few packs ahead of the writer."""
    import queue  # here: only a refresh with work to do needs it (2 ms of every warm search otherwise)

    out: queue.Queue[PackWork | int | BaseException | None] = queue.Queue(maxsize=16)
    halt = threading.Event()

    def run() -> None:
        try:
            for item in produce(roots, known, report, lambda: halt.is_set() or stop()):
                out.put(item)
                if halt.is_set():
                    break
        except BaseException as exc:  # handed to the writer's thread, which raises it
            out.put(exc)
            return
        out.put(None)

    thread = threading.Thread(target=run, name="search-index-reader", daemon=True)
    thread.start()
    try:
        while True:
            item = out.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        halt.set()
        while thread.is_alive():  # unblock a reader waiting on a full queue
            with contextlib.suppress(queue.Empty):
                out.get(timeout=0.05)
        thread.join()


def pack_work(root: str, files: list[FileStamp], known: dict[str, Known], report: RefreshReport,
              folders: list[FolderStamp] | None = None) -> PackWork:
    """One pack's changes: its files read (those whose size or time changed) through one ``PackFS``."""
    work = PackWork(root, None, seen=len(files), folders=folders)
    left = dict(known)
    with PackFS(root) as fs:
        for stamp in files:
            report.files += 1
            old = left.pop(stamp.path, None)
            if old is not None and old.size == stamp.size and old.mtime_ns == stamp.mtime_ns:
                report.unchanged += 1
                continue
            read_into(fs, stamp, old, work, report)
    work.removed.extend(left)
    return work


def check_one(fs: PackFS, rel: str, known: dict[str, Known], work: PackWork, report: RefreshReport) -> None:
    """Bring one file of the pack ``fs`` holds up to date in ``work`` (gone or skipped: its rows removed)."""
    old = known.get(rel)
    stamp = stamp_file(fs, rel)
    if isinstance(stamp, str):
        if stamp != "missing":
            report.skipped[stamp] += 1
        if old is not None:
            work.removed.append(rel)
        return
    report.files += 1
    if old is not None and old.size == stamp.size and old.mtime_ns == stamp.mtime_ns:
        report.unchanged += 1
        return
    read_into(fs, stamp, old, work, report)


def read_into(fs: PackFS, stamp: FileStamp, old: Known | None, work: PackWork, report: RefreshReport) -> None:
    data = read_data(fs, stamp)
    if isinstance(data, str):
        report.skipped[data] += 1
        if old is not None:
            work.removed.append(stamp.path)
        return
    report.bytes_read += len(data)
    digest = digest_of(data)
    if old is not None and old.digest == digest:
        work.touched.append((stamp.path, stamp.mtime_ns))
        report.unchanged += 1
        return
    read = decode_file(stamp, data, digest)
    if isinstance(read, str):
        report.skipped[read] += 1
        if old is not None:
            work.removed.append(stamp.path)
        return
    if stamp.layer == "guide":
        work.name = read.pack_name or os.path.basename(work.root)
    work.files.append(prepare(read))


