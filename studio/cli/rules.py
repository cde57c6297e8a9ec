"""``pack-studio rules``: the catalogue of every diagnostic code the studio can emit.

Text (a table), ``--format json`` (for tools) and ``--format markdown`` (the README's rules section is this
output, between its markers; a test keeps the two equal).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from studio.cli._output import add_format_option, write_json
from studio.core.catalogue import Entry, catalogue
from studio.core.terminal import printable


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("rules", help="list every diagnostic code with its severity, behaviour and meaning",
                       description="List every diagnostic code the studio can emit.")
    add_format_option(p, ("text", "json", "markdown"))
    p.add_argument("code", nargs="?", help="show one code (with the rule module's full documentation)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    entries = list(catalogue())
    if args.code:
        entries = [e for e in entries if e.code.code == args.code]
        if not entries:
            print(f"pack-studio rules: no such code: {printable(args.code)}", file=sys.stderr)
            return 2
    if args.format == "json":
        write_json({"rules": [entry_json(e) for e in entries]})
    elif args.format == "markdown":
        sys.stdout.write(markdown_table(entries))
    else:
        sys.stdout.write(text_table(entries, detailed=bool(args.code)))
    return 0


def entry_json(entry: Entry) -> dict[str, Any]:
    code = entry.code
    return {"code": code.code, "severity": code.severity.value, "behavior": code.behavior.value,
            "rule": code.rule or None, "doc": code.doc, "hint": code.hint or None, "module": entry.module}


def text_table(entries: list[Entry], *, detailed: bool = False) -> str:
    width = max((len(e.code.code) for e in entries), default=0)
    lines = []
    for e in entries:
        c = e.code
        lines.append(f"{c.code:<{width}}  {c.severity.value:<7}  {c.rule or '-':<3}  {c.behavior.value:<20}  {c.doc}")
        if detailed:
            if c.hint:
                lines.append(f"    fix: {c.hint}")
            lines.append(f"    from {e.module}")
            doc = _module_doc(e.module)
            if doc:
                lines.extend("    " + line if line else "" for line in doc.splitlines())
    return "\n".join(lines) + "\n"


def markdown_table(entries: list[Entry]) -> str:
    lines = ["| Code | Severity | Row | Client behaviour | Meaning |", "| --- | --- | --- | --- | --- |"]
    for e in entries:
        c = e.code
        lines.append(f"| `{c.code}` | {c.severity.value} | {c.rule or ''} | {c.behavior.value} | "
                     f"{c.doc.replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def _module_doc(module: str) -> str:
    """The declaring module's docstring as plain text (reStructuredText backticks dropped)."""
    import importlib

    doc = (importlib.import_module(module).__doc__ or "").strip()
    return doc.replace("``", "")
