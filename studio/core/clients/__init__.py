"""Client profiles: what a given client would load for a task, side by side with the others.

Each profile is one module documenting what the client does and where that is written (the standard, the
reference CLI, Lime 1.31), with a golden test of that behaviour (``tests/resolver/test_clients.py``):

``studio``           the studio's resolver (``studio_client``)
``ref-cli-0.7.2``    the reference CLI's dry run (``ref_cli``)
``lime-1.31``        Lime: task-blind, persona first, 24,000 characters (``lime``)
``file-read``        the model reads ``location`` and the files the guide names (``file_read``)
``read-files-tool``  the model asks a ``read_files`` tool for files by id (``read_files_tool``)

``compare`` runs several and lists the divergences: every path some clients load and others do not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from studio.core.clients import file_read, lime, read_files_tool, ref_cli, studio_client
from studio.core.clients.run import ClientRequest, ClientRun
from studio.core.jsonwrite import FieldsJson
from studio.core.resolver import ResolverSession

CLIENTS: dict[str, Callable[[ClientRequest], ClientRun]] = {
    studio_client.NAME: studio_client.simulate,
    ref_cli.NAME: ref_cli.simulate,
    lime.NAME: lime.simulate,
    file_read.NAME: file_read.simulate,
    read_files_tool.NAME: read_files_tool.simulate,
}
CLIENT_NAMES = tuple(CLIENTS)


@dataclass(frozen=True, slots=True)
class Divergence(FieldsJson):
    """A path some clients load and others do not."""

    path: str
    loaded_by: tuple[str, ...]
    not_loaded_by: tuple[str, ...]


@dataclass(slots=True)
class Comparison:
    runs: list[ClientRun] = field(default_factory=list)
    divergences: list[Divergence] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"clients": [r.to_json() for r in self.runs], "divergences": [d.to_json() for d in self.divergences]}


def simulate(name: str, request: ClientRequest, session: ResolverSession | None = None) -> ClientRun:
    """One client's run; ``name`` must be in ``CLIENT_NAMES``."""
    if name == studio_client.NAME:
        return studio_client.simulate(request, session)
    return CLIENTS[name](request)


def compare(request: ClientRequest, names: Sequence[str] = CLIENT_NAMES) -> Comparison:
    """Every named client's run, and the paths they disagree on (in the order first met)."""
    session = ResolverSession()
    with session.frozen():
        runs = [simulate(name, request, session) for name in names]
    loaded: dict[str, set[str]] = {}
    for run in runs:
        for path in run.selected:
            loaded.setdefault(path, set()).add(run.client)
    divergences = [Divergence(path, tuple(r.client for r in runs if r.client in by),
                              tuple(r.client for r in runs if r.client not in by))
                   for path, by in loaded.items() if len(by) < len(runs)]
    return Comparison(runs, divergences)
