"""A validate run's findings as CI formats want them: each with the absolute file it is about, paths made relative.

Pack findings carry a path relative to their pack; workspace findings an absolute one. The SARIF and GitHub
renderers need one path per finding, relative to the folder the run started in (the repository root in CI) when the
file lies inside it, so that code-scanning and annotations land on the file in the repository.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from studio.core.diagnostics import Diagnostic, Severity
from studio.core.workspace import Workspace


@dataclass(frozen=True, slots=True)
class Located:
    """One finding and the absolute path of the file (or folder) it is about."""

    diagnostic: Diagnostic
    path: str
    pack: str = ""
    """Name of the pack the finding belongs to; empty for workspace findings."""


def located_findings(workspace: Workspace, min_severity: Severity = Severity.INFO) -> list[Located]:
    """Workspace findings first, then each pack's, in the order the text output prints them.

    A pack's findings are ``pack.findings``: its own and its settled verdict's (``name-collision``,
    ``untrusted-origin`` ...), the same list the text and JSON outputs print and ``--strict`` counts.
    """
    out = [Located(d, _absolute(d.file, "")) for d in workspace.diagnostics if d.severity.rank <= min_severity.rank]
    for pack in workspace.packs:
        root = str(pack.root)
        out.extend(Located(d, _absolute(d.file, root), pack.name)
                   for d in pack.findings if d.severity.rank <= min_severity.rank)
    return out


def _absolute(file: str, root: str) -> str:
    if os.path.isabs(file) or not root:
        return os.path.normpath(file) if file else root
    return os.path.normpath(os.path.join(root, file))


def relative_inside(path: str, base: str) -> str | None:
    """``path`` relative to ``base`` with POSIX separators, or None when it lies outside ``base``."""
    try:
        rel = os.path.relpath(path, base)
    except ValueError:  # another drive (Windows)
        return None
    if rel == os.curdir:
        return "."
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")


def without_surrogates(text: str) -> str:
    """``text`` encodable as strict UTF-8: undecodable bytes of a file name (lone surrogates) become U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)
    return text
