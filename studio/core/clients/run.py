"""What every client profile takes and gives: ``ClientRequest`` in, ``ClientRun`` out, and the type policy.

A profile answers "what would this client load for this task?" as a list of pack-relative paths (prefixed with
the pack name when more than one pack is given), a token count and the warnings the client would give or that
the simulation owes the user (for example "this client has no budget and went over yours").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from studio.core.model import STANDARD_TYPES, Pack
from studio.core.pack_fs import PackFS, Status
from studio.core.resolver.budget import DEFAULT_BUDGET
from studio.core.runtime_files import MAX_FILE_BYTES
from studio.core.tokens import get_tokenizer


@dataclass(slots=True)
class ClientRequest:
    """One task for every client to resolve."""

    task: str
    packs: list[Pack]
    budget: int = DEFAULT_BUDGET
    """Tokens; a client with a budget of its own (Lime) or none (the reference CLI) says so in its warnings."""
    encoding: str = "cl100k_base"
    custom_types_allowed: bool = False
    """The user allowed packs of a type outside the standard list (``custom:...`` or unknown) explicitly."""


@dataclass(slots=True)
class ClientRun:
    """What one client would load."""

    client: str
    selected: list[str] = field(default_factory=list)
    tokens: int = 0
    warnings: list[str] = field(default_factory=list)
    token_method: str = "tokenizer"
    """``tokenizer`` (an exact count of what the client sends) or ``chars/4`` (the client's own estimate)."""

    def to_json(self) -> dict[str, Any]:
        return {"client": self.client, "selected": list(self.selected), "tokens": self.tokens,
                "token_method": self.token_method, "warnings": list(self.warnings)}


def is_custom_type(pack: Pack) -> bool:
    """A type outside the standard list: ``custom:<namespace>`` or a name the standard does not define."""
    return pack.type not in STANDARD_TYPES


def namespaced(pack: Pack) -> bool:
    kind = pack.type or ""
    return kind.startswith("custom:") and len(kind) > len("custom:")


def label(pack: Pack, path: str, packs: list[Pack]) -> str:
    """``path``, or ``name/path`` when several packs are compared (paths alone would collide)."""
    return f"{pack.name}/{path}" if len(packs) > 1 else path


def type_refusal(pack: Pack, request: ClientRequest, *, namespaced_loads: bool) -> str | None:
    """Why a client with this policy leaves ``pack`` out for its type, or None when it loads it.

    The standard: a ``custom:<namespace>`` type loads; an unknown, un-namespaced type loads "only if client
    policy explicitly allows it" (digest V12, V13, 11.5). ``namespaced_loads`` False is a stricter client that
    wants every custom type allowed explicitly.
    """
    if not is_custom_type(pack) or request.custom_types_allowed:
        return None
    if namespaced_loads and namespaced(pack):
        return None
    return (f"{pack.name}: type {pack.type or '(none)'} is not a standard type and custom types are not explicitly "
            "allowed for this client (--allow-custom-types); the pack was left out.")


def admitted(request: ClientRequest, run: ClientRun, *, namespaced_loads: bool) -> list[Pack]:
    """The packs a client with this type policy loads; a warning on ``run`` for each one it leaves out."""
    out = []
    for pack in request.packs:
        refusal = type_refusal(pack, request, namespaced_loads=namespaced_loads)
        if refusal:
            run.warnings.append(refusal)
        else:
            out.append(pack)
    return out


def counter(request: ClientRequest, run: ClientRun) -> Callable[[str], int]:
    """The request's tokenizer; without it the reference estimate (characters / 4), and ``run`` says so."""
    tokenizer = get_tokenizer(request.encoding)
    if tokenizer.available:
        return tokenizer.count
    run.token_method = "chars/4"
    return lambda text: -(-len(text) // 4)


def guide_text(pack: Pack) -> str | None:
    """The whole ``KNOWLEDGE.md`` as a model reading the file gets it (read by descriptor, bounded); None when
    the pack has no readable guide."""
    if pack.knowledge is None:
        return None
    with PackFS(pack.root) as fs:
        found = fs.read("KNOWLEDGE.md", MAX_FILE_BYTES)
    if found.status is not Status.OK or found.data is None:
        return None
    return found.data.decode("utf-8", errors="replace")


def read_guide_then_files(name: str, request: ClientRequest,
                          pick: Callable[[Pack], list[tuple[str, str]]]) -> ClientRun:
    """What a client whose model reads files itself loads (file-read, read-files tool): per admitted pack the
    whole guide, then the (path, text) files ``pick`` says the model asks for, whole, while they fit the budget.

    A pack without a readable guide gives nothing: the model never learns which files to ask for.
    """
    run = ClientRun(name)
    count = counter(request, run)
    used = 0
    for pack in admitted(request, run, namespaced_loads=True):
        guide = guide_text(pack)
        if guide is None:
            continue
        used = fill_whole_files(run, request, pack, [("KNOWLEDGE.md", guide), *pick(pack)], used, count)
    run.tokens = used
    return run


def fill_whole_files(run: ClientRun, request: ClientRequest, pack: Pack, files: list[tuple[str, str]],
                     used: int, count: Callable[[str], int]) -> int:
    """Add whole files in order while their tokens fit the budget; returns the tokens used after them.

    No sections, no wrapper of the studio's; a file that does not fit is left out with a warning and the next
    one tried.
    """
    for path, text in files:
        cost = count(text)
        if used + cost <= request.budget:
            run.selected.append(label(pack, path, request.packs))
            used += cost
        else:
            run.warnings.append(f"{label(pack, path, request.packs)}: {cost:,} tokens, {request.budget - used:,} of "
                                f"the budget of {request.budget:,} left; not read.")
    return used


def content_words(text: str) -> set[str]:
    """Lower-case words of 3+ letters and CJK runs' content terms that are not stop words."""
    from studio.core.resolver.report import content_terms

    return set(content_terms(text))
