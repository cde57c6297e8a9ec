"""Preview tabs and inspector: what an agent would see, with token counts, and nothing fetched."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage, QTextDocument

from studio.core.pack import load_pack
from studio.ui.main_window import MainWindow
from studio.ui.previews import build_previews
from studio.ui.widgets.inspector import NO_BUILDER_RUNS
from studio.ui.widgets.safe_browser import SafeBrowser


def test_previews_show_each_tier_with_its_token_count(examples_copy: Path) -> None:
    pack = load_pack(examples_copy / "northwind-espresso")
    previews = build_previews(pack)
    assert "<name>northwind-espresso</name>" in previews.catalog.text
    assert previews.activation.text.startswith("<knowledge_pack_guide")
    assert "compiled/" in previews.fence.text and previews.fence.text.startswith("<knowledge_pack ")
    for preview in (previews.catalog, previews.activation, previews.fence):
        assert "token" in preview.tokens  # "N tokens (cl100k_base)" or "token count unavailable (...)"
    assert "<h1>" in previews.guide_html


def test_the_guide_tab_says_when_the_body_is_empty(make_pack) -> None:
    root = make_pack("bare", "---\nname: bare\ndescription: Bare.\ntype: domain-reference\nstatus: ready\n---\n\n  \n")
    assert "(empty body)" in build_previews(load_pack(root)).guide_html
    (root / "KNOWLEDGE.md").write_text("---\nname: bare\n---\n# Now with text\n", encoding="utf-8")
    assert "(empty body)" not in build_previews(load_pack(root)).guide_html


def test_archived_packs_say_why_the_catalog_is_empty(make_pack) -> None:
    root = make_pack("old", "---\nname: old\ndescription: Old.\ntype: domain-reference\nstatus: archived\n---\n")
    previews = build_previews(load_pack(root))
    assert previews.catalog.text == ""
    assert "not listed" in previews.catalog.note


def test_the_browser_never_loads_remote_resources(qtbot, tmp_path: Path) -> None:
    browser = SafeBrowser()
    qtbot.addWidget(browser)
    browser.pack_root = tmp_path
    (tmp_path / "inside.txt").write_text("ok")
    image = QTextDocument.ResourceType.ImageResource.value
    icon = QImage(":/qt-project.org/styles/commonstyle/images/file-16.png")
    for url in (QUrl("https://example.com/x.png"), QUrl.fromLocalFile("/etc/hostname"),
                QUrl.fromLocalFile(str(tmp_path / "inside.txt"))):
        # Never None (Qt would then load the resource itself, by path): Qt's broken-image icon instead.
        assert browser.loadResource(image, url) == icon
    assert browser.read_image(QUrl.fromLocalFile("/etc/hostname")) is None
    assert browser.read_image(QUrl.fromLocalFile(str(tmp_path / "inside.txt"))) == b"ok"  # read, but no image
    sheet = browser.loadResource(QTextDocument.ResourceType.StyleSheetResource.value,
                                 QUrl.fromLocalFile(str(tmp_path / "inside.txt")))
    assert sheet is not None and b"ok" not in bytes(sheet.data())  # only images are loaded


def test_a_pack_relative_link_opens_the_file(qtbot, tmp_path: Path) -> None:
    browser = SafeBrowser()
    qtbot.addWidget(browser)
    browser.pack_root = tmp_path
    (tmp_path / "wiki").mkdir()
    (tmp_path / "wiki" / "index.md").write_text("# i")
    with qtbot.waitSignal(browser.open_file) as blocker:
        browser.anchorClicked.emit(QUrl("wiki/index.md"))
    assert blocker.args == [tmp_path / "wiki" / "index.md"]
    with qtbot.assertNotEmitted(browser.open_file):
        browser.anchorClicked.emit(QUrl("../outside.md"))
        browser.anchorClicked.emit(QUrl("https://example.com/"))


def test_selecting_a_pack_fills_inspector_and_previews(qtbot, open_and_wait, window: MainWindow,
                                                       examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    root = (examples_copy / "northwind-espresso").resolve()
    with qtbot.waitSignal(window.previews.built, timeout=10_000):
        window.workspace_panel.select_pack(root)
    inspector = window.inspector
    assert "northwind-espresso" in inspector.title.text()
    assert inspector.fields["Profile"].text() == "document-first"
    assert "brand-product-knowledge-builder" in inspector.produced_by.toPlainText()
    assert inspector.produced_note.text() == NO_BUILDER_RUNS
    assert "token" in inspector.fields["Catalog"].text() and "token" in inspector.fields["Guide"].text()
    assert "northwind-espresso" in window.previews.catalog.xml.view.toPlainText()


def test_the_catalog_tab_shows_the_workspaces_compressed_index_with_filters(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from studio.core.pack import load_pack
    from studio.core.resources import examples_dir
    from studio.ui.widgets.catalog_preview import CatalogPreview

    packs = [load_pack(p) for p in sorted(examples_dir().iterdir()) if (p / "KNOWLEDGE.md").is_file()]
    view = CatalogPreview()
    qtbot.addWidget(view)
    view.show()
    view.set_packs(packs)
    with qtbot.waitSignal(view.compressed_built, timeout=60_000) as built:
        view.workspace.setChecked(True)
    text = built.args[0].text
    assert "<knowledge_index" in text and "</knowledge_index>" in text
    assert all(f"{p.name}|" in text for p in packs if p.loads)
    assert "bytes" in built.args[0].tokens
    with qtbot.waitSignal(view.compressed_built, timeout=60_000) as narrowed:
        view.pack_name.setText("northwind-espresso")
    assert "northwind-espresso|" in narrowed.args[0].text and "lin-yue-persona|" not in narrowed.args[0].text


_BLANKS = ("---\nname: blanks\ndescription: A pack with a long run of blanks.\ntype: domain-reference\n"
           "status: ready\n---\n")


def test_previews_count_a_million_blanks_exactly(make_pack) -> None:
    """tiktoken's regex panics on such a run (a BaseException no worker caught): counts must still come back."""
    root = make_pack("blanks", _BLANKS + "a" + " " * 1_000_000 + "b\n",
                     {"compiled/long.md": "x" + "\t" * 1_000_000 + "y\n"})
    previews = build_previews(load_pack(root))
    for preview in (previews.activation, previews.fence):
        assert preview.tokens.split()[0].isdigit(), preview.tokens


