"""Watch opened packs on disk and ask for a reload of just the pack that changed.

QFileSystemWatcher reports directory and file changes; they are collected per pack and, 300 ms after
the last one, each affected pack is reloaded once. Watched: every pack root, its KNOWLEDGE.md and its
top-level folders (a cap keeps huge workspaces within the OS's watch limits).

Signals:
    pack_changed(Path): the pack at this root changed on disk (debounced).
    file_changed(Path): a watched file changed (the editor checks its open tabs).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, Signal

from studio.ui import workers
from studio.ui.debounce import debounce_timer
from studio.ui.pacing import WATCH_PATHS, Paced

MAX_WATCHED = 6000
DEBOUNCE_MS = 300


def paths_to_watch(roots: list[Path]) -> list[str]:
    """Each pack root, its KNOWLEDGE.md and its top-level folders (runs in a worker)."""
    paths: list[str] = []
    for root in roots:
        paths.append(str(root))
        try:
            with os.scandir(root) as it:
                for entry in it:
                    knowledge = entry.name == "KNOWLEDGE.md" and entry.is_file(follow_symlinks=False)
                    folder = entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".")
                    if knowledge or folder:
                        paths.append(entry.path)
        except OSError:
            continue
    return paths


class LiveWatch(QObject):
    pack_changed = Signal(Path)
    file_changed = Signal(Path)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.watcher = self._new_watcher()
        self._adding: Paced[str] = Paced(self, WATCH_PATHS, self._add_some)
        """Paths listed but not yet handed to the watcher, added a slice per turn: 6,000 at once took 41 ms."""
        self.roots: set[Path] = set()
        self._dirty: set[Path] = set()
        self._generation = 0
        self._watched = 0
        """Paths handed to the watcher (approximate: the OS drops watches of deleted files)."""
        self._timer = debounce_timer(self, DEBOUNCE_MS, self._flush)

    def _new_watcher(self) -> QFileSystemWatcher:
        watcher = QFileSystemWatcher(self)
        watcher.directoryChanged.connect(self._changed)
        watcher.fileChanged.connect(self._file_changed)
        return watcher

    def clear(self) -> None:
        # A fresh watcher at once, and the old one emptied a slice per turn before it goes: removing 6,000
        # watches took 37 ms in one call, and deleting the watcher removes them one by one all the same.
        old = self.watcher
        old.blockSignals(True)
        retiring = Paced.once(old, WATCH_PATHS, lambda paths: old.removePaths(list(paths)),
                              old.files() + old.directories())
        retiring.destroyed.connect(old.deleteLater)
        self.watcher = self._new_watcher()
        self._adding.cancel()
        self.roots.clear()
        self._watched = 0
        self._generation += 1

    def watch_packs(self, roots: list[Path]) -> None:
        """Start watching these packs; their folders are listed in a worker, not on the GUI thread."""
        fresh = [r for r in roots if r not in self.roots]
        self.roots.update(fresh)
        # Once the cap is reached nothing more is watched: listing the rest was worker time spent for nothing (at
        # 10,000 packs, 8,000 folders listed in Python while the window took in the scan's packs).
        if fresh and self._watched + self._adding.pending < MAX_WATCHED:
            generation = self._generation
            workers.submit(paths_to_watch, fresh, on_done=lambda _rid, paths: self._add_paths(generation, paths))

    def _add_paths(self, generation: int, paths: list[str]) -> None:
        if generation != self._generation:
            return  # listed for a workspace that has been closed since
        # Counted here rather than asked of the watcher: files() and directories() copy every watched
        # path into Python lists, thousands of strings per scan batch.
        room = MAX_WATCHED - self._watched - self._adding.pending
        if room > 0:
            self._adding.feed(paths[:room])

    def _add_some(self, paths: Iterator[str]) -> None:
        chosen = list(paths)
        self._watched += len(chosen) - len(self.watcher.addPaths(chosen))

    def watch_file(self, path: Path) -> None:
        """Also watch a file opened in the editor (it may sit deeper than the top-level folders)."""
        if str(path) not in self.watcher.files() and self.watcher.addPath(str(path)):
            self._watched += 1

    def _root_of(self, path: Path) -> Path | None:
        for candidate in (path, *path.parents):
            if candidate in self.roots:
                return candidate
        return None

    def _changed(self, path: str) -> None:
        root = self._root_of(Path(path))
        if root is not None:
            self._dirty.add(root)
            self._timer.start()

    def _file_changed(self, path: str) -> None:
        p = Path(path)
        # Atomic saves replace the file, which drops the watch: put it back if the file is there.
        if p.exists() and path not in self.watcher.files():
            self.watcher.addPath(path)
        self.file_changed.emit(p)
        self._changed(path)

    def _flush(self) -> None:
        dirty, self._dirty = self._dirty, set()
        for root in sorted(dirty):
            self.pack_changed.emit(root)
