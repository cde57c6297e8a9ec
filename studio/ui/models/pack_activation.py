"""PackActivationModel: the simulator's pack list (activated or not, how, and the confirmation of disputed packs).

The list used to be a ``QTreeWidget`` with one item per pack, made on the GUI thread each time the Resolve mode
followed the workspace: 163 ms at 10,000 packs. This model keeps the packs as the list it is given and the
user's choices in a set and two dictionaries keyed by pack name, so setting 10,000 packs is one reset and the
view asks only for the rows it shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal

from studio.core.model import Pack
from studio.core.terminal import printable

ModelIndex = QModelIndex | QPersistentModelIndex
_NO_PARENT = QModelIndex()
ACTIVATIONS = ("explicit", "implicit", "resolver-driven")
COL_PACK, COL_STATUS, COL_ACTIVATION, COL_CONFIRM = range(4)
HEADERS = ("Pack", "Status", "Activation", "Confirm disputed")
CONFIRM_TEXT = "I confirm using it"
CONFIRM_TIP = "A disputed pack is never loaded until you confirm it explicitly."
# Flags worked out once: the view asks for a row's flags each time it lays the rows out, and combining Qt's
# flags in Python costs more than the rest of the call.
_PLAIN = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_CHECKABLE = _PLAIN | Qt.ItemFlag.ItemIsUserCheckable
_EDITABLE = _PLAIN | Qt.ItemFlag.ItemIsEditable


class PackActivationModel(QAbstractTableModel):
    """One row per pack, in the order given. Checking a pack's first column activates it (``explicit`` unless
    another activation is picked in the third column); a disputed pack also needs its fourth column ticked.

    Signals:
        changed(): the user's choices changed (not emitted by ``set_packs``).
        toggled(int, bool): the pack on this row was just activated or deactivated (the view opens or closes
            its activation chooser).
    """

    changed = Signal()
    toggled = Signal(int, bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.packs: list[Pack] = []
        self._row_of: dict[str, int] = {}
        self._checked: set[str] = set()
        self._activation: dict[str, str] = {}
        self._confirmed: set[str] = set()

    # -- what the form reads and sets -----------------------------------------------------------------
    def set_packs(self, packs: Sequence[Pack], checked: set[str], names: Sequence[str] | None = None) -> None:
        """List ``packs`` with ``checked`` activated; choices made for packs no longer listed are dropped.

        ``names``: the packs' names in the same order, when the caller has read them already.
        """
        self.beginResetModel()
        self.packs = list(packs)
        self._row_of = {name: i for i, name in enumerate(names if names is not None else (p.name for p in packs))}
        self._checked = {name for name in checked if name in self._row_of}
        self._activation = {n: a for n, a in self._activation.items() if n in self._checked}
        self._confirmed = {name for name in self._confirmed if name in self._row_of}
        self.endResetModel()

    def checked_rows(self) -> list[int]:
        return sorted(self._row_of[name] for name in self._checked)

    def is_checked(self, name: str) -> bool:
        return name in self._checked

    def activation(self, name: str) -> str:
        return self._activation.get(name, ACTIVATIONS[0])

    def is_confirmed(self, name: str) -> bool:
        return name in self._confirmed

    def set_checked(self, name: str, checked: bool) -> None:
        if (row := self._row_of.get(name)) is not None:
            self.setData(self.index(row, COL_PACK), _state(checked), Qt.ItemDataRole.CheckStateRole)

    def set_confirmed(self, name: str, confirmed: bool) -> None:
        if (row := self._row_of.get(name)) is not None:
            self.setData(self.index(row, COL_CONFIRM), _state(confirmed), Qt.ItemDataRole.CheckStateRole)

    def set_activation(self, name: str, activation: str) -> None:
        if (row := self._row_of.get(name)) is not None:
            self.setData(self.index(row, COL_ACTIVATION), activation, Qt.ItemDataRole.EditRole)

    # -- Qt's side ------------------------------------------------------------------------------------
    def rowCount(self, parent: ModelIndex = _NO_PARENT) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self.packs)

    def columnCount(self, parent: ModelIndex = _NO_PARENT) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 (Qt's name)
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < 4:
            return HEADERS[section]
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        column = index.column()
        if column == COL_PACK:
            return _CHECKABLE
        pack = self.packs[index.row()]
        if column == COL_CONFIRM and pack.status == "disputed":
            return _CHECKABLE
        if column == COL_ACTIVATION and pack.name in self._checked:
            return _EDITABLE
        return _PLAIN

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.packs):
            return None
        pack = self.packs[index.row()]
        column = index.column()
        disputed = pack.status == "disputed"
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_PACK:
                return printable(pack.name)
            if column == COL_STATUS:
                return pack.status or "(none)"
            if column == COL_ACTIVATION:
                return self.activation(pack.name) if pack.name in self._checked else ""
            return CONFIRM_TEXT if column == COL_CONFIRM and disputed else None
        if role == Qt.ItemDataRole.EditRole and column == COL_ACTIVATION:
            return self.activation(pack.name)
        if role == Qt.ItemDataRole.CheckStateRole:
            if column == COL_PACK:
                return _state(pack.name in self._checked)
            if column == COL_CONFIRM and disputed:
                return _state(pack.name in self._confirmed)
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_CONFIRM and disputed:
            return CONFIRM_TIP
        if role == Qt.ItemDataRole.UserRole:
            return pack.name
        return None

    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if not index.isValid() or not 0 <= index.row() < len(self.packs):
            return False
        name = self.packs[index.row()].name
        column = index.column()
        if role == Qt.ItemDataRole.CheckStateRole and column in (COL_PACK, COL_CONFIRM):
            if not self.flags(index) & Qt.ItemFlag.ItemIsUserCheckable:
                return False
            chosen = self._checked if column == COL_PACK else self._confirmed
            on = _is_checked(value)
            if on == (name in chosen):
                return True
            if on:
                chosen.add(name)
            else:
                chosen.discard(name)
            if column == COL_PACK:  # the activation column shows (or stops showing) the activation too
                self.dataChanged.emit(index, self.index(index.row(), COL_ACTIVATION))
                self.toggled.emit(index.row(), on)
            else:
                self.dataChanged.emit(index, index)
            self.changed.emit()
            return True
        if role == Qt.ItemDataRole.EditRole and column == COL_ACTIVATION:
            if value not in ACTIVATIONS or name not in self._checked:
                return False
            if self.activation(name) != value:
                self._activation[name] = str(value)
                self.dataChanged.emit(index, index)
                self.changed.emit()
            return True
        return False


def _state(on: bool) -> Qt.CheckState:
    return Qt.CheckState.Checked if on else Qt.CheckState.Unchecked


def _is_checked(value: Any) -> bool:
    """A check state as Qt hands it over: the enum, or its integer value (from a view)."""
    if isinstance(value, Qt.CheckState):
        return value == Qt.CheckState.Checked
    try:
        return int(value) == Qt.CheckState.Checked.value
    except (TypeError, ValueError):
        return False
