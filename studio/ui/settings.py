"""What the app remembers between sessions (geometry, recent workspaces, preferences), stored with QSettings.

The QSettings object is always passed in, so tests hand the window an INI file in a temp directory and
never touch the real user's settings. Preferences are validated when read: a value that is missing,
garbled or out of range reads as its default, so a hand-edited or old settings file can never crash the
app, and a user who never opens the Preferences dialog gets exactly the built-in behaviour.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

from studio.core.cache_files import APP_DIR
from studio.core.cache_files import default_cache_dir as cli_cache_dir
from studio.core.pins import PinsError, parse_pins
from studio.core.render.fence import FenceVariant
from studio.core.resolver.budget import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET
from studio.core.tokens import DEFAULT_ENCODING, known_encodings
from studio.core.workspace import ScanLimits, WorkspaceOptions

if TYPE_CHECKING:
    from studio.ui.workspace_source import WorkspaceRequest

MAX_RECENT = 8
DEFAULT_CLIENT_NATIVE: tuple[str, ...] = WorkspaceOptions().client_native
MAX_SCAN_DEPTH = 32
"""Deeper than any real layout; a bound keeps a typo (400) from walking a whole disk."""
MAX_SCAN_DIRS = 1_000_000

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Preferences:
    """Everything the Preferences dialog edits; the defaults are the app's built-in behaviour."""

    encoding: str = DEFAULT_ENCODING
    """Encoding for token counts in the previews and the resolver form's starting choice."""
    budget: int = DEFAULT_BUDGET
    """The resolver form's starting token budget."""
    fence_variant: FenceVariant = FenceVariant.SUPERSET
    """Attribute set of the ``<knowledge_pack>`` wrapper in the fence preview and the resolver."""
    client_native: tuple[str, ...] = DEFAULT_CLIENT_NATIVE
    """Client folder names scanned for ``<project>/<name>/knowledge`` and ``<home>/<name>/knowledge``."""
    org_roots: tuple[Path, ...] = ()
    """Organization pack roots, scanned in every workspace."""
    limits: ScanLimits = field(default_factory=ScanLimits)
    result_cache: bool = True
    """Take unchanged packs from the result cache shared with the CLI (``studio.core.result_cache``)."""

    def apply_discovery(self, request: WorkspaceRequest) -> None:
        """Copy the discovery settings into ``request`` (they take effect when it is next scanned)."""
        request.org_roots = list(self.org_roots)
        request.client_native = self.client_native
        request.limits = self.limits
        request.use_cache = self.result_cache


def client_native_problem(name: str) -> str | None:
    """Why ``name`` cannot be a client folder name (one path segment), or None when it can."""
    if not name:
        return "a folder name cannot be empty"
    if name in (".", ".."):
        return f"{name!r} is not a folder name"
    if "/" in name or "\\" in name or "\n" in name or "\0" in name:
        return f"{name!r} must be a single folder name, without slashes"
    return None


