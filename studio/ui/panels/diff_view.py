"""DiffView: a pack diff report (``studio.core.diff``) as a tree of sections and changes, and the detail of the
change in focus; DiffDialog holds it in a window of its own, with "Copy as Markdown" for a pull request.

The tree has one top-level row per section of the report (frontmatter, files, claims, findings, tiers, resolver,
evals, notes), expanded when it holds changes, each change a row below it with its before and after. The pane
beside it shows the selected row in full: a tier's text diff, the files a resolver task picked before and after
with the reasons that changed, an eval case's measures. Arrow keys move through the tree and the pane follows.

Every text here comes from a pack, so it is shown through ``shown`` and ``shown_lines``: controls, line breaks and
bidirectional marks escaped (``studio.core.terminal.printable``), each line cut at ``MAX_LINE_CHARS`` and each
section at ``MAX_ROWS`` rows, so a hostile name or a megabyte-long line cannot make Qt lay out for seconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.diff.report import TIERS, PackDiff, ResolverDelta
from studio.core.diff.wording import claim_fields, count, measure, passed, short_json
from studio.core.terminal import printable
from studio.ui.buttons import command_button
from studio.ui.fit import splitter, wrap_label
from studio.ui.highlighter import PygmentsHighlighter
from studio.ui.pack_text_view import PackTextView
from studio.ui.panels.record_view import monospace_font
from studio.ui.row_table import size_columns
from studio.ui.shown_text import as_typed
from studio.ui.theme import is_dark

MAX_LINE_CHARS = 400
"""A line of pack text is cut here (with how much was left out): Qt lays out a long line in one piece."""
MAX_ROWS = 200
"""Rows shown per section; the rest are counted in a last row (Copy as Markdown and ``--format json`` have all)."""
MAX_DETAIL_LINES = 400
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 80
"""The text the detail pane shows for a row."""
COLORS = {"+": QColor("#2e7d32"), "-": QColor("#c62828"), "~": QColor("#b26a00"), ">": QColor("#1565c0")}
SECTIONS = ("frontmatter", "files", "claims", "findings", "tiers", "resolver", "evals", "notes")


def shown(text: str, limit: int = MAX_LINE_CHARS) -> str:
    """``text`` as one safe, bounded line: controls escaped, cut at ``limit`` characters."""
    if len(text) > limit:
        return printable(text[:limit]) + f"… ({len(text) - limit:,} more characters)"
    return printable(text)


def shown_lines(lines: Iterable[str], limit: int = MAX_DETAIL_LINES) -> str:
    """Lines of pack text as a safe, bounded block: each line escaped and cut, at most ``limit`` lines."""
    out: list[str] = []
    for i, line in enumerate(lines):
        if i >= limit:
            out.append("… (more lines: Copy as Markdown or pack-studio diff --format json has them)")
            break
        out.append(shown(line))
    return "\n".join(out)


class DiffView(QWidget):
    """The report of one comparison; ``show_report`` fills it, ``show_waiting``/``show_trouble`` say why not."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report: PackDiff | None = None
        self.heading = wrap_label(QLabel("No comparison yet."))
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.summary = wrap_label(QLabel())
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.trouble = wrap_label(QLabel())
        self.trouble.setTextFormat(Qt.TextFormat.PlainText)
        self.trouble.setStyleSheet("color: #c62828")
        self.trouble.hide()
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Change", "Before", "After"])
        self.tree.setUniformRowHeights(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        size_columns(self.tree.header(), (0, 110, 110), stretch=0)
        self.tree.currentItemChanged.connect(self._current_changed)
        self.detail = PackTextView(font=monospace_font(), wrap=False)  # tier text diffs are pack text
        self.detail.setPlaceholderText("Select a change to see it in full.")
        self.highlighter = PygmentsHighlighter(self.detail.document(), "changes.diff", is_dark())
        self.split = splitter(Qt.Orientation.Horizontal, (self.tree, 5), (self.detail, 4))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.heading)
        layout.addWidget(self.summary)
        layout.addWidget(self.trouble)
        layout.addWidget(self.split, 1)

    # -- states ----------------------------------------------------------------------------------------
    def show_waiting(self, what: str) -> None:
        self.report = None
        self.heading.setText(shown(what))
        self.summary.setText("Comparing… (reading both versions, running the resolver and the pack's evals)")
        self.trouble.hide()
        self.tree.clear()
        self.detail.setPlainText("")

    def show_trouble(self, what: str, trouble: str) -> None:
        self.report = None
        self.heading.setText(shown(what))
        self.summary.setText("")
        self.trouble.setText(shown(trouble, 2000))
        self.trouble.show()
        self.tree.clear()
        self.detail.setPlainText("")

    def show_report(self, report: PackDiff, base: str = "") -> None:
        self.report = report
        self.trouble.hide()
        self.heading.setText(f"{shown(report.pack)}: {shown(report.old)} → {shown(report.new)}")
        self.summary.setText((shown(base) + "\n" if base else "") + summary_line(report))
        self.tree.setUpdatesEnabled(False)
        try:
            self.tree.clear()
            for name in SECTIONS:
                self._section(name, report)
        finally:
            self.tree.setUpdatesEnabled(True)
        first = self.tree.topLevelItem(0)
        if first is not None:
            self.tree.setCurrentItem(first)

    # -- rows --------------------------------------------------------------------------------------------
    def _section(self, name: str, report: PackDiff) -> None:
        title, rows = _SECTION_ROWS[name](report)
        if name == "notes" and not rows:
            return
        top = QTreeWidgetItem([title, "", ""])
        font = top.font(0)
        font.setBold(True)
        top.setFont(0, font)
        details = "\n\n".join(r[4] or r[1] for r in rows[:MAX_ROWS])
        top.setData(0, DETAIL_ROLE, "\n".join([title, "", *details.splitlines()[:MAX_DETAIL_LINES]]))
        self.tree.addTopLevelItem(top)
        for mark, text, before, after, detail in rows[:MAX_ROWS]:
            item = QTreeWidgetItem([f"{mark} {text}" if mark else text, before, after])
            item.setData(0, DETAIL_ROLE, detail or text)
            item.setToolTip(0, as_typed(text))
            colour = COLORS.get(mark)
            if colour is not None:
                item.setForeground(0, colour)
            top.addChild(item)
        if len(rows) > MAX_ROWS:
            more = QTreeWidgetItem([f"… {len(rows) - MAX_ROWS:,} more (Copy as Markdown lists them)", "", ""])
            top.addChild(more)
        top.setExpanded(bool(rows))

    def _current_changed(self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        detail = current.data(0, DETAIL_ROLE) if current is not None else None
        self.detail.setPlainText(detail if isinstance(detail, str) else "")

    def sections(self) -> list[QTreeWidgetItem]:
        """The top-level rows, one per section shown."""
        tops = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [top for top in tops if top is not None]

    def rows(self, title: str) -> list[QTreeWidgetItem]:
        """The rows of the section whose title starts with ``title`` (empty when there is none)."""
        top = next((t for t in self.sections() if t.text(0).startswith(title)), None)
        children = (top.child(j) for j in range(top.childCount())) if top is not None else iter(())
        return [child for child in children if child is not None]

    def item_texts(self) -> dict[str, list[str]]:
        """Each section's title and its rows' first column, as shown (what a test or a screen reader sees)."""
        return {top.text(0): [row.text(0) for row in self.rows(top.text(0))] for top in self.sections()}


Row = tuple[str, str, str, str, str]
"""(mark, text, before, after, detail): mark is ``+``, ``-``, ``~``, ``>`` or ""; all already made safe."""


def summary_line(report: PackDiff) -> str:
    """One line naming what changed, section by section (sections without a change left out)."""
    if report.identical:
        return "No differences: the two versions give an agent the same pack."
    f, c, d, e = report.files, report.claims, report.findings, report.evals

    def counted(*pairs: tuple[int, str]) -> str:
        return ", ".join(f"{n} {word}" for n, word in pairs if n)

    parts = [
        f"frontmatter: {len(report.frontmatter)} keys" if report.frontmatter else "",
        counted((len(f.added), "added"), (len(f.removed), "removed"), (len(f.changed), "changed"),
                (len(f.renamed), "renamed")),
        counted((len(c.added), "added"), (len(c.removed), "removed"), (len(c.changed), "changed")),
        counted((len(d.added), "new"), (len(d.removed), "resolved")),
        counted((sum(1 for t in report.tiers.values() if t.changed), "changed")),
        counted((sum(1 for r in report.resolver if r.changed), f"of {len(report.resolver)} pick differently")),
        counted((len(e.regressed), "regressed"), (len(e.improved), "improved")),
    ]
    names = ("", "files", "claims", "findings", "tiers", "resolver tasks", "eval cases")
    return " · ".join(part if i == 0 else f"{names[i]}: {part}" for i, part in enumerate(parts) if part)


def _value(value: Any) -> str:
    return "(none)" if value is None else shown(short_json(value))


def _tokens(value: int | None) -> str:
    return "-" if value is None else f"{value:,} tokens"


def _frontmatter(report: PackDiff) -> tuple[str, list[Row]]:
    rows: list[Row] = []
    for c in report.frontmatter:
        mark = "+" if c.before is None else "-" if c.after is None else "~"
        rows.append((mark, shown(c.key), _value(c.before), _value(c.after),
                     f"{shown(c.key)}\n\nbefore: {_value(c.before)}\nafter:  {_value(c.after)}"))
    return f"Frontmatter ({len(rows)} changed)", rows


def _files(report: PackDiff) -> tuple[str, list[Row]]:
    f = report.files
    rows: list[Row] = [("+", shown(p), "", "added", f"{shown(p)}\n\nadded") for p in f.added]
    rows += [("-", shown(p), "removed", "", f"{shown(p)}\n\nremoved") for p in f.removed]
    for c in f.changed:
        kind = "" if c.kind == "text" else f" ({shown(c.kind)})"
        rows.append(("~", shown(c.path) + kind, _tokens(c.tokens_before), _tokens(c.tokens_after),
                     f"{shown(c.path)}\n\nchanged{kind}\ntokens: {count(c.tokens_before)} -> {count(c.tokens_after)}"))
    for r in f.renamed:
        rows.append((">", f"{shown(r.before)} → {shown(r.after)}", _tokens(r.tokens_before), _tokens(r.tokens_after),
                     f"renamed\nfrom: {shown(r.before)}\nto:   {shown(r.after)}\n{r.similarity:.0%} similar\n"
                     f"tokens: {count(r.tokens_before)} -> {count(r.tokens_after)}"))
    return (f"Files ({len(f.added)} added, {len(f.removed)} removed, {len(f.changed)} changed, "
            f"{len(f.renamed)} renamed)"), rows


def _claims(report: PackDiff) -> tuple[str, list[Row]]:
    c = report.claims
    status = {s.id: s for s in c.status_changes}
    rows: list[Row] = [("+", shown(i), "", "added", f"claim {shown(i)}: added") for i in c.added]
    rows += [("-", shown(i), "removed", "", f"claim {shown(i)}: removed") for i in c.removed]
    for x in c.changed:
        s = status.get(x.id)
        fields = claim_fields(x, s, shown, "->")
        rows.append(("~", f"{shown(x.id)}: {fields}", shown(s.before) if s else "", shown(s.after) if s else "",
                     f"claim {shown(x.id)}\n\nchanged: {fields}"))
    return f"Claims ({len(c.added)} added, {len(c.removed)} removed, {len(c.changed)} changed)", rows


def _findings(report: PackDiff) -> tuple[str, list[Row]]:
    d = report.findings
    rows: list[Row] = []
    for mark, word, found in (("+", "new", d.added), ("-", "resolved", d.removed)):
        for x in found:
            where = f"{shown(x.file)}:{x.line}"
            rows.append((mark, f"{x.severity} {shown(x.code)}: {shown(x.message)}", "" if mark == "+" else word,
                         word if mark == "+" else "",
                         f"{word} {x.severity} {shown(x.code)}\n{where}\n\n{shown(x.message, 4000)}"))
    return f"Findings ({len(d.added)} new, {len(d.removed)} resolved)", rows


def _tiers(report: PackDiff) -> tuple[str, list[Row]]:
    rows: list[Row] = []
    for name in TIERS:
        t = report.tiers.get(name)
        if t is None:
            continue
        if t.changed:
            body = shown_lines(t.text_diff) if t.text_diff else "(too long to compare line by line)"
            if t.truncated and t.text_diff:
                body += "\n… (the diff was cut; pack-studio diff --format json has what was compared)"
        else:
            body = "(unchanged)"
        rows.append(("~" if t.changed else "", f"{name}{'' if t.changed else ' (unchanged)'}",
                     _tokens(t.tokens_before), _tokens(t.tokens_after),
                     f"{name}: {count(t.tokens_before)} -> {count(t.tokens_after)} tokens\n\n{body}"))
    changed = sum(1 for t in report.tiers.values() if t.changed)
    return f"Tiers: catalog, guide, fence ({changed} changed)", rows


def _task_detail(r: ResolverDelta) -> str:
    lines = [f"task: {shown(r.task)}", f"from: {shown(r.source)}; budget {r.budget:,}",
             f"tokens: {r.tokens_before:,} -> {r.tokens_after:,}", ""]
    lines += [f"+ {shown(k)}" for k in r.added] + [f"- {shown(k)}" for k in r.removed]
    if r.reasons:
        lines += ["", "reasons that changed:"]
        lines += [f"  {shown(x.item)}: {shown(x.before or 'not a candidate')} -> {shown(x.after or 'not a candidate')}"
                  for x in r.reasons]
    lines += ["", "picked before:"] + [f"  {shown(k)}" for k in r.picked_before]
    lines += ["", "picked after:"] + [f"  {shown(k)}" for k in r.picked_after]
    return "\n".join(lines[:MAX_DETAIL_LINES])


def _resolver(report: PackDiff) -> tuple[str, list[Row]]:
    rows: list[Row] = []
    for r in sorted(report.resolver, key=lambda r: not r.changed):  # the tasks that pick differently first
        change = f" (+{len(r.added)} -{len(r.removed)})" if r.changed else " (same picks)"
        rows.append(("~" if r.changed else "", shown(r.task) + change, f"{len(r.picked_before)} picked",
                     f"{len(r.picked_after)} picked", _task_detail(r)))
    changed = sum(1 for r in report.resolver if r.changed)
    budget = f", budget {report.resolver[0].budget:,}" if report.resolver else ""
    return f"Resolver ({changed} of {len(report.resolver)} tasks pick differently{budget})", rows


def _evals(report: PackDiff) -> tuple[str, list[Row]]:
    e = report.evals
    marks = {"regressed": "-", "improved": "+", "added": "+", "removed": "-", "changed": "~"}
    rows: list[Row] = []
    for case in e.cases:
        detail = (f"{case.change}: {shown(case.suite)} {shown(case.id)}\n\n"
                  f"passed: {passed(case.passed_before)} -> {passed(case.passed_after)}\n"
                  f"recall: {measure(case.recall_before)} -> {measure(case.recall_after)}\n"
                  f"reciprocal rank: {measure(case.rr_before)} -> {measure(case.rr_after)}")
        if case.actual_before is not None or case.actual_after is not None:
            detail += f"\ndecision: {shown(case.actual_before or '-')} -> {shown(case.actual_after or '-')}"
        rows.append((marks.get(case.change, "~"), f"{case.change}: {shown(case.id)} ({shown(case.suite)})",
                     passed(case.passed_before), passed(case.passed_after), detail))
    for s in e.suites:
        rows.append(("", f"suite {shown(s.suite)}", f"{count(s.passed_before)}/{count(s.total_before)} passed",
                     f"{count(s.passed_after)}/{count(s.total_after)} passed",
                     f"suite {shown(s.suite)} ({shown(s.kind)})\n\n"
                     f"passed: {count(s.passed_before)}/{count(s.total_before)} -> "
                     f"{count(s.passed_after)}/{count(s.total_after)}\n"
                     f"recall: {measure(s.recall_before)} -> {measure(s.recall_after)}\n"
                     f"MRR: {measure(s.mrr_before)} -> {measure(s.mrr_after)}"))
    return f"Evals ({len(e.regressed)} regressed, {len(e.improved)} improved)", rows


def _notes(report: PackDiff) -> tuple[str, list[Row]]:
    rows: list[Row] = [("", shown(n), "", "", shown(n, 4000)) for n in report.notes]
    return f"Notes ({len(rows)})", rows


_SECTION_ROWS = {"frontmatter": _frontmatter, "files": _files, "claims": _claims, "findings": _findings,
                 "tiers": _tiers, "resolver": _resolver, "evals": _evals, "notes": _notes}


class DiffDialog(QDialog):
    """A window of its own for one DiffView, with Copy as Markdown (Ctrl+Shift+C) and Close (Escape).

    Signals:
        copied(): the Markdown report went to the clipboard.
    """

    copied = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Pack diff")
        self.setWindowFlag(Qt.WindowType.WindowMaximizeButtonHint, True)
        self.view = DiffView()
        self.markdown = ""
        self.copy_button = command_button("Copy as &Markdown", self.copy_markdown,
                                          "The report as a pull-request comment (Ctrl+Shift+C)")
        self.copy_button.setEnabled(False)
        QShortcut(QKeySequence("Ctrl+Shift+C"), self, self.copy_markdown)
        close = command_button("Close", self.close)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.view, 1)
        layout.addLayout(buttons)
        self.resize(1100, 640)

    def show_report(self, report: PackDiff, markdown: str, base: str = "") -> None:
        self.setWindowTitle(f"Pack diff: {shown(report.pack, 80)}")
        self.markdown = markdown
        self.copy_button.setEnabled(bool(markdown))
        self.view.show_report(report, base)
        self.view.tree.setFocus()

    def copy_markdown(self) -> None:
        if self.markdown:
            QGuiApplication.clipboard().setText(self.markdown)
            self.copied.emit()
