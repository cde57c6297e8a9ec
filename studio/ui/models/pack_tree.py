"""PackTreeModel: packs grouped by scope (plus Shadowed and Quarantined), each with its file tree beneath.

Group membership comes straight from the core's verdict on the pack: ``pack.loads`` and
``pack.shadowed_by``. File listings are read lazily with ``os.scandir`` in a worker the first time a
folder is expanded (``list_children``), never following a symlink.

The model is a QStandardItemModel on purpose: every row keeps what it shows in C++, so laying out a
group of a thousand packs (expanding it, selecting a pack in it, filtering it) never calls back into
Python once per row. A Python item model cost about 25 ms for that on a 923-pack group; this one about
4 ms. An unlisted pack or folder holds one placeholder row, so the view draws its expander without
asking Python whether there is more to fetch.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum
from operator import itemgetter
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, QThreadPool
from PySide6.QtGui import QIcon, QStandardItem, QStandardItemModel

from studio.core.labels import PackLabel
from studio.core.model import Pack, Scope
from studio.core.pack_fs import PackFS
from studio.core.terminal import printable
from studio.ui import workers
from studio.ui.icons import icon
from studio.ui.let_go import let_go
from studio.ui.pacing import TREE_ROWS, Paced
from studio.ui.shown_text import as_typed

ModelIndex = QModelIndex | QPersistentModelIndex

GROUPS: tuple[tuple[str, str], ...] = (
    (Scope.EXPLICIT.value, "Explicit"),
    (Scope.PROJECT.value, "Project"),
    (Scope.USER.value, "User"),
    (Scope.ORGANIZATION.value, "Organization"),
    (Scope.BUILTIN.value, "Built-in"),
    ("shadowed", "Shadowed"),
    ("quarantined", "Quarantined"),
)
PLACEHOLDER = "Listing…"
SLICED_CLEAR_LIMIT = 2000
"""A tree of more packs is emptied over several turns (see ``PackTreeModel.clear``)."""
_ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


class Role(IntEnum):
    """Custom data roles the views and the delegate read."""

    KIND = Qt.ItemDataRole.UserRole + 1
    """``group``, ``pack``, ``dir``, ``file`` or ``placeholder``."""
    PACK = Qt.ItemDataRole.UserRole + 2
    PATH = Qt.ItemDataRole.UserRole + 3
    REASON = Qt.ItemDataRole.UserRole + 4
    FILTER_TEXT = Qt.ItemDataRole.UserRole + 5
    """Lower-case text the Workspace filter matches: set on pack rows only (groups show through their packs,
    files and folders with their pack)."""
    ROW_PACK = Qt.ItemDataRole.UserRole + 6
    """The Pack when the row is a pack itself, else None (the delegate's one question per row)."""
    GROUP = Qt.ItemDataRole.UserRole + 7
    """A group row's key (``explicit``, ``shadowed`` ...)."""
    WHERE = Qt.ItemDataRole.UserRole + 8
    """On a pack row whose name another pack shares: what tells it apart, drawn muted after the name
    (``studio.core.labels``): the telling path (``v0.4.0/``), or the scope when the scope alone tells it
    (``user``); the whole label is in the tooltip. Empty for a unique name."""


# The roles as plain ints: building rows converts no enums (a thousand rows, six roles each).
_KIND, _PACK, _PATH, _REASON, _FILTER_TEXT, _ROW_PACK, _GROUP, _WHERE = (int(r) for r in Role)
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_DECORATION = int(Qt.ItemDataRole.DecorationRole)


def group_key(pack: Pack) -> str:
    """Which group the pack belongs in, by the core's verdict."""
    if not pack.behavior.loads:
        return "quarantined"
    if pack.shadowed_by is not None:
        return "shadowed"
    return pack.scope.value


def exclusion_reason(pack: Pack) -> str:
    """Why a pack is in the Shadowed or Quarantined group, from its own findings."""
    behavior = pack.behavior
    if not behavior.loads:
        worst = [d for d in pack.findings if d.behavior is behavior]
        return worst[0].message if worst else behavior.value
    if pack.shadowed_by is not None:
        return f"shadowed by {pack.shadowed_by}"
    return ""


@dataclass(frozen=True, slots=True)
class PackRow:
    """What a pack's row shows, read from the Pack once (its accessors re-read the frontmatter each time)."""

    name: str
    status: str | None
    trust: str | None
    type: str | None
    description: str | None
    profile: str
    """The effective profile, marked when implied."""
    counts: tuple[int, int, int]
    reason: str
    group: str

    @classmethod
    def of(cls, pack: Pack) -> PackRow:
        behavior = pack.behavior
        if not behavior.loads:
            group = "quarantined"
        elif pack.shadowed_by is not None:
            group = "shadowed"
        else:
            group = pack.scope.value
        counts = pack.counts
        profile = pack.effective_profile + (" (implied: not declared)" if pack.profile_is_implied else "")
        return cls(printable(pack.name), pack.status, pack.trust, pack.type,
                   printable(pack.description) if pack.description else pack.description, profile,
                   (counts.errors, counts.warnings, counts.infos), exclusion_reason(pack), group)

    def tooltip(self, root: Path, label: str = "") -> str:
        lines = [label or self.name, str(root),
                 f"status: {self.status or 'none'} · trust: {self.trust or 'none'} · profile: {self.profile}"]
        if self.description:
            lines.append(self.description)
        if self.reason:
            lines.append(f"Reason: {self.reason}")
        return "\n".join(lines)

    def filter_text(self, where: str = "") -> str:
        parts = (self.name, where, self.status, self.type, self.trust, self.description)
        return " ".join(x for x in parts if x).lower()


def list_directory(root: Path, path: Path) -> list[tuple[str, bool]]:
    """(name, is_dir) of the entries of ``path`` in the pack at ``root``, folders first; symlinks are listed but
    never followed.

    The folder is reached through the pack's descriptors (``PackFS``), never by its path: a folder swapped for a
    symlink between the listing of its parent and this one would otherwise list the names of a folder outside
    the pack. Such a folder lists as empty.
    """
    try:
        rel = os.path.relpath(path, root)
    except ValueError:
        return []
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return []
    with PackFS(root) as fs:
        fd = fs.open_dir("" if rel == os.curdir else rel)
        if fd is None:
            return []
        try:
            with os.scandir(fd) as it:  # scans a duplicate of the descriptor: the PackFS keeps its own
                entries = [(e.name, e.is_dir(follow_symlinks=False)) for e in it]
        except OSError:
            return []
    return sorted(entries, key=lambda e: (not e[1], e[0].lower()))


def _order_key(item: QStandardItem) -> tuple[str, str, str]:
    """Where a pack row goes among its group's: by name (case-blind), then by folder for namesakes."""
    return _name_order(item.text(), str(item.data(_PATH)))


def _name_order(name: str, path: str) -> tuple[str, str, str]:
    """``_order_key`` from what the row shows (its name, its folder), without asking the row."""
    return name.casefold(), name, path


_GROUP_ORDER = {key: n for n, (key, _label) in enumerate(GROUPS)}


def tree_order(pack: Pack) -> tuple[int, str, str, str]:
    """Where the pack's row goes in the tree: its group, then as ``_order_key`` orders rows within one. Packs
    handed over in this order land in each group as one run of rows per batch (no Qt call: any thread)."""
    return _GROUP_ORDER[group_key(pack)], *_name_order(printable(pack.name), str(pack.root))


def _insertion_row(group: QStandardItem, key: tuple[str, str, str]) -> int:
    """The first row of ``group`` whose key is above ``key`` (the group's rows are in order)."""
    low, high = 0, group.rowCount()
    while low < high:
        middle = (low + high) // 2
        if _order_key(group.child(middle)) <= key:
            low = middle + 1
        else:
            high = middle
    return low


def _placeholder() -> QStandardItem:
    """The row under an unlisted pack or folder: gives it an expander; not selectable (nothing to open)."""
    item = QStandardItem(PLACEHOLDER)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled)
    item.setData("placeholder", _KIND)
    return item


