"""``pack-studio read-files PACK --ids ID ...``: what the ``read_files`` tool would return, simulated.

The ids are those of ``pack-studio guide PACK --as-tool`` (stable across runs and edits, see
``studio.core.render.file_ids``). The files come back as tier-3 fenced context, exactly the fence
``pack-studio fence`` prints, in the order asked (an id given twice is read once). An id of another pack, or one
that names no file of this pack, is a usage error (exit 2): nothing is printed on stdout and stderr lists the
valid ids. A listed file that cannot be read (binary, too large, gone) is named on stderr and left out (exit 1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli._pack import with_guide
from studio.cli.fence import add_variant_option, read_items, write_fence
from studio.core.pack import load_pack
from studio.core.render.fence import FenceVariant
from studio.core.render.tool_form import ToolForm, build_tool_form, resolve_ids

_LISTED_IDS = 50
"""Valid ids printed with a usage error; a large pack's full list is one ``guide --as-tool`` away."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("read-files", help="simulate the read_files tool: files by stable id, fenced",
                       description="Print the files with the given ids (from 'guide PACK --as-tool') as the "
                       "tier-3 fence the read_files tool returns. Exit status: 0 ok, 1 a file could not be read, "
                       "2 an unknown or foreign id, or PACK is not a pack.")
    p.add_argument("pack", type=Path, metavar="PACK", help="pack directory")
    p.add_argument("--ids", nargs="+", required=True, metavar="ID", help="file ids, in the order wanted")
    add_variant_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pack = with_guide(load_pack(args.pack))
    if pack is None:
        return 2
    form = build_tool_form(pack)
    files, problems = resolve_ids(form, args.ids)
    if problems:
        for problem in problems:
            sys.stderr.write(f"pack-studio read-files: {_one_line(problem.message)}\n")
        _list_valid(form)
        return 2
    items, failed = read_items(pack, [f.path for f in files])
    write_fence(pack, items, FenceVariant(args.variant))
    return 1 if failed else 0


def _list_valid(form: ToolForm) -> None:
    if not form.files:
        sys.stderr.write(f"'{_one_line(form.pack)}' lists no files, so it has no valid ids.\n")
        return
    sys.stderr.write(f"Valid ids of '{_one_line(form.pack)}' ({len(form.files)}):\n")
    for f in form.files[:_LISTED_IDS]:
        sys.stderr.write(f"  {f.id}  {_one_line(f.path)}\n")
    if len(form.files) > _LISTED_IDS:
        sys.stderr.write(f"  ... and {len(form.files) - _LISTED_IDS} more (pack-studio guide PACK --as-tool)\n")


def _one_line(text: str) -> str:
    """A pack-controlled string on one line, without terminal control characters."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)
