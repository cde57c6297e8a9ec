"""``pack-studio search QUERY [PATH ...]``: full-text search over every pack of the workspace (layer L1).

The index lives in the cache folder (``--cache-dir``, default ``$XDG_CACHE_HOME/knowledge-pack-studio``) and is
brought up to date first: only files whose size or time changed are read again, and a pack whose folders all
have the times of its last walk is not walked at all (``--recheck`` stats every file: a file rewritten in place,
not saved by rename, leaves its folder's times alone). Words are all required; when
no section has them all, sections with any of them are shown and the output says so (``--all`` / ``--any``
force one). ``"quoted phrases"`` and ``prefix*`` work; anything else in the query is searched as text.

Output: ``text`` (results grouped by pack, each ``path:line``, heading, relevance (the score over the best hit's)
with the bm25 score, and a snippet with matches in
``«»``) or ``json`` (``{query, matched, results: [{pack, path, line, heading, score, relevance, snippet, ...}],
index: {path, files, bytes, updated}, ...}``). A hit whose file changed since it was indexed in a way that makes
it unsafe or impossible to read (gone, now a symlink out of the pack) has no snippet and says why (``unread``).
Exit status: 0 when something was found, 1 when nothing was, 2 for usage errors (an empty query, or one with no
letters or digits) or an index that cannot be used.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from studio.cli._output import add_format_option, write_json
from studio.cli._scope import add_scope_arguments, options_from_args
from studio.core.diagnostics import Diagnostic, Severity, counted
from studio.core.model import Scope
from studio.core.scan import Stamp
from studio.core.search import IndexLocationError, RefreshReport, SearchIndex, SearchResults
from studio.core.search.engine import EngineError
from studio.core.search.files import KINDS
from studio.core.search.query import DEFAULT_LIMIT, MAX_LIMIT
from studio.core.search.textprep import parse_query
from studio.core.terminal import printable
from studio.core.workspace import find_packs, open_workspace

OPEN, CLOSE = "«", "»"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("search", help="search the text of every pack in the workspace",
                       description="Full-text search (tantivy, bm25 ranking) over the files the resolver "
                                   "could use in every pack of the workspace.")
    p.add_argument("query", metavar="QUERY", help='words to find; "a phrase" and prefix* work')
    add_scope_arguments(p)
    what = p.add_argument_group("what to search")
    what.add_argument("--pack", action="append", default=[], metavar="NAME", help="only this pack (repeatable)")
    what.add_argument("--scope", dest="scopes", action="append", default=[], choices=[s.value for s in Scope],
                      help="only packs of this discovery scope (repeatable)")
    what.add_argument("--kind", action="append", default=[], choices=KINDS,
                      help="only this kind of section (repeatable): frontmatter, guide (KNOWLEDGE.md body), "
                           "compiled, split, document, wiki, source")
    what.add_argument("--folder", default="", metavar="PREFIX", help="only files whose path starts with PREFIX, "
                                                                     "e.g. wiki/concepts/")
    mode = what.add_mutually_exclusive_group()
    mode.add_argument("--all", dest="mode", action="store_const", const="all", help="every word must be there")
    mode.add_argument("--any", dest="mode", action="store_const", const="any", help="any word is enough")
    p.add_argument("--limit", type=int, default=DEFAULT_LIMIT, metavar="N",
                   help=f"at most N results (default {DEFAULT_LIMIT}, at most {MAX_LIMIT})")
    p.add_argument("--cache-dir", type=Path, default=None, metavar="DIR",
                   help="folder holding the index (default: $XDG_CACHE_HOME/knowledge-pack-studio)")
    p.add_argument("--recheck", action="store_true",
                   help="stat every file before searching (by default a pack whose folders did not change since "
                        "it was indexed is trusted; a file rewritten in place, not saved by rename, needs this)")
    add_format_option(p)
    p.set_defaults(func=run, mode="auto")


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.limit <= MAX_LIMIT:
        sys.stderr.write(f"--limit must be between 1 and {MAX_LIMIT}\n")
        return 2
    if parse_query(args.query).empty:  # a usage error, found before the index is brought up to date for nothing
        why = "the query is empty" if not args.query.strip() else "the query has no letters or digits"
        sys.stderr.write(f"search: nothing to search for: {why}; give a word or a \"phrase\"\n")
        return 2
    roots, chosen, seen = _pack_roots(args)
    index = SearchIndex.open(args.cache_dir)
    try:
        try:
            refreshed = index.refresh(roots, quick=not args.recheck, seen=seen)
        except IndexLocationError as exc:
            sys.stderr.write(f"search: {printable(str(exc))}\n")
            return 2
        except (sqlite3.OperationalError, EngineError) as exc:
            # Another studio holds the index (building it from nothing), or the engine could not write (a full
            # disk, too many open files): the index as it is still answers.
            sys.stderr.write(f"search: the index could not be brought up to date ({printable(str(exc))}); "
                             "searching what it holds, which may be incomplete\n")
            refreshed = RefreshReport(packs=len(roots))
        results = index.search(args.query, roots=chosen, kinds=args.kind or None, path_prefix=args.folder,
                               limit=args.limit, mode=args.mode)
        info = index.info()
        notices = list(index.notices)
    finally:
        index.close()
    for notice in notices:
        sys.stderr.write(f"{notice.severity.value}: {printable(notice.message)}\n")
    if args.format == "json":
        data = results.to_json()
        data["index"] = {"path": info.path, "files": info.files, "bytes": info.bytes,
                         "updated": info.to_json()["updated"]}
        data["refresh"] = refreshed.to_json()
        data["notices"] = [n.to_dict() for n in notices]
        write_json(data)
    else:
        sys.stdout.write(render_text(results, len(chosen)))
        sys.stdout.write(f"index: {printable(str(info.path))}: {counted(info.files, 'file')}, "
                         f"{info.bytes / 1e6:.1f} MB; "
                         f"this run re-read {refreshed.indexed} and skipped {sum(refreshed.skipped.values())} "
                         f"({_reasons(refreshed.skipped)}); {counted(refreshed.trusted, 'pack')} unchanged since "
                         "indexed (folders untouched; --recheck stats every file)\n")
    if results.problem:
        sys.stderr.write(f"search: {printable(results.problem)}\n")
    return 0 if results.hits else 1


def _pack_roots(args: argparse.Namespace) -> tuple[list[str], list[str], dict[str, Stamp]]:
    """Every pack root of the workspace (the index is kept up to date for all), those the filters keep, and the
    folders' stamps as the scan saw them (the refresh compares them without a stat of its own).

    Search needs where the packs are and their scopes, never what the checks find: the index reads the files
    itself, and only those that changed since it last did. Only ``--pack`` needs the packs' names, and so their
    ``KNOWLEDGE.md`` (from the result cache when unchanged); without it no pack is loaded at all.
    """
    options = options_from_args(args, pins=False)  # every copy of a name is searched: no collision is settled
    notes: list[Diagnostic] = []
    if not args.pack:
        found = find_packs(options, notes)
        _say_scan_notes(notes)
        return ([p.root for p in found], [p.root for p in found if not args.scopes or p.scope.value in args.scopes],
                {p.root: p.stamp for p in found if p.stamp is not None})
    options.content_checks = False
    options.findings_only = True
    workspace = open_workspace(options)
    _say_scan_notes(workspace.diagnostics)
    packs = workspace.packs
    return ([str(p.root) for p in packs],
            [str(p.root) for p in packs if p.name in args.pack and (not args.scopes or p.scope.value in args.scopes)],
            {})


def _say_scan_notes(notes: list[Diagnostic]) -> None:
    """A scan that stopped at a limit searched only part of the workspace: say so (``--max-dirs`` lifts it)."""
    for note in notes:
        if note.severity is not Severity.INFO:
            sys.stderr.write(f"search: {note.severity.value}: {printable(note.message)}\n")


def render_text(results: SearchResults, packs: int) -> str:
    """Results grouped by pack; matches in the snippet between ``«`` and ``»``.

    Every string from a pack or the command line (query, note, pack name, root, path, heading, snippet) goes
    through ``printable``: a file named ``\x1b[33m…`` or a query holding ESC shows the escape, never obeys it.
    """
    lines: list[str] = []
    found = len(results.hits)
    how = {"all": "every word", "any": "any word (no section has every word)"}.get(results.matched, "")
    # The packs the hits are in, then how many were searched: "5 results in 5 packs" read as five packs holding
    # a hit each when all five were in one.
    holding = len({hit.root for hit in results.hits})
    head = (f"{printable(results.query)}: {counted(found, 'result')} in {counted(holding, 'pack')} "
            f"({counted(packs, 'pack')} searched)")
    lines.append(head + (f", {how}" if how and found else ""))
    if results.note:
        lines.append(f"note: {printable(results.note)}")
    current = None
    for hit in results.hits:
        if hit.root != current:
            current = hit.root
            lines.append(f"{printable(hit.pack)}  ({printable(str(hit.root))})")
        heading = f"  § {printable(hit.heading)}" if hit.heading else ""
        lines.append(f"  {printable(hit.path)}:{hit.line}{heading}  [{printable(hit.kind)}]  "
                     f"relevance {hit.relevance:.0%} (bm25 {hit.score:.3g})")
        if hit.snippet:
            lines.append(f"      {printable(mark(hit.snippet, hit.highlights))}")
        elif hit.unread:
            lines.append(f"      (no snippet: {printable(hit.unread)}; not read)")
    return "\n".join(lines) + "\n"


def mark(snippet: str, spans: Sequence[tuple[int, int]]) -> str:
    out = []
    last = 0
    for start, end in spans:
        if start < last:
            continue
        out.append(snippet[last:start] + OPEN + snippet[start:end] + CLOSE)
        last = end
    return "".join(out) + snippet[last:]


def _reasons(skipped: dict[str, int]) -> str:
    return ", ".join(f"{n} {printable(reason)}" for reason, n in sorted(skipped.items())) or "nothing"
