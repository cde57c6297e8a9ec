"""Domain objects: scopes, frontmatter with positions, packs. Plain dataclasses, no I/O."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

from studio.core.diagnostics import Behavior, Diagnostic, DiagnosticCounts, sort_diagnostics, worst_behavior
from studio.core.paths import resolve_inside

STATUSES = ("draft", "ready", "needs-review", "stale", "disputed", "archived")
PROFILES = ("document-first", "wiki-first", "hybrid")
RUNTIME_MODES = ("data", "persona")
TRUST_LEVELS = ("unreviewed", "user-confirmed", "official", "external")
GROUNDING_POLICIES = ("none", "recommended", "required")
STANDARD_TYPES = (
    "personal-profile",
    "brand-product",
    "organization-knowhow",
    "domain-reference",
    "research-wiki",
    "brand-persona",
    "content-operations",
    "private-domain-operations",
    "live-commerce-operations",
    "campaign-operations",
    "growth-strategy",
    "content-ontology",
)
DEFAULT_PROFILE = "wiki-first"
DEFAULT_RUNTIME_MODE = "data"

# Trust ranks for shadowing diagnostics (digest 11.19): higher is more trusted.
TRUST_RANK = {"official": 3, "user-confirmed": 2, "external": 1, "unreviewed": 0}


class Scope(StrEnum):
    """Where a pack was discovered, in precedence order (digest 4.3)."""

    EXPLICIT = "explicit"
    PROJECT = "project"
    USER = "user"
    ORGANIZATION = "organization"
    BUILTIN = "builtin"

    @property
    def precedence(self) -> int:
        """Lower wins a name collision."""
        return _PRECEDENCE[self]


_PRECEDENCE = {scope: rank for rank, scope in enumerate(Scope)}
"""Built once: listing an enum is slow, and sorting 10,000 packs asks for each one's precedence."""


class Position(NamedTuple):
    """Where a frontmatter key and its value sit in ``KNOWLEDGE.md`` (1-based).

    A NamedTuple rather than a frozen dataclass: every pack holds dozens, and packs loaded in worker
    processes travel back pickled; a tuple builds and pickles about ten times faster.
    """

    line: int
    column: int
    value_line: int
    value_column: int


@dataclass(slots=True)
class Frontmatter:
    """The parsed YAML block, normalised, with every key's position remembered."""

    data: dict[str, Any]
    """Normalised values: dates and YAML-1.1 coercions of string fields are turned back into strings."""
    positions: dict[tuple[str, ...], Position]
    """Key path (``("metadata", "primaryDocument")``) to its position in the file."""
    start_line: int
    """Line of the opening ``---``."""
    end_line: int
    """Line of the closing ``---``."""
    raw: str
    """The YAML text between the fences, as written."""

    def position(self, *path: str) -> Position | None:
        return self.positions.get(tuple(path))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Packs loaded in worker processes travel back pickled. Positions go as one flat tuple of ints,
        # which pickles about three times faster than a dict of small tuples.
        flat = tuple(chain.from_iterable(self.positions.values()))
        return _frontmatter_from_pickle, (self.data, tuple(self.positions), flat, self.start_line,
                                          self.end_line, self.raw)

    def get(self, *path: str) -> Any:
        node: Any = self.data
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return node


def _frontmatter_from_pickle(data: dict[str, Any], keys: tuple[tuple[str, ...], ...], flat: tuple[int, ...],
                             start_line: int, end_line: int, raw: str) -> Frontmatter:
    make = tuple.__new__
    positions = {key: make(Position, flat[i:i + 4]) for key, i in zip(keys, range(0, len(flat), 4), strict=True)}
    return Frontmatter(data, positions, start_line, end_line, raw)


