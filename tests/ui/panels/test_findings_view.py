"""The resolver's Warnings & gaps: long sentences wrap instead of being cut, rows have tooltips and can be copied."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from studio.core.resolver import ResolveResult
from studio.core.resolver.explain import ResolveWarning
from studio.ui.panels.resolver_results import FindingsView

LONG = ("compiled/splits/brief/pricing.md#pricing carries a stale claim (price) from sources/spec-sheet.md#L1; "
        "review it before relying on it, because the price may have changed since the spec sheet was written.")


def result() -> ResolveResult:
    return ResolveResult(
        task="t", packs=[], warnings=[ResolveWarning("warning", LONG, "compiled/splits/brief/pricing.md", "falcon"),
                                      ResolveWarning("info", "Short one.", None, "falcon")],
        citation_gaps=[{"missing": ["no loaded context mentions \u201cgrinder\u201d"],
                        "recommendation": "ask_user_or_mark_unknown"}],
        missing=[], tokens_used=0, budget=100, fenced_text="", tokenizer_name="cl100k_base",
        tokenizer_available=True)


def test_long_findings_wrap_and_keep_their_full_text_in_a_tooltip(qtbot) -> None:
    view = FindingsView()
    qtbot.addWidget(view)
    view.resize(520, 400)
    view.show()
    view.show_result(result())
    warnings = view.topLevelItem(0)
    long_row, short_row = warnings.child(0), warnings.child(1)
    qtbot.waitUntil(lambda: view.visualItemRect(long_row).height() > 1.8 * view.visualItemRect(short_row).height())
    assert long_row.toolTip(0).startswith(f"warning: {LONG}") and "path: compiled/splits" in long_row.toolTip(0)
    # Widening the column gives the text room: the row gets shorter again.
    tall = view.visualItemRect(long_row).height()
    view.resize(1400, 400)
    qtbot.waitUntil(lambda: view.visualItemRect(long_row).height() < tall)


def test_ctrl_c_and_copy_all_put_the_rows_on_the_clipboard(qtbot) -> None:
    view = FindingsView()
    qtbot.addWidget(view)
    view.show()
    view.show_result(result())
    view.setCurrentItem(view.topLevelItem(0).child(0))
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == f"warning: {LONG} [falcon: compiled/splits/brief/pricing.md]"
    everything = view.copy_all()
    assert everything.splitlines()[0] == "Warnings (2)" and "grinder" in everything
    assert QApplication.clipboard().text() == everything
