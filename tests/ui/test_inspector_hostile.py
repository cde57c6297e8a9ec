"""The Inspector shows a hostile pack's frontmatter as typed and bounded.

Selecting a pack whose description is a megabyte froze the window for 2.3 s (and as long again at each resize of
the dock): the whole text went into a word-wrapped rich-text label. Frontmatter values such as ``type`` and
``version`` are the author's text: ``<img src=x.png>`` must read as typed, not render.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from shown_as_read import shown

from studio.core.pack import load_pack
from studio.ui.widgets.inspector import Inspector

MARKUP = "<b>bold</b><img src=x.png>"


def test_a_megabyte_description_and_markup_in_frontmatter_values(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    value = json.dumps(MARKUP)
    root: Path = make_pack("p", f"---\nname: p\ndescription: {'word ' * 200_000}\ntype: {value}\nstatus: ready\n"
                                f"version: {value}\ntrust: {value}\n---\n# P\n")
    pack = load_pack(root)
    assert pack.type == MARKUP and len(pack.description or "") > 900_000
    inspector = Inspector()
    qtbot.addWidget(inspector)
    inspector.resize(350, 700)
    inspector.show()
    started = time.perf_counter()
    inspector.show_pack(pack)
    inspector.resize(400, 700)
    qtbot.wait(1)
    assert time.perf_counter() - started < 1.0  # 4.5 s with the whole description
    assert len(inspector.title.text()) < 10_000
    for key in ("Type", "Version", "Trust"):
        field = inspector.fields[key]
        assert shown(field.text(), field.textFormat()) == MARKUP, key
