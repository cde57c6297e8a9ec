"""A resolver session that answers a request it already answered from memory.

The diff resolves each prompt of a version's context suites twice: once as an eval case, once as a resolver
task (the same task, budget and pack). A ``ResolverSession`` keeps what makes a re-run cheap but still re-walks
the folder, re-ranks and renders the fence again; within one diff the version cannot change, so the second
request gets the first result. Only the requests of one diff go through it, so it needs no bound.
"""

from __future__ import annotations

from studio.core.resolver import ResolveRequest, ResolveResult, ResolverSession


class RememberingSession(ResolverSession):
    def __init__(self) -> None:
        super().__init__()
        self._answers: dict[tuple[object, ...], ResolveResult] = {}

    def resolve(self, request: ResolveRequest) -> ResolveResult:
        key = (request.task, tuple(id(p) for p in request.packs), request.profile_override, request.mode_override,
               request.grounding_override, request.budget, request.encoding,
               tuple(sorted(request.activation.items())), tuple(sorted(request.confirmed)), request.variant,
               request.reference, request.ranking, request.use_feedback, request.count_all)
        answer = self._answers.get(key)
        if answer is None:
            answer = self._answers[key] = super().resolve(request)
        return answer
