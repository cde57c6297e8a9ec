"""``PreparedPack``: what a resolver session knows about one pack's files before any request."""

from __future__ import annotations

from dataclasses import dataclass, field

from studio.core.resolver.candidates import PackFiles
from studio.core.resolver.compile_runs import CompileVerdict
from studio.core.resolver.coverage import Coverage
from studio.core.resolver.meter import Meter
from studio.core.resolver.rank import BM25Index
from studio.core.resolver.tiers import Placement
from studio.core.sourcemap import SourceMap


@dataclass(slots=True)
class PreparedPack:
    """Everything about one pack's files that does not depend on the request."""

    files: PackFiles
    index: BM25Index
    source_map: SourceMap
    coverage: Coverage
    fingerprint: tuple[object, ...]
    meters: dict[str, Meter] = field(default_factory=dict)
    """Encoding name -> the candidates' fence costs, counted as they are needed."""
    placements: dict[tuple[object, ...], list[Placement]] = field(default_factory=dict)
    """(profile, mode, evidence, context map) -> each candidate's placement."""
    unranked: dict[tuple[object, ...], list[int]] = field(default_factory=dict)
    """The same key -> the candidates placed in a fixed tier (loaded whatever the task's words; ``selection``)."""
    compile_verdict: CompileVerdict | None = None
    """The latest compile run, when its status puts the views it wrote in doubt."""
