"""Provenance & evidence shows a hostile producedBy as short, escaped text.

``metadata.producedBy`` is the author's text: a builder name of a megabyte with a bidi override went into the
builders tree whole (each paint elides it again) and reversed its row.
"""

from __future__ import annotations

import json
from pathlib import Path

from studio.core.pack import load_pack
from studio.ui.panels._audit import read_pack_audit
from studio.ui.panels.evidence_panel import EvidencePanel


def test_a_megabyte_builder_name_with_a_bidi_override_is_cut_and_escaped(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "p"
    root.mkdir()
    produced = {"kind": "agent-skill", "name": "\u202e" + "n" * 1_000_000, "version": "1.0.0"}
    (root / "KNOWLEDGE.md").write_text(
        "---\nname: p\ndescription: d\ntype: domain-reference\nstatus: ready\n"
        f"metadata:\n  producedBy: {json.dumps(produced)}\n---\n# P\n", encoding="utf-8")
    panel = EvidencePanel()
    qtbot.addWidget(panel)
    panel.set_audit(read_pack_audit(load_pack(root)))
    assert panel.builders.topLevelItemCount() == 1
    item = panel.builders.topLevelItem(0)
    texts = [item.text(column) for column in range(item.columnCount())]
    assert any("\\u202ennn" in text for text in texts), texts
    for text in texts:
        assert len(text) < 1000 and "\u202e" not in text
