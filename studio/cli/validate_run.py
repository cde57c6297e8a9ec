"""``pack-studio validate-run FILE``: check one run record, answering in the reference CLI's envelope."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from studio.cli._output import envelope, write_json
from studio.core.diagnostics import Severity
from studio.core.runs import Validity, read_run_file
from studio.core.terminal import printable

_STATUS = {
    Validity.VALID: "passed",
    Validity.UNVALIDATED: "passed",
    Validity.INVALID: "needs-review",
    Validity.MALFORMED: "needs-review",
    Validity.UNREADABLE: "failed",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("validate-run", help="validate one run record (compile, context, usage, review ...)",
                       description="Infer the record's kind from its content (then its name) and check it "
                       "against the studio's schema for that kind. Prints JSON "
                       "{ok, status, command, pack, file, kind, validity, findings}. Exit status: 0 valid or "
                       "unvalidated, 1 invalid or malformed, 2 FILE missing.")
    p.add_argument("file", type=Path, metavar="FILE")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = Path(os.path.abspath(args.file))
    if not path.is_file():
        write_json(envelope(False, "failed", "validate-run", "", [
            {"severity": "error", "path": str(args.file), "message": "file not found"}], file=str(args.file)))
        return 2
    root = find_pack_root(path)
    record = read_run_file(path, root)
    findings: list[dict[str, Any]] = [
        {"severity": d.severity.value, "path": d.file, "message": d.message, "code": d.code,
         "line": d.line, "column": d.column}
        for d in record.diagnostics
    ]
    ok = not record.validity.is_problem and not any(d.severity is Severity.ERROR for d in record.diagnostics)
    status = "passed" if ok else _STATUS[record.validity] if record.validity.is_problem else "needs-review"
    write_json(envelope(ok, status, "validate-run", str(root), findings, file=record.path, kind=record.kind.value,
                        schema=record.kind.schema_name, validity=record.validity.value, summary=record.summary))
    if record.validity is Validity.UNREADABLE:
        print(f"pack-studio validate-run: {printable(record.path)} was not read", file=sys.stderr)
    return 0 if ok else 1


def find_pack_root(path: Path) -> Path:
    """The nearest folder above ``path`` holding ``KNOWLEDGE.md``; else the file's own folder.

    The root bounds what may be read: a symlinked record leading outside it is refused.
    """
    for parent in path.parents:
        if (parent / "KNOWLEDGE.md").is_file():
            return parent
    return path.parent
