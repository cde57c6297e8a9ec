"""Labels that tell packs (and open files) apart: a unique name stays bare, a shared one gets scope and a path.

A workspace often holds several packs of one name (a project copy shadowing a user copy, two checkouts of the
same pack side by side). Every place that names a pack (the tree, the Problems table, mode headers, editor
tabs) uses the label from here, so two packs are never shown the same way:

- a name no other pack carries is its own label: ``acme``;
- a shared name gets its scope when that alone tells the copy apart: ``acme — project``;
- copies of one name in one scope also get the shortest parent path that no other copy shares:
  ``acme — explicit, v0.4.0/`` beside ``acme — explicit, v0.7.2/`` (the folders ``v0.4.0/acme`` and
  ``v0.7.2/acme``; a trailing ``/`` marks a parent folder). When the pack folders themselves differ, their own
  names tell the copies apart: ``acme — project, acme-old``.

A label depends only on the packs of the same name, so adding or changing a pack of another name changes no
label. Pure functions of names, scopes and paths: nothing is read from disk.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import TypeVar

from studio.core.terminal import printable

SEPARATOR = " — "
"""Between a name and what tells it apart (an em dash: pack names never contain one)."""

_P = TypeVar("_P", bound=PurePath)


@dataclass(frozen=True, slots=True)
class PackLabel:
    """How one pack is shown: its name and, when the name is shared, what tells this copy apart."""

    name: str
    scope: str = ""
    """The scope, when another pack of the same name exists (empty for a unique name)."""
    path: str = ""
    """The shortest parent path no same-name copy in the same scope shares, ending in ``/`` (``v0.4.0/``); or the
    pack folder's own telling path when that differs (``acme-old``). Empty when not needed."""
    folder: str = ""
    """The pack folder as far as it tells the copies apart (``v0.4.0/acme``; the folder name when the name is
    unique): what a list of files puts before a pack-relative path."""

    @property
    def where(self) -> str:
        """``project`` or ``explicit, v0.4.0/acme``: everything after the name (empty for a unique name)."""
        return ", ".join(part for part in (self.scope, self.path) if part)

    @property
    def text(self) -> str:
        where = self.where
        return f"{self.name}{SEPARATOR}{where}" if where else self.name

    def __str__(self) -> str:
        return self.text

    def __post_init__(self) -> None:
        # Names and folders come from packs: a bidi override in one would reverse the window's own sentence
        # around it. Shown as visible escapes, as on a terminal (the one escaping layer, ``terminal.printable``).
        for name in ("name", "path", "folder"):
            value = getattr(self, name)
            if value:
                object.__setattr__(self, name, printable(value))


@dataclass(frozen=True, slots=True)
class LabelInput:
    """What a label is made of; a ``Pack`` has these attributes too (``scope`` is then a ``Scope``)."""

    name: str
    scope: str
    root: PurePath


def telling_suffixes(paths: Sequence[_P], minimum: int = 1) -> dict[_P, str]:
    """For each path, its shortest trailing part (at least ``minimum`` components) that no other path ends with.

    ``[/a/x/acme, /a/y/acme]`` gives ``x/acme`` and ``y/acme``. Distinct paths always get distinct suffixes: at
    worst a path's whole form, which no other path ends with (its anchor, ``/``, can only come first).
    Duplicates in ``paths`` get their whole path. Counts suffixes one length at a time: linear in the number of
    paths times their depth, so a thousand copies of one name stay cheap.
    """
    parts = {p: p.parts for p in dict.fromkeys(paths)}
    out: dict[_P, str] = {}
    waiting = list(parts)
    size = max(minimum, 1)
    while waiting:
        counts = Counter(mine[-size:] for mine in parts.values() if len(mine) >= size)
        still: list[_P] = []
        for path in waiting:
            mine = parts[path]
            if len(mine) <= size or counts[mine[-size:]] == 1:
                out[path] = _join(mine[-size:])
            else:
                still.append(path)
        waiting = still
        size += 1
    return out


def _join(parts: tuple[str, ...]) -> str:
    if not parts:
        return ""
    head, rest = parts[0], parts[1:]
    if head.endswith(("/", "\\")):  # an anchor ("/", "C:\\") already ends in a separator
        return head + "/".join(rest)
    return "/".join(parts)


def group_labels(members: Sequence[LabelInput]) -> dict[PurePath, PackLabel]:
    """Labels for packs that all carry the same name (one group of ``pack_labels``)."""
    if len(members) == 1:
        only = members[0]
        return {only.root: PackLabel(only.name, folder=only.root.name)}
    by_scope: dict[str, list[LabelInput]] = {}
    for member in members:
        by_scope.setdefault(_scope_text(member.scope), []).append(member)
    out: dict[PurePath, PackLabel] = {}
    for scope, same in by_scope.items():
        if len(same) == 1:
            out[same[0].root] = PackLabel(same[0].name, scope, folder=same[0].root.name)
            continue
        suffixes = telling_suffixes([m.root for m in same])
        one_folder_name = len({m.root.name for m in same}) == 1
        for member in same:
            folder = suffixes[member.root]
            shown = _parent_form(folder) if one_folder_name else folder
            out[member.root] = PackLabel(member.name, scope, shown, folder)
    return out


