"""A resolver session that answers a request it already answered from memory, and prepares each pack once.

The diff resolves each prompt of a version's context suites twice: once as an eval case, once as a resolver
task (the same task, budget and pack). A ``ResolverSession`` keeps what makes a re-run cheap but still re-walks
the folder, re-ranks and renders the fence again; within one diff the version cannot change, so the second
request gets the first result. For the same reason the pack is walked once, not once per resolve: ``prepare``
(the walk that checks whether the pack changed, then the request-independent candidates and index) answers from
memory after the first call (measured: 22 walks of a 50-file pack per diff, about a tenth of its time). Only the
requests of one diff go through it, so it needs no bound.
"""

from __future__ import annotations

from pathlib import Path

from studio.core.resolver import ResolveRequest, ResolveResult, ResolverSession
from studio.core.resolver.plan import PackPlan
from studio.core.resolver.prepared import PreparedPack
from studio.core.sourcemap import SourceMap, read_source_map
from studio.core.tokens import Tokenizer


class RememberingSession(ResolverSession):
    def __init__(self) -> None:
        super().__init__()
        self._answers: dict[tuple[object, ...], ResolveResult] = {}
        self._prepared: dict[tuple[object, ...], PreparedPack] = {}

    def resolve(self, request: ResolveRequest) -> ResolveResult:
        key = (request.task, tuple(id(p) for p in request.packs), request.profile_override, request.mode_override,
               request.grounding_override, request.budget, request.encoding,
               tuple(sorted(request.activation.items())), tuple(sorted(request.confirmed)), request.variant,
               request.reference, request.ranking, request.use_feedback, request.count_all)
        answer = self._answers.get(key)
        if answer is None:
            answer = self._answers[key] = super().resolve(request)
        return answer

    def prepare(self, plan: PackPlan, tokenizer: Tokenizer | None = None) -> PreparedPack:
        # What ``ResolverSession.prepare`` reads of the plan: the pack's folder, primary document and body (the
        # plan's pack may be a copy with overrides applied); and whether a meter for ``tokenizer`` is wanted. The
        # primary document as written, not ``Pack.primary_document``, which resolves the path at every call.
        pack = plan.pack
        metered = tokenizer.name if tokenizer is not None and tokenizer.available else None
        primary = pack.field("metadata", "primaryDocument")
        key = (str(pack.root), primary if isinstance(primary, str) else None, pack.body, metered)
        prepared = self._prepared.get(key)
        if prepared is None:
            prepared = self._prepared[key] = super().prepare(plan, tokenizer)
        return prepared

    def source_map(self, root: Path) -> SourceMap:
        """The source map of the pack at ``root`` as this session read it (read now if no resolve needed it)."""
        found = next((p.source_map for key, p in self._prepared.items() if key[0] == str(root)), None)
        return found if found is not None else read_source_map(root)
