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

Cost (what the Catalog preview of a large workspace waits for): reading the files, their keywords
(``keywords``) and exact token counts, which are stored in the search database (``token_counts``) when one is
given, so a file is counted once. Counting runs at about 15 MB of text a second, so a build counts at most
``COUNT_BUDGET_CHARS`` of text not counted before; the other files get tiktoken's cheap lower bound (whitespace
runs, ``Tokenizer.at_least``), shown as ``≥N`` in the line and flagged ``tokens_estimated`` in JSON, and the
next build counts further. Measured on 100 packs of the 1,000-pack corpus (CPU): 5.2 s before (2.1 s of it
counting, 2.4 s cutting terms), now 3.3 s for a first build (2 s counting) and 1.7 s for the next ones; on the
1,000 packs about 20 s, of which counting is at most 1.5 s.

Budget: an always-loaded index should stay around 8-10 KB. Past ``TARGET_BYTES`` (10 KB) the result carries a
note, past ``ALARM_BYTES`` (20 KB) a warning, both suggesting filters (scope, type, pack) to bring it under.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.frontmatter import MAX_KNOWLEDGE_BYTES, read_knowledge_bytes
from studio.core.model import Pack
from studio.core.pack_fs import PackFS, held
from studio.core.search.blocks import first_heading
from studio.core.search.files import FileStamp, list_pack_files, read_data, stamp_file
from studio.core.search.keywords import Folds, Scorer, document_frequencies, file_terms
from studio.core.search.token_counts import TokenCounts, count_texts, counts_in
from studio.core.tokens import Tokenizer, get_tokenizer

TARGET_BYTES = 10 * 1024
ALARM_BYTES = 20 * 1024
SHARE_TARGET = 0.05
"""The design's target for the index's share of the content it describes (its bytes over theirs): under 5%."""
ENTRIES_PER_PACK_ALARM = 200
"""Past this many lines for one pack, that pack's index is a table of contents, not a summary."""
RUNTIME_KINDS = ("guide", "compiled", "split", "document", "wiki")
ALL_KINDS = (*RUNTIME_KINDS, "source")
COUNT_BUDGET_CHARS = 24_000_000
"""Characters of text a build counts exactly beyond stored counts: about 1.5 s of tiktoken."""
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
INDEX_OVER_SHARE = Code("knowledge-index-over-share", Severity.INFO, "the compressed knowledge index is over "
                        "5% of the content it describes", Behavior.LOAD,
                        hint="Packs of many short files cost the index most: merge small pages, or filter it.")
PACK_OVER_ENTRIES = Code("knowledge-index-pack-over-entries", Severity.WARNING, "one pack has over 200 lines in "
                         "the compressed knowledge index", Behavior.LOAD,
                         hint="Merge its small pages, or leave its sources out (--kind), so that the index "
                              "summarises the pack instead of listing it.")
