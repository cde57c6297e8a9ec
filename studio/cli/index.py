"""``pack-studio index [PATH ...]``: the compressed knowledge index (layer L0) of the loaded packs.

One ``pack|path|kind|title|keywords|tokens`` line per runtime file, between ``<knowledge_index ...>`` and
``</knowledge_index>``. ``text`` prints the index on stdout and its size, tokens and share of the content it
describes (the design's target: under 5%) on stderr (so the index can be piped on as it is); ``json`` prints
``{entries, bytes, tokens, content_bytes, ratio, share_target, warnings, ...}``. Past 10 KB there is a note and
past 20 KB a warning, over a 5% share a note, and a warning for each pack with over 200 lines; ``--scope``, ``--type``,
``--pack`` and ``--kind`` narrow the index to bring it under budget. Token counts are kept in the search
index's database (``--cache-dir``, as ``pack-studio search``), so a file is counted once; a build counts at most
about 24 million characters not counted before and gives the other files a lower bound, shown ``≥N``
(``--exact-tokens`` counts every file). Exit status: 0, or 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli._output import add_encoding_option, add_format_option, write_json
from studio.cli._scope import add_scope_arguments, options_from_args
from studio.core.model import Scope
from studio.core.search import default_cache_dir
from studio.core.search.compressed import (
    ALL_KINDS,
    COUNT_BUDGET_CHARS,
    RUNTIME_KINDS,
    build_compressed_index,
    select_packs,
)
from studio.core.tokens import get_tokenizer
from studio.core.workspace import open_workspace


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("index", help="print the compressed knowledge index (one line per runtime file)",
                       description="The always-loaded compressed knowledge index (L0) of every loaded pack, "
                                   "with its size and its ratio to the content it stands for.")
    add_scope_arguments(p)
    what = p.add_argument_group("what to list")
    what.add_argument("--scope", dest="scopes", action="append", default=[], choices=[s.value for s in Scope],
                      help="only packs of this discovery scope (repeatable)")
    what.add_argument("--type", dest="types", action="append", default=[], metavar="TYPE",
                      help="only packs of this type, e.g. brand-product (repeatable)")
    what.add_argument("--pack", action="append", default=[], metavar="NAME", help="only this pack (repeatable)")
    what.add_argument("--kind", action="append", default=[], choices=ALL_KINDS,
                      help=f"only this kind of file (repeatable; default: {', '.join(RUNTIME_KINDS)}; "
                           "source adds sources/)")
    add_encoding_option(p, "tokenizer encoding")
    p.add_argument("--exact-tokens", action="store_true",
                   help="count every file's tokens now (a large workspace otherwise gets lower bounds, ≥N, for "
                        "files past this run's counting budget)")
    p.add_argument("--cache-dir", type=Path, default=None, metavar="DIR",
                   help="folder of the search index, where token counts are kept "
                        "(default: $XDG_CACHE_HOME/knowledge-pack-studio)")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    ws = open_workspace(options_from_args(args))
    packs = select_packs(ws.packs, scopes=args.scopes, types=args.types, names=args.pack)
    tokenizer = get_tokenizer(args.encoding)
    index = build_compressed_index(packs, kinds=tuple(args.kind) or RUNTIME_KINDS, tokenizer=tokenizer,
                                   cache_dir=args.cache_dir or default_cache_dir(),
                                   count_budget=None if args.exact_tokens else COUNT_BUDGET_CHARS)
    if args.format == "json":
        data = index.to_json()
        data["encoding"] = tokenizer.name
        write_json(data)
    else:
        sys.stdout.write(index.text)
        sys.stderr.write(index.summary() + "\n")
        for warning in index.warnings:
            sys.stderr.write(f"{warning.severity.value}: {warning.message} {warning.hint}\n")
    if not tokenizer.available:
        sys.stderr.write(f"tokenizer unavailable: {tokenizer.unavailable_reason}\n")
    return 0
