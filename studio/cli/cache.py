"""``pack-studio cache --info | --clear``: the result cache that lets commands skip packs that did not change.

Commands that load packs keep each pack's result in ``$XDG_CACHE_HOME/knowledge-pack-studio/results.sqlite3``
(``~/.cache/...`` without the variable), keyed by the pack, the studio and a fingerprint of every file the load
looked at; ``--no-cache`` on any of them works without it. ``--info`` says where it is, how many packs it holds and
its size; ``--clear`` deletes it (the next run of each command is as slow as a first one). The search index in the
same folder is left alone.
"""

from __future__ import annotations

import argparse
import sys

from studio.cli._output import add_format_option, write_json
from studio.core.diagnostics import counted
from studio.core.result_cache import ResultStore, spec_for
from studio.core.terminal import printable


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("cache", help="show or clear the result cache",
                       description="Where the result cache is, how large, and how to empty it. The search index "
                                   "in the same folder is not part of it and is kept: each search brings it up to "
                                   "date file by file (pack-studio search --help).")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--info", action="store_true", help="where the cache is, its packs and size (the default)")
    what.add_argument("--clear", action="store_true", help="delete the cached results (not the search index)")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    store = ResultStore(spec_for())
    if args.clear:
        before = store.info()
        store.clear()
        if args.format == "json":
            write_json({"cleared": str(before.path), "entries": before.entries, "bytes": before.bytes})
        else:
            sys.stdout.write(f"cleared {printable(str(before.path))} ({counted(before.entries, 'pack result')}, "
                             f"{before.bytes / 2**20:.1f} MiB)\n")
        return 0
    info = store.info()
    for notice in store.notices:
        sys.stderr.write(f"{notice.severity.value}: {printable(notice.message)}\n")
    if args.format == "json":
        write_json({"path": str(info.path), "exists": info.exists, "entries": info.entries, "bytes": info.bytes,
                    "max_bytes": info.max_bytes})
    elif not info.exists:
        sys.stdout.write(f"{printable(str(info.path))}: no cache yet (a command that loads packs makes it)\n")
    else:
        sys.stdout.write(f"{printable(str(info.path))}: {counted(info.entries, 'pack result')}, "
                         f"{info.bytes / 2**20:.1f} MiB of at most {info.max_bytes / 2**20:.0f} MiB\n")
    return 0
