"""A loaded ``KNOWLEDGE.md`` travels from worker processes and into the result cache pickled: what comes back is
the same file, and its body and YAML are not sent twice (they are pieces of its text)."""

from __future__ import annotations

import pickle

import pytest

from studio.core import result_cache
from studio.core.frontmatter import read_knowledge_bytes
from studio.core.model import KnowledgeFile

GUIDE = "# Guide\n\n" + "Read compiled/briefing.md before answering. " * 200 + "\n"
FILES = {
    "frontmatter": f"---\nname: kettle\ndescription: Boiling water.\n---\n{GUIDE}",
    "crlf": f"---\r\nname: kettle\r\ndescription: Boiling.\r\n---\r\n{GUIDE}",
    "no-frontmatter": GUIDE,
    "unclosed": f"---\nname: kettle\n{GUIDE}",
    "empty-yaml": f"---\n---\n{GUIDE}",
    "empty": "",
}


@pytest.mark.parametrize("text", FILES.values(), ids=FILES.keys())
def test_a_knowledge_file_comes_back_the_same_and_smaller(text: str) -> None:
    kf, _diags = read_knowledge_bytes(text.encode("utf-8"))
    payload = result_cache.encode(kf)
    back = result_cache.decode(payload)  # the cache's restricted reader, which must allow the rebuild
    assert back == kf
    assert (back.frontmatter.raw if back.frontmatter else None) == (kf.frontmatter.raw if kf.frontmatter else None)
    if len(kf.body) > 1000:
        assert len(payload) < len(kf.text.encode("utf-8")) + 600  # one copy of the text, not text + body + YAML


def test_a_body_that_is_not_the_end_of_the_text_is_kept_as_it_is() -> None:
    kf = KnowledgeFile(frontmatter=None, body="edited body", body_start_line=1, text="the text on disk")
    assert pickle.loads(pickle.dumps(kf)) == kf


def test_a_garbled_stored_file_does_not_decode() -> None:
    from studio.core.model import _knowledge_from_pickle

    with pytest.raises(pickle.UnpicklingError):
        _knowledge_from_pickle(None, 0, None, 1, ["not", "text"], False, False, False, 0)  # type: ignore[arg-type]