def default_settings() -> QSettings:
    """The user's real settings store (INI format so it is readable and easy to reset)."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "KnowledgePackStudio", "studio")


# -- reading stored values: INI hands back strings, lists or None, whatever was written ------------
def _as_int(raw: object) -> int | None:
    if isinstance(raw, bool):  # bool is an int subclass; True is not a budget
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        try:
            return int(raw.strip())
        except ValueError:
            return None
    return None


def _as_bool(raw: object) -> bool | None:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
        return raw.strip().lower() == "true"
    return None


def _as_lines(raw: object) -> list[str] | None:
    """A stored list: written as one newline-joined string (an empty list then survives INI), but a
    hand-edited ``a, b`` comes back from QSettings as a list, which is accepted too."""
    if isinstance(raw, str):
        return [line.strip() for line in raw.split("\n") if line.strip()]
    if isinstance(raw, list) and all(isinstance(item, str) for item in raw):
        return [item.strip() for item in raw if item.strip()]
    return None


class StudioSettings:
    """Typed accessors over a QSettings store."""

    def __init__(self, store: QSettings) -> None:
        self.store = store

    # -- recent workspaces: each entry is a list of folder paths opened together --------------
    def recent_workspaces(self) -> list[list[str]]:
        raw = self.store.value("recent/workspaces", [])
        entries = raw if isinstance(raw, list) else [raw] if raw else []
        return [e.split("\n") for e in entries if isinstance(e, str) and e]

    def add_recent(self, roots: list[str]) -> None:
        key = "\n".join(roots)
        entries = ["\n".join(r) for r in self.recent_workspaces() if "\n".join(r) != key]
        self.store.setValue("recent/workspaces", [key, *entries][:MAX_RECENT])
        self.store.sync()

    def last_workspace(self) -> list[str] | None:
        recent = self.recent_workspaces()
        return recent[0] if recent else None

    # -- window geometry ----------------------------------------------------------------------
    def geometry(self) -> QByteArray | None:
        value = self.store.value("window/geometry")
        return value if isinstance(value, QByteArray) else None

    def window_state(self) -> QByteArray | None:
        value = self.store.value("window/state")
        return value if isinstance(value, QByteArray) else None

    def save_window(self, geometry: QByteArray, state: QByteArray) -> None:
        self.store.setValue("window/geometry", geometry)
        self.store.setValue("window/state", state)
        self.store.sync()

    # -- per-mode layout: which docks each mode shows, their sizes, and its splitters' positions --------
    @staticmethod
    def _mode_key(mode: str) -> str:
        return "layout/" + "".join(c if c.isalnum() else "-" for c in mode.lower())

    def mode_state(self, mode: str) -> QByteArray | None:
        """The docks as the user left them in ``mode`` (``QMainWindow.saveState``), or None before the first time."""
        value = self.store.value(f"{self._mode_key(mode)}/docks")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def splitter_states(self, mode: str) -> list[QByteArray]:
        """The positions of ``mode``'s splitters, in the order the page creates them (empty when none stored)."""
        key = self._mode_key(mode)
        count = _as_int(self.store.value(f"{key}/splitters", 0)) or 0
        states = [self.store.value(f"{key}/splitter-{i}") for i in range(min(max(count, 0), 64))]
        return [s if isinstance(s, QByteArray) else QByteArray() for s in states]

    def save_mode_layout(self, mode: str, docks: QByteArray | None, splitters: list[QByteArray]) -> None:
        key = self._mode_key(mode)
        if docks is not None:
            self.store.setValue(f"{key}/docks", docks)
        self.store.setValue(f"{key}/splitters", len(splitters))
        for i, state in enumerate(splitters):
            self.store.setValue(f"{key}/splitter-{i}", state)
        self.store.sync()

    # -- theme ----------------------------------------------------------------------------------------
    def theme(self) -> str:
        """``system``, ``light`` or ``dark`` (View ▸ Theme); anything else reads as ``system``."""
        raw = self.store.value("view/theme", "system")
        return raw if raw in ("system", "light", "dark") else "system"

    def set_theme(self, choice: str) -> None:
        self.store.setValue("view/theme", choice)
        self.store.sync()

    # -- pins: which same-scope copy of a name wins, per workspace (see studio.core.pins) -------------
    @staticmethod
    def _pins_key(workspace: list[str]) -> str:
        """One key per workspace (its recent-list entries, in order): a hash, so paths never become INI keys."""
        return "pins/" + hashlib.sha256("\n".join(workspace).encode("utf-8", "surrogatepass")).hexdigest()[:24]

    def pins(self, workspace: list[str]) -> dict[str, Path]:
        """The pins stored for ``workspace`` (``WorkspaceRequest.to_settings()``); {} when none or garbled."""
        raw = self.store.value(self._pins_key(workspace))
        if not isinstance(raw, str) or not raw:
            return {}
        try:
            # Stored as the pins file's JSON with absolute paths, read by the same strict parser.
            return parse_pins(raw.encode("utf-8"), Path("/") / "settings.json")
        except PinsError:
            return {}

    def set_pin(self, workspace: list[str], name: str, root: Path | None) -> dict[str, Path]:
        """Pin ``root`` as the winner of ``name`` in ``workspace`` (None removes it); returns the pins now stored."""
        pins = self.pins(workspace)
        if root is None:
            pins.pop(name, None)
        else:
            pins[name] = Path(os.path.abspath(root))
        text = json.dumps({"pins": {n: str(r) for n, r in sorted(pins.items())}}, ensure_ascii=False)
        self.store.setValue(self._pins_key(workspace), text if pins else "")
        self.store.sync()
        return pins

    # -- preferences: each accessor returns the default for anything it cannot use ----------------
    def _read(self, key: str, parse: Callable[[object], _T | None], default: _T) -> _T:
        if not self.store.contains(f"preferences/{key}"):
            return default
        value = parse(self.store.value(f"preferences/{key}"))
        return default if value is None else value

    def encoding(self) -> str:
        """A known encoding; one whose data is not installed is kept, and reported where counts appear."""
        return self._read("encoding", lambda raw: raw if raw in known_encodings() else None, DEFAULT_ENCODING)

    def budget(self) -> int:
        def parse(raw: object) -> int | None:
            value = _as_int(raw)
            return value if value is not None and MIN_BUDGET <= value <= MAX_BUDGET else None

        return self._read("budget", parse, DEFAULT_BUDGET)

    def fence_variant(self) -> FenceVariant:
        def parse(raw: object) -> FenceVariant | None:
            return FenceVariant(raw) if isinstance(raw, str) and raw in set(FenceVariant) else None

        return self._read("fence_variant", parse, FenceVariant.SUPERSET)

    def client_native(self) -> tuple[str, ...]:
        """An empty list is a choice (no client folders); a list with a bad name is garbled as a whole."""
        def parse(raw: object) -> tuple[str, ...] | None:
            names = _as_lines(raw)
            if names is None or any(client_native_problem(n) for n in names):
                return None
            return tuple(dict.fromkeys(names))

        return self._read("client_native", parse, DEFAULT_CLIENT_NATIVE)

    def org_roots(self) -> tuple[Path, ...]:
        """Absolute paths only: a relative one would depend on the directory the app was started in."""
        def parse(raw: object) -> tuple[Path, ...] | None:
            paths = _as_lines(raw)
            if paths is None:
                return None
            return tuple(dict.fromkeys(Path(p) for p in paths if os.path.isabs(p) and "\0" not in p))

        return self._read("org_roots", parse, ())

    def scan_limits(self) -> ScanLimits:
        """Each limit falls back on its own, so one bad value does not reset the others."""
        defaults = ScanLimits()

        def bounded(low: int, high: int) -> Callable[[object], int | None]:
            def parse(raw: object) -> int | None:
                value = _as_int(raw)
                return value if value is not None and low <= value <= high else None
            return parse

        return ScanLimits(
            max_depth=self._read("max_depth", bounded(0, MAX_SCAN_DEPTH), defaults.max_depth),
            max_dirs=self._read("max_dirs", bounded(1, MAX_SCAN_DIRS), defaults.max_dirs),
            honor_gitignore=self._read("honor_gitignore", _as_bool, defaults.honor_gitignore),
        )

    def result_cache(self) -> bool:
        return self._read("result_cache", _as_bool, True)

    def preferences(self) -> Preferences:
        return Preferences(
            encoding=self.encoding(), budget=self.budget(), fence_variant=self.fence_variant(),
            client_native=self.client_native(), org_roots=self.org_roots(), limits=self.scan_limits(),
            result_cache=self.result_cache(),
        )

    def save_preferences(self, prefs: Preferences) -> None:
        values: dict[str, object] = {
            "encoding": prefs.encoding,
            "budget": prefs.budget,
            "fence_variant": prefs.fence_variant.value,
            "client_native": "\n".join(prefs.client_native),
            "org_roots": "\n".join(str(p) for p in prefs.org_roots),
            "max_depth": prefs.limits.max_depth,
            "max_dirs": prefs.limits.max_dirs,
            "honor_gitignore": prefs.limits.honor_gitignore,
            "result_cache": prefs.result_cache,
        }
        for key, value in values.items():
            self.store.setValue(f"preferences/{key}", value)
        self.store.sync()


def default_cache_dir(settings: QSettings | None = None) -> Path:
    """Where rebuildable data lives (the search index, the result cache): the folder the CLI uses too, in the
    user's cache folder (Qt's generic cache location, which follows ``XDG_CACHE_HOME``), or beside
    ``settings``' file.

    Like the recovery copies, tests that pass their own settings file keep their cache next to it, away from
    the real user's folders. Never inside a pack.
    """
    if settings is not None and settings.fileName():
        return Path(settings.fileName()).parent / "cache"
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericCacheLocation)
    return Path(base) / APP_DIR if base else cli_cache_dir()