@dataclass(slots=True)
class KnowledgeFile:
    """What reading ``KNOWLEDGE.md`` produced: frontmatter (if any), body and how the bytes looked."""

    frontmatter: Frontmatter | None
    body: str
    """Markdown after the closing fence (LF line endings)."""
    body_start_line: int
    """1-based line in the file where ``body`` starts."""
    text: str
    """The whole decoded file with LF line endings (what the editor shows)."""
    has_bom: bool = False
    crlf: bool = False
    truncated: bool = False
    size: int = 0
    """Size in bytes on disk."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # One call when a worker's pack is unpickled, not the per-field state protocol of slots. The body and the
        # YAML are pieces of the text: they travel as where they sit in it, not as two more copies (half of what a
        # warm opening sent through the pipe and kept in the result cache).
        text, body, fm = self.text, self.body, self.frontmatter
        body_at: str | int = len(text) - len(body) if text.endswith(body) else body
        raw_at: tuple[int, int] | None = None
        if fm is not None:
            start = text.find(fm.raw) if fm.raw else -1
            if start >= 0:
                raw_at = (start, start + len(fm.raw))
                fm = Frontmatter(fm.data, fm.positions, fm.start_line, fm.end_line, "")
        return _knowledge_from_pickle, (fm, body_at, raw_at, self.body_start_line, text, self.has_bom, self.crlf,
                                        self.truncated, self.size)


def _knowledge_from_pickle(frontmatter: Frontmatter | None, body: str | int, raw_at: tuple[int, int] | None,
                           body_start_line: int, text: str, has_bom: bool, crlf: bool, truncated: bool,
                           size: int) -> KnowledgeFile:
    """``KnowledgeFile.__reduce__``'s counterpart (the result cache allows it to be called: what it is given is
    checked, so a garbled row fails to decode instead of building a file of the wrong shape)."""
    if not isinstance(text, str) or not isinstance(body, str | int) or \
            not (frontmatter is None or isinstance(frontmatter, Frontmatter)):
        raise pickle.UnpicklingError("a stored KNOWLEDGE.md of the wrong shape")
    if isinstance(body, int):
        body = text[body:]
    if frontmatter is not None and raw_at is not None:
        start, end = raw_at
        frontmatter.raw = text[int(start):int(end)]
    return KnowledgeFile(frontmatter, body, body_start_line, text, has_bom, crlf, truncated, size)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What settling the workspace decides about one pack, from the other packs and from where it was found.

    A value computed by ``studio.core.shadowing.settle`` (a pure function); the pack itself never changes.
    """

    shadowed_by: Path | None = None
    """Root of the pack that wins the name collision, when this one loses it."""
    findings: tuple[Diagnostic, ...] = ()
    """Collision, shadowing, trust and origin findings about this pack."""


NO_VERDICT = Verdict()


