"""EvidencePanel: Builder Skill provenance as data, and the source map's claims beside their excerpts.

Selecting a claim shows the exact source excerpt its anchor names and the compiled text it went into,
side by side. Broken anchors are highlighted in the table. Nothing here runs or fetches anything.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QItemSelection, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QLabel,
    QTreeWidget,
    QVBoxLayout,
    QWidget,
)

from studio.core.diagnostics import Diagnostic
from studio.core.evidence import ClaimEvidence, Excerpt, SourceReader, parse_anchor
from studio.core.evidence.anchors import split_ref
from studio.core.sourcemap import SOURCE_MAP
from studio.ui.fit import splitter, wrap_label
from studio.ui.models.evidence import CLAIM_ROLE, ClaimTableModel, anchor_text, is_broken
from studio.ui.pack_text_view import PackTextView
from studio.ui.panels._audit import PackAudit
from studio.ui.panels.record_view import DiagnosticsList, monospace_font
from studio.ui.row_table import record_table, select_first, size_columns
from studio.ui.shown_text import MAX_TEXT_CHARS, short_line, text_row

NEVER_RUNS = "The studio never runs, installs or fetches Builder Skills."


def excerpt_block(excerpt: Excerpt) -> str:
    """An excerpt with its place (``path#anchor, lines a-b``) or a sentence saying why there is none."""
    where = f"{excerpt.path}#{excerpt.anchor.raw.lstrip('#')}" if excerpt.anchor.raw else excerpt.path
    if not excerpt.ok:
        return f"[{where}: {excerpt.state.value}; nothing to show]"
    if excerpt.state.value == "not-text":
        return f"[{where}: not a text file; open it to check the anchor]"
    if not excerpt.start_line:
        lines = ""
    elif excerpt.start_line == excerpt.end_line:
        lines = f", line {excerpt.start_line}"
    else:
        lines = f", lines {excerpt.start_line}-{excerpt.end_line}"
    cut = "\n[... truncated]" if excerpt.truncated else ""
    return f"[{where}{lines}]\n{excerpt.text}{cut}"


class EvidencePanel(QWidget):
    """Provenance on top, the claim table in the middle, source excerpt and compiled text below.

    Signals:
        open_file_requested(Path, int): a file and a 1-based line the user asked to open.
    """

    open_file_requested = Signal(Path, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.audit: PackAudit | None = None
        self._reader: SourceReader | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(self._build_provenance())
        self.claims = ClaimTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.claims)
        self.table = record_table(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.proxy.sort(-1)  # the source map's own order until the user clicks a header
        size_columns(self.table.horizontalHeader(), (170, 0, 90, 280, 90, 280), stretch=1)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.doubleClicked.connect(self._open_claim)
        self.source_view = PackTextView(font=monospace_font())
        self.compiled_view = PackTextView(font=monospace_font())
        side = splitter(Qt.Orientation.Horizontal, (_titled("Source excerpt", self.source_view), 0),
                        (_titled("Compiled text", self.compiled_view), 0))
        self.map_state = QLabel()
        claims_box = QWidget()
        claims_layout = QVBoxLayout(claims_box)
        claims_layout.setContentsMargins(0, 0, 0, 0)
        claims_layout.addWidget(self.map_state)
        claims_layout.addWidget(self.table)
        layout.addWidget(splitter(Qt.Orientation.Vertical, (claims_box, 3), (side, 2)), 1)

    def _build_provenance(self) -> QGroupBox:
        box = QGroupBox("Builder Skill provenance (data only)")
        layout = QVBoxLayout(box)
        statement = wrap_label(QLabel(NEVER_RUNS))
        font = statement.font()
        font.setBold(True)
        statement.setFont(font)
        self.statement = statement
        self.builders = QTreeWidget()
        self.builders.setHeaderLabels(["From", "Kind", "Name", "Version", "Digest", "Source"])
        self.builders.setRootIsDecorated(False)
        self.builders.setMaximumHeight(110)
        size_columns(self.builders.header(), (280, 90, 220, 80, 300))
        self.provenance_diagnostics = DiagnosticsList()
        self.provenance_diagnostics.setMaximumHeight(70)
        self.provenance_diagnostics.diagnostic_activated.connect(self._open_diagnostic)
        self.consistency = wrap_label(QLabel())
        layout.addWidget(statement)
        layout.addWidget(self.builders)
        layout.addWidget(self.consistency)
        layout.addWidget(self.provenance_diagnostics)
        return box

    def set_audit(self, audit: PackAudit | None) -> None:
        """Show ``audit`` (or nothing). The reader for compiled text is scoped to that pack's root."""
        self.audit = audit
        self._reader = SourceReader(audit.root) if audit else None
        self.builders.clear()
        self.source_view.clear()
        self.compiled_view.clear()
        if audit is None:
            self.claims.set_items([])
            self.provenance_diagnostics.set_diagnostics([])
            self.provenance_diagnostics.hide()
            self.consistency.clear()
            self.map_state.clear()
            return
        provenance = audit.provenance
        refs = ([provenance.produced_by] if provenance.produced_by else []) + provenance.run_builders
        for ref in refs:
            # producedBy and the runs' builder fields are the author's text: short and escaped, row by row.
            self.builders.addTopLevelItem(
                text_row([v or "" for v in (ref.origin, ref.kind, ref.name, ref.version, ref.digest, ref.source)]))
        consistency = short_line(provenance.consistency, MAX_TEXT_CHARS)
        self.consistency.setText(f"Consistency check: {consistency}" if refs else consistency)
        self.provenance_diagnostics.set_diagnostics(provenance.diagnostics)
        self.provenance_diagnostics.setVisible(bool(provenance.diagnostics))
        evidence = audit.evidence
        self.claims.set_items(evidence.claims)
        broken = sum(1 for row in range(self.claims.rowCount()) if is_broken(self.claims.item(row)))
        self.map_state.setText(
            f"{SOURCE_MAP}: {len(evidence.claims)} claims, {broken} with a broken anchor or target"
            if evidence.source_map_present else f"No {SOURCE_MAP} in this pack.")

    def select_claim(self, claim_id: str) -> bool:
        """Select the row of ``claim_id`` (as a user click would); False when there is no such claim."""
        return select_first(self.table, CLAIM_ROLE,
                            lambda found: isinstance(found, ClaimEvidence) and found.claim.claim_id == claim_id)

    def _selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        evidence = indexes[0].data(CLAIM_ROLE) if indexes else None
        if isinstance(evidence, ClaimEvidence):
            self.show_claim(evidence)

    def show_claim(self, evidence: ClaimEvidence) -> None:
        self.source_view.setPlainText(excerpt_block(evidence.excerpt))
        parts = [self._compiled_block(target, state) for target, state in evidence.compiled_into]
        self.compiled_view.setPlainText("\n\n".join(parts) if parts else "(the claim names no compiled_into target)")

    def _compiled_block(self, target: str, state: str) -> str:
        if state != "ok" or self._reader is None:
            return f"[{target}: {state}; nothing to show]"
        path, fragment = split_ref(target)
        return excerpt_block(self._reader.excerpt(path, parse_anchor(fragment)))

    def _open_claim(self, index: QModelIndex) -> None:
        evidence = index.data(CLAIM_ROLE)
        if self.audit is None or not isinstance(evidence, ClaimEvidence):
            return
        excerpt = evidence.excerpt
        if excerpt.ok and excerpt.path:
            self.open_file_requested.emit(self.audit.root / excerpt.path, max(excerpt.start_line, 1))
        else:
            self.open_file_requested.emit(self.audit.root / SOURCE_MAP, evidence.claim.line)

    def _open_diagnostic(self, diag: Diagnostic) -> None:
        if self.audit is not None:
            self.open_file_requested.emit(self.audit.root / (diag.file or "KNOWLEDGE.md"), diag.line or 1)


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(4, 4, 4, 4)
    layout.addWidget(widget)
    return box


__all__ = ["EvidencePanel", "NEVER_RUNS", "anchor_text", "excerpt_block"]
