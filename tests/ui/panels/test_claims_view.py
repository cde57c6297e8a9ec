"""The Review mode's Claims tab driven from the keyboard: claims with their disputes, a thread with its evidence,
steps recorded from the form, the fences before and after a decision side by side, hostile text shown escaped."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.core.dispute_actions import prepare_step, write_step
from studio.core.pack import load_pack
from studio.core.resources import examples_dir
from studio.ui.panels.claims_view import ClaimsView
from studio.ui.panels.review_panel import ReviewPanel

CLAIM = "nw-boiler-volumes"
HOSTILE = "Rev D \u202eEVIL\u202c <b>bold</b> \x1b[31m"


def _pack(tmp_path: Path, disputed: bool = True) -> Path:
    root = tmp_path / "northwind-espresso"
    shutil.copytree(examples_dir() / "northwind-espresso", root)
    if disputed:
        write_step(root, prepare_step(root, "northwind-espresso", CLAIM, "open", "rev E says 1.0 L",
                                      evidence=["sources/engineering-spec-sheet.md:10"], author="ana"))
        write_step(root, prepare_step(root, "northwind-espresso", CLAIM, "comment", HOSTILE, author="eve"))
    return root


def _view(qtbot, root: Path) -> ClaimsView:  # type: ignore[no-untyped-def]
    view = ClaimsView()
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    with qtbot.waitSignal(view.loaded, timeout=10000):
        view.set_pack(load_pack(root))
    return view


def test_claims_list_status_evidence_and_open_disputes_first(qtbot, qtmodeltester, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    view = _view(qtbot, _pack(tmp_path))
    qtmodeltester.check(view.model)
    first = view.model.items[0]
    assert (first.claim.claim_id, first.dispute) == (CLAIM, "open")
    assert "22 claim(s), 1 open dispute(s)" in view.heading.text()
    assert [view.model.headerData(c, Qt.Orientation.Horizontal) for c in range(5)] == [
        "Claim", "Status", "Evidence", "Dispute", "Text"]
    assert view.selected_claim() == CLAIM


def test_the_thread_shows_evidence_inline_and_hostile_text_as_visible_marks(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    view = _view(qtbot, _pack(tmp_path))
    text = view.thread_view.toPlainText()
    assert "evidence sources/engineering-spec-sheet.md:10" in text and "| - Brew boiler: 0.8 L" in text
    assert "\u202e" not in text and "\x1b" not in text
    assert "\\u202eEVIL\\u202c <b>bold</b> \\x1b[31m" in text


def test_a_comment_and_a_decision_are_recorded_with_the_keyboard_only(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _pack(tmp_path)
    view = _view(qtbot, root)
    assert view.action.currentData() == "comment"  # an open dispute: the form offers a comment
    view.author.setFocus()
    QTest.keyClicks(view.author, "bo")
    QTest.keyClick(view.author, Qt.Key.Key_Tab)
    assert view.text.hasFocus()
    QTest.keyClicks(view.text, "Rev D is still sold")
    with qtbot.waitSignal(view.recorded, timeout=10000) as written, qtbot.waitSignal(view.loaded, timeout=10000):
        QTest.keyClick(view.text, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    data = json.loads(Path(written.args[0]).read_text())
    assert (data["step"], data["author"], data["text"]) == ("comment", "bo", "Rev D is still sold")
    assert "bo (comment): Rev D is still sold" in view.thread_view.toPlainText()

    view.action.setFocus()
    QTest.keyClick(view.action, Qt.Key.Key_Down)  # Comment -> Decide
    assert view.action.currentData() == "decide" and view.decision.isEnabled()
    view.decision.setFocus()
    QTest.keyClick(view.decision, Qt.Key.Key_Down)  # keep -> amend
    assert view.new_text.isEnabled()
    QTest.keyClicks(view.new_text, "The brew boiler holds 1.0 L.")
    view.text.setFocus()
    QTest.keyClicks(view.text, "rev E is current")
    with qtbot.waitSignal(view.recorded, timeout=10000), qtbot.waitSignal(view.loaded, timeout=10000):
        QTest.keyClick(view.text, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert view.model.items[[r.claim.claim_id for r in view.model.items].index(CLAIM)].dispute == "decided: amend"
    assert "new text: The brew boiler holds 1.0 L." in view.thread_view.toPlainText()


def test_a_refused_step_says_why_and_writes_nothing(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _pack(tmp_path)
    before = sorted(p.name for p in (root / "runs").iterdir())
    view = _view(qtbot, root)
    view.evidence.setText("../../etc/passwd")
    view.text.setPlainText("see this")
    view.record_step()
    qtbot.waitUntil(lambda: view.last_message.startswith("Not recorded"), timeout=10000)
    assert "outside the pack" in view.last_message and "nothing written" in view.last_message
    assert sorted(p.name for p in (root / "runs").iterdir()) == before


def test_fences_before_and_after_a_decision_side_by_side(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    view = _view(qtbot, _pack(tmp_path))
    view.task.setFocus()
    QTest.keyClicks(view.task, "how big is the brew boiler")
    with qtbot.waitSignal(view.fences_shown, timeout=30000):
        QTest.keyClick(view.task, Qt.Key.Key_Return)
    before, after = view.before.toPlainText(), view.after.toPlainText()
    assert "disputed claim (nw-boiler-volumes)" in before  # the open dispute
    assert "nw-boiler-volumes" not in after.split("Fence:")[0]  # decision 'keep' (the default): no warning
    assert "<knowledge_pack" in before and "<knowledge_pack" in after
    assert "2 warning(s) gone" in view.last_message


def test_built_in_packs_show_their_claims_read_only(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = ClaimsView()
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loaded, timeout=10000):
        view.set_pack(load_pack(examples_dir() / "northwind-espresso"))
    assert view.model.rowCount() > 0 and not view.record_button.isEnabled()
    assert "read-only" in view.heading.text()


def test_the_review_panel_has_a_claims_tab_following_the_current_pack(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = load_pack(_pack(tmp_path, disputed=False))
    panel = ReviewPanel([pack])
    qtbot.addWidget(panel)
    panel.follow([pack], pack)
    with qtbot.waitSignal(panel.claims.loaded, timeout=10000):
        panel.show_claims()
    assert panel.tabs.tabText(panel.tabs.currentIndex()) == "&Claims"
    assert panel.claims.pack is not None and panel.claims.pack.root == pack.root
    assert panel.claims.action.currentData() == "open"  # no dispute yet: the form offers to open one


def test_dispute_records_are_shown_in_runs_mode(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.panels.runs_panel import RunsPanel

    root = _pack(tmp_path)
    panel = RunsPanel()
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.loaded, timeout=10000):
        panel.set_pack(load_pack(root))
    panel.set_kind_filter("dispute-record")
    shown = panel.visible_records()
    assert len(shown) == 2 and all(r.validity.value == "valid" for r in shown)
    assert sorted(r.summary for r in shown) == ["dispute on nw-boiler-volumes: comment by eve",
                                                "dispute on nw-boiler-volumes: opened by ana"]
