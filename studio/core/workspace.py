"""The workspace: every scope scanned, every pack loaded, name collisions settled (digest 4 and 9).

``open_workspace`` is the one call the CLI and the app make; it reads, never writes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from multiprocessing.context import BaseContext
from pathlib import Path

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity, sort_diagnostics
from studio.core.examples import builtin_examples_dir
from studio.core.model import Frontmatter, Pack, Scope
from studio.core.pack import NOT_A_DIRECTORY, load_pack
from studio.core.scan import KNOWLEDGE_FILE, find_pack_dirs
from studio.core.shadowing import apply_collisions, apply_origin

SCAN_CANCELLED = Code("scan-cancelled", Severity.INFO,
                      "the scan was cancelled: the workspace holds the packs loaded so far")
NO_PACKS_FOUND = Code("no-packs-found", Severity.INFO,
                      "a folder given on the command line holds no pack within the scan limits", Behavior.LOAD, "",
                      hint="Check the path, or raise --max-depth if packs live deeper.")
SCOPE_ROOT_MISSING = Code("scope-root-missing", Severity.ERROR,
                          "a scope root does not exist (an error for a path typed on purpose, an info for a "
                          "configured one)",
                          Behavior.LOAD, "", hint="Check the path.")
INTERNAL_ERROR = Code("internal-error", Severity.ERROR,
                      "the studio failed while loading this pack; it was skipped (please report it)", Behavior.SKIP, "",
                      hint="Please report this with the pack attached.")
CODES = (SCAN_CANCELLED, NO_PACKS_FOUND, SCOPE_ROOT_MISSING, INTERNAL_ERROR)


@dataclass(frozen=True, slots=True)
class ScanLimits:
    """Bounds applied to each scanned root (digest 4.2, studio defaults)."""

    max_depth: int = 4
    max_dirs: int = 5000
    honor_gitignore: bool = True


@dataclass(slots=True)
class WorkspaceOptions:
    """Which locations to scan and how."""

    explicit: list[Path] = field(default_factory=list)
    """Paths the user named: a pack directory, or a root scanned recursively."""
    project: Path | None = None
    """Project directory; ``.agents/knowledge`` and each client-native ``knowledge`` folder are scanned."""
    home: Path | None = None
    """Home directory for the user scope."""
    org_roots: list[Path] = field(default_factory=list)
    builtin: bool = True
    """Include the bundled example packs."""
    client_native: tuple[str, ...] = (".pack-studio",)
    """Client folder names: ``<project>/<native>/knowledge`` and ``<home>/<native>/knowledge``."""
    limits: ScanLimits = field(default_factory=ScanLimits)
    trusted_project: bool = True
    """False for a repository the user has not approved: its packs need confirmation (V55)."""
    content_checks: bool = True
    """Run the content checks (source maps, runs/, executables, links, injection lint) on every pack; False is
    ``validate --fast`` (KNOWLEDGE.md and the layout only)."""
    processes: int = 1
    """Worker processes for loading (the CLI uses one per core; the app loads in its own worker instead)."""
    findings_only: bool = False
    """Drop each pack's text, body and key positions once it is validated, keeping its frontmatter values and
    findings: all that a ``validate`` run prints. Worker processes then send back a fraction of the data."""


@dataclass(frozen=True, slots=True)
class ScanLocation:
    """One scanned location, shown to the user so they can see where packs came from."""

    scope: Scope
    path: Path
    exists: bool
    packs_found: int = 0
    dirs_visited: int = 0
    truncated: bool = False


@dataclass(slots=True)
class Workspace:
    """All packs of all scopes, in precedence order, with the findings about the scan itself."""

    packs: list[Pack]
    diagnostics: list[Diagnostic]
    """Workspace-level findings (absolute ``file``, empty ``pack``)."""
    locations: list[ScanLocation]
    options: WorkspaceOptions

    def winners(self) -> list[Pack]:
        """Packs that load and won their name."""
        return [p for p in self.packs if p.loads]

    def shadowed(self) -> list[Pack]:
        return [p for p in self.packs if p.shadowed_by is not None]

    def quarantined(self) -> list[Pack]:
        """Packs a client would not load at all (skipped or quarantined)."""
        return [p for p in self.packs if not p.behavior.loads]

    def by_root(self, path: Path) -> Pack | None:
        wanted = os.path.abspath(path)
        return next((p for p in self.packs if str(p.root) == wanted), None)

    def find(self, name: str) -> Pack | None:
        """The pack a client would use for ``name``; else the first pack carrying that name."""
        named = [p for p in self.packs if p.name == name]
        return next((p for p in named if p.loads), named[0] if named else None)

    def all_diagnostics(self) -> list[Diagnostic]:
        out = list(self.diagnostics)
        for pack in self.packs:
            out.extend(pack.diagnostics)
        return out

    def replace_pack(self, pack: Pack) -> None:
        """Swap in a reloaded pack (or add a new one) and settle name collisions again."""
        index = next((i for i, p in enumerate(self.packs) if p.root == pack.root), None)
        names = {pack.name}
        if index is None:
            self.packs.append(pack)
            self.packs.sort(key=_pack_order)
        else:
            names.add(self.packs[index].name)
            self.packs[index] = pack
        apply_origin(pack, trusted_project=self.options.trusted_project)
        # Only packs sharing the old or the new name can win or lose a collision: settle just those
        # (the app reloads a pack on every save; a 1,000-pack workspace must not be re-settled each time).
        apply_collisions([p for p in self.packs if p.name in names])


def scan_locations(options: WorkspaceOptions) -> list[tuple[Scope, Path]]:
    """Every location to scan, highest precedence first (digest 4.1, 4.3)."""
    out: list[tuple[Scope, Path]] = [(Scope.EXPLICIT, _abs(p)) for p in options.explicit]
    for scope, base in ((Scope.PROJECT, options.project), (Scope.USER, options.home)):
        if base is not None:
            base = _abs(base)
            out.append((scope, base / ".agents" / "knowledge"))
            out.extend((scope, base / native / "knowledge") for native in options.client_native)
    out.extend((Scope.ORGANIZATION, _abs(p)) for p in options.org_roots)
    if options.builtin:
        out.append((Scope.BUILTIN, builtin_examples_dir()))
    return out


@dataclass(frozen=True, slots=True)
class _Found:
    root: Path
    scope: Scope
    scope_root: Path | None
    top_dirs: frozenset[str] | None = None


def open_workspace(
    options: WorkspaceOptions,
    *,
    on_pack: Callable[[Pack], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Workspace:
    """Scan every location, load every pack, settle collisions.

    ``on_pack`` sees each pack as it loads (before collisions are settled); ``on_progress`` gets
    (packs loaded, packs found). When ``cancelled()`` turns true the workspace holds what was
    loaded so far plus a ``scan-cancelled`` diagnostic. Never raises for bad input.
    """
    diagnostics: list[Diagnostic] = []
    locations: list[ScanLocation] = []
    found: list[_Found] = []
    seen: set[object] = set()
    stopped = False
    for scope, path in scan_locations(options):
        if cancelled is not None and cancelled():
            stopped = True
            break
        location, dirs, diags, stopped = _scan_one(scope, path, options.limits, cancelled)
        locations.append(location)
        diagnostics.extend(diags)
        for pack_dir, scope_root, top_dirs in dirs:
            key = _identity(pack_dir)
            if key not in seen:  # the same folder reached from two locations keeps the first scope
                seen.add(key)
                found.append(_Found(pack_dir, scope, scope_root, top_dirs))
        if stopped:
            break
    if options.processes > 1 and len(found) >= _MIN_PACKS_FOR_PROCESSES and on_pack is None and cancelled is None:
        packs, load_stopped = _load_in_processes(found, options.processes, options.content_checks,
                                                 options.findings_only), False
    else:
        packs, load_stopped = _load_all(found, on_pack, on_progress, cancelled, options.content_checks,
                                        options.findings_only)
    if stopped or load_stopped:
        diagnostics.append(SCAN_CANCELLED(
            f"Scan cancelled: {len(packs)} of {len(found)} packs found so far were loaded",
            str(locations[-1].path if locations else Path.cwd())))
    for pack in packs:
        apply_origin(pack, trusted_project=options.trusted_project)
    apply_collisions(packs)
    return Workspace(packs, sort_diagnostics(diagnostics), locations, options)


def _scan_one(
    scope: Scope, path: Path, limits: ScanLimits, cancelled: Callable[[], bool] | None
) -> tuple[ScanLocation, list[tuple[Path, Path | None, frozenset[str] | None]], list[Diagnostic], bool]:
    """Scan one location: (location, [(pack dir, scope root, top-level folders)], diagnostics, cancelled)."""
    named = scope in (Scope.EXPLICIT, Scope.ORGANIZATION)
    if not os.path.exists(path):
        diags = [_missing_root(scope, path)] if named else []
        return ScanLocation(scope, path, exists=False), [], diags, False
    if scope is Scope.EXPLICIT and _opens_directly(path):
        root = path.parent if os.path.isfile(path) else path
        return ScanLocation(scope, path, True, 1, 1), [(root, None, None)], [], False
    if not os.path.isdir(path):
        diag = NOT_A_DIRECTORY(f"{path} is not a directory", file=str(path),
                               hint="Point the studio at a pack directory or a folder of packs.")
        return ScanLocation(scope, path, exists=True), [], [diag] if named else [], False
    result = find_pack_dirs(path, max_depth=limits.max_depth, max_dirs=limits.max_dirs,
                            honor_gitignore=limits.honor_gitignore, cancelled=cancelled)
    diags = list(result.diagnostics)
    if scope is Scope.EXPLICIT and not result.pack_dirs and not result.cancelled:
        diags.append(NO_PACKS_FOUND(f"No pack (folder with a KNOWLEDGE.md) found under {path}", str(path)))
    location = ScanLocation(scope, path, True, len(result.pack_dirs), result.dirs_visited, result.truncated)
    return location, [(d, path, result.top_dirs.get(d)) for d in result.pack_dirs], diags, result.cancelled


def _identity(pack_dir: Path) -> object:
    """The same folder reached twice (two locations, a symlinked alias) has one (device, inode)."""
    try:
        st = os.stat(pack_dir)
    except (OSError, ValueError):
        return os.path.abspath(pack_dir)  # unreadable: its path is the best identity left
    return (st.st_dev, st.st_ino)


def _opens_directly(path: Path) -> bool:
    """An explicit path naming a pack: its KNOWLEDGE.md, or a folder holding one (any letter case).

    A case-variant ``knowledge.md`` counts here so that the user gets the loader's V02 error for
    the folder they pointed at, rather than a silent "nothing found".
    """
    if os.path.isfile(path):
        return path.name == KNOWLEDGE_FILE
    try:
        names = os.listdir(path)
    except OSError:
        return False
    return any(n.lower() == "knowledge.md" for n in names)


def _missing_root(scope: Scope, path: Path) -> Diagnostic:
    # A path the user typed on purpose that does not exist is an error (a typo must not pass CI);
    # a configured organization root that is offline is only worth a note.
    severity = Severity.ERROR if scope is Scope.EXPLICIT else Severity.INFO
    return SCOPE_ROOT_MISSING(f"{path} does not exist ({scope.value} location)", file=str(path), severity=severity)


def _load_all(
    found: list[_Found],
    on_pack: Callable[[Pack], None] | None,
    on_progress: Callable[[int, int], None] | None,
    cancelled: Callable[[], bool] | None,
    content: bool = False,
    findings_only: bool = False,
) -> tuple[list[Pack], bool]:
    """Load packs one after another, checking for cancel between packs.

    Sequential on purpose: loading is CPU-bound Python (parsing and checks), and a thread pool
    measured slower here because of the GIL. The app runs this whole call off the GUI thread.
    """
    total = len(found)
    if on_progress is not None:
        on_progress(0, total)
    packs: list[Pack] = []
    stopped = False
    for item in found:
        if cancelled is not None and cancelled():
            stopped = True
            break
        pack = _load_safely(item, content, findings_only)
        packs.append(pack)
        if on_pack is not None:
            on_pack(pack)
        if on_progress is not None:
            on_progress(len(packs), total)
    packs.sort(key=_pack_order)
    return packs, stopped


_MIN_PACKS_FOR_PROCESSES = 200
"""Below this, starting workers costs more than it saves."""


def _load_in_processes(found: list[_Found], processes: int, content: bool, findings_only: bool) -> list[Pack]:
    """Load packs in forked worker processes: parsing and checks are CPU-bound Python, so threads do not help.

    Fork keeps start-up cheap (no re-import); where fork is unavailable, load in this process. If a worker
    dies (a crash in a C extension), the packs of its batch are retried one per process, and a pack that
    kills its process again is reported instead of taking the whole scan down.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    if "fork" not in multiprocessing.get_all_start_methods():
        return _load_all(found, None, None, None, content, findings_only)[0]
    ctx = multiprocessing.get_context("fork")
    # Import the checks before forking, so that no worker (nor a crash retry) imports them again.
    from studio.core.checks import content_check_modules
    from studio.core.validate import validate_pack  # noqa: F401

    if content:
        content_check_modules()
    size = max(8, len(found) // (processes * 8))
    batches = [found[i:i + size] for i in range(0, len(found), size)]
    packs: list[Pack] = []
    retry: list[_Found] = []
    with ProcessPoolExecutor(processes, mp_context=ctx) as pool:
        futures = [(batch, pool.submit(_load_batch, batch, content, findings_only)) for batch in batches]
        for batch, future in futures:
            try:
                packs.extend(future.result())
            except BrokenProcessPool:
                retry.extend(batch)
    # A crash breaks the whole pool, so every unfinished batch failed with the guilty one: run each again
    # on its own, and split only a batch that kills its worker again.
    for start in range(0, len(retry), size):
        packs.extend(_load_isolated(retry[start:start + size], ctx, content, findings_only))
    packs.sort(key=_pack_order)
    return packs


def _load_isolated(batch: list[_Found], ctx: BaseContext, content: bool, findings_only: bool) -> list[Pack]:
    """Load ``batch`` in a worker of its own; when it kills the worker, halve it until the culprit is alone."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    with ProcessPoolExecutor(1, mp_context=ctx) as alone:
        try:
            return alone.submit(_load_batch, batch, content, findings_only).result()
        except BrokenProcessPool:
            pass
    if len(batch) == 1:
        return [_crashed(batch[0])]
    middle = len(batch) // 2
    return (_load_isolated(batch[:middle], ctx, content, findings_only)
            + _load_isolated(batch[middle:], ctx, content, findings_only))


def _load_batch(batch: list[_Found], content: bool, findings_only: bool = False) -> list[Pack]:
    return [_load_safely(item, content, findings_only) for item in batch]


def _findings_only(pack: Pack) -> Pack:
    """The pack without its text, body and key positions (see ``WorkspaceOptions.findings_only``)."""
    kf = pack.knowledge
    if kf is not None:
        fm = kf.frontmatter
        lean = Frontmatter(fm.data, {}, fm.start_line, fm.end_line, "") if fm is not None else None
        pack.knowledge = replace(kf, frontmatter=lean, body="", text="")
    return pack


def _crashed(found: _Found) -> Pack:
    return Pack(root=found.root, scope=found.scope, scope_root=found.scope_root,
                diagnostics=[INTERNAL_ERROR("Loading this pack crashed the loader process; it was skipped",
                                            pack=str(found.root))])


def _load_safely(found: _Found, content: bool = False, findings_only: bool = False) -> Pack:
    """``load_pack`` promises not to raise; if a bug breaks that, one pack fails, not the workspace."""
    try:
        pack = load_pack(found.root, found.scope, found.scope_root, content=content, top_dirs=found.top_dirs)
        return _findings_only(pack) if findings_only else pack
    except Exception as exc:  # the boundary that keeps one bad pack from sinking the scan
        return Pack(root=found.root, scope=found.scope, scope_root=found.scope_root,
                    diagnostics=[INTERNAL_ERROR(f"The studio failed while loading this pack: {exc!r}",
                                                pack=str(found.root))])


def _pack_order(pack: Pack) -> tuple[int, tuple[str, ...]]:
    return (pack.scope.precedence, pack.root.parts)


def _abs(path: Path) -> Path:
    return Path(os.path.abspath(os.path.expanduser(path)))


__all__ = ["ScanLimits", "ScanLocation", "Workspace", "WorkspaceOptions", "open_workspace", "scan_locations"]
