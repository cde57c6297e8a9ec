"""The simulator's result views: fenced output, warnings and citation gaps, comparison, reference dry run."""

from __future__ import annotations

import json

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.resolver import Decision, ResolveResult
from studio.core.terminal import printable
from studio.ui.highlighter import PygmentsHighlighter
from studio.ui.pack_text_view import PackTextView
from studio.ui.panels._compare import Comparison, item_key
from studio.ui.panels.record_view import monospace_font
from studio.ui.row_table import size_columns
from studio.ui.shown_text import as_typed
from studio.ui.theme import is_dark


class FenceView(QWidget):
    """The fenced context exactly as the model would receive it, read-only, with its token count."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.count = QLabel("No result yet.")
        self.count.setWordWrap(True)
        self.text = PackTextView()
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
        if self.text.exact_text() != result.fenced_text:  # keeps the scroll position when nothing changed
            self.text.setPlainText(result.fenced_text)


class FindingsView(QTreeWidget):
    """Resolver warnings (severity and message, pack, path) and citation gaps, in two groups.

    Messages are sentences: they wrap at the column's width (re-laid out when it changes) instead of being cut,
    each row's tooltip holds its full text, and Ctrl+C or the context menu copies the selected rows (or all).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(["Finding", "Pack", "Path"])
        self.setWordWrap(True)
        self.setUniformRowHeights(False)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(1, 130)
        header.resizeSection(2, 170)
        # Row heights depend on the wrapped width: lay the rows out again when a column changes size.
        header.sectionResized.connect(lambda *_: self.scheduleDelayedItemsLayout())
        self.setItemDelegate(_WrappingDelegate(self))
        self.copy_action = QAction("Copy", self)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)  # shown in the menu; keyPressEvent copies
        self.copy_action.triggered.connect(self.copy_selected)
        self.copy_all_action = QAction("Copy all", self)
        self.copy_all_action.triggered.connect(self.copy_all)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # The view's own Ctrl+C copies one cell's text; a finding is the whole row.
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_selected()
            event.accept()
            return
        super().keyPressEvent(event)

    def show_result(self, result: ResolveResult) -> None:
        self.clear()
        warnings = QTreeWidgetItem([f"Warnings ({len(result.warnings)})"])
        for w in result.warnings:
            code = f" [{w.code}]" if w.code else ""
            warnings.addChild(_row(f"{w.severity}: {w.message}{code}", w.pack or "", w.path or ""))
        gaps = QTreeWidgetItem([f"Citation gaps ({len(result.citation_gaps)})"])
        for gap in result.citation_gaps:
            if "missing" in gap:
                missing = gap.get("missing") or []
                text = f"missing facts: {'; '.join(str(m) for m in missing)} ({gap.get('recommendation', '')})"
                gaps.addChild(_row(text, "", ""))
            else:
                gaps.addChild(_row(str(gap.get("reason", "")), "", str(gap.get("path", ""))))
        self.addTopLevelItems([warnings, gaps])
        warnings.setExpanded(True)
        gaps.setExpanded(True)

    def row_texts(self, items: list[QTreeWidgetItem]) -> list[str]:
        """Each row as one line of plain text: ``finding [pack: path]`` (group rows as their title)."""
        out = []
        for item in items:
            finding, pack, path = (item.text(c) for c in range(3))
            where = ": ".join(part for part in (pack, path) if part)
            out.append(f"{finding} [{where}]" if where else finding)
        return out

    def copy_selected(self) -> str:
        """Copy the selected rows (in tree order) to the clipboard; returns the text copied."""
        chosen = set(map(id, self.selectedItems()))
        return self._copy([item for item in self._all_items() if id(item) in chosen])

    def copy_all(self) -> str:
        return self._copy(self._all_items())

    def _copy(self, items: list[QTreeWidgetItem]) -> str:
        text = "\n".join(self.row_texts(items))
        if text:
            QApplication.clipboard().setText(text)
        return text

    def _all_items(self) -> list[QTreeWidgetItem]:
        items: list[QTreeWidgetItem] = []
        for i in range(self.topLevelItemCount()):
            group = self.topLevelItem(i)
            if group is None:  # only past the last row (the stubs cannot tell)
                continue
            items.append(group)
            items.extend(child for j in range(group.childCount()) if (child := group.child(j)) is not None)
        return items

    def _menu(self, position: QPoint) -> None:
        menu = QMenu(self)
        self.copy_action.setEnabled(bool(self.selectedItems()))
        menu.addAction(self.copy_action)
        menu.addAction(self.copy_all_action)
        menu.exec(self.viewport().mapToGlobal(position))


class _WrappingDelegate(QStyledItemDelegate):
    """Row heights for wrapped text: a tree view asks its delegate for a height without the column's width, so
    the text would be measured on one line; this measures it at the width the cell really has."""

    def __init__(self, view: QTreeWidget) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if not isinstance(text, str) or not text:
            return size
        width = self.view.columnWidth(index.column())
        if index.column() == 0:
            depth = 1 if self.view.rootIsDecorated() else 0
            parent = index.parent()
            while parent.isValid():
                depth += 1
                parent = parent.parent()
            width -= depth * self.view.indentation()
        width = max(width - 2 * _TEXT_MARGIN, 40)
        bounds = option.fontMetrics.boundingRect(QRect(0, 0, width, 1_000_000),
                                                 int(Qt.TextFlag.TextWordWrap | Qt.TextFlag.TextWrapAnywhere), text)
        return QSize(size.width(), max(size.height(), bounds.height() + 2 * _TEXT_MARGIN))


_TEXT_MARGIN = 4


def _row(finding: str, pack: str, path: str) -> QTreeWidgetItem:
    finding, pack, path = printable(finding), printable(pack), printable(path)  # warnings quote pack text
    item = QTreeWidgetItem([finding, pack, path])
    parts = (finding, f"pack: {pack}" if pack else "", f"path: {path}" if path else "")
    tip = "\n".join(part for part in parts if part)
    for column in range(3):
        item.setToolTip(column, as_typed(tip))
    return item


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
        size_columns(self.tree.header(), (250, 120, 56))
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
        self.text = PackTextView()
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
