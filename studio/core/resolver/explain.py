"""What goes into a resolve and what comes out: the request, one decision per candidate, warnings, the result.

Every candidate the resolver saw ends as exactly one ``Decision``, selected or skipped, with a reason code a
curator can act on. The codes are stable (the CLI, the GUI and the tests read them):

selected reasons
    ``guide``, ``boundaries``, ``persona-core``, ``core-view``, ``relevant``, ``fallback-section``,
    ``evidence-for-citation``, ``answer-block``
skipped reasons
    ``over-budget``, ``duplicate``, ``low-relevance``, ``status-gated``, ``sources-only-for-citation``,
    ``index-candidate-only``, ``superseded-by-split``, ``symlink-escape``, ``not-a-runtime-surface``,
    ``secondary-document``, ``not-simulated``, ``assets-on-demand``, ``too-large``, ``binary-file``,
    ``unreadable``, ``not-markdown``, ``pack-not-loadable``, ``too-many-files``, ``tokenizer-unavailable``
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from studio.core.diagnostics import Code
from studio.core.model import Pack
from studio.core.resolver.budget import DEFAULT_BUDGET

Activation = Literal["explicit", "implicit", "resolver-driven"]
ACTIVATION_ORDER: dict[str, int] = {"explicit": 0, "implicit": 1, "resolver-driven": 2}


@dataclass(frozen=True, slots=True)
class Decision:
    """The fate of one candidate file or section."""

    path: str
    """Pack-relative POSIX path."""
    section: str | None
    """Heading title for a section candidate; None for a whole file."""
    lines: tuple[int, int] | None
    """1-based inclusive line range of the section in its file."""
    tokens: int | None
    """Tokens the item costs inside the fence; None when never read (e.g. an escaping symlink) or not counted
    yet (the fill did not need the number; see ``tokens_at_least`` and ``ResolverSession.count_pending``)."""
    reason: str
    """A stable reason code (see the module docstring)."""
    score: float | None
    """BM25 relevance to the task (None when ranking did not apply)."""
    pack: str
    """Pack name."""
    detail: str = ""
    """One sentence a curator can act on."""
    tokens_at_least: int | None = None
    """When ``tokens`` is None because the item was not counted: a lower bound that ruled it out of the budget."""
    feedback: str = ""
    """With ``ResolveRequest.use_feedback``: what the feedback stage did to this item (``resolver.feedback``)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "section": self.section,
            "lines": list(self.lines) if self.lines else None,
            "tokens": self.tokens,
            "tokens_at_least": self.tokens_at_least,
            "reason": self.reason,
            "score": None if self.score is None else round(self.score, 4),
            "detail": self.detail,
        }
        if self.feedback:  # only when asked for: the standard simulation's output stays as it was
            out["feedback"] = self.feedback
        return out


class RankedItem(NamedTuple):
    """One place in the resolver's full candidate ranking (``ResolveResult.ranking``).

    A named tuple rather than a frozen dataclass: a resolve makes one per candidate, and tuples are built in C.
    """

    pack: str
    path: str
    section: str | None
    slug: str | None
    """The section's anchor (``documents/x.md#slug``); None for a whole file."""
    score: float
    tier: int | None
    """Fill tier (``tiers``); None for a ranked item below the relevance floor."""

    @property
    def key(self) -> str:
        return f"{self.path}#{self.slug}" if self.slug is not None else self.path


@dataclass(frozen=True, slots=True)
class ResolveWarning:
    """A resolver warning (digest 6.7); shaped like the record schemas' ``{severity, message, path}``, with the
    catalogue code it was made from (``resolver.warning_codes``)."""

    severity: Literal["info", "warning", "error"]
    message: str
    path: str | None = None
    pack: str | None = None
    code: str = ""

    @classmethod
    def of(cls, code: Code, message: str, path: str | None = None, pack: str | None = None) -> ResolveWarning:
        """A warning of a declared code, with the code's severity."""
        return cls(code.severity.value, message, path, pack, code.code)

    def to_json(self) -> dict[str, Any]:
        """The record shape (``runs/`` records allow no other key; the code is in ``to_output_json``)."""
        out: dict[str, Any] = {"severity": self.severity, "message": self.message}
        if self.path:
            out["path"] = self.path
        return out

    def to_output_json(self) -> dict[str, Any]:
        """What ``pack-studio resolve --format json`` prints: the record shape and the code."""
        return self.to_json() | ({"code": self.code} if self.code else {})


