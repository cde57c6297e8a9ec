"""``pack-studio fix PATH... [--code CODE] [--write]``: repair KNOWLEDGE.md findings with minimal edits.

By default a dry run: the unified diff of every meaning-preserving fix is printed and nothing is written.
With ``--write`` each pack's ``KNOWLEDGE.md`` is replaced atomically, and refused when it changed on disk
since it was read. A fix never removes a line the author wrote (a context-map line naming a missing file is
kept: ``--create`` makes the file instead). Fixes that need a choice (a placeholder for a missing required
field, removing a line, renaming the folder, several equally close values) are listed but left to the app
(Ctrl+.). Line numbers are those of the file as it was read. Exit status:
0 no errors remain, 1 errors remain (after the fixes), 2 usage error, not a pack, or a refused write.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from studio.cli._output import add_format_option, write_json
from studio.cli._readonly import refuse_builtin
from studio.core.authoring.files import FileOpError
from studio.core.authoring.fixes import FixRun, create_files, fixable_codes, plan_fixes, write_fixes
from studio.core.diagnostics import Severity, counted
from studio.core.frontmatter_edit import EditError
from studio.core.scan import find_pack_dirs
from studio.core.terminal import printable, printable_block


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("fix", help="repair KNOWLEDGE.md findings (dry run unless --write)",
                       description="Apply the quick fixes that only repair (a misspelled value or key, the name "
                       "of the folder, tab indentation, the implied profile); never removes a line the author wrote. "
                       "--create also creates the missing files a context map names. Prints a unified diff; "
                       "--write applies it atomically. Exit status: 0 no errors left, 1 errors left, 2 usage "
                       "error or refused write.")
    # nargs="*" so that --list-codes needs no PATH; run() asks for one otherwise.
    p.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="a pack, or a folder of packs")
    p.add_argument("--code", action="append", default=[], metavar="CODE",
                   help="fix only findings with this code (repeatable, or comma-separated); see --list-codes")
    p.add_argument("--write", action="store_true", help="write the fixes (default: print the diff only)")
    p.add_argument("--create", action="store_true",
                   help="also create the missing files a context map names, from a skeleton (with --write)")
    p.add_argument("--list-codes", action="store_true", help="list the codes that have fixes and exit")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    known = fixable_codes()
    if args.list_codes:
        sys.stdout.write("\n".join(known) + "\n")
        return 0
    if not args.paths:
        print("pack-studio fix: give a PATH (a pack, or a folder of packs), or --list-codes", file=sys.stderr)
        return 2
    codes = frozenset(c.strip() for item in args.code for c in item.split(",") if c.strip()) or None
    unknown = sorted(codes - set(known)) if codes else []
    if unknown:
        what = "code" if len(unknown) == 1 else "codes"
        print(f"pack-studio fix: no fix for {what} {printable(', '.join(unknown))}; see --list-codes", file=sys.stderr)
        return 2
    roots = _packs(args.paths)
    if roots is None:
        return 2
    if args.write:
        for root in roots:
            refuse_builtin(root, "--write")
    status = 0
    results: list[dict[str, Any]] = []
    for root in roots:
        try:
            result = plan_fixes(root, codes=codes, create=args.create)
            written = args.write and result.changed
            if written:
                write_fixes(result)
            if args.write:
                create_files(result)
        except (EditError, FileOpError) as exc:
            print(f"pack-studio fix: {printable(str(root))}: {printable(str(exc))}; nothing written", file=sys.stderr)
            status = 2
            continue
        if any(d.severity is Severity.ERROR for d in result.remaining):
            status = max(status, 1)
        if args.format == "json":
            results.append(_json(result, written))
        else:
            _text(result, written, args.write)
    if args.format == "json":
        write_json({"command": "fix", "write": args.write, "packs": results})
    return status


def _packs(paths: list[Path]) -> list[Path] | None:
    roots: list[Path] = []
    for path in paths:
        if path.name == "KNOWLEDGE.md" and path.is_file():
            path = path.parent
        if (path / "KNOWLEDGE.md").is_file():
            roots.append(path)
        elif path.is_dir():
            found = find_pack_dirs(path).pack_dirs
            if not found:
                print(f"pack-studio fix: no pack under {printable(str(path))}", file=sys.stderr)
                return None
            roots.extend(found)
        else:
            print(f"pack-studio fix: {printable(str(path))} is not a pack (no KNOWLEDGE.md)", file=sys.stderr)
            return None
    return roots


def _text(result: FixRun, written: bool, write: bool) -> None:
    out = sys.stdout
    where = str(result.root)
    if result.changed:
        out.write(printable_block(result.diff_named(f"{where}/KNOWLEDGE.md")))
        for fix in result.applied:
            out.write(printable(f"{where}/KNOWLEDGE.md:{fix.line}: fixed {fix.code}: {fix.title}") + "\n")
    for diagnostic, why in result.left:
        out.write(printable(f"{where}/KNOWLEDGE.md:{diagnostic.line}:{diagnostic.column}: not fixed "
                            f"{diagnostic.code}: {why}") + "\n")
    for fix in result.creations:
        if not write:
            out.write(printable_block(fix.diff))
        verb = "created" if write else "would create"
        out.write(printable(f"{where}/KNOWLEDGE.md:{fix.line}: {verb} {where}/{fix.path} for {fix.code}") + "\n")
    fixes = counted(len(result.applied), "fix", "fixes")
    if written:
        out.write(printable(f"Wrote {where}/KNOWLEDGE.md ({fixes})") + "\n")
    elif (result.changed or result.creations) and not write:
        files = f", {counted(len(result.creations), 'new file')}" if result.creations else ""
        out.write(printable(f"Dry run: {fixes}{files} for {where}; run with --write to apply") + "\n")
    elif not result.changed and not result.creations:
        out.write(printable(f"Nothing to fix in {where}") + "\n")


def _json(result: FixRun, written: bool) -> dict[str, Any]:
    return {"pack": str(result.root), "diff": result.diff, "written": written,
            "applied": [{"code": f.code, "line": f.line, "title": f.title} for f in result.applied],
            "created": [{"code": f.code, "line": f.line, "path": f.path} for f in result.creations],
            "not_fixed": [{**d.to_dict(), "why": why} for d, why in result.left],
            "remaining": [d.to_dict() for d in result.remaining]}
