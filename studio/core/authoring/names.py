"""Pack names for new packs: the standard's rule, and collisions with what already exists.

A new name must be what ``name_format`` accepts without even an info: 1-64 characters of a-z, 0-9 and
inner single hyphens. It must also differ from every folder beside it and every known pack name by more
than case or Unicode form (``Acme`` vs ``acme``; NFC vs NFD), because many file systems treat those as
the same folder and a reader cannot tell them apart.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from studio.core.checks.name_format import NAME_RE
from studio.core.pack_fs import PackFS, Status

MAX_SIBLINGS = 10_000
"""Folder entries read when looking for collisions beside a new pack."""
MAX_SIBLING_PACKS = 1_000
MAX_NAME_READ = 16 * 1024


@dataclass(frozen=True, slots=True)
class NameProblem:
    """Why a name cannot be used, in the user's words."""

    message: str
    existing: Path | None = None
    """The folder or pack it collides with, when that is the problem."""


def fold(text: str) -> str:
    """The form two names share when they differ only by case or Unicode normalisation."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFKC", text).casefold())


def suggest_name(text: str) -> str:
    """A valid name close to ``text`` (lower case, other characters turned into single hyphens)."""
    folded = unicodedata.normalize("NFKD", fold(text)).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9-]", "-", folded)).strip("-")[:64].strip("-")


def name_rule_problem(name: str) -> NameProblem | None:
    """The first way ``name`` breaks the naming rule, or None when it is a clean pack name."""
    if not name:
        return NameProblem("Enter a name: 1-64 characters of a-z, 0-9 and '-'.")
    if len(name) > 64:
        return NameProblem(f"The name is {len(name)} characters; the limit is 64.")
    if not NAME_RE.fullmatch(name):
        bad = sorted({c for c in name if not re.fullmatch(r"[a-z0-9-]", c)})
        shown = ", ".join(repr(c) for c in bad[:5])
        hint = suggest_name(name)
        extra = f" Try '{hint}'." if hint and hint != name else ""
        return NameProblem(f"Only a-z, 0-9 and '-' are allowed (found {shown}).{extra}")
    if name.startswith("-") or name.endswith("-") or "--" in name:
        return NameProblem("A name cannot start or end with '-' or have two in a row.")
    return None


def collision(name: str, into: Path, known: Iterable[tuple[str, Path]] = (), *,
              exclude: Path | None = None) -> NameProblem | None:
    """A folder in ``into``, a pack beside it, or a known pack whose name equals ``name`` up to case and
    Unicode form (the packs beside it are read by name: a folder ``acme-old`` may hold ``name: acme``).
    ``exclude`` is a folder that does not count (a pack being renamed is not its own rival)."""
    key = fold(name)
    entries = [e for e in _entries(into) if exclude is None or into / e != exclude]
    known = [(n, root) for n, root in (*known, *sibling_pack_names(into, entries)) if root != exclude]
    for entry in entries:
        if fold(entry) == key:
            existing = into / entry
            if entry == name:
                return NameProblem(f"'{entry}' already exists in {into}; nothing is overwritten.", existing)
            return NameProblem(f"'{entry}' already exists in {into} and differs from '{name}' only by case or "
                               "Unicode form; many file systems treat them as the same folder.", existing)
    for other, root in known:
        if isinstance(other, str) and fold(other) == key:
            same = "is" if other == name else f"differs only by case or Unicode form from '{other}', which is"
            return NameProblem(f"'{name}' {same} already the name of the pack at {root}.", root)
    return None


def sibling_pack_names(into: Path, entries: list[str] | None = None) -> list[tuple[str, Path]]:
    """(frontmatter name, folder) of the packs directly in ``into``; at most ``MAX_SIBLING_PACKS`` are read,
    each only as far as its first ``MAX_NAME_READ`` bytes."""
    from studio.core.frontmatter import read_knowledge_bytes  # only when a new pack is planned

    out: list[tuple[str, Path]] = []
    for entry in (entries if entries is not None else _entries(into))[:MAX_SIBLINGS]:
        with PackFS(into / entry) as fs:  # by descriptor: a KNOWLEDGE.md that is a symlink is never read
            found = fs.read("KNOWLEDGE.md", MAX_NAME_READ, follow=False)
        if found.status is not Status.OK or found.data is None:
            continue
        data = found.data
        head = data.split(b"\n---", 1)[0] + b"\n---\n" if b"\n---" in data else data
        parsed, _diags = read_knowledge_bytes(head)
        value = parsed.frontmatter.data.get("name") if parsed.frontmatter is not None else None
        if isinstance(value, str):
            out.append((value, into / entry))
        if len(out) >= MAX_SIBLING_PACKS:
            break
    return out


def _entries(folder: Path) -> list[str]:
    names: list[str] = []
    try:
        with os.scandir(folder) as it:
            for entry in it:
                names.append(entry.name)
                if len(names) >= MAX_SIBLINGS:
                    break
    except (OSError, ValueError):
        return []
    return names


def enclosing_pack(folder: Path) -> Path | None:
    """The pack that ``folder`` (or its nearest existing ancestor) lies inside, if any: packs do not nest."""
    current = Path(os.path.abspath(folder))
    for candidate in (current, *current.parents):
        try:
            if (candidate / "KNOWLEDGE.md").is_file():
                return candidate
        except (OSError, ValueError):
            continue
    return None
