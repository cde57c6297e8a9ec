"""Every file the tool form lists can be read back by its id, whatever its name (issue #35, item 6).

A name with ``#`` (``notes#2.md``) was listed but read as ``notes`` with a fragment, so ``read-files`` said it
was missing. The property: for any name the listing accepts, id -> path -> text round-trips exactly.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from studio.cli import main
from studio.core.pack import load_pack
from studio.core.render.tool_form import build_tool_form

GUIDE = ("---\nname: names\ndescription: Files with odd names.\ntype: domain-reference\nstatus: ready\n"
         "profile: document-first\n---\n# Guide\n\nRead the documents.\n")

# Characters a file name may hold on POSIX, the awkward ones often: '#', '?', '%', spaces, quotes, brackets,
# backslashes, markup, bidi and other controls, CJK, and an emoji outside the BMP.
_AWKWARD = "#?%&=+ '\"[](){}<>\\:;,!*~`^|$@\u202e\u2066\u200f\x1b\t\u3000中文é😀"
_NAME_CHARS = st.one_of(st.sampled_from(_AWKWARD), st.characters(codec="utf-8", exclude_characters="/\x00"))
_STEMS = st.text(_NAME_CHARS, min_size=1, max_size=24).filter(
    lambda s: s.strip() not in ("", ".", "..") and not s.startswith(".") and len(s.encode()) <= 200)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stems=st.lists(_STEMS, min_size=1, max_size=4, unique_by=lambda s: s.casefold()))
@example(stems=["notes#2", "a#b#c", "#"])
@example(stems=["x?y=1#top", "100%", "back\\slash"])
def test_every_listed_file_is_read_back_by_its_id(stems: list[str], capsysbinary: pytest.CaptureFixture[bytes]
                                                  ) -> None:
    root = Path(tempfile.mkdtemp()) / "names"
    try:
        (root / "documents").mkdir(parents=True)
        (root / "KNOWLEDGE.md").write_text(GUIDE, encoding="utf-8")
        contents = {}
        for i, stem in enumerate(stems):
            name = f"documents/{stem}.md"
            (root / name).write_text(f"# File {i}\n\nUnique line {i}.\n", encoding="utf-8")
            contents[name] = f"Unique line {i}."
        form = build_tool_form(load_pack(root))
        listed = {f.path: f.id for f in form.files}
        assert set(contents) <= set(listed)
        capsysbinary.readouterr()
        for path, text in contents.items():
            code = main(["read-files", str(root), "--ids", listed[path]])
            out = capsysbinary.readouterr().out.decode("utf-8")
            assert code == 0, path
            assert text in out  # exactly this file's text, not "missing" for a name cut at '#'
            for other, other_text in contents.items():
                if other != path:
                    assert other_text not in out
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)
