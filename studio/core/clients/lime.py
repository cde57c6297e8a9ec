"""``lime-1.31``: the Lime desktop app's knowledge injection, release 1.31, as the studio understands it.

What it does, and where that is written:
- task-blind: the same selection for any task (issue #32, from trying Lime 1.31 side by side with the studio);
- persona packs first, then data packs (the standard's wrapper order, digest 6.4; Lime keeps it);
- per pack, in this order: the ``KNOWLEDGE.md`` body, then for a persona pack its voice/values/boundaries files,
  then ``compiled/briefing.md``, ``facts.md``, ``boundaries.md``, then ``compiled/splits/**`` in path order
  (Lime numbers its splits ``000_...``, ``013_...``: path order is document order, see Lime's committed
  end-to-end evidence ``provider-e2e-20260508.json``, listed in the corpus MANIFEST), and when a pack has no
  splits, the sections of ``metadata.primaryDocument`` in order;
- a budget of 24,000 characters of content, its own, whatever budget the user set; a file that does not fit
  whole is left out and the next is tried (issue #32);
- its own fence: ``<knowledge_pack name="..." family="persona|data" injectionMode="...">`` rather than the
  standard's ``mode="..."`` (corpus MANIFEST, "Lime's persona wrapper differs from the standard's").
Not verified against Lime's source, which this workplace cannot read: the order inside a pack and the
skip-and-continue rule are the studio's reading of the behaviour described above. Tokens are the tokenizer's
count of the fence Lime would send.
Custom types: Lime loads a type outside the standard list only when allowed (its own writer emits a bare
``type: custom``, so the studio treats every custom type as needing the switch).
"""

from __future__ import annotations

from studio.core.clients.run import ClientRequest, ClientRun, admitted, counter, label
from studio.core.model import Pack
from studio.core.resolver.candidates import Candidate, collect

NAME = "lime-1.31"
CHARACTER_BUDGET = 24_000
_PERSONA_ROLES = frozenset({"voice", "values", "boundaries"})
_CORE_VIEWS = ("compiled/briefing.md", "compiled/facts.md", "compiled/boundaries.md")


def simulate(request: ClientRequest) -> ClientRun:
    run = ClientRun(NAME)
    packs = []
    for pack in admitted(request, run, namespaced_loads=False):
        if pack.knowledge is None:  # Lime has its own checks, not the studio's validation: only unreadable is out
            run.warnings.append(f"{pack.name}: no readable KNOWLEDGE.md; Lime skips it.")
        else:
            packs.append(pack)
    packs.sort(key=lambda p: (0 if p.runtime_mode == "persona" else 1, p.name))
    left = CHARACTER_BUDGET
    fences: list[str] = []
    for pack in packs:
        items: list[tuple[str, str]] = []
        for path, text in lime_order(pack):
            if len(text) <= left:
                items.append((path, text))
                left -= len(text)
            else:
                run.warnings.append(f"{label(pack, path, request.packs)} ({len(text):,} characters) does not fit "
                                    f"Lime's {CHARACTER_BUDGET:,}-character budget; left out.")
        if items:
            run.selected.extend(label(pack, p, request.packs) for p, _ in items)
            fences.append(lime_fence(pack, items))
    run.tokens = counter(request, run)("\n".join(fences))
    if run.tokens > request.budget:
        run.warnings.append(f"Lime ignores the task and the token budget: it sends {run.tokens:,} tokens, over the "
                            f"budget of {request.budget:,}.")
    return run


def lime_order(pack: Pack) -> list[tuple[str, str]]:
    """(path, text) of every file Lime would consider, in its order (whole files; document sections joined)."""
    files = collect(pack.root, pack.primary_document, pack.body)
    whole: dict[str, Candidate] = {c.path: c for c in files.candidates if c.layer in ("guide", "compiled", "split")}
    order: list[str] = ["KNOWLEDGE.md"] if "KNOWLEDGE.md" in whole else []
    if pack.runtime_mode == "persona":
        order += sorted(p for p, c in whole.items() if c.roles & _PERSONA_ROLES and c.layer != "guide")
    order += [p for p in _CORE_VIEWS if p in whole]
    splits = sorted(p for p, c in whole.items() if c.layer == "split")
    order += splits
    out = [(p, whole[p].text) for p in dict.fromkeys(order)]
    if not splits and pack.primary_document:
        sections = [c.text for c in files.candidates if c.layer == "document" and c.path == pack.primary_document]
        if sections:
            out.append((pack.primary_document, "\n\n".join(sections)))
    return out


def lime_fence(pack: Pack, items: list[tuple[str, str]]) -> str:
    family = "persona" if pack.runtime_mode == "persona" else "data"
    body = "\n\n".join(f"<!-- {path} -->\n{text}" for path, text in items)
    return (f'<knowledge_pack name="{pack.name}" family="{family}" injectionMode="context">\n{body}\n'
            "</knowledge_pack>")
