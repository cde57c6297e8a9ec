"""``pack-studio format PATH... [--write]``: normalise KNOWLEDGE.md's BOM, line endings and frontmatter indentation.

The body's text is never changed (only its line-end characters, unless ``--keep-line-endings``); every step
is kept only when the frontmatter reads back with the same values. A dry run by default (prints the diff);
``--write`` replaces the file atomically and refuses when it changed on disk meanwhile. Exit status: 0 done
(or nothing to do), 2 usage error, not a pack, or a refused write.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli._output import add_format_option, write_json
from studio.cli._readonly import refuse_builtin
from studio.core.authoring.formatting import format_knowledge
from studio.core.frontmatter_edit import EditError, FieldEdit, read_knowledge_text, write_knowledge_edit
from studio.core.terminal import printable, printable_block


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("format", help="normalise KNOWLEDGE.md's BOM, line endings and frontmatter indentation",
                       description="Remove a BOM, use LF line endings and indent the frontmatter with two spaces "
                       "per level, without changing the body's text. Dry run unless --write. Exit status: "
                       "0 done, 2 usage error or refused write.")
    p.add_argument("paths", nargs="+", type=Path, metavar="PACK", help="pack directories")
    p.add_argument("--write", action="store_true", help="write the result (default: print the diff only)")
    p.add_argument("--keep-line-endings", action="store_true", help="leave CRLF line endings as they are")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    status = 0
    results = []
    if args.write:  # before anything is written: a built-in pack among the paths refuses the whole run
        for given in args.paths:
            refuse_builtin(given.parent if given.name == "KNOWLEDGE.md" else given, "--write")
    for root in args.paths:
        if root.name == "KNOWLEDGE.md":
            root = root.parent
        try:
            text = read_knowledge_text(root)
            result = format_knowledge(text, line_endings=not args.keep_line_endings)
            written = args.write and result.new_text != text
            if written:
                write_knowledge_edit(root, FieldEdit(text, result.new_text, result.diff))
        except EditError as exc:
            print(f"pack-studio format: {printable(str(root))}: {printable(str(exc))}; nothing written",
                  file=sys.stderr)
            status = 2
            continue
        where = f"{root}/KNOWLEDGE.md"
        if args.format == "json":
            results.append({"pack": str(root), "changes": list(result.changes), "diff": result.diff,
                            "written": written})
            continue
        if result.changes:
            sys.stdout.write(printable_block(result.diff.replace("a/KNOWLEDGE.md", where, 1).replace("b/KNOWLEDGE.md",
                                                                                            where, 1)))
            verb = "Formatted" if written else "Would format"
            sys.stdout.write(printable_block(f"{verb} {where}: {'; '.join(result.changes)}") + "\n")
        else:
            sys.stdout.write(printable_block(f"{where} is already formatted") + "\n")
    if args.format == "json":
        write_json({"command": "format", "write": args.write, "packs": results})
    return status