CODES = (INDEX_OVER_ALARM, INDEX_OVER_TARGET, INDEX_OVER_SHARE, PACK_OVER_ENTRIES)

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]+")


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
    estimated: bool = False
    """``tokens`` is a lower bound, not a count (past the build's counting budget)."""

    def line(self) -> str:
        tokens = "-" if self.tokens is None else f"≥{self.tokens}" if self.estimated else str(self.tokens)
        return "|".join((clean(self.pack), clean(self.path), self.kind, clean(self.title, TITLE_CHARS),
                         ", ".join(clean(k, KEYWORD_CHARS) for k in self.keywords), tokens))

    def to_json(self) -> dict[str, Any]:
        return {"pack": self.pack, "root": self.root, "path": self.path, "kind": self.kind, "title": self.title,
                "keywords": list(self.keywords), "tokens": self.tokens, "tokens_estimated": self.estimated,
                "bytes": self.bytes}


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
    estimated: int = 0
    """Entries whose tokens are a lower bound (``content_tokens`` is then one too)."""

    @property
    def ratio(self) -> float:
        """Index bytes per byte of the full content (0 when there is no content)."""
        return self.bytes / self.content_bytes if self.content_bytes else 0.0

    def summary(self) -> str:
        """One line: size, tokens and ratio to the content."""
        tokens = "?" if self.tokens is None else f"{self.tokens:,}"
        content = "?" if self.content_tokens is None else f"{'≥' if self.estimated else ''}{self.content_tokens:,}"
        estimated = f"; {self.estimated} files' tokens are lower bounds (≥), counted later" if self.estimated else ""
        return (f"{len(self.entries)} files of {self.packs} packs: {self.bytes / 1024:.1f} KB, {tokens} tokens "
                f"(the files themselves: {self.content_bytes / 1024:.1f} KB, {content} tokens; the index is "
                f"{self.ratio:.1%} of the content, target under {SHARE_TARGET:.0%}{estimated})")

    def to_json(self) -> dict[str, Any]:
        return {"entries": [e.to_json() for e in self.entries], "bytes": self.bytes, "tokens": self.tokens,
                "content_bytes": self.content_bytes, "content_tokens": self.content_tokens,
                "ratio": round(self.ratio, 4), "share_target": SHARE_TARGET, "tokens_estimated": self.estimated,
                "warnings": [w.to_dict() for w in self.warnings],
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
                           tokenizer: Tokenizer | None = None, cache_dir: Path | str | None = None,
                           counts: TokenCounts | None = None,
                           count_budget: int | None = COUNT_BUDGET_CHARS) -> CompressedIndex:
    """The L0 index of ``packs`` (reads every runtime file once; nothing is written into a pack).

    Token counts are kept in ``counts``, or in the search database of ``cache_dir`` (``search.default_cache_dir``
    is the app's and the CLI's); with neither, every build counts again. ``count_budget``: characters of text
    counted exactly per build beyond stored counts (None: count everything).
    """
    tok = tokenizer if tokenizer is not None else get_tokenizer()
    skipped: Counter[str] = Counter()
    raw = _read(packs, kinds, skipped)
    folds = Folds()
    bags = [file_terms(text, folds) for *_, text, _size in raw]
    scorer = Scorer(document_frequencies(bags), len(raw))
    if counts is None and cache_dir is not None:
        with counts_in(cache_dir) as stored:
            tokens = count_texts(tok, [text for *_, text, _size in raw], stored, count_budget)
    else:
        tokens = count_texts(tok, [text for *_, text, _size in raw], counts, count_budget)
    entries = []
    for (pack, path, kind, title, _text, size), bag, (n, estimated) in zip(raw, bags, tokens, strict=True):
        keywords = tuple(map(folds.shown, scorer.keywords(bag, f"{title} {path}")))
        entries.append(IndexEntry(pack.name, str(pack.root), path, kind, title, keywords, n, size, estimated))
    text = render(entries, len(packs))
    size = len(text.encode("utf-8"))
    content_tokens = sum(e.tokens or 0 for e in entries) if tok.available else None
    index = CompressedIndex(entries, text, size, tok.count(text) if tok.available else None,
                            sum(e.bytes for e in entries), content_tokens, skipped=skipped, packs=len(packs),
                            estimated=sum(1 for e in entries if e.estimated))
    index.warnings = _warnings(index)
    return index


def _read(packs: Sequence[Pack], kinds: Sequence[str], skipped: Counter[str]) -> list[tuple[Pack, str, str, str,
                                                                                             str, int]]:
    """(pack, path, kind, title, text, size) of every runtime file: the text is what loading the file costs (a
    guide's body, without its frontmatter), the title its first heading (else the pack's description or name
    for a guide, the file name for other files)."""
    out = []
    for pack in packs:
        with PackFS(pack.root) as fs:  # one per pack: the listing and every read go through it
            listing = list_pack_files(pack.root, fs)
            skipped.update(listing.skipped)
            for stamp in listing.files:
                if stamp.layer not in kinds:
                    continue
                text = file_text(fs, stamp)
                if isinstance(text, tuple):
                    skipped[text[0]] += 1
                    continue
                name = stamp.path.rsplit("/", 1)[-1]
                if stamp.layer == "guide":
                    title = first_heading(text) or pack.description or pack.name
                elif stamp.layer == "source" and not name.lower().endswith((".md", ".markdown")):
                    title = name
                else:
                    title = first_heading(text) or name
                out.append((pack, stamp.path, stamp.layer, title, text, stamp.size))
    return out


