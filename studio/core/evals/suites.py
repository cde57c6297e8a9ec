"""Read an eval suite file into cases, with positioned findings for everything that cannot run.

Two shapes (digest 7.5, 7.6): discovery suites (``evals/discovery.train.json``, ``discovery.validation.json``;
``{pack_name, cases[{id, prompt, expected}]}``, the ``selection-eval`` schema) and answer-quality suites
(``evals/answer-quality.json``; ``{pack_name, evals[{id, prompt, expected_output, required_context[],
assertions[]}]}``, the ``answer-quality`` schema). The shape is told by content (``cases`` or ``evals``).

Bad input never stops the valid cases: invalid JSON is one finding at the parser's position; a case that
breaks its schema, repeats an earlier id or names a file outside the pack is left out with a finding at
the offending value (the same JSON position reader as ``runs/``); a required file that does not exist is a
warning and the case still runs (it will show as missed).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Code, Diagnostic, Severity
from studio.core.evals.model import ContextCase, DiscoveryCase, Suite
from studio.core.jsonread import JsonFailure, JsonText, read_json
from studio.core.model import Pack
from studio.core.pack_fs import LinkState, PackFS, Status, held
from studio.core.paths import from_read_result, is_unsafe_pointer, pointer_status, read_bounded
from studio.core.runs.schemas import schema_errors

MAX_SUITE_BYTES = 4 * 1024 * 1024
MAX_CASES = 5000
"""A suite with more cases is read up to this many; the rest are reported, not run."""

SUITE_UNREADABLE = Code("eval-suite-unreadable", Severity.ERROR, "an eval suite file could not be read",
                        hint="Check the path; suites are JSON files, usually under evals/.")
SUITE_MALFORMED = Code("eval-suite-malformed-json", Severity.ERROR, "an eval suite is not valid UTF-8 JSON",
                       rule="V36", hint="Fix the JSON syntax at this position.")
SUITE_UNKNOWN_SHAPE = Code("eval-suite-unknown-shape", Severity.ERROR, "a JSON file given as a suite has neither "
                           "'cases' (discovery) nor 'evals' (answer quality)",
                           hint="Use {pack_name, cases: [...]} or {pack_name, evals: [...]}.")
SUITE_SCHEMA = Code("eval-suite-schema-violation", Severity.ERROR, "a suite or one of its cases breaks the "
                    "selection-eval or answer-quality shape; the case is not run", rule="V37",
                    hint="Give every case an id and a prompt; discovery cases also need expected: "
                    "select, reject or warn.")
SUITE_EXTRA_FIELD = Code("eval-suite-extra-field", Severity.INFO, "a suite carries a key its schema does not "
                         "define; it is ignored", rule="V38",
                         hint="Strict readers (the reference CLI) flag extra keys; remove it or rename it.")
SUITE_DUPLICATE_ID = Code("eval-suite-duplicate-id", Severity.ERROR, "two cases of a suite share an id; the "
                          "later one is not run", hint="Give every case its own id.")
SUITE_OUTSIDE_PACK = Code("eval-suite-path-outside-pack", Severity.ERROR, "a case's required_context names a "
                          "path outside the pack; the case is not run",
                          hint="Name files by their path inside the pack, e.g. compiled/facts.md.")
SUITE_MISSING_FILE = Code("eval-suite-missing-context", Severity.WARNING, "a case's required_context names a "
                          "file the pack does not have; the case runs and shows it as missed",
                          hint="Fix the path, or remove the entry if the file was renamed on purpose.")
SUITE_PACK_MISMATCH = Code("eval-suite-pack-mismatch", Severity.WARNING, "a suite's pack_name is not the name "
                           "of the pack it is run against", hint="Run the suite against its own pack.")
SUITE_TOO_MANY = Code("eval-suite-too-many-cases", Severity.WARNING, f"a suite holds more than {MAX_CASES} "
                      "cases; the rest are not run", hint="Split the suite.")
CODES = (SUITE_UNREADABLE, SUITE_MALFORMED, SUITE_UNKNOWN_SHAPE, SUITE_SCHEMA, SUITE_EXTRA_FIELD, SUITE_DUPLICATE_ID,
         SUITE_OUTSIDE_PACK, SUITE_MISSING_FILE, SUITE_PACK_MISMATCH, SUITE_TOO_MANY)

MAX_LISTED_ENTRIES = 10_000
"""Entries of ``evals/`` looked at when listing suites."""
SUITE_FILES = ("evals/discovery.train.json", "evals/discovery.validation.json", "evals/answer-quality.json")
"""The standard's suite names, in the order the app lists them."""


