"""The Inspector dock: one pack's identity and verdict at a glance, its tier costs and its findings."""

from __future__ import annotations

import html
import json

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from studio.core.diagnostics import Diagnostic
from studio.core.labels import SEPARATOR
from studio.core.model import Pack
from studio.core.terminal import printable
from studio.ui.buttons import command_button
from studio.ui.icons import severity_icon
from studio.ui.pack_text_view import PackTextView
from studio.ui.previews import PackPreviews
from studio.ui.shown_text import MAX_TEXT_CHARS, as_typed, short_line
from studio.ui.theme import is_dark, status_chip, theme_signals
from studio.ui.widgets.pack_row_delegate import profile_tag
from studio.ui.widgets.path_label import PathLabel

NO_BUILDER_RUNS = "The studio never runs Builder Skills; this is shown as data only."


class Inspector(QWidget):
    """Signals:
        diagnostic_activated(object): a finding in the list was double-clicked.
        compare_copies_requested(str): the user asked to see every copy of this pack's name (the collision view).
    """

    diagnostic_activated = Signal(object)
    compare_copies_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(textFormat=Qt.TextFormat.RichText, wordWrap=True)
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.fields: dict[str, QLabel] = {}
        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        for key in ("Type", "Status", "Trust", "Profile", "Runtime mode", "Grounding", "Version", "Loads",
                    "Catalog", "Guide", "Root"):
            # Frontmatter values are the author's text: plain, so '<img src=x.png>' reads as typed (Status alone is
            # a coloured chip, built with its value escaped).
            if key == "Root":  # one long word to a label: it wraps at its separators instead
                label: QLabel = PathLabel()
            else:
                label = QLabel(wordWrap=True, textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse,
                               textFormat=Qt.TextFormat.RichText if key == "Status" else Qt.TextFormat.PlainText)
                label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            self.fields[key] = label
            form.addRow(f"{key}:", label)
        # Shown when another pack carries the same name: which copy this is, and the way to the collision view.
        self.copies_note = QLabel(wordWrap=True)
        self.copies_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.compare_button = command_button(
            "Compare copies…",
            lambda: self.compare_copies_requested.emit(self.pack.name) if self.pack is not None else None,
            "Every pack of this name side by side: which one wins and why; pin the one that should win")
        self.copies_box = QWidget()
        copies = QVBoxLayout(self.copies_box)
        copies.setContentsMargins(0, 0, 0, 0)
        copies.addWidget(self.copies_note)
        copies.addWidget(self.compare_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.copies_box.hide()
        self.produced_by = PackTextView()
        self.produced_by.setMaximumHeight(110)
        self.produced_note = QLabel(NO_BUILDER_RUNS, wordWrap=True)
        self.findings = QListWidget()
        self.findings.itemActivated.connect(self._activated)
        self.findings.itemDoubleClicked.connect(self._activated)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.title)
        layout.addWidget(self.copies_box)
        layout.addLayout(form)
        layout.addWidget(QLabel("<b>producedBy</b>"))
        layout.addWidget(self.produced_by)
        layout.addWidget(self.produced_note)
        layout.addWidget(QLabel("<b>Findings</b>"))
        layout.addWidget(self.findings, 1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        # Wrap to the dock's width instead of scrolling sideways (long descriptions, paths, CJK text).
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        self.pack: Pack | None = None
        self.label = ""
        self.copies = 1
        self.show_pack(None)
        theme_signals().changed.connect(self._theme_changed)  # a bound method: dropped with the Inspector

    def show_pack(self, pack: Pack | None, label: str = "", copies: int = 1) -> None:
        """Show ``pack``; ``label`` is its distinguishing label and ``copies`` how many packs carry its name."""
        same = pack is not None and self.pack is not None and pack.root == self.pack.root
        self.pack = pack
        self.label, self.copies = label, copies
        self._show_copies(pack, label, copies)
        if pack is None:
            self.title.setText("<i>No pack selected</i>")
            for field in self.fields.values():
                field.clear()
            self.produced_by.clear()
            self.findings.clear()
            return
        chip = status_chip(pack.status, is_dark())
        name = printable(pack.name)  # as the label spells it
        where = label[len(name) + len(SEPARATOR):] if label.startswith(name + SEPARATOR) else ""
        # Cut: a word-wrapped label lays out all of its text at each resize (a 1 MB description took 2.3 s).
        description = short_line(pack.description or "no description", MAX_TEXT_CHARS)
        self.title.setText(
            f"<span style='font-size:15pt; font-weight:600'>{html.escape(short_line(name))}</span>"
            + (f" <span style='color:gray'>{html.escape(where)}</span>" if where else "") + "<br/>"
            f"<span style='color:gray'>{html.escape(description)}</span>"
        )
        self.fields["Type"].setText(short_line(pack.type or "—"))
        self.fields["Status"].setText(
            f"<span style='background:{chip.background.name()}; color:{chip.foreground.name()}; "
            f"padding:2px 6px'>&nbsp;{html.escape(pack.status or 'no status')}&nbsp;</span>"
        )
        self.fields["Trust"].setText(short_line(pack.trust or "not declared"))
        self.fields["Profile"].setText(profile_tag(pack))
        self.fields["Runtime mode"].setText(short_line(pack.runtime_mode))
        self.fields["Grounding"].setText(short_line(pack.grounding or "not declared"))
        self.fields["Version"].setText(short_line(pack.version or "—"))
        loads = "yes" if pack.loads else "no"
        if pack.shadowed_by is not None:
            loads += f" (shadowed by {pack.shadowed_by})"
        self.fields["Loads"].setText(f"{loads}; behaviour: {pack.behavior.value}")
        self.fields["Root"].setText(printable(str(pack.root)))
        if not same:
            self.fields["Catalog"].setText("counting…")
            self.fields["Guide"].setText("counting…")
        produced = pack.produced_by
        self.produced_by.setPlainText(json.dumps(produced, indent=2, ensure_ascii=False, default=str)
                                      if produced else "(not declared)")
        self.findings.clear()
        for d in pack.findings:
            item = QListWidgetItem(severity_icon(d.severity.value), printable(f"{d.file}:{d.line}  {d.message}"))
            item.setToolTip(as_typed(f"{d.code}: {d.message}" + (f"\nHint: {d.hint}" if d.hint else "")))
            item.setData(Qt.ItemDataRole.UserRole, d)
            self.findings.addItem(item)

    def _theme_changed(self, _dark: bool) -> None:
        self.show_pack(self.pack, self.label, self.copies)  # the status chip's colours

    def _show_copies(self, pack: Pack | None, label: str, copies: int) -> None:
        self.copies_box.setVisible(pack is not None and copies > 1)
        if pack is None or copies <= 1:
            return
        if pack.shadowed_by is not None:
            state = (f"this copy ({label or printable(str(pack.root))}) is shadowed by "
                     f"{printable(str(pack.shadowed_by))}.")
        elif not pack.own_behavior.loads:
            state = "this copy cannot load on its own findings."
        else:
            state = f"this copy ({label or printable(str(pack.root))}) wins."
        self.copies_note.setText(f"{copies} packs are named \u201c{printable(pack.name)}\u201d: {state}")

    def show_costs(self, previews: PackPreviews) -> None:
        listed = not previews.catalog.note
        self.fields["Catalog"].setText(previews.catalog.tokens if listed else "not listed in the catalog")
        self.fields["Guide"].setText(previews.activation.tokens)

    def _activated(self, item: QListWidgetItem) -> None:
        diag = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(diag, Diagnostic):
            self.diagnostic_activated.emit(diag)
