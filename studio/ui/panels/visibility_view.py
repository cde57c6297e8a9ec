"""VisibilityView: who sees a pack: every scope root holding its name, the copy that wins in each, and what a
client with this context (or without one of its scopes) loads, under the standard precedence or user-first.

Shows a ``VisibilityReport`` (``studio.core.visibility``). ``show_workspace`` computes one from a loaded
``Workspace``: that is pure over packs already in memory (no file is read), cheap enough for the GUI thread.
The report holds both policies' answers, so switching the policy re-renders without recomputing; contexts where
the two policies load different copies are highlighted.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from PySide6.QtCore import QEvent, QMargins, QObject, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics
from PySide6.QtWidgets import (
    QButtonGroup,
    QHeaderView,
    QLabel,
    QRadioButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.diagnostics import counted
from studio.core.terminal import printable
from studio.core.visibility import ContextView, PackCopy, Policy, VisibilityReport, visibility
from studio.core.workspace import Workspace
from studio.ui.fit import FlowLayout, wrap_label
from studio.ui.pack_text_view import PackTextView
from studio.ui.shown_text import as_typed, short_line

CHANGED_COLOR = QColor(217, 119, 6, 60)
WARNING_COLOR = QColor("#b45309")
MUTED_COLOR = QColor("#8a8f98")
COPY_ROLE = Qt.ItemDataRole.UserRole + 60
CONTEXT_ROLE = Qt.ItemDataRole.UserRole + 61
POLICY_LABELS = {Policy.STANDARD: "Standard", Policy.USER_FIRST: "User first"}


def telling_paths(copies: list[PackCopy]) -> dict[Path, str]:
    """Each copy's shortest path suffix that no other copy shares (``proj/.agents/knowledge/acme`` rather than
    ``.agents/knowledge/acme`` twice): two packs of one name are never shown the same way."""
    roots = list(dict.fromkeys(c.root for c in copies))
    longest = max((len(r.parts) for r in roots), default=1)
    for n in range(2, longest + 1):
        suffixes = {r: str(Path(*r.parts[-n:])) for r in roots}
        if len(set(suffixes.values())) == len(roots):
            return suffixes
    return {r: str(r) for r in roots}


def copy_text(copy: PackCopy | None, paths: dict[Path, str] | None = None) -> str:
    if copy is None:
        return "nothing"
    return f"{copy.scope.value} copy ({_text((paths or {}).get(copy.root, str(copy.root)))})"


def _text(value: str) -> str:
    return printable(value)


class VisibilityView(QWidget):
    """Signals:
        policy_changed(str): the policy shown first changed (``standard`` or ``user-first``).
        open_pack_requested(Path): the user double-clicked a copy (its ``KNOWLEDGE.md``).
    """

    policy_changed = Signal(str)
    open_pack_requested = Signal(Path)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report: VisibilityReport | None = None
        self.paths: dict[Path, str] = {}
        self.policy = Policy.STANDARD
        self.narrow = False
        """True while the view is narrower than ``NARROW`` (a dock beside the editor): each table is then one
        column, a row a few short lines, instead of five columns cut to a few letters each."""
        self.line_chars = 0
        """Narrow: the characters a line of a table holds (its rows are wrapped to this, paths included)."""
        self.title = QLabel("Select a pack to see which scopes can see it.")
        self.title.setTextFormat(Qt.TextFormat.PlainText)  # it names the pack: the author's text
        self.title.setWordWrap(True)
        bold = QFont(self.title.font())
        bold.setBold(True)
        self.title.setFont(bold)
        self.buttons = QButtonGroup(self)
        policy_row = FlowLayout()
        policy_row.add(QLabel("Precedence:"))
        self.radios: dict[Policy, QRadioButton] = {}
        for policy in Policy:
            radio = QRadioButton(POLICY_LABELS[policy])
            radio.setToolTip(policy.describe)
            radio.setChecked(policy is self.policy)
            radio.toggled.connect(lambda on, p=policy: self.set_policy(p) if on else None)
            self.buttons.addButton(radio)
            self.radios[policy] = radio
            policy_row.add(radio)
        self.order = wrap_label(QLabel(self.policy.describe))
        self.order.setStyleSheet("color: gray")

        self.roots = QTreeWidget()
        self.roots.setHeaderLabels(ROOT_COLUMNS)
        self.roots.itemDoubleClicked.connect(self._open_copy)
        self.contexts = QTreeWidget()
        self.contexts.setRootIsDecorated(False)
        for tree in (self.roots, self.contexts):
            _fit_columns(tree)
            tree.installEventFilter(self)
        self.contexts.itemSelectionChanged.connect(self._explain_selected)
        self.why = PackTextView()
        self.why.setMaximumHeight(110)
        split = QSplitter(Qt.Orientation.Vertical)
        for widget in (self.roots, self.contexts, self.why):
            split.addWidget(widget)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addLayout(policy_row)
        layout.addWidget(self.order)
        layout.addWidget(split, 1)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A table's own resize (after the layout gave it its width): across NARROW the rows are laid out again
        # (columns or lines); otherwise the columns share the new width.
        if event.type() == QEvent.Type.Resize and watched in (self.roots, self.contexts):
            if self.report is not None and ((self.width() < NARROW) != self.narrow
                                            or (self.narrow and self._line_chars() != self.line_chars)):
                self._render()
            elif isinstance(watched, QTreeWidget):
                _share_columns(watched, self.narrow)
        return super().eventFilter(watched, event)

    # -- input --------------------------------------------------------------------------------------------
    def show_workspace(self, workspace: Workspace, name: str) -> VisibilityReport:
        """Compute and show who sees ``name`` in ``workspace`` (pure, no file is read)."""
        report = visibility(workspace, name, self.policy)
        self.show_report(report)
        return report

    def show_report(self, report: VisibilityReport | None) -> None:
        self.report = report
        self._render()

    def set_policy(self, policy: Policy | str) -> None:
        policy = Policy(policy)
        if policy is self.policy:
            return
        self.policy = policy
        self.radios[policy].setChecked(True)
        self.order.setText(policy.describe)
        self._render()
        self.policy_changed.emit(policy.value)

    # -- output -------------------------------------------------------------------------------------------
    def _render(self) -> None:
        shown_item = self.contexts.currentItem()
        current = self.contexts.indexOfTopLevelItem(shown_item) if shown_item is not None else 0
        self.narrow = self.width() < NARROW
        self.line_chars = self._line_chars()
        for tree in (self.roots, self.contexts):
            tree.setWordWrap(not self.narrow)  # narrow rows are wrapped here: a tree row's height ignores wrapping
        self.roots.clear()
        self.contexts.clear()
        self.why.clear()
        report = self.report
        if report is None:
            self.title.setText("Select a pack to see which scopes can see it.")
            return
        other = Policy.USER_FIRST if self.policy is Policy.STANDARD else Policy.STANDARD
        winner = report.winner(self.policy)
        self.paths = telling_paths(report.copies)
        self.title.setText(f"{short_line(report.name)}: {counted(len(report.copies), 'copy', 'copies')} in "
                           f"{counted(sum(1 for r in report.roots if r.copies), 'scope root')}; this context loads "
                           f"{copy_text(winner, self.paths)}")
        self.roots.setColumnCount(1 if self.narrow else len(ROOT_COLUMNS))
        self.roots.setHeaderLabels(["Scope roots, copies"] if self.narrow else ROOT_COLUMNS)
        self.contexts.setColumnCount(1 if self.narrow else 4)
        self._fill_roots(report, winner)
        self.contexts.setHeaderLabels([f"Contexts ({POLICY_LABELS[self.policy]})"]
                                      if self.narrow else
                                      ["Client context", f"Loads ({POLICY_LABELS[self.policy]})",
                                       f"{POLICY_LABELS[other]} would load", ""])
        for ctx in report.contexts:
            self._add_context(ctx, other)
        shown = self.contexts.topLevelItem(current) or self.contexts.topLevelItem(0)
        if shown is not None:
            self.contexts.setCurrentItem(shown)
        for tree in (self.roots, self.contexts):
            _share_columns(tree, self.narrow)
            _show_every_row(tree)

    def minimumSizeHint(self) -> QSize:
        """At least the height the view wraps to at its width: a layout asks its wrapping labels and rows of
        radio buttons for their one-line minimum, and the tables below were squeezed under theirs in a narrow
        dock (the view scrolls in its dock instead)."""
        hint = super().minimumSizeHint()
        layout = self.layout()
        if layout is not None and layout.hasHeightForWidth():
            hint.setHeight(max(hint.height(), layout.minimumHeightForWidth(self.width())))
        return hint

    def _line_chars(self) -> int:
        # The tables' width from the view's (both tables' own sizes may not be updated yet), less the frame and
        # the two indentations a copy sits at; its winner is bold, and some letters are wider than the average.
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else QMargins()
        width = (self.width() - margins.left() - margins.right() - 2 * self.roots.frameWidth()
                 - 2 * self.roots.indentation() - 8)
        bold = QFont(self.font())
        bold.setBold(True)
        return max(12, int(width / (1.15 * max(1, QFontMetrics(bold).averageCharWidth()))))

    def _lines(self, lines: list[str]) -> str:
        """``lines`` wrapped to ``line_chars`` (a path breaks anywhere: it has no space to break at)."""
        return "\n".join(part for line in lines
                         for part in textwrap.wrap(line, self.line_chars, max_lines=WRAP_LINES) or [""])

    def _fill_roots(self, report: VisibilityReport, loaded: PackCopy | None) -> None:
        for root in report.roots:
            if not root.exists and not root.copies:
                continue  # a location that was looked at but is not there: only noise here
            path = _text(str(root.path))
            item = QTreeWidgetItem([self._lines([f"{root.scope.value} scope root:", path])] if self.narrow
                                   else [path, root.scope.value, "", "", ""])
            here = f"{counted(len(root.copies), 'copy', 'copies')} here" if root.copies else "no copy here"
            item.setToolTip(0, as_typed(f"{path}\n{here}"))
            if not root.copies:
                item.setForeground(0, QBrush(MUTED_COLOR))
            for copy in root.copies:
                wins = copy is root.winner
                label = ("\u2605 wins here: " if wins else "") + _text(copy.root.name)
                if copy is loaded:
                    label += "  (loaded in this context)"
                columns = [copy.scope.value, copy.status or "-", copy.trust or "-", copy.version or "-"]
                child = QTreeWidgetItem([self._lines([*label.split("  "), " \u00b7 ".join(columns)])]
                                        if self.narrow else [label, *columns])
                child.setData(0, COPY_ROLE, copy)
                facts = f"\nstatus {copy.status or '-'}, trust {copy.trust or '-'}, version {copy.version or '-'}"
                child.setToolTip(0, as_typed(_text(str(copy.root)) + facts + (
                    "" if copy.competes else f"\nDoes not load: {_text(copy.why_not)}")))
                if wins:
                    font = child.font(0)
                    font.setBold(True)
                    child.setFont(0, font)
                if not copy.competes:
                    for column in range(child.columnCount()):
                        child.setForeground(column, QBrush(MUTED_COLOR))
                item.addChild(child)
            self.roots.addTopLevelItem(item)
            item.setExpanded(True)

    def _add_context(self, ctx: ContextView, other: Policy) -> None:
        main, alt = ctx.outcomes[self.policy], ctx.outcomes[other]
        mark = "differs" if ctx.differs else ""
        if main.lower_trust is not None:
            mark = (mark + ", " if mark else "") + "lower trust wins"
        loads, alt_loads = _text(copy_text(main.winner, self.paths)), _text(copy_text(alt.winner, self.paths))
        if self.narrow:
            lines = [ctx.label, f"loads {loads}",
                     f"{POLICY_LABELS[other].lower()} would load {alt_loads if ctx.differs else 'the same'}"]
            item = QTreeWidgetItem([self._lines(lines + ([mark] if mark else []))])
        else:
            item = QTreeWidgetItem([ctx.label, loads, alt_loads, mark])
        item.setToolTip(0, as_typed(f"{ctx.label}: {mark}" if mark else ctx.label))
        item.setToolTip(1, as_typed(_text(str(main.winner.root))) if main.winner else "")
        item.setToolTip(2, as_typed(_text(str(alt.winner.root))) if alt.winner else "")
        item.setData(0, CONTEXT_ROLE, ctx)
        if ctx.differs:
            for column in range(item.columnCount()):
                item.setBackground(column, QBrush(CHANGED_COLOR))
        if main.lower_trust is not None:
            item.setForeground(item.columnCount() - 1, QBrush(WARNING_COLOR))
        self.contexts.addTopLevelItem(item)

    def _explain_selected(self) -> None:
        item = self.contexts.currentItem()
        ctx = item.data(0, CONTEXT_ROLE) if item is not None else None
        if not isinstance(ctx, ContextView):
            self.why.clear()
            return
        self.why.setPlainText(explain(ctx, self.policy, self.paths))

    def _open_copy(self, item: QTreeWidgetItem, _column: int) -> None:
        copy = item.data(0, COPY_ROLE)
        if isinstance(copy, PackCopy):
            self.open_pack_requested.emit(copy.root / "KNOWLEDGE.md")


MAX_TABLE_ROWS = 8
"""Rows a table asks room for before it scrolls (a name has a handful of scope roots and contexts)."""


NARROW = 560
"""Below this width (a dock beside the editor) each table is one column of a few short lines a row."""
WRAP_LINES = 4
"""A line of a narrow row wraps onto at most this many (a longer one ends with an ellipsis; the tooltip has it)."""
ROOT_COLUMNS = ["Scope root / copy", "Scope", "Status", "Trust", "Version"]


def _fit_columns(tree: QTreeWidget) -> None:
    """Rows of several lines and columns that share the width: no horizontal scroll bar."""
    header = tree.header()
    header.setStretchLastSection(False)
    header.setMinimumSectionSize(24)
    tree.setWordWrap(True)
    tree.setUniformRowHeights(False)
    tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a path has no space to wrap at
    tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)


def _share_columns(tree: QTreeWidget, narrow: bool) -> None:
    """Narrow: the one column takes the width. Wide: every column as wide as its text, the first stretching."""
    header = tree.header()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    if narrow:
        tree.doItemsLayout()  # the rows' heights follow the new width


def _show_every_row(tree: QTreeWidget) -> None:
    """Ask for the height of the table's rows (up to ``MAX_TABLE_ROWS``): two tables of one visible row each
    told nothing; the view scrolls in its dock instead (``fit.scroll_page``)."""
    rows, item = 0, tree.topLevelItem(0)
    height = 0
    while item is not None and rows < MAX_TABLE_ROWS:
        height += max(tree.visualItemRect(item).height(), tree.fontMetrics().height() + 6)
        rows += 1
        item = tree.itemBelow(item)
    tree.setMinimumHeight(tree.header().sizeHint().height() + height + 2 * tree.frameWidth() + 4)


def explain(ctx: ContextView, policy: Policy, paths: dict[Path, str] | None = None) -> str:
    """The sentences shown under the table for one context."""
    other = Policy.USER_FIRST if policy is Policy.STANDARD else Policy.STANDARD
    main, alt = ctx.outcomes[policy], ctx.outcomes[other]
    lines = [f"{ctx.label[:1].upper()}{ctx.label[1:]}: a client loads {copy_text(main.winner, paths)}: {main.reason}."]
    if main.lower_trust is not None and main.winner is not None:
        lines.append(f"Warning (V57): this copy (trust {main.winner.trust or 'unreviewed'}) shadows a more trusted "
                     f"one (trust {main.lower_trust.trust}) at {main.lower_trust.root}.")
    if ctx.differs:
        lines.append(f"Under {other.value} precedence it would load {copy_text(alt.winner, paths)} instead: "
                     f"{alt.reason}.")
    else:
        lines.append(f"{other.value.capitalize()} precedence loads the same copy.")
    return "\n".join(_text(line) for line in lines)