def test_a_worker_reports_a_rust_panic(qtbot) -> None:
    """A PanicException derives from BaseException; the job must still report back instead of dying silently."""
    from studio.core.tokens import get_tokenizer
    from studio.ui import workers

    raw = get_tokenizer("cl100k_base")._encoding  # tiktoken itself, without the studio's bounded counting
    failures: list[str] = []
    workers.submit(raw.encode_ordinary, "a" + " " * 1_100_000 + "b", on_error=lambda _id, trace: failures.append(trace))
    qtbot.waitUntil(lambda: bool(failures), timeout=20_000)
    assert "PanicException" in failures[0]


def test_a_failed_preview_says_cannot_count(qtbot, examples_copy: Path) -> None:
    from studio.ui.widgets.inspector import Inspector
    from studio.ui.widgets.preview_pane import PreviewPane

    pane, inspector = PreviewPane(), Inspector()
    qtbot.addWidget(pane)
    qtbot.addWidget(inspector)
    pane.built.connect(inspector.show_costs)
    pack = load_pack(examples_copy / "northwind-espresso")
    pane.pack = pack
    inspector.show_pack(pack)
    assert inspector.fields["Guide"].text() == "counting…"
    with qtbot.waitSignal(pane.built):
        pane.show_failure("PanicException: stack overflow")
    assert inspector.fields["Guide"].text().startswith("cannot count: PanicException")
    assert pane.activation.tokens.text().startswith("cannot count")