@dataclass(slots=True)
class ResolveRequest:
    """Everything a resolve depends on. Changing only task, budget, profile or mode re-uses a session's caches."""

    task: str
    packs: list[Pack]
    profile_override: str | None = None
    mode_override: str | None = None
    grounding_override: str | None = None
    budget: int = DEFAULT_BUDGET
    """Upper bound on the tokens of the whole fenced output, wrappers included."""
    encoding: str = "cl100k_base"
    activation: dict[str, Activation] = field(default_factory=dict)
    """Pack name to activation; missing names count as ``explicit``."""
    confirmed: set[str] = field(default_factory=set)
    """Names of ``disputed`` packs the user explicitly confirmed for loading."""
    variant: str = "superset"
    """Fence variant (see ``studio.core.render.fence.FenceVariant``)."""
    reference: bool = False
    """Also compute the reference CLI's dry run for side-by-side comparison."""
    ranking: str = "bm25f"
    """Relevance ranking: ``bm25f`` (field-weighted, the default) or ``bm25`` (plain; see ``rank.RANKINGS``)."""
    use_feedback: bool = False
    """Fold recorded usage feedback into the ranking (``resolver.feedback``); off, the simulation is the standard's."""
    count_all: bool = False
    """Count every candidate's tokens, not only those the budget reaches, so that every decision shows an exact
    count (``ResolveResult.uncounted`` is 0). The same items are chosen; on a large pack it costs about as much
    as tokenizing the whole pack once per session."""


@dataclass(slots=True)
class PackResolution:
    """Per-pack outcome, in wrapper order."""

    pack: Pack
    profile: str
    runtime_mode: str
    grounding: str | None
    activation: str
    selected: list[Decision] = field(default_factory=list)
    skipped: list[Decision] = field(default_factory=list)
    warnings: list[ResolveWarning] = field(default_factory=list)
    source_anchors: list[str] = field(default_factory=list)
    wrapper_order: int | None = None
    """Position of this pack's wrapper in the fence (None when nothing was selected)."""

    @property
    def name(self) -> str:
        return self.pack.name

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "root": str(self.pack.root),
            "profile": self.profile,
            "runtime_mode": self.runtime_mode,
            "grounding": self.grounding,
            "status": self.pack.status,
            "trust": self.pack.trust,
            "activation": self.activation,
            "wrapper_order": self.wrapper_order,
            "selected": [d.to_json() for d in self.selected],
            "skipped": [d.to_json() for d in self.skipped],
            "warnings": [w.to_output_json() for w in self.warnings],
            "source_anchors": list(self.source_anchors),
        }


@dataclass(slots=True)
class ResolveResult:
    """The fenced context and the explanation of how it was chosen."""

    task: str
    packs: list[PackResolution]
    warnings: list[ResolveWarning]
    citation_gaps: list[dict[str, Any]]
    """``{"path", "reason"}`` entries, plus at most one ``{"missing": [...], "recommendation": ...}`` gap object."""
    missing: list[str]
    tokens_used: int
    """The tokenizer's count of ``fenced_text`` (0 when the tokenizer is unavailable)."""
    budget: int
    fenced_text: str
    tokenizer_name: str
    tokenizer_available: bool
    tokenizer_reason: str | None = None
    reference: list[dict[str, Any]] | None = None
    """Reference CLI dry-run outputs, one per pack, when requested."""
    uncounted: int = 0
    """Decisions whose ``tokens`` is None only because the item was not counted yet; after
    ``ResolverSession.count_pending`` the same request reports all of them exactly."""
    ranking: list[RankedItem] = field(default_factory=list)
    """Every candidate the fill considered, in fill order (what an unlimited budget would load, in order),
    then the ranked candidates below the relevance floor by score. Gated and never-context items are not in it.
    The evals measure ranking quality (MRR, nDCG) on this list."""

    @property
    def wrapper_order(self) -> list[str]:
        ordered = [p for p in self.packs if p.wrapper_order is not None]
        return [p.name for p in sorted(ordered, key=lambda p: p.wrapper_order or 0)]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "task": self.task,
            "tokenizer": self.tokenizer_name,
            "tokenizer_available": self.tokenizer_available,
            "tokenizer_reason": self.tokenizer_reason,
            "budget": self.budget,
            "tokens_used": self.tokens_used,
            "wrapper_order": self.wrapper_order,
            "packs": [p.to_json() for p in self.packs],
            "warnings": [w.to_output_json() | ({"pack": w.pack} if w.pack else {}) for w in self.warnings],
            "citation_gaps": self.citation_gaps,
            "missing": self.missing,
            "fenced_text": self.fenced_text,
            "uncounted": self.uncounted,
        }
        if self.reference is not None:
            out["reference"] = self.reference
        return out
