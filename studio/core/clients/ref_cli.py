"""``ref-cli-0.7.2``: the reference CLI's ``resolve-context --dry-run`` (``bin/agentknowledge-ref.mjs``, 0.7.2).

What it does (digest 6.8, reproduced in ``studio.core.resolver.reference``): task-blind apart from a sources
warning; ``compiled/briefing.md``, ``compiled/facts.md``, ``compiled/boundaries.md``, then
``metadata.primaryDocument`` (document-first) or ``wiki/index.md`` (other profiles), those that exist; for
document-first the first five ``compiled/splits/**.md`` in path order; a warning when the status is not
``ready``. It has no budget: tokens are its own estimate, ``ceil(characters / 4)``, and the profile says when
that estimate is over the budget the user set. It never reads ``KNOWLEDGE.md``'s body into the selection.
Custom types: the reference CLI checks no type (digest 3.1 note), so every pack loads.
"""

from __future__ import annotations

from studio.core.clients.run import ClientRequest, ClientRun, label
from studio.core.resolver.reference import reference_dry_run

NAME = "ref-cli-0.7.2"


def simulate(request: ClientRequest) -> ClientRun:
    run = ClientRun(NAME, token_method="chars/4")
    for pack in request.packs:
        if pack.knowledge is None:
            run.warnings.append(f"{pack.name}: not a pack the reference CLI can read.")
            continue
        dry = reference_dry_run(pack, request.task)
        run.selected.extend(label(pack, p, request.packs) for p in dry["selected_files"])
        run.tokens += int(dry["token_estimate"])
        run.warnings.extend(f"{pack.name}: {w}" if len(request.packs) > 1 else str(w) for w in dry["warnings"])
    if run.tokens > request.budget:
        run.warnings.append(f"The reference CLI has no budget: its estimate of {run.tokens:,} tokens is over the "
                            f"budget of {request.budget:,}.")
    return run
