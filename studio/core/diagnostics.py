"""Diagnostics: positioned findings every parser, check and scanner returns as values."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from studio.core.terminal import printable


class Severity(StrEnum):
    """How bad a finding is; the same three levels the standard's schemas use."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Sort key: errors first."""
        return {"error": 0, "warning": 1, "info": 2}[self.value]


class Behavior(StrEnum):
    """What a client does with the pack because of a finding (digest 3.1, 3.3)."""

    LOAD = "load"
    LOAD_WITH_WARNING = "load-with-warning"
    REQUIRE_CONFIRMATION = "require-confirmation"
    HIDDEN = "hidden"
    QUARANTINE = "quarantine"
    SKIP = "skip"

    @property
    def gravity(self) -> int:
        """Higher means the pack is further from being usable; the worst one wins."""
        return _GRAVITY[self]

    @property
    def loads(self) -> bool:
        """Whether a client keeps the pack at all (it may still hide or gate it)."""
        return self not in (Behavior.QUARANTINE, Behavior.SKIP)


_GRAVITY = {
    Behavior.LOAD: 0,
    Behavior.LOAD_WITH_WARNING: 1,
    Behavior.REQUIRE_CONFIRMATION: 2,
    Behavior.HIDDEN: 3,
    Behavior.QUARANTINE: 4,
    Behavior.SKIP: 5,
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding, positioned in a file so the UI can jump to it."""

    code: str
    """Stable kebab-case identifier, e.g. ``missing-description``."""
    severity: Severity
    message: str
    file: str = "KNOWLEDGE.md"
    """Path relative to the pack root (POSIX separators), or an absolute path for workspace findings."""
    line: int = 1
    """1-based line."""
    column: int = 1
    """1-based column."""
    hint: str = ""
    """How to fix it, in one sentence."""
    behavior: Behavior = Behavior.LOAD
    """What a client does with the pack because of this finding."""
    rule: str = ""
    """Row of the digest's diagnostic table (``V06``), or empty for studio-only findings."""
    pack: str = ""
    """Absolute pack directory the finding belongs to; empty for workspace-level findings."""

    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.file, self.line, self.column, self.severity.rank, self.code)

    def __reduce__(self) -> tuple[type[Diagnostic], tuple[object, ...]]:
        # Findings of packs loaded in worker processes travel back pickled; the state protocol that
        # dataclasses give frozen slotted classes runs in Python and costs several times more.
        return Diagnostic, (self.code, self.severity, self.message, self.file, self.line, self.column,
                            self.hint, self.behavior, self.rule, self.pack)

    def with_pack(self, pack: str) -> Diagnostic:
        """The same finding attached to the pack at ``pack`` (spelled out: ``replace`` costs several times more)."""
        return Diagnostic(self.code, self.severity, self.message, self.file, self.line, self.column, self.hint,
                          self.behavior, self.rule, pack)

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "hint": self.hint,
            "behavior": self.behavior.value,
            "rule": self.rule,
        }

    def format(self, prefix: str = "") -> str:
        """``path:line:col: severity code message`` as the CLI prints it: always one line, with control characters
        and line breaks of pack-derived text shown as escapes (``studio.core.terminal.printable``)."""
        path = f"{prefix.rstrip('/')}/{self.file}" if prefix and not self.file.startswith("/") else self.file
        return (f"{printable(path)}:{self.line}:{self.column}: {self.severity.value} {self.code} "
                f"{printable(self.message)}")


@dataclass(slots=True)
class DiagnosticCounts:
    """Error / warning / info tallies for badges and summaries."""

    errors: int = 0
    warnings: int = 0
    infos: int = 0
    by_code: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, diagnostics: Iterable[Diagnostic]) -> DiagnosticCounts:
        counts = cls()
        for d in diagnostics:
            if d.severity is Severity.ERROR:
                counts.errors += 1
            elif d.severity is Severity.WARNING:
                counts.warnings += 1
            else:
                counts.infos += 1
            counts.by_code[d.code] = counts.by_code.get(d.code, 0) + 1
        return counts

    def phrase(self) -> str:
        """``0 errors, 1 warning, 2 info``: the tallies as the CLI summaries print them (info is uncounted)."""
        return f"{counted(self.errors, 'error')}, {counted(self.warnings, 'warning')}, {self.infos} info"


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``1 pack``, ``2 packs``, ``0 packs``: a count with its noun in the number it takes."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


@dataclass(frozen=True, slots=True)
class Code:
    """A declared diagnostic code: the one place its severity, behaviour, rule row and meaning are written.

    Every module that emits findings declares its codes in a module-level ``CODES`` tuple, and
    ``studio.core.catalogue`` lists those modules; ``pack-studio rules`` prints the result. Findings are made by
    calling the code (``INVALID_NAME("'name' contains ' '", line=2, column=7)``), so a finding can only carry a
    code that was declared, with the declared severity and behaviour unless the call says otherwise.
    """

    code: str
    """Stable kebab-case identifier, e.g. ``missing-description``."""
    severity: Severity
    doc: str
    """One line: what the finding means (the catalogue's entry)."""
    behavior: Behavior = Behavior.LOAD
    """What a client does with the pack because of the finding."""
    rule: str = ""
    """Row of the digest's diagnostic table (``V06``), or empty for studio-only findings."""
    hint: str = ""
    """The usual fix, used when the call gives none."""

    def __call__(self, message: str, file: str = "KNOWLEDGE.md", line: int = 1, column: int = 1, *,
                 hint: str | None = None, pack: str = "", severity: Severity | None = None,
                 behavior: Behavior | None = None) -> Diagnostic:
        """A finding of this code. ``severity`` and ``behavior`` override the declared ones (documented where
        a module does so, e.g. a missing root is an error when typed and an info when configured)."""
        return Diagnostic(self.code, severity or self.severity, message, file, line, column,
                          self.hint if hint is None else hint, behavior or self.behavior, self.rule, pack)


def worst_behavior(diagnostics: Iterable[Diagnostic]) -> Behavior:
    """The behaviour that governs the pack: the gravest among its findings."""
    worst = Behavior.LOAD
    for d in diagnostics:
        if d.behavior.gravity > worst.gravity:
            worst = d.behavior
    return worst


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=Diagnostic.sort_key)
