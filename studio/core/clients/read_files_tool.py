"""``read-files-tool``: a client with an activation tool and a ``read_files`` tool taking stable file ids.

What it does: activation returns the wrapped guide plus the resource listing (digest 5.3 pattern (b); the
studio's tool form, ``pack-studio guide --as-tool``, with ids from ``studio.core.render.file_ids``); the model then
calls ``read_files`` with the ids it wants and gets those files whole (``pack-studio read-files``). The model
sees only paths and kinds, so it is simulated as asking for the listed files whose path shares a content word
with the task (most shared words first), plus every boundaries file (the guide says to read them before any
claim), and nothing else, until the budget is spent. What the model does not ask for is never loaded, however
relevant its content: this is where it differs from the studio, which reads every candidate's text.
Custom types: namespaced custom types load, others only when allowed (V12, V13).
"""

from __future__ import annotations

import re

from studio.core.clients.run import ClientRequest, ClientRun, content_words, read_guide_then_files
from studio.core.model import Pack
from studio.core.render.tool_form import build_tool_form, read_text
from studio.core.resolver.candidates import roles_for

NAME = "read-files-tool"
_WORDS = re.compile(r"[^\W_]+")


def simulate(request: ClientRequest) -> ClientRun:
    wanted = content_words(request.task)
    return read_guide_then_files(NAME, request, lambda pack: asked_files(pack, wanted))


def asked_files(pack: Pack, wanted: set[str]) -> list[tuple[str, str]]:
    """(path, text) of the listed documents the model asks for: those whose path shares the most content words
    with the task first, every boundaries file among them, the ones that cannot be read left out."""
    asked: list[tuple[int, str]] = []
    for f in build_tool_form(pack).files:
        if f.type != "document":
            continue
        words = content_words(" ".join(_WORDS.findall(f.path.replace("-", " ").replace("_", " "))))
        shared = len(words & wanted)
        if shared or "boundaries" in roles_for(f.name):
            asked.append((-shared, f.path))
    files: list[tuple[str, str]] = []
    for _, path in sorted(asked):
        text, _problem = read_text(pack, path)
        if text is not None:
            files.append((path, text))
    return files
