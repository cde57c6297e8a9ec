"""``studio``: the studio's own resolver (``studio.core.resolver``), the client every other profile is compared with.

What it does: the profile- and mode-aware fill of digest 6.3-6.5 (guide, boundaries, persona core, briefing,
facts, then items ranked by BM25 against the task) within the token budget, counted with a real tokenizer, with
duplicate candidates loaded once; ``answers/`` through ``metadata.primaryAnswers``.
Sources: the runtime-context-resolver page (selection order, profile branches), the runtime standard (status
gating, persona first), digest 6.5 for the budget (the standard gives no algorithm; the fill order is ours).
Custom types: a ``custom:<namespace>`` pack loads (V12); an un-namespaced unknown type never does, even with the
switch: the studio's validation quarantines it (V13), and its resolver loads nothing validation refused.
"""

from __future__ import annotations

from studio.core.clients.run import ClientRequest, ClientRun, admitted, label
from studio.core.resolver import ResolveRequest, ResolverSession

NAME = "studio"


def simulate(request: ClientRequest, session: ResolverSession | None = None) -> ClientRun:
    run = ClientRun(NAME)
    packs = admitted(request, run, namespaced_loads=True)
    if not packs:
        return run
    result = (session or ResolverSession()).resolve(ResolveRequest(request.task, packs, budget=request.budget,
                                                                   encoding=request.encoding))
    for res in result.packs:
        for d in res.selected:
            run.selected.append(label(res.pack, d.path, request.packs))
    run.selected = list(dict.fromkeys(run.selected))
    run.tokens = result.tokens_used
    run.warnings.extend(w.message for w in result.warnings if w.severity != "info")
    return run