@dataclass(frozen=True, slots=True)
class Pack:
    """A discovered pack directory as loaded: its parsed ``KNOWLEDGE.md`` and its own findings.

    Frozen once ``load_pack`` returns it. What the rest of the workspace decides about it (shadowing, name
    collisions, origin trust) is a separate ``Verdict``; ``with_verdict`` gives the settled copy the workspace
    and the views hold, whose ``findings`` are the pack's own plus the verdict's.
    """

    root: Path
    """Absolute pack directory."""
    scope: Scope
    scope_root: Path | None = None
    """The scan root the pack was found under (None for explicitly opened packs)."""
    knowledge: KnowledgeFile | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    """The pack's own findings: reading, parsing and every check, sorted by position."""
    top_dirs: frozenset[str] | None = None
    """Names of the top-level folders when the pack was loaded (symlinks not followed); None if unlisted."""
    verdict: Verdict = NO_VERDICT
    """What the workspace decided about this copy (empty for a pack as loaded)."""
    findings: tuple[Diagnostic, ...] = field(init=False, repr=False, compare=False)
    """Own findings and the verdict's, sorted by position: what a curator sees for the pack."""

    def __post_init__(self) -> None:
        extra = self.verdict.findings
        object.__setattr__(self, "findings", tuple(sort_diagnostics([*self.diagnostics, *extra])) if extra
                           else self.diagnostics)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Packs travel between processes pickled; rebuilding through __init__ is one call instead of the
        # per-field state protocol dataclasses give frozen slotted classes.
        return Pack, (self.root, self.scope, self.scope_root, self.knowledge, self.diagnostics, self.top_dirs,
                      self.verdict)

    def with_verdict(self, verdict: Verdict) -> Pack:
        """This pack as the workspace settled it (the same object when the verdict is unchanged)."""
        return self if verdict == self.verdict else replace(self, verdict=verdict)

    @property
    def shadowed_by(self) -> Path | None:
        """Root of the pack that wins this pack's name, when this copy loses it."""
        return self.verdict.shadowed_by

    # -- identity -------------------------------------------------------------------------
    @property
    def knowledge_path(self) -> Path:
        return self.root / "KNOWLEDGE.md"

    @property
    def frontmatter(self) -> Frontmatter | None:
        return self.knowledge.frontmatter if self.knowledge else None

    def field(self, *path: str) -> Any:
        fm = self.frontmatter
        return fm.get(*path) if fm else None

    def _str_field(self, *path: str) -> str | None:
        # Written out rather than through field(): the UI reads name, status and the like for every pack
        # row it builds, and each saved call counts a thousand times in a large workspace.
        knowledge = self.knowledge
        if knowledge is None or knowledge.frontmatter is None:
            return None
        value: Any = knowledge.frontmatter.data
        for key in path:
            if not isinstance(value, dict):
                return None
            value = value.get(key)
        return value if isinstance(value, str) and value.strip() else None

    @property
    def name(self) -> str:
        """Frontmatter ``name`` when usable, else the directory name (the key collisions use)."""
        return self._str_field("name") or self.root.name

    @property
    def description(self) -> str | None:
        return self._str_field("description")

    @property
    def type(self) -> str | None:
        return self._str_field("type")

    @property
    def status(self) -> str | None:
        return self._str_field("status")

    @property
    def trust(self) -> str | None:
        return self._str_field("trust")

    @property
    def grounding(self) -> str | None:
        value = self._str_field("grounding")
        return value if value in GROUNDING_POLICIES else None

    @property
    def version(self) -> str | None:
        return self._str_field("version")

    @property
    def profile(self) -> str | None:
        """``profile`` exactly as declared (None when absent)."""
        return self._str_field("profile")

    @property
    def effective_profile(self) -> str:
        """The profile a client acts on: declared when valid, else ``wiki-first`` (digest 2.2, V17/V18)."""
        declared = self.profile
        return declared if declared in PROFILES else DEFAULT_PROFILE

    @property
    def profile_is_implied(self) -> bool:
        return self.profile not in PROFILES

    @property
    def runtime_mode(self) -> str:
        """``runtime.mode`` when valid, else ``data`` (V19)."""
        mode = self.field("runtime", "mode")
        return mode if mode in RUNTIME_MODES else DEFAULT_RUNTIME_MODE

    @property
    def primary_document(self) -> str | None:
        return self._safe_pointer("primaryDocument")

    @property
    def primary_ontology(self) -> str | None:
        return self._safe_pointer("primaryOntology")

    @property
    def primary_answers(self) -> str | None:
        return self._safe_pointer("primaryAnswers")

    def _safe_pointer(self, key: str) -> str | None:
        """A ``metadata.primary*`` path, or None when absent or escaping the pack (V23: never opened)."""
        value = self._str_field("metadata", key)
        if value is None:
            return None
        return value if resolve_inside(self.root, value) is not None else None

    @property
    def produced_by(self) -> dict[str, Any] | None:
        value = self.field("metadata", "producedBy")
        return value if isinstance(value, dict) else None

    @property
    def body(self) -> str:
        return self.knowledge.body if self.knowledge else ""

    # -- verdict --------------------------------------------------------------------------
    @property
    def behavior(self) -> Behavior:
        """The gravest behaviour among the pack's findings (its own and its verdict's)."""
        return worst_behavior(self.findings)

    @property
    def own_behavior(self) -> Behavior:
        """The gravest behaviour among the pack's own findings: whether it can compete for its name at all."""
        return worst_behavior(self.diagnostics)

    @property
    def loads(self) -> bool:
        """False for skipped and quarantined packs (and packs that lost a name collision)."""
        return self.behavior.loads and self.shadowed_by is None

    @property
    def in_catalog(self) -> bool:
        """Whether the pack appears in the tier-1 catalog (archived and hidden packs do not)."""
        return self.loads and self.behavior is not Behavior.HIDDEN and self.status != "archived"

    @property
    def counts(self) -> DiagnosticCounts:
        return DiagnosticCounts.of(self.findings)

    def relpath(self, path: Path) -> str:
        """Pack-relative POSIX path for a file inside the pack."""
        return path.relative_to(self.root).as_posix()