def pack_suites(pack_root: Path) -> list[str]:
    """Pack-relative paths of the suite files a pack has: the standard names first, then other ``evals/*.json``.

    Listed by descriptor (``pack_fs``): a suite that is a symlink leading out of the pack is not listed.
    """
    with PackFS(pack_root) as fs:
        found = [rel for rel in SUITE_FILES if fs.exists(rel)]
        tree = fs.walk("evals", max_depth=0, max_entries=MAX_LISTED_ENTRIES)
    inside = {link.rel for link in tree.links if link.state is LinkState.FILE}
    names = [e.rel for e in tree.files if e.rel.endswith(".json") and (e.is_regular or e.rel in inside)]
    found += [rel for rel in names[:200] if rel not in found]
    return found


def read_suite(path: Path, pack: Pack | None = None) -> Suite:
    """Read the suite at ``path``; ``pack`` (when given) checks pack_name and required_context paths.

    A path inside the pack is read by descriptor from the pack root (``pack_fs``): one that is, or leads
    through, a symlink out of the pack is reported, never read. A suite named outside any pack (``--suite``
    with a path of the user's) is read as given.
    """
    rel = _pack_relative(path, pack.root) if pack is not None else None
    if pack is None or rel is None:
        return _read_suite(str(path), read_bounded(path, MAX_SUITE_BYTES + 1), pack, None)
    with PackFS(pack.root) as fs:
        return _read_suite(rel, from_read_result(fs.read(rel, MAX_SUITE_BYTES + 1), rel), pack, fs)


def _read_suite(label: str, read: tuple[bytes | None, int, Diagnostic | None], pack: Pack | None,
                fs: PackFS | None) -> Suite:
    raw, size, problem = read
    if problem is not None or raw is None:
        message = problem.message if problem is not None else "the file could not be read"
        return Suite(label, None, findings=[SUITE_UNREADABLE(f"{label}: {message}", label)])
    if size > MAX_SUITE_BYTES:
        return Suite(label, None, findings=[SUITE_UNREADABLE(
            f"{label} is {size:,} bytes; suites over {MAX_SUITE_BYTES:,} bytes are not read", label)])
    return parse_suite(raw, label, pack, fs=fs)


def _pack_relative(path: Path, root: Path) -> str | None:
    """``path`` relative to ``root`` when it lies there by name ('..' folded), else None."""
    here = os.path.normpath(os.path.abspath(path))
    base = os.path.normpath(os.path.abspath(root))
    if not here.startswith(base.rstrip(os.sep) + os.sep):
        return None
    return here[len(base.rstrip(os.sep)) + 1:].replace(os.sep, "/")


def parse_suite(raw: bytes | str, label: str, pack: Pack | None = None, *, fs: PackFS | None = None) -> Suite:
    """Parse suite text (bytes or str) named ``label`` in findings. Never raises.

    Read with the strict JSON reader of ``runs/``: a duplicate case key or a NaN is a positioned finding too.
    The files a case requires are looked at through ``fs`` (the pack's descriptors; opened here when not given).
    """
    parsed = read_json(raw)
    if isinstance(parsed, JsonFailure):
        return Suite(label, None, findings=[SUITE_MALFORMED(f"{label} {parsed.message}", label, parsed.line,
                                                            parsed.column)])
    data: Any = parsed.value
    kind = "discovery" if isinstance(data, dict) and isinstance(data.get("cases"), list) else (
        "context" if isinstance(data, dict) and isinstance(data.get("evals"), list) else None)
    if kind is None:
        return Suite(label, None, findings=[SUITE_UNKNOWN_SHAPE(
            f"{label} is neither a discovery suite ('cases') nor an answer-quality suite ('evals')", label)])
    if pack is None or kind == "discovery":
        return _Reader(parsed, data, label, pack, kind, None).read()
    with held(pack.root, fs) as pack_fs:
        return _Reader(parsed, data, label, pack, kind, pack_fs).read()


