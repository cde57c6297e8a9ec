"""The compressed knowledge index (layer L0): one short line per runtime file, small enough to keep loaded.

Format, between a start and an end marker::

    <knowledge_index packs="5" files="63" fields="pack|path|kind|title|keywords|tokens">
    harbor-support-playbook|wiki/concepts/refund-workflow.md|wiki|Refund workflow|refund, approval, ...|612
    </knowledge_index>

One line per file the resolver could load at run time from each pack given (``KNOWLEDGE.md`` as ``guide``,
``compiled``, ``split``, ``document``, ``wiki``; ``sources/`` are evidence, left out unless asked for). The
title is the file's first heading; keywords are the file's most distinctive words (tf-idf across the files of
the index: words of three letters or more without common ones, and CJK character pairs), after those already in
the title or path; tokens are what loading the whole file costs (L2). Fields are cleaned so that pack text can
neither break a line, add a field nor close the marker early.

Budget: an always-loaded index should stay around 8-10 KB. Past ``TARGET_BYTES`` (10 KB) the result carries a
note, past ``ALARM_BYTES`` (20 KB) a warning, both suggesting filters (scope, type, pack) to bring it under.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.model import Pack
from studio.core.resolver.rank import STOPWORDS, fold, raw_bag
from studio.core.search.files import list_pack_files, read_file
from studio.core.tokens import Tokenizer, get_tokenizer

TARGET_BYTES = 10 * 1024
ALARM_BYTES = 20 * 1024
RUNTIME_KINDS = ("guide", "compiled", "split", "document", "wiki")
ALL_KINDS = (*RUNTIME_KINDS, "source")
KEYWORDS = 5
TITLE_CHARS = 80
KEYWORD_CHARS = 24
START = "<knowledge_index"
END = "</knowledge_index>"
FIELDS = "pack|path|kind|title|keywords|tokens"

INDEX_OVER_ALARM = Code("knowledge-index-over-alarm", Severity.WARNING, "the compressed knowledge index is over "
                        "20 KB, too large to keep loaded", Behavior.LOAD,
                        hint="Filter it by scope, type or pack (--scope, --type, --pack) to bring it under budget.")
INDEX_OVER_TARGET = Code("knowledge-index-over-target", Severity.INFO, "the compressed knowledge index is over "
                         "the 10 KB an always-loaded index should aim at", Behavior.LOAD,
                         hint="Filter it by scope, type or pack if the agent's context is tight.")
CODES = (INDEX_OVER_ALARM, INDEX_OVER_TARGET)

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]+")
_LATIN = re.compile(r"[a-z]{3,}")


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One line of the index."""

    pack: str
    root: str
    path: str
    kind: str
    title: str
    keywords: tuple[str, ...]
    tokens: int | None
    """Tokens of the whole file (None when the tokenizer is unavailable)."""
    bytes: int
    """Size of the whole file."""

    def line(self) -> str:
        tokens = "-" if self.tokens is None else str(self.tokens)
        return "|".join((clean(self.pack), clean(self.path), self.kind, clean(self.title, TITLE_CHARS),
                         ", ".join(clean(k, KEYWORD_CHARS) for k in self.keywords), tokens))

    def to_json(self) -> dict[str, Any]:
        return {"pack": self.pack, "root": self.root, "path": self.path, "kind": self.kind, "title": self.title,
                "keywords": list(self.keywords), "tokens": self.tokens, "bytes": self.bytes}


@dataclass(slots=True)
class CompressedIndex:
    """The index text with its size, its cost and how it compares with the content it stands for."""

    entries: list[IndexEntry]
    text: str
    bytes: int
    tokens: int | None
    content_bytes: int
    content_tokens: int | None
    warnings: list[Diagnostic] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    packs: int = 0

    @property
    def ratio(self) -> float:
        """Index bytes per byte of the full content (0 when there is no content)."""
        return self.bytes / self.content_bytes if self.content_bytes else 0.0

    def summary(self) -> str:
        """One line: size, tokens and ratio to the content."""
        tokens = "?" if self.tokens is None else f"{self.tokens:,}"
        content = "?" if self.content_tokens is None else f"{self.content_tokens:,}"
        return (f"{len(self.entries)} files of {self.packs} packs: {self.bytes / 1024:.1f} KB, {tokens} tokens "
                f"(the files themselves: {self.content_bytes / 1024:.1f} KB, {content} tokens; ratio "
                f"{self.ratio:.1%})")

    def to_json(self) -> dict[str, Any]:
        return {"entries": [e.to_json() for e in self.entries], "bytes": self.bytes, "tokens": self.tokens,
                "content_bytes": self.content_bytes, "content_tokens": self.content_tokens,
                "ratio": round(self.ratio, 4), "warnings": [w.to_dict() for w in self.warnings],
                "skipped": dict(sorted(self.skipped.items())), "text": self.text}


def clean(value: str, limit: int | None = None) -> str:
    """A field value that cannot break the format: no line breaks, control characters, ``|`` or angle brackets."""
    text = _UNSAFE.sub(" ", value).replace("|", "¦").replace("<", "‹").replace(">", "›").strip()
    text = " ".join(text.split())
    if limit is not None and len(text) > limit:
        text = text[:limit - 1].rstrip() + "…"
    return text


