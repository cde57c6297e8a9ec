"""Keeps a recovery copy of every unsaved editor buffer outside the packs, and offers them back after a crash.

A copy is written 1.5 s after the last edit while a tab is dirty, and removed when the tab is saved,
becomes clean again (undo) or is closed with Discard. Writes run on a private one-thread pool: writing
1 MB through ``write_atomic`` takes about 10 ms (the fsync), too long for the GUI thread; only taking the
buffer's text (``toPlainText``, a few ms for 1 MB) happens there, once per pause in typing. Being one
thread, the pool also keeps a write and a later removal of the same copy in order.

Copies found at start-up belong to an earlier session (or a crashed one). ``offer_pending`` lists them
with Restore / Discard / Later; ``track`` asks about the one for a file that is being opened, before the
new buffer's own copies could replace it. Nothing here writes into a pack.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

import shiboken6
from PySide6.QtCore import QDir, QObject, QSettings, QStandardPaths, Signal, Slot
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QWidget

from studio.core.recovery import RecoveryCopy, RecoveryProblem, RecoveryStore
from studio.ui import workers
from studio.ui.debounce import debounce_timer
from studio.ui.widgets.editor_tab import EditorTab
from studio.ui.widgets.recovery_dialog import RecoveryChoice, offer_recovery

DELAY_MS = 1500

Ask = Callable[..., RecoveryChoice]
"""``ask(parent, copies, problems, single=bool, elsewhere=int) -> RecoveryChoice``; ``offer_recovery`` in the app."""


def default_recovery_dir(settings: QSettings | None = None) -> Path:
    """Where copies live: the app's local data folder, or beside ``settings``' file when one is passed in.

    The window receives a QSettings only from tests (an INI file in a temp dir) and tools; following it
    keeps their copies away from the real user's folders as well.
    """
    if settings is not None and settings.fileName():
        return Path(settings.fileName()).parent / "recovery"
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation)
    return Path(base or Path(QDir.homePath()) / ".knowledge-pack-studio") / "recovery"


def restore_into(tab: EditorTab, copy: RecoveryCopy) -> None:
    """Put the recovered text into ``tab`` as an unsaved, undoable edit.

    The tab's disk stamp becomes the one the text was based on, so if the file changed on disk since,
    saving reports a conflict and asks before overwriting those changes.
    """
    cursor = QTextCursor(tab.editor.document())
    cursor.beginEditBlock()
    cursor.select(QTextCursor.SelectionType.Document)
    cursor.insertText(copy.text)
    cursor.endEditBlock()
    tab.editor.document().setModified(True)  # also when the text happens to equal the file's
    tab.editor.moveCursor(QTextCursor.MoveOperation.Start)
    tab.document_state.stamp = copy.opened


def _owned_elsewhere(copy: RecoveryCopy) -> bool:
    """True when another running process wrote the copy (a second studio window still editing it)."""
    if copy.pid == os.getpid() or os.name != "posix":
        return False  # on Windows os.kill(pid, 0) would terminate the process, not probe it
    try:
        os.kill(copy.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, but another user's
    except OSError:
        return False
    return True


class _TabWatch(QObject):
    """Per-tab state and the tab's connections; a child of the keeper, so its slots die with it."""

    def __init__(self, keeper: RecoveryKeeper, tab: EditorTab, delay_ms: int) -> None:
        super().__init__(keeper)
        self.tab = tab
        self.key = id(tab)
        """The keeper's key for the tab; kept so a dying tab's wrapper is never touched to find it."""
        self.path = tab.path
        self.last_written: str | None = None
        self.has_copy = False
        """A copy for this path may be on disk (we wrote one, or restored one), so a clean tab drops it."""
        self.warned = False
        self.timer = debounce_timer(self, delay_ms, self.due)
        tab.editor.document().contentsChange.connect(self.changed)
        tab.dirty_changed.connect(self.dirty_changed)
        tab.saved.connect(self.saved)
        # No handler on the tab's destroyed() signal: objects touched from one (even a deleteLater) crash
        # PySide now and then. A tab that goes without forget() simply stops mattering: ``alive`` says so.

    @property
    def keeper(self) -> RecoveryKeeper:
        # Through Qt's parent link, not an attribute: keeper -> watch -> keeper would be a reference cycle,
        # and Python's cycle collector may free a cycle of QObjects in whichever thread it happens to run,
        # a worker thread included, where deleting them crashes.
        keeper = self.parent()
        assert isinstance(keeper, RecoveryKeeper)
        return keeper

    @property
    def alive(self) -> bool:
        """False once the tab is deleted (closed without ``forget``); its document may still report changes
        on its way out."""
        return shiboken6.isValid(self.tab)

    def detach(self) -> None:
        """Cut a live tab's connections and go; only for a tab that is not being destroyed."""
        self.timer.stop()
        tab = self.tab
        for signal, slot in ((tab.editor.document().contentsChange, self.changed),
                             (tab.dirty_changed, self.dirty_changed), (tab.saved, self.saved)):
            with contextlib.suppress(RuntimeError, TypeError):  # never connected, or the tab already went
                signal.disconnect(slot)
        self.deleteLater()

    @Slot(int, int, int)
    def changed(self, _position: int, removed: int, added: int) -> None:
        # Highlighting also reports format-only changes here; ``due`` compares the text, so those cost nothing.
        if (removed or added) and self.alive:
            self.timer.start()

    @Slot(bool)
    def dirty_changed(self, dirty: bool) -> None:
        if not self.alive:
            return
        if dirty:
            self.timer.start()
        else:
            self.became_clean()

    @Slot(object)
    def saved(self, _path: object) -> None:
        self.became_clean()

    def became_clean(self) -> None:
        self.timer.stop()
        self.last_written = None
        if self.has_copy:
            self.has_copy = False
            self.keeper.discard_copy(self.path)

    @Slot()
    def due(self) -> None:
        if self.alive and self.tab.dirty:
            self.keeper.write_copy(self)



