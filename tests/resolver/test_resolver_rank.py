"""Term extraction for BM25: the fast path finds exactly the terms the plain patterns define."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.resolver.rank import DocTerms
from studio.core.text.terms import raw_bag

# Underscores, CJK and its non-word punctuation, letters that lower-case to two characters or to ASCII
# (Kelvin sign), a lone surrogate, Greek sigma (lower-cased by context), a dash glued between words.
_PIECES = list("ab_Z1 .\n-'") + ["咖", "啡", "カ", "・", "ü", "Ü", "ǅ", "İ", "\u212a", "한", "\u0301", "\ud800",
                                 "Σ", "—"]
_MIXED = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join)


def _reference_bag(text: str) -> Counter[str]:
    """The definition, written plainly: words (no underscore, no CJK) and each CJK run as overlapping bigrams."""
    cjk = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
    lower = text.lower()
    out = Counter(re.findall(rf"[^\W_{cjk}]+", lower))
    for run in re.findall(rf"[{cjk}]+", lower):
        out.update([run] if len(run) == 1 else [a + b for a, b in zip(run, run[1:], strict=False)])
    return out


@settings(max_examples=300, deadline=None)
@given(text=_MIXED | st.text(max_size=80))
def test_raw_bag_finds_the_terms_of_the_plain_patterns(text: str) -> None:
    found = Counter({term.decode("utf-8", "surrogatepass"): n for term, n in raw_bag(text).items()})
    assert found == _reference_bag(text)


@settings(max_examples=200, deadline=None)
@given(text=_MIXED, title=_MIXED)
def test_fields_hold_the_body_the_title_and_the_headings(text: str, title: str) -> None:
    body = f"# {title}\n{text}\n## {title} again"
    terms = DocTerms.of(body, title)
    assert terms.freqs == raw_bag(body) and terms.length == sum(raw_bag(body).values())
    assert terms.title == raw_bag(title)
    heads = raw_bag(f"{title.splitlines()[0] if title.splitlines() else ''}")
    if "\n" not in title and "\r" not in title and title.strip():
        assert +terms.headings == +(heads + heads + raw_bag("again"))
