"""Stable file ids for the "activation as a tool" form: ``<pack>:<stem>-<hash>``, e.g. ``acme:facts-3f9a1c2b7d``.

An agent that receives files as a list of ids keeps calling ``read_files`` with ids it saw turns ago, so an id
must mean the same file for as long as that file exists. The id is therefore a function of two things only, the
pack name and the file's pack-relative path:

- ``<pack>``: the pack name folded to ``[a-z0-9-]`` (a valid name is unchanged), at most 64 characters.
- ``<stem>``: the file name without its extension, folded the same way, at most 24 characters (``file`` when
  nothing is left). It makes the id readable; it is not what makes it unique.
- ``<hash>``: the first 10 hex digits (40 bits) of SHA-256 over ``pack name + "\\n" + path``.

Nothing else goes in: not the file's content (an edit keeps the id), not its position in the listing or the
other files (adding or removing files, or a rescan, keeps every other id). Two files of one pack share an id
only if they share a stem *and* 40 bits of SHA-256 (about 1 in 10^12 per pair with the same stem). ``assign_ids``
still checks every listing: files whose short ids would coincide get the full 64-digit hash instead, which is
just as deterministic, so two files never share an id (and in that never-observed case only those two ids
differ from the short form).

The pack prefix lets ``read-files`` tell an id of another pack from a mistyped one. Two copies of a pack with the
same name (one shadowing the other) give the same ids to the same paths, which is right: a client loads one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

SHORT_HASH = 10
PACK_PART_MAX = 64
STEM_PART_MAX = 24
_FOLD = re.compile(r"[^a-z0-9]+")
ID_PATTERN = re.compile(r"^(?P<pack>[a-z0-9-]{1,64}):(?P<stem>[a-z0-9-]+)-(?P<hash>[0-9a-f]{10}|[0-9a-f]{64})$")
"""What every id looks like (the tool's JSON Schema uses the pack-specific form of it)."""


def fold(text: str, limit: int) -> str:
    """``text`` lower-cased with every run of other characters turned into one hyphen, trimmed to ``limit``."""
    folded = _FOLD.sub("-", text.lower()).strip("-")
    return folded[:limit].rstrip("-")


def pack_prefix(pack_name: str) -> str:
    """The ``<pack>`` part of every id of ``pack_name``."""
    return fold(pack_name, PACK_PART_MAX) or "pack"


def _stem(path: str) -> str:
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    base = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    return fold(base, STEM_PART_MAX) or "file"


def _digest(pack_name: str, path: str) -> str:
    return hashlib.sha256(f"{pack_name}\n{path}".encode("utf-8", "surrogatepass")).hexdigest()


def file_id(pack_name: str, path: str, *, full: bool = False) -> str:
    """The id of pack-relative ``path`` in pack ``pack_name`` (``full``: with the 64-digit hash)."""
    digest = _digest(pack_name, path)
    return f"{pack_prefix(pack_name)}:{_stem(path)}-{digest if full else digest[:SHORT_HASH]}"


@dataclass(frozen=True, slots=True)
class ParsedId:
    """The parts of an id as written (``None`` from ``parse_id`` when it does not look like one)."""

    pack: str
    stem: str
    hash: str


def parse_id(value: str) -> ParsedId | None:
    match = ID_PATTERN.match(value)
    return ParsedId(match["pack"], match["stem"], match["hash"]) if match else None


def assign_ids(pack_name: str, paths: Iterable[str]) -> dict[str, str]:
    """Path -> id for every path of one listing; distinct paths always get distinct ids (see the docstring)."""
    unique = list(dict.fromkeys(paths))
    short = {path: file_id(pack_name, path) for path in unique}
    seen: dict[str, int] = {}
    for value in short.values():
        seen[value] = seen.get(value, 0) + 1
    return {path: file_id(pack_name, path, full=True) if seen[value] > 1 else value for path, value in short.items()}