class RecoveryKeeper(QObject):
    """Writes and removes recovery copies for tracked editor tabs; offers earlier sessions' copies.

    Attributes:
        store: where copies live (outside every pack).
        ask: shows the choice; ``offer_recovery`` unless a test replaces it.
        problems: unreadable recovery files found at start-up, reported (and set aside) by ``offer_pending``.

    Signals:
        written(object): the Path whose copy was just written.
        message(str): something the user should read (a copy that could not be written or restored).
    """

    written = Signal(object)
    message = Signal(str)

    def __init__(self, store: RecoveryStore, parent: QObject | None = None, *, delay_ms: int = DELAY_MS,
                 ask: Ask = offer_recovery) -> None:
        super().__init__(parent)
        self.store = store
        self.ask = ask
        self.delay_ms = delay_ms
        self.problems: list[RecoveryProblem] = []
        self._older = {c.path: c for c in store.pending(self.problems) if not _owned_elsewhere(c)}
        self._watches: dict[int, _TabWatch] = {}
        """By ``id(tab)``."""
        self._jobs: dict[int, Path] = {}
        self._pool = workers.serial_pool(self)

    # -- tracking tabs ------------------------------------------------------------------------------
    def track(self, tab: EditorTab) -> None:
        """Keep copies of ``tab`` while it is dirty. Call it right after the tab is created: when an
        earlier session left a copy of the same file, this asks (modal) whether to restore or discard it."""
        self._prune()
        if id(tab) in self._watches:
            return
        watch = _TabWatch(self, tab, self.delay_ms)
        self._watches[watch.key] = watch
        older = self._older.pop(Path(os.path.abspath(tab.path)), None)
        if older is None:
            return
        choice = self.ask(tab.window(), [older], [], single=True)
        if older in choice.discard:
            self.discard_copy(older.path)
        else:  # restored, or no answer at all: restoring is the choice that cannot lose text
            self._restore(tab, older, watch)

    def forget(self, tab: EditorTab) -> None:
        """The tab is closing with its changes discarded (or saved): drop its copy and stop watching."""
        watch = self._watches.pop(id(tab), None)
        if watch is None:
            return
        self.discard_copy(watch.path)
        watch.detach()

    def _prune(self) -> None:
        """Drop the watches of tabs deleted without ``forget`` (their ids may be reused by new tabs)."""
        for key, watch in list(self._watches.items()):
            if not watch.alive:
                del self._watches[key]
                watch.timer.stop()
                watch.deleteLater()

    def tracked(self) -> list[EditorTab]:
        return [w.tab for w in self._watches.values() if w.alive]

    # -- copies -------------------------------------------------------------------------------------
    def write_copy(self, watch: _TabWatch) -> None:
        text = watch.tab.text()
        if text == watch.last_written:
            return  # only formats changed (highlighting), or the write for this text is already queued
        watch.last_written = text
        watch.has_copy = True
        state = watch.tab.document_state
        request = workers.submit(self.store.write, state.path, state.pack_root, text, state.stamp,
                                 on_done=self._written, on_error=self._write_failed, pool=self._pool)
        self._jobs[request] = watch.path

    def discard_copy(self, path: Path) -> None:
        """Remove the copy for ``path`` after any write already queued for it."""
        workers.submit(self.store.discard, path, on_error=self._discard_failed, pool=self._pool)

    def _written(self, request: int, copy: RecoveryCopy) -> None:
        self._jobs.pop(request, None)
        self.written.emit(copy.path)

    def _write_failed(self, request: int, trace: str) -> None:
        path = self._jobs.pop(request, None)
        watch = next((w for w in self._watches.values() if w.path == path), None)
        if watch is None:
            return
        watch.last_written = None  # try again after the next edit
        if not watch.warned:  # once per file: a full disk would otherwise repeat this every pause in typing
            watch.warned = True
            self.message.emit(f"Could not keep a recovery copy of {path} in {self.store.directory}: "
                              f"{_last_line(trace)}")

    def _discard_failed(self, _request: int, trace: str) -> None:
        self.message.emit(f"Could not remove a recovery copy in {self.store.directory}: {_last_line(trace)}")

    # -- earlier sessions -----------------------------------------------------------------------------
    def pending(self) -> list[RecoveryCopy]:
        """Copies from earlier sessions not yet restored or discarded."""
        return sorted(self._older.values(), key=lambda c: (str(c.pack_root), str(c.path)))

    def offer_pending(self, parent: QWidget | None, open_file: Callable[[Path], EditorTab | None],
                      can_open: Callable[[Path], bool] | None = None) -> list[RecoveryCopy]:
        """Ask about earlier sessions' copies; restore the chosen ones through ``open_file``.

        Copies ``can_open`` rejects (their pack is not in the workspace) are only counted in the dialog;
        they stay pending and are asked about when their file is opened. Unreadable recovery files are
        reported and renamed out of the way. Returns the chosen copies that could not be opened (the file
        is gone, or ``open_file`` refused it); they stay pending too.
        """
        problems, self.problems = self.problems, []
        for problem in problems:
            self.store.set_aside(problem.file)
        copies = self.pending()
        here = [c for c in copies if can_open is None or can_open(c.path)]
        elsewhere = len(copies) - len(here)
        if not here and not problems:
            if elsewhere:
                self.message.emit(f"{elsewhere} file(s) in packs outside this workspace have unsaved text from "
                                  "an earlier session; it is offered when you open them.")
            return []
        choice = self.ask(parent, here, problems, single=False, elsewhere=elsewhere)
        for copy in choice.discard:
            self._older.pop(copy.path, None)
            self.discard_copy(copy.path)
        failed: list[RecoveryCopy] = []
        for copy in choice.restore:
            self._older.pop(copy.path, None)  # claimed: track() must not ask about it again
            tab = open_file(copy.path)
            if tab is None or tab.dirty:
                self._older[copy.path] = copy
                failed.append(copy)
                continue
            self._restore(tab, copy, self._watches.get(id(tab)))
        if failed:
            names = ", ".join(c.relpath for c in failed[:3]) + (" …" if len(failed) > 3 else "")
            self.message.emit(f"Could not restore {names} (its pack is not open, the file is gone, or it already "
                              "has unsaved changes); the recovered text is kept and offered again.")
        return failed

    def _restore(self, tab: EditorTab, copy: RecoveryCopy, watch: _TabWatch | None) -> None:
        if watch is not None:
            watch.has_copy = True  # the old copy stays until the new one replaces it or the tab is clean
        restore_into(tab, copy)

    # -- quitting ---------------------------------------------------------------------------------------
    def finish(self, msecs: int = 10_000) -> bool:
        """On quit: write what is still dirty now, drop copies of clean tabs, and wait for the writes.

        After a normal quit (every tab saved or discarded) no copy of this session is left; copies from
        earlier sessions the user put off with Later are kept.
        """
        for watch in list(self._watches.values()):
            watch.timer.stop()
            if watch.tab.dirty:
                self.write_copy(watch)
            else:
                watch.became_clean()
        return self.wait(msecs)

    def wait(self, msecs: int = 10_000) -> bool:
        return self._pool.waitForDone(msecs)


def _last_line(trace: str) -> str:
    lines = [line for line in trace.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "unknown error"
