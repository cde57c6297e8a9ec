"""Recovery copies of unsaved buffers: written after a pause in typing, outside the pack, gone once saved."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from studio.core.recovery import DiskState, RecoveryCopy, RecoveryProblem, RecoveryStore, disk_state
from studio.ui.document import SaveOutcome, open_document
from studio.ui.recovery_keeper import DELAY_MS, RecoveryKeeper, default_recovery_dir
from studio.ui.widgets.editor_tab import EditorTab
from studio.ui.widgets.recovery_dialog import RecoveryChoice, RecoveryDialog, offer_recovery

KNOWLEDGE = "---\nname: tiny\ndescription: A tiny pack for recovery tests.\n---\n# Tiny\n"
FACTS = "fact one\nfact two\n"
FAST_MS = 50


class Asker:
    """Stands in for the modal dialog: records what it was shown and answers with ``answer``."""

    def __init__(self, answer: str = "later") -> None:
        self.answer = answer
        self.calls: list[tuple[list[RecoveryCopy], list[RecoveryProblem], bool]] = []
        self.elsewhere: list[int] = []

    def __call__(self, _parent: Any, copies: list[RecoveryCopy], problems: list[RecoveryProblem],
                 single: bool = False, elsewhere: int = 0) -> RecoveryChoice:
        self.calls.append((list(copies), list(problems), single))
        self.elsewhere.append(elsewhere)
        if self.answer == "restore":
            return RecoveryChoice(restore=list(copies))
        if self.answer == "discard":
            return RecoveryChoice(discard=list(copies))
        return RecoveryChoice()


@pytest.fixture
def pack(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    return make_pack("tiny", KNOWLEDGE, {"compiled/facts.md": FACTS}, parent=tmp_path / "packs")


@pytest.fixture
def store(tmp_path: Path) -> RecoveryStore:
    return RecoveryStore(tmp_path / "appdata" / "recovery")


@pytest.fixture
def make_tab(qtbot, pack: Path) -> Callable[[Path], EditorTab]:  # type: ignore[no-untyped-def]
    def _make(path: Path) -> EditorTab:
        tab = EditorTab(open_document(path, pack), None)
        qtbot.addWidget(tab)
        return tab

    return _make


@pytest.fixture
def make_keeper(store: RecoveryStore) -> Iterator[Callable[..., RecoveryKeeper]]:
    made: list[RecoveryKeeper] = []

    def _make(delay_ms: int = FAST_MS, ask: Asker | None = None) -> RecoveryKeeper:
        keeper = RecoveryKeeper(store, delay_ms=delay_ms, ask=ask or Asker())
        made.append(keeper)
        return keeper

    yield _make
    for keeper in made:
        assert keeper.wait(), "recovery writes still running after the test"


def type_into(qtbot, tab: EditorTab, text: str) -> None:  # type: ignore[no-untyped-def]
    """Real key presses; QTest aborts on a "\\n" in keyClicks, so line breaks are Return presses."""
    tab.editor.moveCursor(tab.editor.textCursor().MoveOperation.End)
    for i, line in enumerate(text.split("\n")):
        if i:
            qtbot.keyClick(tab.editor, Qt.Key.Key_Return)
        if line:
            qtbot.keyClicks(tab.editor, line)


def test_typing_writes_a_copy_outside_the_pack_after_the_delay(
        qtbot, pack: Path, store: RecoveryStore, make_tab, make_keeper, tree_digest) -> None:  # type: ignore[no-untyped-def]
    before = tree_digest(pack.parent)
    keeper = make_keeper(delay_ms=DELAY_MS)
    facts = pack / "compiled" / "facts.md"
    tab = make_tab(facts)
    keeper.track(tab)
    started = time.monotonic()
    type_into(qtbot, tab, "fact three")
    assert tab.dirty and not store.file_for(facts).exists()
    with qtbot.waitSignal(keeper.written, timeout=5000) as blocker:
        pass
    assert blocker.args == [facts]
    assert time.monotonic() - started >= (DELAY_MS - 100) / 1000  # waits for a pause in typing
    [copy] = store.pending()
    assert copy.text == tab.text() == FACTS + "fact three" and copy.path == facts
    assert not store.directory.is_relative_to(pack)
    assert tree_digest(pack.parent) == before  # not a byte written into the pack (or beside it)
    assert disk_state(copy) is DiskState.UNCHANGED


def test_saving_removes_the_copy(qtbot, pack: Path, store: RecoveryStore, make_tab, make_keeper) -> None:  # type: ignore[no-untyped-def]
    keeper = make_keeper()
    tab = make_tab(pack / "KNOWLEDGE.md")
    keeper.track(tab)
    type_into(qtbot, tab, "More guide text.\n")
    qtbot.waitUntil(lambda: store.file_for(tab.path).exists())
    assert tab.save() is SaveOutcome.SAVED
    qtbot.waitUntil(lambda: not store.file_for(tab.path).exists())
    assert store.pending() == []
    assert (pack / "KNOWLEDGE.md").read_text() == KNOWLEDGE + "More guide text.\n"


def test_undo_to_clean_and_closing_with_discard_remove_the_copy(
        qtbot, pack: Path, store: RecoveryStore, make_tab, make_keeper, tree_digest) -> None:  # type: ignore[no-untyped-def]
    before = tree_digest(pack.parent)
    keeper = make_keeper()
    facts, guide = make_tab(pack / "compiled" / "facts.md"), make_tab(pack / "KNOWLEDGE.md")
    keeper.track(facts)
    keeper.track(guide)
    type_into(qtbot, facts, "x")
    type_into(qtbot, guide, "y")
    qtbot.waitUntil(lambda: len(store.pending()) == 2)
    facts.editor.undo()
    assert not facts.dirty
    qtbot.waitUntil(lambda: [c.relpath for c in store.pending()] == ["KNOWLEDGE.md"])
    keeper.forget(guide)  # the window closed the tab after the user chose Discard
    qtbot.waitUntil(lambda: store.pending() == [])
    assert keeper.tracked() == [facts]
    assert tree_digest(pack.parent) == before


def test_a_copy_follows_the_latest_text(qtbot, pack: Path, store: RecoveryStore, make_tab, make_keeper) -> None:  # type: ignore[no-untyped-def]
    keeper = make_keeper()
    tab = make_tab(pack / "compiled" / "facts.md")
    keeper.track(tab)
    type_into(qtbot, tab, "a")
    qtbot.waitUntil(lambda: bool(store.pending()))
    type_into(qtbot, tab, "b")
    qtbot.waitUntil(lambda: store.pending()[0].text.endswith("ab"))


def test_quitting_with_nothing_dirty_leaves_no_copy(qtbot, pack: Path, store: RecoveryStore, make_tab,
                                                    make_keeper) -> None:  # type: ignore[no-untyped-def]
    keeper = make_keeper(delay_ms=60_000)  # the timer never fires by itself here
    clean, dirty = make_tab(pack / "KNOWLEDGE.md"), make_tab(pack / "compiled" / "facts.md")
    keeper.track(clean)
    keeper.track(dirty)
    type_into(qtbot, dirty, "unsaved")
    assert keeper.finish()  # a quit that did not go through the prompts still keeps the dirty text
    assert [c.text for c in store.pending()] == [FACTS + "unsaved"]
    dirty.editor.undo()
    assert keeper.finish()
    assert store.pending() == []


def test_a_garbled_recovery_file_is_skipped_with_a_message(
        qtbot, pack: Path, store: RecoveryStore, make_keeper) -> None:  # type: ignore[no-untyped-def]
    kept = store.write(pack / "KNOWLEDGE.md", pack, "recovered guide", None)
    bad = store.directory / "0123.json"
    bad.write_text('{"format": 1, "path": ')
    ask = Asker("later")
    keeper = make_keeper(ask=ask)
    assert keeper.offer_pending(None, lambda _p: None) == []
    [(copies, problems, single)] = ask.calls
    assert copies == [kept] and not single
    assert [p.file for p in problems] == [bad] and "not valid JSON" in problems[0].message
    assert not bad.exists() and bad.with_name("0123.json.unreadable").exists()  # reported once, kept for a human
    dialog = RecoveryDialog([(kept, DiskState.CHANGED)], problems)
    qtbot.addWidget(dialog)
    assert "0123.json" in dialog.problems.text() and "not valid JSON" in dialog.problems.text()
    assert store.pending() == [kept]  # Later: still there


def test_restoring_opens_the_text_as_an_unsaved_buffer(
        qtbot, pack: Path, store: RecoveryStore, make_tab, make_keeper) -> None:  # type: ignore[no-untyped-def]
    facts = pack / "compiled" / "facts.md"
    opened = make_tab(facts)  # what a crashed session had open
    store.write(facts, pack, FACTS + "typed before the crash\n", opened.document_state.stamp)
    facts.write_text("changed by someone else\n")  # after the crash, before the restore
    keeper = make_keeper(ask=Asker("restore"))
    tabs: list[EditorTab] = []

    def open_file(path: Path) -> EditorTab:
        tabs.append(make_tab(path))
        keeper.track(tabs[-1])
        return tabs[-1]

    assert keeper.offer_pending(None, open_file) == []
    [tab] = tabs
    assert tab.text() == FACTS + "typed before the crash\n" and tab.dirty
    tab.editor.undo()  # the restore is one undoable edit: back to the file as it is on disk
    assert tab.text() == "changed by someone else\n"
    tab.editor.redo()
    assert tab.save() is SaveOutcome.CONFLICT  # the window then asks before overwriting the newer file
    assert facts.read_text() == "changed by someone else\n"
    assert keeper.pending() == []


def test_opening_a_file_with_an_earlier_copy_asks_first(
        qtbot, pack: Path, store: RecoveryStore, make_tab, make_keeper) -> None:  # type: ignore[no-untyped-def]
    guide, facts = pack / "KNOWLEDGE.md", pack / "compiled" / "facts.md"
    store.write(guide, pack, "old guide", None)
    store.write(facts, pack, "old facts", None)
    ask = Asker("discard")
    keeper = make_keeper(ask=ask)
    tab = make_tab(guide)
    keeper.track(tab)
    assert [([c.relpath for c in copies], single) for copies, _p, single in ask.calls] == [(["KNOWLEDGE.md"], True)]
    assert tab.text() == KNOWLEDGE and not tab.dirty
    qtbot.waitUntil(lambda: [c.relpath for c in store.pending()] == ["compiled/facts.md"])
    ask.answer = "restore"
    other = make_tab(facts)
    keeper.track(other)
    assert other.text() == "old facts" and other.dirty
    assert keeper.pending() == []


def test_a_file_that_cannot_be_opened_stays_pending(qtbot, pack: Path, store: RecoveryStore, make_keeper) -> None:  # type: ignore[no-untyped-def]
    store.write(pack / "KNOWLEDGE.md", pack, "text", None)
    keeper = make_keeper(ask=Asker("restore"))
    with qtbot.waitSignal(keeper.message) as blocker:
        failed = keeper.offer_pending(None, lambda _p: None)
    assert [c.relpath for c in failed] == ["KNOWLEDGE.md"]
    assert "KNOWLEDGE.md" in blocker.args[0] and "kept" in blocker.args[0]
    assert [c.text for c in keeper.pending()] == ["text"] and len(store.pending()) == 1


def test_a_copy_another_running_studio_keeps_is_not_offered(pack: Path, store: RecoveryStore, make_keeper) -> None:
    copy = store.write(pack / "KNOWLEDGE.md", pack, "theirs", None)
    file = store.file_for(copy.path)
    doc = json.loads(file.read_text())
    doc["pid"] = os.getppid()  # alive: the process that started this test
    file.write_text(json.dumps(doc))
    assert make_keeper().pending() == []


def test_a_failed_write_is_reported_once(qtbot, pack: Path, tmp_path: Path, make_tab) -> None:  # type: ignore[no-untyped-def]
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the recovery folder should be")
    tab = make_tab(pack / "compiled" / "facts.md")
    # Owned by the tab, as the window owns its keeper: deleted with it in Qt's order, not whenever
    # Python's collector gets to it.
    keeper = RecoveryKeeper(RecoveryStore(blocked / "recovery"), tab, delay_ms=FAST_MS, ask=Asker())
    messages: list[str] = []
    keeper.message.connect(messages.append)
    keeper.track(tab)
    type_into(qtbot, tab, "a")
    qtbot.waitUntil(lambda: len(messages) == 1)
    type_into(qtbot, tab, "b")
    qtbot.wait(4 * FAST_MS)
    assert keeper.wait()
    qtbot.wait(FAST_MS)
    assert len(messages) == 1 and "recovery copy" in messages[0] and "facts.md" in messages[0]


def test_the_dialog_warns_and_returns_the_checked_copies(qtbot, pack: Path, store: RecoveryStore) -> None:  # type: ignore[no-untyped-def]
    a = store.write(pack / "KNOWLEDGE.md", pack, "guide", None)
    b = store.write(pack / "compiled" / "facts.md", pack, "facts", None)
    c = store.write(pack / "compiled" / "gone.md", pack, "orphan", None)
    dialog = RecoveryDialog([(a, DiskState.UNCHANGED), (b, DiskState.CHANGED), (c, DiskState.MISSING)])
    qtbot.addWidget(dialog)
    notes = [dialog.table.topLevelItem(i).text(3) for i in range(3)]
    assert notes == ["unchanged", "changed on disk since", "file no longer exists"]
    assert dialog.checked() == [a, b]  # a missing file is not restorable, so not checked
    dialog.table.setCurrentItem(dialog.table.topLevelItem(1))
    assert dialog.preview.toPlainText() == "facts" and "saving asks before" in dialog.note.text()
    dialog.table.topLevelItem(0).setCheckState(0, Qt.CheckState.Unchecked)
    asked: list[int] = []
    dialog.confirm_discard = lambda _parent, n: asked.append(n) is None and False  # the user says Cancel
    dialog.discard_button.click()
    assert asked == [1] and dialog.choice.discard == [] and dialog.isVisible() is False
    dialog.restore_button.click()
    assert dialog.choice.restore == [b] and dialog.result() == dialog.DialogCode.Accepted


def test_the_single_file_dialog_has_no_later(qtbot, pack: Path, store: RecoveryStore) -> None:  # type: ignore[no-untyped-def]
    a = store.write(pack / "KNOWLEDGE.md", pack, "guide", None)
    dialog = RecoveryDialog([(a, DiskState.UNCHANGED)], single=True)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.later_button is None and "KNOWLEDGE.md" in dialog.findChildren(type(dialog.note))[0].text()
    dialog.reject()  # Esc: ignored, the old text must not be left to be overwritten
    assert dialog.isVisible()
    dialog.confirm_discard = lambda _parent, _n: True
    dialog.discard_button.click()
    assert dialog.choice.discard == [a] and not dialog.isVisible()


def test_a_copy_the_file_already_holds_is_dropped_without_asking(pack: Path, store: RecoveryStore) -> None:
    saved = store.write(pack / "KNOWLEDGE.md", pack, KNOWLEDGE, None)  # saved, then the app died
    choice = offer_recovery(None, [saved])  # would block on a modal dialog if it showed one
    assert choice.discard == [saved] and choice.restore == []


def test_recovery_folder_follows_a_passed_in_settings_file(settings) -> None:  # type: ignore[no-untyped-def]
    assert default_recovery_dir(settings) == Path(settings.fileName()).parent / "recovery"


def test_copies_from_packs_outside_the_workspace_wait_until_their_file_is_opened(
        qtbot, pack: Path, store: RecoveryStore, tmp_path: Path, make_pack, make_tab, make_keeper) -> None:  # type: ignore[no-untyped-def]
    other = make_pack("other", KNOWLEDGE, parent=tmp_path / "elsewhere")
    here = store.write(pack / "KNOWLEDGE.md", pack, "here", None)
    store.write(other / "KNOWLEDGE.md", other, "there", None)
    ask = Asker("later")
    keeper = make_keeper(ask=ask)
    keeper.offer_pending(None, lambda _p: None, can_open=lambda p: p.is_relative_to(pack))
    assert ask.calls[0][0] == [here] and ask.elsewhere == [1]
    assert len(keeper.pending()) == 2 and len(store.pending()) == 2  # Later keeps both
    with qtbot.waitSignal(keeper.message) as blocker:  # nothing openable: no dialog, a status message
        keeper.offer_pending(None, lambda _p: None, can_open=lambda _p: False)
    assert len(ask.calls) == 1 and "2 file(s)" in blocker.args[0]


def test_the_preview_opens_at_the_first_line_that_differs_from_the_file() -> None:
    from studio.ui.widgets.recovery_dialog import first_changed_line

    assert first_changed_line("a\nb\nc", "a\nB\nc") == 1
    assert first_changed_line("a\nb", "a\nb\ntyped at the end") == 2
    assert first_changed_line("a\nb\nc", "a") == 0
    assert first_changed_line("a\nb\nc", "a\nb") == 1
    assert first_changed_line("same", "same") == 0