def file_text(fs: PackFS, stamp: FileStamp) -> str | tuple[str]:
    """The text loading the file puts in context, as the index reads it (a guide's body, other files whole;
    UTF-8, line breaks made ``\\n``), or (reason,) when the file is not read. ``fs``: the file's pack."""
    data = read_data(fs, stamp)
    if isinstance(data, str):
        return (data,)
    if stamp.layer == "guide":
        return read_knowledge_bytes(data[:MAX_KNOWLEDGE_BYTES + 1], size=len(data))[0].body
    try:
        text = data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return ("undecodable",)
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def exact_tokens(entry: IndexEntry, tokenizer: Tokenizer, fs: PackFS | None = None) -> int | None:
    """``entry``'s tokens counted now (for an entry whose count is a lower bound); None when unreadable (also when
    the file became a symlink out of the pack: it is not read). ``fs``: the entry's pack already held open."""
    with held(entry.root, fs) as pack:
        stamp = stamp_file(pack, entry.path)
        text = file_text(pack, stamp) if not isinstance(stamp, str) else (stamp,)
    if isinstance(text, tuple) or not tokenizer.available:
        return None
    return tokenizer.count(text)


def render(entries: Sequence[IndexEntry], packs: int) -> str:
    """The index text: the start marker, one line per entry, the end marker."""
    head = f'{START} packs="{packs}" files="{len(entries)}" fields="{FIELDS}">'
    return "\n".join([head, *(e.line() for e in entries), END]) + "\n"


def preview_text(index: CompressedIndex) -> str:
    """What the Catalog preview shows: the size line, any warning, then the index itself."""
    lines = [f"# Compressed knowledge index (L0): {index.summary()}"]
    lines.extend(f"# {w.severity.value}: {w.message} {w.hint}".rstrip() for w in index.warnings)
    return "\n".join(lines) + "\n\n" + index.text


def compressed_preview(packs: Sequence[Pack], *, tokenizer: Tokenizer | None = None,
                       cache_dir: Path | str | None = None) -> str:
    """The Catalog preview's compressed-index text for the workspace's loaded packs (reads their runtime files:
    call it off the GUI thread). ``cache_dir``: the search index's folder, where token counts are kept (without
    it every build counts again)."""
    return preview_text(build_compressed_index(select_packs(packs), tokenizer=tokenizer, cache_dir=cache_dir))


def _warnings(index: CompressedIndex) -> list[Diagnostic]:
    size_kb = index.bytes / 1024
    where = os.getcwd()
    out: list[Diagnostic] = []
    if index.bytes > ALARM_BYTES:
        out.append(INDEX_OVER_ALARM(f"The compressed index is {size_kb:.1f} KB ({len(index.entries)} files), over "
                                    f"the {ALARM_BYTES // 1024} KB alarm.", file=where))
    elif index.bytes > TARGET_BYTES:
        out.append(INDEX_OVER_TARGET(f"The compressed index is {size_kb:.1f} KB, over the {TARGET_BYTES // 1024} KB "
                                     "target.", file=where))
    if index.ratio > SHARE_TARGET:
        out.append(INDEX_OVER_SHARE(f"The compressed index is {index.ratio:.1%} of the content it describes, over "
                                    f"the {SHARE_TARGET:.0%} target.", file=where))
    per_pack = Counter(e.root for e in index.entries)
    names = {e.root: e.pack for e in index.entries}
    for root, count in sorted(per_pack.items(), key=lambda kv: (-kv[1], kv[0])):
        if count <= ENTRIES_PER_PACK_ALARM:
            break
        out.append(PACK_OVER_ENTRIES(f"The pack {clean(names[root])} has {count} lines in the compressed index, "
                                     f"over {ENTRIES_PER_PACK_ALARM}.", file=root))
    return out
