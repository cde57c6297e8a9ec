"""The simulator's result views: fenced output, warnings and citation gaps, comparison, reference dry run."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from studio.core.resolver import Decision, ResolveResult
from studio.ui.highlighter import PygmentsHighlighter
from studio.ui.panels._compare import Comparison, item_key
from studio.ui.panels.record_view import monospace_font
from studio.ui.theme import is_dark


class FenceView(QWidget):
    """The fenced context exactly as the model would receive it, read-only, with its token count."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.count = QLabel("No result yet.")
        self.count.setWordWrap(True)
        self.text = QPlainTextEdit(readOnly=True)
        self.text.setFont(monospace_font())
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        # The wrappers are XML-like tags around Markdown; tag colouring makes pack boundaries easy to see.
        self.highlighter = PygmentsHighlighter(self.text.document(), "xml", dark=is_dark())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.count)
        layout.addWidget(self.text, 1)

    def show_result(self, result: ResolveResult) -> None:
        if result.tokenizer_available:
            self.count.setText(f"{result.tokens_used:,} tokens ({result.tokenizer_name}) of {result.budget:,}")
        else:
            self.count.setText(f"Token counts unavailable: {result.tokenizer_reason or result.tokenizer_name}")
        if self.text.toPlainText() != result.fenced_text:  # keeps the scroll position when nothing changed
            self.text.setPlainText(result.fenced_text)


class FindingsView(QTreeWidget):
    """Resolver warnings (pack, severity, path, message) and citation gaps, in two groups."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(["Finding", "Pack", "Path"])
        self.setColumnWidth(0, 380)
        self.setWordWrap(True)

    def show_result(self, result: ResolveResult) -> None:
        self.clear()
        warnings = QTreeWidgetItem([f"Warnings ({len(result.warnings)})"])
        for w in result.warnings:
            warnings.addChild(QTreeWidgetItem([f"{w.severity}: {w.message}", w.pack or "", w.path or ""]))
        gaps = QTreeWidgetItem([f"Citation gaps ({len(result.citation_gaps)})"])
        for gap in result.citation_gaps:
            if "missing" in gap:
                missing = gap.get("missing") or []
                text = f"missing facts: {'; '.join(str(m) for m in missing)} ({gap.get('recommendation', '')})"
                gaps.addChild(QTreeWidgetItem([text, "", ""]))
            else:
                gaps.addChild(QTreeWidgetItem([str(gap.get("reason", "")), "", str(gap.get("path", ""))]))
        self.addTopLevelItems([warnings, gaps])
        warnings.setExpanded(True)
        gaps.setExpanded(True)


def _decision_text(d: Decision) -> list[str]:
    where = f"{d.path} § {d.section}" if d.section else d.path
    return [where, d.pack, "" if d.tokens is None else f"{d.tokens:,}", d.reason]


class CompareView(QWidget):
    """What entered and what left since the pinned result, and the token delta."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("Pin a result to compare later runs with it.")
        self.summary.setWordWrap(True)  # a long summary must not force the tabs wider than the table
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Item", "Pack", "Tokens", "Reason now"])
        for column, width in enumerate((250, 120, 56)):
            self.tree.setColumnWidth(column, width)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree, 1)

    def show_comparison(self, comparison: Comparison | None, pinned_label: str = "") -> None:
        self.tree.clear()
        if comparison is None:
            self.summary.setText("Pin a result to compare later runs with it.")
            return
        delta = comparison.tokens_delta
        self.summary.setText(
            f"Against the pinned result ({pinned_label}): {len(comparison.entered)} entered, "
            f"{len(comparison.left)} left, {comparison.kept} kept, tokens {delta:+,}")
        entered = QTreeWidgetItem([f"Entered ({len(comparison.entered)})"])
        entered.addChildren([QTreeWidgetItem(_decision_text(d)) for d in comparison.entered])
        left = QTreeWidgetItem([f"Left ({len(comparison.left)})"])
        for d in comparison.left:
            now = comparison.left_now.get(item_key(d))
            row = _decision_text(d)
            row[3] = now.reason if now else "no longer a candidate"
            left.addChild(QTreeWidgetItem(row))
        self.tree.addTopLevelItems([entered, left])
        entered.setExpanded(True)
        left.setExpanded(True)


class ReferenceView(QWidget):
    """The reference CLI's dry run for each pack, and how its pick differs from the simulator's."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("Tick reference mode to see what the reference CLI's method would pick.")
        self.summary.setWordWrap(True)
        self.text = QPlainTextEdit(readOnly=True)
        self.text.setFont(monospace_font())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.text, 1)

    def show_result(self, result: ResolveResult) -> None:
        if result.reference is None:
            self.summary.setText("Tick reference mode to see what the reference CLI's method would pick.")
            self.text.clear()
            return
        lines = []
        for pack, ref in zip(result.packs, result.reference, strict=False):
            ours = {d.path for d in pack.selected}
            theirs = [str(p) for p in ref.get("selected_files", [])]
            only_ref = [p for p in theirs if p not in ours]
            only_ours = sorted(ours - set(theirs))
            lines.append(f"{pack.name}: reference picks {len(theirs)} files (~{ref.get('token_estimate', 0):,} "
                         f"tokens, chars/4); only the reference: {', '.join(only_ref) or 'none'}; "
                         f"only the simulator: {', '.join(only_ours) or 'none'}")
        self.summary.setText("\n".join(lines) or "No pack was resolved.")
        self.text.setPlainText(json.dumps(result.reference, ensure_ascii=False, indent=2))
