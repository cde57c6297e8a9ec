"""The panels' record tables show pack text as inert, bounded text (issue #12's classes, in the table models).

A claim's text in the source map and a run record's field are pack text: markup in them (``<b>``, ``<img src=...>``)
must show as typed, never be read as rich text by the tooltip (Qt guesses rich text from the string); controls must
show as escapes; and a megabyte of it must not reach Qt's layout, where one tooltip of 1 MB stalls the window for
most of a second.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QToolTip
from shown_as_read import shown

from studio.core.evidence import build_evidence
from studio.core.runs.reader import read_runs
from studio.ui.models.evidence import ClaimTableModel
from studio.ui.models.runs import RunsTableModel

MARKUP = "<b>bold</b> <img src=x.png>"
CONTROLS = "\x1b[2J\u202eevil"
TOOLTIP = Qt.ItemDataRole.ToolTipRole
DISPLAY = Qt.ItemDataRole.DisplayRole


def _pack(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "p"
    (root / "indexes").mkdir(parents=True)
    (root / "runs").mkdir()
    (root / "sources").mkdir()
    (root / "sources" / "a.md").write_text("# A\nThe source.\n", encoding="utf-8")
    (root / "KNOWLEDGE.md").write_text("---\nname: p\ndescription: d\n---\n# P\n", encoding="utf-8")
    (root / "indexes" / "source-map.json").write_text(json.dumps({"claims": [
        {"claim_id": "c1", "text": text, "status": "supported", "source": {"path": "sources/a.md"}}]}))
    (root / "runs" / "compile-2026-05-01T10-00-00Z.json").write_text(json.dumps(
        {"status": text, "trigger": "manual", "inputs": [], "outputs": []}))
    return root


def _claims_model(root: Path) -> ClaimTableModel:
    model = ClaimTableModel()
    model.set_items(build_evidence(root).claims)
    return model


def _runs_model(root: Path) -> RunsTableModel:
    model = RunsTableModel()
    model.set_items(read_runs(root).records)
    return model


def test_markup_in_a_claim_or_a_run_record_shows_as_typed_in_its_tooltip(qapp: QApplication, tmp_path: Path) -> None:
    root = _pack(tmp_path, f"Claim {MARKUP} {CONTROLS}")
    claims, runs = _claims_model(root), _runs_model(root)
    for model, column in ((claims, 1), (runs, 4)):
        tip = model.index(0, column).data(TOOLTIP)
        read = shown(tip)
        assert MARKUP in read, read
        assert "\x1b" not in read and "\u202e" not in read and "\\x1b[2J\\u202eevil" in read
        cell = model.index(0, column).data(DISPLAY)
        assert "\x1b" not in cell and "\u202e" not in cell and MARKUP in cell


def test_a_megabyte_of_claim_text_reaches_neither_the_cell_nor_the_tooltip_whole(qapp: QApplication,
                                                                                  tmp_path: Path) -> None:
    root = _pack(tmp_path, "word " * 200_000)
    for model, column in ((_claims_model(root), 1), (_runs_model(root), 4)):
        cell = model.index(0, column).data(DISPLAY)
        tip = model.index(0, column).data(TOOLTIP)
        assert len(cell) < 1000 and len(tip) < 5000
        assert cell.endswith("…") and shown(tip).endswith("…")
        started = time.perf_counter()
        QToolTip.showText(QPoint(10, 10), tip)
        qapp.processEvents()
        QToolTip.hideText()
        assert time.perf_counter() - started < 0.5  # a whole megabyte took 0.9 s here, offscreen

