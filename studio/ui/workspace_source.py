"""The one place the UI asks the core for a workspace: what to open, and the result as the window uses it.

``studio.core.workspace`` owns discovery, scopes and shadowing; this module only translates the
window's request into ``WorkspaceOptions`` and keeps the core Workspace for later ``replace_pack`` calls.
The discovery preferences (organization roots, client-native folders, scan limits) ride on the request
(``Preferences.apply_discovery``) but are not part of its recent-list entry: they belong to the user, not
to the workspace, so reopening a recent workspace uses the preferences of today.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from studio.core.diagnostics import Diagnostic
from studio.core.model import Pack
from studio.core.pack import reload_pack
from studio.core.pins import workspace_pins_file
from studio.core.result_cache import spec_for
from studio.core.workspace import ScanLimits, Workspace, WorkspaceOptions
from studio.core.workspace import open_workspace as core_open_workspace
from studio.ui.scan_process import open_workspace_in_child

LABEL_NAMES = 3


def _folder_name(path: Path) -> str:
    """What to call an opened folder: ``.agents/knowledge`` folders go by the project that holds them."""
    if path.name == "knowledge" and path.parent.name.startswith(".") and path.parent.parent.name:
        return path.parent.parent.name
    return path.name or str(path)


@dataclass(slots=True)
class WorkspaceRequest:
    """What the user asked to open."""

    explicit: list[Path] = field(default_factory=list)
    """Folders opened with Open folder / Add root / the command line."""
    project: Path | None = None
    home: Path | None = None
    builtin: bool = False
    """Include the bundled examples as the built-in scope."""
    org_roots: list[Path] = field(default_factory=list)
    """Organization pack roots (from the preferences)."""
    client_native: tuple[str, ...] = WorkspaceOptions().client_native
    """Client folder names scanned under the project and home (from the preferences)."""
    limits: ScanLimits = field(default_factory=ScanLimits)
    pins: dict[str, Path] = field(default_factory=dict)
    """Pack name -> the copy that wins in its scope (``studio.core.pins``; stored per workspace in the settings)."""
    in_child_process: bool = True
    """Scan in a child process (keeps the GUI responsive); False scans in the calling thread."""
    use_cache: bool = True
    """Take unchanged packs from the result cache (the Preferences switch)."""
    cache_dir: Path | None = None
    """The folder of the result cache (the window's cache folder); None: no cache."""

    def label(self) -> str:
        """Short name for the window title and the status bar: up to three names, then how many more."""
        # Only the names shown are worked out: a workspace of 700 folders is labelled at each opening.
        names = [_folder_name(p) for p in self.explicit[:LABEL_NAMES + 1]]
        if self.builtin:
            names.append("bundled examples")
        if self.project:
            names.append(self.project.name)
        total = len(self.explicit) + self.builtin + (self.project is not None)
        if total > LABEL_NAMES:
            return f"{', '.join(names[:LABEL_NAMES])} and {total - LABEL_NAMES} more"
        return ", ".join(names) or "empty workspace"

    def to_settings(self) -> list[str]:
        """Serialised for the recent list: paths, plus ``builtin:`` for the bundled examples."""
        return [str(p) for p in self.explicit] + (["builtin:"] if self.builtin else [])

    def make_absolute(self) -> None:
        """Hold the folders as absolute paths: ``.`` means the folder it was typed in, not the next start's."""
        self.explicit = [Path(os.path.abspath(p)) for p in self.explicit]
        if self.project is not None:
            self.project = Path(os.path.abspath(self.project))
        if self.home is not None:
            self.home = Path(os.path.abspath(self.home))

    def pins_file(self) -> Path | None:
        """Where this workspace's pins live, shared with the CLI (``studio.core.pins.workspace_pins_file``)."""
        return workspace_pins_file(self.project, self.explicit)

    @classmethod
    def from_settings(cls, entries: list[str]) -> WorkspaceRequest:
        return cls(explicit=[Path(e) for e in entries if e and e != "builtin:"], builtin="builtin:" in entries)


@dataclass(slots=True)
class WorkspaceResult:
    packs: list[Pack]
    diagnostics: list[Diagnostic]
    cancelled: bool
    core: Workspace


def open_workspace(
    request: WorkspaceRequest,
    on_pack: Callable[[Pack], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    on_cached: Callable[[list[Pack]], None] | None = None,
) -> WorkspaceResult:
    """Discover and load every pack of the request (runs in a worker; never raises for bad input).

    In the child process with the result cache, ``on_cached`` first gets what the cache knows, in one list, then
    ``on_pack`` only packs the load found different (``scan_process.open_workspace_in_child``).
    """
    options = WorkspaceOptions(
        explicit=list(request.explicit), project=request.project, home=request.home, builtin=request.builtin,
        org_roots=list(request.org_roots), client_native=tuple(request.client_native), limits=request.limits,
        pins=dict(request.pins),
        cache=spec_for(request.cache_dir) if request.use_cache and request.cache_dir is not None else None,
    )
    if request.in_child_process:
        ws = open_workspace_in_child(options, on_pack=on_pack, on_progress=on_progress, cancelled=cancelled,
                                     on_cached=on_cached)
    else:
        ws = core_open_workspace(options, on_pack=on_pack, on_progress=on_progress, cancelled=cancelled)
    stopped = bool(cancelled and cancelled())
    return WorkspaceResult(list(ws.packs), list(ws.diagnostics), stopped, ws)


def reload(pack: Pack) -> Pack:
    """Re-read one pack after a change on disk (keeps its scope and shadowing)."""
    return reload_pack(pack)