class PackTreeModel(QStandardItemModel):
    """Groups → packs → files, one column. Rows are fed with ``add_packs``/``replace_pack``; read-only."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._icons: dict[str, QIcon] = {k: icon(n) for k, n in (("pack", "pack"), ("dir", "folder"),
                                                                   ("file", "file"))}
        self.groups: dict[str, QStandardItem] = {}
        self._labels = dict(GROUPS)
        self._add_groups()
        self.pack_items: dict[Path, QStandardItem] = {}
        self._shown: dict[Path, tuple[Pack, PackRow]] = {}
        """root → the Pack the row shows and what was read from it."""
        self._listed: set[str] = set()
        """PATH of every pack or folder whose listing was asked for."""
        self._pending: dict[int, QPersistentModelIndex] = {}
        # Listings get a thread of their own: one scandir takes milliseconds, but in the shared pool it
        # waited behind previews and content checks (a "Listing…" row stayed for up to a second).
        self._listing_pool = QThreadPool(self)
        self._listing_pool.setMaxThreadCount(1)
        self._visible: dict[str, int] | None = None
        """Packs per group the Workspace filter shows, while a filter is typed."""
        self._pack_labels: dict[Path, PackLabel] = {}
        """Labels of the packs whose name another pack shares (``set_labels``); unique names are not kept."""
        self._removal: Paced[QStandardItem] = Paced(self, TREE_ROWS, self._remove_rows)
        """The rows of a large closed workspace, removed a slice per turn from its groups, which have left the model
        already: one item per row, the old group that holds it."""

    # -- rows -------------------------------------------------------------------------------------
    def _row(self, text: str, roles: dict[int, Any]) -> QStandardItem:
        # Made with the constructor, never cloned from a prototype (a little cheaper): PySide is not told when
        # Qt deletes a clone, so every removed row left a stale wrapper behind (20,000 per re-opening of
        # 10,000 packs), and a new row at a freed address could be taken for the stale one (a crash).
        item = QStandardItem(text)
        item.setFlags(_ROW_FLAGS)
        for role, value in roles.items():
            item.setData(value, role)
        return item

    def _pack_roles(self, pack: Pack, row: PackRow) -> dict[int, Any]:
        label = self._pack_labels.get(pack.root)
        # In the tree the group already says the scope (for packs that load): the path is what tells copies apart.
        where, text = (label.path or label.scope, label.text) if label is not None else ("", "")
        return {_DISPLAY: row.name, _TOOLTIP: as_typed(row.tooltip(pack.root, text)), _PACK: pack, _ROW_PACK: pack,
                _REASON: row.reason, _FILTER_TEXT: row.filter_text(where), _WHERE: where}

    def _pack_row(self, pack: Pack, row: PackRow) -> QStandardItem:
        roles = self._pack_roles(pack, row)
        del roles[_DISPLAY]  # the constructor shows the name already
        roles[_KIND] = "pack"
        roles[_PATH] = str(pack.root)
        roles[_DECORATION] = self._icons["pack"]
        item = self._row(row.name, roles)
        item.appendRow(_placeholder())
        return item

    def _count_groups(self, keys: set[str]) -> None:
        for key in keys:
            group = self.groups[key]
            total = group.rowCount()
            shown = self._visible.get(key, total) if self._visible is not None else total
            text = f"{self._labels[key]} ({total})" if shown == total else f"{self._labels[key]} ({shown} of {total})"
            if group.text() != text:
                group.setText(text)

    def show_visible_counts(self, visible: dict[str, int] | None) -> None:
        """Title the groups with how many of their packs a filter shows (None: no filter, totals only)."""
        if visible != self._visible:
            self._visible = visible
            self._count_groups(set(self.groups))

    def _add_groups(self) -> None:
        for key, label in GROUPS:
            item = self._row(f"{label} (0)", {_KIND: "group", _GROUP: key})
            self.appendRow(item)
            self.groups[key] = item

    # -- feeding --------------------------------------------------------------------------------
    def clear(self) -> None:
        """Drop every pack (the groups stay, empty; a large workspace's groups are new ones).

        What the rows held is released over the next turns (``let_go``): at 10,000 packs, dropping the row
        wrappers and what the rows showed took 86 ms at once.
        """
        many = self.clears_in_slices
        let_go(self.pack_items.values())
        let_go(self._shown.values())
        self.pack_items = {}
        self._shown = {}
        if many:
            # Removing 10,000 rows with their data and wrappers took 80-90 ms in one go, however the views were
            # told. So the groups leave the model whole (seven rows: the views drop theirs at once; Qt unhooking
            # 10,000 rows from the model takes about 14 ms), new empty groups take their place, and the old ones are
            # emptied a slice per turn (``pacing.TREE_ROWS``) away from any view. The next workspace's packs are
            # shown at once (a warm opening shows them all within a second), not after the old rows are gone.
            old = [self.takeRow(0)[0] for _ in range(self.rowCount())]
            self.groups = {}
            self._add_groups()
            self._removal.feed(group for group in old for _ in range(group.rowCount()))
        else:  # the groups stay, expanded as they were
            for group in self.groups.values():
                if group.rowCount():
                    group.removeRows(0, group.rowCount())
            self._count_groups(set(self.groups))
        self._pack_labels.clear()
        self._listed.clear()
        self._pending.clear()

    def _remove_rows(self, rows: Iterator[QStandardItem]) -> None:
        # Grouped by identity: each old group is its own (its wrapper is held by the queue until it is empty).
        counts: dict[int, tuple[QStandardItem, int]] = {}
        for group in rows:
            held, count = counts.get(id(group), (group, 0))
            counts[id(group)] = (held, count + 1)
        for group, count in counts.values():
            left = group.rowCount()
            start = max(0, left - count)  # from the end: the rows left need no renumbering
            group.removeRows(start, left - start)

    @property
    def clears_in_slices(self) -> bool:
        """Whether ``clear`` now would remove the rows over several turns (a large workspace)."""
        return len(self.pack_items) > SLICED_CLEAR_LIMIT

    @property
    def emptying(self) -> bool:
        """True while the rows of the last workspace are still being removed (see ``clear``)."""
        return self._removal.running

    def add_packs(self, packs: list[Pack]) -> None:
        by_group: dict[str, list[tuple[tuple[str, str, str], QStandardItem]]] = {}
        for pack in packs:
            if pack.root in self.pack_items:
                continue
            row = PackRow.of(pack)
            item = self._pack_row(pack, row)
            # Ordered by what the row shows, known here: asking each new row for its text and folder took as long.
            by_group.setdefault(row.group, []).append((_name_order(row.name, str(pack.root)), item))
            self.pack_items[pack.root] = item
            self._shown[pack.root] = (pack, row)
        for key, items in by_group.items():
            self._insert_in_order(self.groups[key], items)
        self._count_groups(set(by_group))

    def _insert_in_order(self, group: QStandardItem, keyed: list[tuple[tuple[str, str, str], QStandardItem]]) -> None:
        """Put the items of ``keyed`` (each after its ``_order_key``) where they belong in ``group`` (by name, then
        folder), so the tree reads the same from one start to the next whatever order the scan delivered the packs
        in. Only the batch is sorted; each run of it that falls between two existing rows is one insertion, placed
        by a binary search over the rows."""
        keyed.sort(key=itemgetter(0))
        keys = [key for key, _item in keyed]
        items = [item for _key, item in keyed]
        start, count = 0, len(items)
        while start < count:
            at = _insertion_row(group, keys[start])
            end = count
            if at < group.rowCount():
                end = bisect_left(keys, _order_key(group.child(at)), start + 1)
            group.insertRows(at, items[start:end])
            start = end

    def replace_pack(self, fresh: Pack) -> None:
        item = self.pack_items.get(fresh.root)
        if item is None:
            self.add_packs([fresh])
            return
        shown, old = self._shown[fresh.root]
        row = PackRow.of(fresh)
        if shown is fresh and row == old:
            return  # settled again but nothing the row shows has changed
        self._shown[fresh.root] = (fresh, row)
        # One dataChanged for all roles (setData per role would repaint the row once per role).
        self.setItemData(item.index(), self._pack_roles(fresh, row))
        if row.group != old.group:
            # The row moves with its listed files: taken out of one group and into another.
            moved = self.groups[old.group].takeRow(item.row())
            self._insert_in_order(self.groups[row.group], [(_order_key(one), one) for one in moved])
            self._count_groups({old.group, row.group})

    def set_labels(self, labels: dict[Path, PackLabel]) -> None:
        """Show these labels (only packs whose label changed: ``LabelIndex.update`` says which)."""
        for root, label in labels.items():
            if label.where:
                self._pack_labels[root] = label
            elif self._pack_labels.pop(root, None) is None:
                continue  # unique before and after: the row shows no suffix and needs no change
            item = self.pack_items.get(root)
            shown = self._shown.get(root)
            if item is not None and shown is not None:
                self.setItemData(item.index(), self._pack_roles(*shown))

    def label(self, root: Path) -> PackLabel | None:
        """The label the row of ``root`` shows, when its name is shared (None for a unique name)."""
        return self._pack_labels.get(root)

    def changes_group(self, pack: Pack) -> bool:
        """Whether ``replace_pack(pack)`` would move its row to another group (or add it)."""
        shown = self._shown.get(pack.root)
        return shown is None or shown[1].group != group_key(pack)

    def remove_pack(self, root: Path) -> None:
        self.remove_packs([root])

    def remove_packs(self, roots: list[Path]) -> None:
        """Drop the rows of these packs (unknown roots are skipped): each run of neighbouring rows in one go."""
        rows: dict[str, list[int]] = {}
        for root in roots:
            item = self.pack_items.pop(root, None)
            shown = self._shown.pop(root, None)
            if item is not None and shown is not None:
                rows.setdefault(shown[1].group, []).append(item.row())
        for key, numbers in rows.items():
            numbers.sort(reverse=True)  # from the end: the rows still to go keep their numbers
            start = 0
            while start < len(numbers):
                end = start + 1
                while end < len(numbers) and numbers[end] == numbers[end - 1] - 1:
                    end += 1
                self.groups[key].removeRows(numbers[end - 1], end - start)
                start = end
        self._count_groups(set(rows))

    def index_for_pack(self, root: Path) -> QModelIndex:
        item = self.pack_items.get(root)
        return item.index() if item is not None else QModelIndex()

    # -- lazy file listings -------------------------------------------------------------------------
    def list_children(self, index: ModelIndex) -> bool:
        """Start listing the folder of a pack or folder row (once); False when there is nothing to list."""
        if not index.isValid() or index.data(Role.KIND) not in ("pack", "dir"):
            return False
        path = index.data(Role.PATH)
        if not path or path in self._listed:
            return False
        self._listed.add(path)
        pack = index.data(Role.PACK)
        root = pack.root if isinstance(pack, Pack) else Path(path)
        rid = workers.submit(list_directory, root, Path(path), on_done=self._on_listed, pool=self._listing_pool)
        self._pending[rid] = QPersistentModelIndex(index)
        return True

    def refresh_folder(self, folder: Path) -> bool:
        """List ``folder`` again (a file was created, renamed or deleted in it); an unlisted folder's nearest
        listed ancestor is listed instead. False when no row of the tree shows it."""
        item = self._item_for(folder)
        while item is not None and str(item.data(Role.PATH)) not in self._listed:
            parent = item.parent()
            item = parent if parent is not None and parent.data(Role.KIND) in ("pack", "dir") else None
        if item is None:
            return False
        self._listed.discard(str(item.data(Role.PATH)))
        return self.list_children(item.index())

    def _item_for(self, folder: Path) -> QStandardItem | None:
        """The pack or folder row for ``folder`` (None when its pack is not shown or it is not listed yet:
        then the deepest listed ancestor row)."""
        for root, item in self.pack_items.items():
            if folder != root and root not in folder.parents:
                continue
            for part in folder.relative_to(root).parts:
                child = next((item.child(r) for r in range(item.rowCount())
                              if item.child(r).data(Role.KIND) == "dir" and item.child(r).text() == part), None)
                if child is None:
                    return item
                item = child
            return item
        return None

    def _on_listed(self, request_id: int, entries: list[tuple[str, bool]]) -> None:
        where = self._pending.pop(request_id, None)
        if where is None:
            return  # the model was cleared meanwhile
        item = self.itemFromIndex(where.sibling(where.row(), where.column())) if where.isValid() else None
        if item is None:
            return  # the row went away (rescan) while its listing was in flight
        folder = Path(item.data(Role.PATH))
        pack = item.data(Role.PACK)
        if item.data(Role.KIND) == "pack":
            entries = [e for e in entries if e[0] != ".git"]
        rows = []
        for name, is_dir in entries:
            kind = "dir" if is_dir else "file"
            path = str(folder / name)
            row = self._row(printable(name), {_KIND: kind, _PACK: pack, _PATH: path, _TOOLTIP: as_typed(path),
                                   _DECORATION: self._icons[kind]})
            if is_dir:
                row.appendRow(_placeholder())
            rows.append(row)
        item.removeRows(0, item.rowCount())  # the placeholder: with no entries the expander goes too
        if rows:
            item.appendRows(rows)