class _Reader:
    def __init__(self, source: JsonText, data: dict[str, Any], label: str, pack: Pack | None, kind: str,
                 fs: PackFS | None) -> None:
        self.source, self.data, self.label, self.pack, self.fs = source, data, label, pack, fs
        self.kind = kind
        self.list_key = "cases" if kind == "discovery" else "evals"
        self.suite = Suite(label, "discovery" if kind == "discovery" else "context",
                           pack_name=data["pack_name"] if isinstance(data.get("pack_name"), str) else "",
                           findings=source.findings(label))

    def at(self, path: tuple[str | int, ...]) -> tuple[int, int]:
        return self.source.position(list(path))

    def find(self, code: Code, message: str, path: tuple[str | int, ...]) -> Diagnostic:
        line, column = self.at(path)
        finding = code(message, self.label, line, column)
        self.suite.findings.append(finding)
        return finding

    def read(self) -> Suite:
        items: list[Any] = self.data[self.list_key]
        if len(items) > MAX_CASES:
            self.find(SUITE_TOO_MANY, f"{self.label} holds {len(items):,} cases; only the first {MAX_CASES:,} run",
                      (self.list_key,))
            items = items[:MAX_CASES]
            self.data = {**self.data, self.list_key: items}
        bad = self._schema_findings()
        if self.pack is not None and self.suite.pack_name and self.suite.pack_name != self.pack.name:
            self.find(SUITE_PACK_MISMATCH, f"the suite is for {self.suite.pack_name!r}, not {self.pack.name!r}",
                      ("pack_name",))
        seen: set[str] = set()
        for i, item in enumerate(items):
            if i in bad or not isinstance(item, dict):
                self.suite.skipped_cases += 1
                continue
            case_id = str(item.get("id"))
            if case_id in seen:
                self.find(SUITE_DUPLICATE_ID, f"case id {case_id!r} is used by an earlier case; this one is not run",
                          (self.list_key, i, "id"))
                self.suite.skipped_cases += 1
                continue
            seen.add(case_id)
            line = self.at((self.list_key, i))[0]
            if self.kind == "discovery":
                self.suite.discovery.append(DiscoveryCase(
                    case_id, item["prompt"], item["expected"], str(item.get("reason", "")),
                    tuple(str(w) for w in item.get("expected_warnings", ())), line))
            else:
                case = self._context_case(i, item, case_id, line)
                if case is None:
                    self.suite.skipped_cases += 1
                else:
                    self.suite.context.append(case)
        return self.suite

    def _schema_findings(self) -> set[int]:
        """Report schema violations; returns the indexes of cases that cannot run."""
        schema = "selection-eval" if self.kind == "discovery" else "answer-quality"
        try:
            errors = schema_errors(self.data, schema)
        except RecursionError:
            self.find(SUITE_SCHEMA, f"{self.label} is nested too deeply to check", ())
            return set(range(len(self.data[self.list_key])))
        bad: set[int] = set()
        for error in errors:
            path = error.path
            if error.validator == "additionalProperties":
                for key in error.extra_keys:
                    self.find(SUITE_EXTRA_FIELD, f"{_pointer((*path, key))} is not part of the {schema} shape",
                              (*path, key))
                continue
            in_case = len(path) >= 2 and path[0] == self.list_key and isinstance(path[1], int)
            if in_case:
                bad.add(int(path[1]))
            suffix = "; the case is not run" if in_case else ""
            self.find(SUITE_SCHEMA, f"{_pointer(path)}: {error.message} ({schema} schema){suffix}", path)
        return bad

    def _context_case(self, i: int, item: dict[str, Any], case_id: str, line: int) -> ContextCase | None:
        required = [str(r) for r in item.get("required_context", ())]
        for k, entry in enumerate(required):
            target = entry.split("#", 1)[0]
            if is_unsafe_pointer(target) or "\\" in target:
                self.find(SUITE_OUTSIDE_PACK, f"required_context {entry!r} is outside the pack; the case is not run",
                          ("evals", i, "required_context", k))
                return None
            if self.fs is None:
                continue
            status = pointer_status(self.fs, target)
            if status is Status.OUTSIDE:
                self.find(SUITE_OUTSIDE_PACK, f"required_context {entry!r} leads outside the pack (a symlink); the "
                          "case is not run", ("evals", i, "required_context", k))
                return None
            if status is not Status.OK:
                self.find(SUITE_MISSING_FILE, f"required_context {entry!r} does not exist in the pack",
                          ("evals", i, "required_context", k))
        assertions = tuple(a if isinstance(a, str) else str(a.get("text", "")) for a in item.get("assertions", ()))
        budget = item.get("budget")
        return ContextCase(case_id, item["prompt"], tuple(required), str(item.get("expected_output", "")),
                           assertions, budget if isinstance(budget, int) else None, item.get("profile"), line)


def _pointer(path: tuple[str | int, ...]) -> str:
    return "/" + "/".join(str(p) for p in path) if path else "(root)"