def select_packs(packs: Iterable[Pack], *, scopes: Sequence[str] = (), types: Sequence[str] = (),
                 names: Sequence[str] = (), loaded_only: bool = True) -> list[Pack]:
    """The packs an index is built from: loadable ones (by default), narrowed by scope, type and name."""
    out = []
    for pack in packs:
        if loaded_only and not pack.loads:
            continue
        if scopes and pack.scope.value not in scopes:
            continue
        if types and (pack.type or "") not in types:
            continue
        if names and pack.name not in names:
            continue
        out.append(pack)
    return out


def build_compressed_index(packs: Sequence[Pack], *, kinds: Sequence[str] = RUNTIME_KINDS,
                           tokenizer: Tokenizer | None = None) -> CompressedIndex:
    """The L0 index of ``packs`` (reads every runtime file once; nothing is written)."""
    tok = tokenizer if tokenizer is not None else get_tokenizer()
    counting = tok.available
    skipped: Counter[str] = Counter()
    raw: list[tuple[Pack, str, str, str, str, int]] = []  # pack, path, kind, title, text, size
    for pack in packs:
        listing = list_pack_files(pack.root)
        skipped.update(listing.skipped)
        for stamp in listing.files:
            if stamp.layer not in kinds:
                continue
            read = read_file(pack.root, stamp)
            if isinstance(read, str):
                skipped[read] += 1
                continue
            text = pack.body if stamp.layer == "guide" else read.text
            title = _guide_title(pack, read.rows) if stamp.layer == "guide" else read.title
            raw.append((pack, stamp.path, stamp.layer, title, text, stamp.size))
    bags = [_terms(raw_bag(text)) for *_, text, _size in raw]
    df: Counter[str] = Counter()
    for bag in bags:
        df.update(bag.keys())
    entries = []
    for (pack, path, kind, title, text, size), bag in zip(raw, bags, strict=True):
        keywords = _keywords(bag, df, len(raw), f"{title} {path}")
        tokens = tok.count(text) if counting else None
        entries.append(IndexEntry(pack.name, str(pack.root), path, kind, title, keywords, tokens, size))
    text = render(entries, len(packs))
    size = len(text.encode("utf-8"))
    content_tokens = sum(e.tokens or 0 for e in entries) if counting else None
    index = CompressedIndex(entries, text, size, tok.count(text) if counting else None,
                            sum(e.bytes for e in entries), content_tokens, skipped=skipped, packs=len(packs))
    index.warnings = _warnings(index)
    return index


def render(entries: Sequence[IndexEntry], packs: int) -> str:
    """The index text: the start marker, one line per entry, the end marker."""
    head = f'{START} packs="{packs}" files="{len(entries)}" fields="{FIELDS}">'
    return "\n".join([head, *(e.line() for e in entries), END]) + "\n"


def preview_text(index: CompressedIndex) -> str:
    """What the Catalog preview shows: the size line, any warning, then the index itself."""
    lines = [f"# Compressed knowledge index (L0): {index.summary()}"]
    lines.extend(f"# {w.severity.value}: {w.message} {w.hint}".rstrip() for w in index.warnings)
    return "\n".join(lines) + "\n\n" + index.text


def compressed_preview(packs: Sequence[Pack], *, tokenizer: Tokenizer | None = None) -> str:
    """The Catalog preview's compressed-index text for the workspace's loaded packs (reads their runtime files:
    call it off the GUI thread)."""
    return preview_text(build_compressed_index(select_packs(packs), tokenizer=tokenizer))


def _guide_title(pack: Pack, rows: Sequence[Any]) -> str:
    heading = next((r.heading for r in rows if r.kind == "guide" and r.heading), None)
    return heading or pack.description or pack.name


def _terms(bag: Counter[bytes]) -> Counter[str]:
    """Candidate keywords of a file with their counts: folded words of three letters or more, CJK pairs."""
    out: Counter[str] = Counter()
    for term, tf in bag.items():
        word = term.decode("utf-8", "replace")
        if _LATIN.fullmatch(word):
            if word not in STOPWORDS:
                out[fold(word)] += tf
        elif len(word) == 2 and not word.isascii() and word.isalpha():
            out[word] += tf
    return out


def _keywords(terms: Counter[str], df: Counter[str], files: int, known: str) -> tuple[str, ...]:
    """The file's most distinctive terms (tf-idf), leaving out what the title and path already say.

    A term in more than half the files says nothing about any of them; a CJK pair must occur twice in the file
    and in two files, since most pairs straddle two words.
    """
    seen = {fold(t.decode("utf-8", "replace")) for t in raw_bag(known)}
    scored: list[tuple[float, str]] = []
    for word, tf in terms.items():
        if word in seen or (files > 3 and df[word] * 2 > files):
            continue
        if not word.isascii() and (tf < 2 or df[word] < 2):
            continue
        scored.append((tf * math.log(1 + files / df[word]), word))
    scored.sort(key=lambda s: (-s[0], s[1]))
    return tuple(word for _score, word in scored[:KEYWORDS])


def _warnings(index: CompressedIndex) -> list[Diagnostic]:
    size_kb = index.bytes / 1024
    where = os.getcwd()
    if index.bytes > ALARM_BYTES:
        return [INDEX_OVER_ALARM(f"The compressed index is {size_kb:.1f} KB ({len(index.entries)} files), over the "
                                 f"{ALARM_BYTES // 1024} KB alarm.", file=where)]
    if index.bytes > TARGET_BYTES:
        return [INDEX_OVER_TARGET(f"The compressed index is {size_kb:.1f} KB, over the {TARGET_BYTES // 1024} KB "
                                  "target.", file=where)]
    return []
