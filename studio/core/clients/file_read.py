"""``file-read``: a client that gives the model the catalog's ``location`` and lets it read files itself.

What it does: file-read activation (digest 5.3 pattern (a), adding-support "the model reads ``KNOWLEDGE.md`` at
``location``"): the model reads the guide, then the files the guide names that exist (a context map's bullets,
digest 2.2 "Markdown body"), whole files, no sections, no fence of the client's. The model is simulated as
reading first the files whose line in the guide shares a content word with the task, then the rest in the
guide's order, until the budget is spent. Files the guide does not name are never read: a pack whose guide
points nowhere gives only the guide.
Custom types: namespaced custom types load, others only when allowed (V12, V13), as the standard says.
"""

from __future__ import annotations

import re

from studio.core.clients.run import ClientRequest, ClientRun, content_words, read_guide_then_files
from studio.core.model import Pack
from studio.core.pack_fs import PackFS, Status
from studio.core.runtime_files import MAX_FILE_BYTES

NAME = "file-read"
MAX_NAMED = 200
_PATH = re.compile(r"(?<![\w/.-])((?:documents|compiled|wiki|sources|answers|ontology)/[^\s`'\")\]<>]+)")


def simulate(request: ClientRequest) -> ClientRun:
    run = read_guide_then_files(NAME, request, lambda pack: named_files(pack, request.task))
    if not any(p.endswith("KNOWLEDGE.md") for p in run.selected) and request.packs:
        run.warnings.append("Not even KNOWLEDGE.md fits the budget.")
    return run


def named_files(pack: Pack, task: str) -> list[tuple[str, str]]:
    """(path, text) of the existing files the guide names, task-matching lines first, then guide order."""
    wanted = content_words(task)
    named: dict[str, bool] = {}
    for line in pack.body.splitlines():
        for match in _PATH.finditer(line):
            path = match.group(1).rstrip(".,;:")
            named[path] = named.get(path, False) or bool(content_words(line) & wanted)
            if len(named) >= MAX_NAMED:
                break
    order = [p for p, hit in named.items() if hit] + [p for p, hit in named.items() if not hit]
    out: list[tuple[str, str]] = []
    with PackFS(pack.root) as fs:  # by descriptor: a named file that links out of the pack does not exist
        for path in order:
            found = fs.read(path, MAX_FILE_BYTES)
            if found.status is Status.OK and found.data is not None and found.size <= MAX_FILE_BYTES:
                out.append((path, found.data.decode("utf-8", errors="replace")))
    return out

