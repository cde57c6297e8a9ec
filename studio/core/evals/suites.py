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

from pathlib import Path
from typing import Any

from studio.core.diagnostics import Code, Diagnostic, Severity
from studio.core.evals.model import ContextCase, DiscoveryCase, Suite
from studio.core.jsonread import JsonFailure, JsonText, read_json
from studio.core.model import Pack
from studio.core.paths import is_file, is_inside, is_unsafe_pointer, read_bounded, resolve_inside
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

SUITE_FILES = ("evals/discovery.train.json", "evals/discovery.validation.json", "evals/answer-quality.json")
"""The standard's suite names, in the order the app lists them."""


def pack_suites(pack_root: Path) -> list[str]:
    """Pack-relative paths of the suite files a pack has: the standard names first, then other ``evals/*.json``."""
    found = [rel for rel in SUITE_FILES if (pack_root / rel).is_file() and is_inside(pack_root, pack_root / rel)]
    folder = pack_root / "evals"
    if folder.is_dir() and not folder.is_symlink():
        try:
            names = sorted(p.name for p in folder.iterdir() if p.suffix == ".json" and p.is_file())
        except OSError:
            names = []
        found += [f"evals/{n}" for n in names[:200] if f"evals/{n}" not in found]
    return found


def read_suite(path: Path, pack: Pack | None = None) -> Suite:
    """Read the suite at ``path``; ``pack`` (when given) checks pack_name and required_context paths."""
    root = pack.root if pack is not None else None
    inside = root is not None and is_inside(root, path)
    label = str(path)
    if inside and root is not None and path.is_relative_to(root):
        label = path.relative_to(root).as_posix()
    raw, size, problem = read_bounded(path, MAX_SUITE_BYTES + 1, root=root if inside else None)
    if problem is not None or raw is None:
        message = problem.message if problem is not None else "the file could not be read"
        return Suite(label, None, findings=[SUITE_UNREADABLE(f"{label}: {message}", label)])
    if size > MAX_SUITE_BYTES:
        return Suite(label, None, findings=[SUITE_UNREADABLE(
            f"{label} is {size:,} bytes; suites over {MAX_SUITE_BYTES:,} bytes are not read", label)])
    return parse_suite(raw, label, pack)


def parse_suite(raw: bytes | str, label: str, pack: Pack | None = None) -> Suite:
    """Parse suite text (bytes or str) named ``label`` in findings. Never raises.

    Read with the strict JSON reader of ``runs/``: a duplicate case key or a NaN is a positioned finding too.
    """
    parsed = read_json(raw)
    if isinstance(parsed, JsonFailure):
        return Suite(label, None, findings=[SUITE_MALFORMED(f"{label} {parsed.message}", label, parsed.line,
                                                            parsed.column)])
    data: Any = parsed.value
    if isinstance(data, dict) and isinstance(data.get("cases"), list):
        return _Reader(parsed, data, label, pack, "discovery").read()
    if isinstance(data, dict) and isinstance(data.get("evals"), list):
        return _Reader(parsed, data, label, pack, "context").read()
    return Suite(label, None, findings=[SUITE_UNKNOWN_SHAPE(
        f"{label} is neither a discovery suite ('cases') nor an answer-quality suite ('evals')", label)])


class _Reader:
    def __init__(self, source: JsonText, data: dict[str, Any], label: str, pack: Pack | None, kind: str) -> None:
        self.source, self.data, self.label, self.pack = source, data, label, pack
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
            if self.pack is None:
                continue
            found = resolve_inside(self.pack.root, target)
            if found is None and (self.pack.root / target).exists():
                self.find(SUITE_OUTSIDE_PACK, f"required_context {entry!r} leads outside the pack (a symlink); the "
                          "case is not run", ("evals", i, "required_context", k))
                return None
            if found is None or not is_file(found):
                self.find(SUITE_MISSING_FILE, f"required_context {entry!r} does not exist in the pack",
                          ("evals", i, "required_context", k))
        assertions = tuple(a if isinstance(a, str) else str(a.get("text", "")) for a in item.get("assertions", ()))
        budget = item.get("budget")
        return ContextCase(case_id, item["prompt"], tuple(required), str(item.get("expected_output", "")),
                           assertions, budget if isinstance(budget, int) else None, item.get("profile"), line)


def _pointer(path: tuple[str | int, ...]) -> str:
    return "/" + "/".join(str(p) for p in path) if path else "(root)"
