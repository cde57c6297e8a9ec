"""Editor tabs tell same-named files apart by the shortest parent path that differs, and keep the dirty dot."""

from __future__ import annotations

from pathlib import Path

from studio.ui.document import open_document
from studio.ui.widgets.editor_area import DIRTY_DOT, EditorArea


def write(path: Path, text: str = "# Heading\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def titles(area: EditorArea) -> list[str]:
    return [area.tabText(i) for i in range(area.count())]


def test_same_named_files_get_the_shortest_telling_parent_and_lose_it_when_alone(qtbot, tmp_path: Path) -> None:
    area = EditorArea()
    qtbot.addWidget(area)
    pack = tmp_path / "pack"
    brief = write(pack / "compiled/splits/product-brief/boundaries.md")
    launch = write(pack / "compiled/splits/launch/boundaries.md")
    first = area.add(open_document(brief, pack), None)
    assert titles(area) == ["boundaries.md"]
    area.add(open_document(launch, pack), None)
    assert titles(area) == ["boundaries.md — product-brief", "boundaries.md — launch"]
    first.editor.insertPlainText("x")  # a dirty tab keeps its dot in front of the telling title
    assert titles(area)[0] == f"{DIRTY_DOT}boundaries.md — product-brief"
    area.remove(area.tabs()[1])
    assert titles(area) == [f"{DIRTY_DOT}boundaries.md"]


def test_two_packs_knowledge_files_are_told_apart(qtbot, tmp_path: Path) -> None:
    area = EditorArea()
    qtbot.addWidget(area)
    one = write(tmp_path / "v0.4.0/brief/KNOWLEDGE.md", "---\nname: brief\n---\n")
    two = write(tmp_path / "v0.7.2/brief/KNOWLEDGE.md", "---\nname: brief\n---\n")
    area.add(open_document(one, one.parent), None)
    assert titles(area) == ["KNOWLEDGE.md — brief"]
    area.add(open_document(two, two.parent), None)
    assert titles(area) == ["KNOWLEDGE.md — v0.4.0/brief", "KNOWLEDGE.md — v0.7.2/brief"]