def _parent_form(folder: str) -> str:
    """``v0.4.0/`` for the telling folder ``v0.4.0/acme``, when every copy's folder is called ``acme``: its name
    then adds nothing. (The heads are distinct because the whole telling folders are and their ends are equal.)"""
    head, sep, _last = folder.rpartition("/")
    return head + "/" if sep and head else folder


def pack_labels(packs: Iterable[object]) -> dict[PurePath, PackLabel]:
    """The label of every pack, keyed by its root. Accepts ``Pack`` objects or ``LabelInput``.

    Distinct roots always get distinct label texts: should two texts still coincide (a pack *named*
    ``acme — project``), those packs are labelled with their whole path.
    """
    groups: dict[str, list[LabelInput]] = {}
    scopes: dict[PurePath, str] = {}
    for pack in packs:
        item = _as_input(pack)
        groups.setdefault(item.name, []).append(item)
        scopes[item.root] = item.scope
    out: dict[PurePath, PackLabel] = {}
    for members in groups.values():
        out.update(group_labels(members))
    seen: dict[str, list[PurePath]] = {}
    for root, label in out.items():
        seen.setdefault(label.text, []).append(root)
    for roots in seen.values():
        if len(roots) > 1:
            for root in roots:
                label = out[root]
                out[root] = PackLabel(label.name, scopes[root], _join(root.parts), _join(root.parts))
    return out


def _as_input(pack: object) -> LabelInput:
    if isinstance(pack, LabelInput):
        return pack
    name, scope, root = getattr(pack, "name"), getattr(pack, "scope"), getattr(pack, "root")  # noqa: B009
    return LabelInput(str(name), _scope_text(scope), root)


def _scope_text(scope: object) -> str:
    value = getattr(scope, "value", scope)
    return str(value) if value else ""


class LabelIndex:
    """The labels of a workspace that changes pack by pack, kept up to date one name group at a time.

    A label depends only on the packs of its name, so a pack added, replaced or removed relabels its namesakes
    and nothing else: ``update`` and ``remove`` return the roots whose label changed, for the views to redraw.
    (``pack_labels``' last resort, whole paths for two label texts that still coincide across names, is left out:
    it would need every label of the workspace at each change.)
    """

    def __init__(self) -> None:
        self._inputs: dict[PurePath, LabelInput] = {}
        self._named: dict[str, set[PurePath]] = {}
        self._labels: dict[PurePath, PackLabel] = {}

    def label(self, root: PurePath) -> PackLabel | None:
        """The label of the pack at ``root`` (None for a root never added)."""
        return self._labels.get(root)

    def namesakes(self, name: str) -> int:
        """How many packs carry ``name``."""
        return len(self._named.get(name, ()))

    def clear(self) -> None:
        self._inputs.clear()
        self._named.clear()
        self._labels.clear()

    def update(self, packs: Iterable[object]) -> list[PurePath]:
        """Add or replace packs (``Pack`` or ``LabelInput``); returns the roots whose label changed."""
        names: set[str] = set()
        for pack in packs:
            item = _as_input(pack)
            old = self._inputs.get(item.root)
            if old == item:
                continue
            if old is not None and old.name != item.name:
                self._named.get(old.name, set()).discard(item.root)
                names.add(old.name)
            self._inputs[item.root] = item
            self._named.setdefault(item.name, set()).add(item.root)
            names.add(item.name)
        return self._relabel(names)

    def remove(self, roots: Iterable[PurePath]) -> list[PurePath]:
        """Drop packs; returns the roots of the others whose label changed (a namesake may lose its suffix)."""
        names: set[str] = set()
        for root in roots:
            item = self._inputs.pop(root, None)
            if item is not None:
                self._named.get(item.name, set()).discard(root)
                self._labels.pop(root, None)
                names.add(item.name)
        return self._relabel(names)

    def _relabel(self, names: set[str]) -> list[PurePath]:
        changed: list[PurePath] = []
        for name in names:
            roots = self._named.get(name)
            if not roots:
                self._named.pop(name, None)
                continue
            for root, label in group_labels([self._inputs[r] for r in sorted(roots, key=str)]).items():
                if self._labels.get(root) != label:
                    self._labels[root] = label
                    changed.append(root)
        return changed


def tab_titles(paths: Sequence[_P], knowledge_name: str = "KNOWLEDGE.md") -> dict[_P, str]:
    """Editor tab titles: the file name, plus the shortest parent path that tells same-named files apart.

    ``boundaries.md — splits/product-brief`` beside ``boundaries.md — splits/launch``. Every
    ``KNOWLEDGE.md`` names at least its pack folder (``KNOWLEDGE.md — acme``): the file name alone says nothing.
    """
    by_name: dict[str, list[_P]] = {}
    for path in paths:
        by_name.setdefault(path.name, []).append(path)
    out: dict[_P, str] = {}
    for name, same in by_name.items():
        if len(same) == 1 and name != knowledge_name:
            out[same[0]] = name
            continue
        parents = {p: p.parent for p in same}
        suffixes = telling_suffixes(list(dict.fromkeys(parents.values())))
        for path in same:
            out[path] = f"{name}{SEPARATOR}{suffixes[parents[path]]}" if suffixes[parents[path]] else name
    return {path: printable(title) for path, title in out.items()}  # file names are pack text too


__all__ = [
    "SEPARATOR", "LabelIndex", "LabelInput", "PackLabel", "group_labels", "pack_labels", "tab_titles",
    "telling_suffixes",
]
