"""The workspace: every scope scanned, every pack loaded, name collisions settled (digest 4 and 9).

``open_workspace`` is the one call the CLI and the app make; it reads, never writes. ``find_packs`` is the scan
alone, all that a warm ``pack-studio search`` runs before asking its index: loading (and through it the checks),
settling and look-alike names are therefore imported where they are used, not with this module (together
6 ms of the 100 ms a warm search may cost over ``--version``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from pathlib import Path

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity, sort_diagnostics
from studio.core.model import NO_VERDICT, Pack, Scope, Verdict
from studio.core.resources import builtin_scope_findings, examples_dir
from studio.core.result_cache import CacheSpec, CacheStats
from studio.core.scan import KNOWLEDGE_FILE, Stamp
from studio.core.scan_cache import find_pack_dirs_cached

SCAN_CANCELLED = Code("scan-cancelled", Severity.INFO,
                      "the scan was cancelled: the workspace holds the packs loaded so far")
NO_PACKS_FOUND = Code("no-packs-found", Severity.INFO,
                      "a folder given on the command line holds no pack within the scan limits", Behavior.LOAD, "",
                      hint="Check the path, or raise --max-depth if packs live deeper.")
SCOPE_ROOT_MISSING = Code("scope-root-missing", Severity.ERROR,
                          "a scope root does not exist (an error for a path typed on purpose, an info for a "
                          "configured one)",
                          Behavior.LOAD, "", hint="Check the path.")
CODES = (SCAN_CANCELLED, NO_PACKS_FOUND, SCOPE_ROOT_MISSING)


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
    pins: dict[str, Path] = field(default_factory=dict)
    """Pack name -> absolute root of the copy that wins among copies of that name in one scope (``core.pins``)."""
    content_checks: bool = True
    """Run the content checks (source maps, runs/, executables, links, injection lint) on every pack; False is
    ``validate --fast`` (KNOWLEDGE.md and the layout only)."""
    processes: int = 1
    """Worker processes for loading (the CLI and the app's scan process use one per core)."""
    worker_init: Callable[[], None] | None = None
    """Run first thing in each worker process (a module-level function)."""
    cache: CacheSpec | None = None
    """The result cache to take unchanged packs from and store new results in (``result_cache``); None: none."""
    findings_only: bool = False
    """Keep only each pack's findings and summary once it is validated (``pack_loader.SUMMARY_KEYS``; no text,
    body or other frontmatter): all that a ``validate`` run prints. Worker processes then send back a fraction."""


@dataclass(frozen=True, slots=True)
class ScanLocation:
    """One scanned location, shown to the user so they can see where packs came from."""

    scope: Scope
    path: Path
    exists: bool
    packs_found: int = 0
    dirs_visited: int = 0
    truncated: bool = False
    from_cache: bool = False
    """The scan was answered from the result cache (``scan_cache``): no folder of it changed since it was stored,
    and none was listed this time."""


@dataclass(slots=True)
class Workspace:
    """All packs of all scopes, settled, in precedence order, with the findings about the scan itself.

    Each pack is held with the verdict settling gave it (``Pack.with_verdict``); packs themselves never change.
    ``replace_pack`` swaps one pack in and settles its name group again. Build one with ``Workspace.settled``.
    """

    packs: list[Pack]
    diagnostics: list[Diagnostic]
    """Workspace-level findings (absolute ``file``, empty ``pack``)."""
    locations: list[ScanLocation]
    options: WorkspaceOptions
    _index: dict[Path, int] = field(init=False, repr=False)
    _named: dict[str, set[Path]] = field(init=False, repr=False)
    """Roots by pack name, for ``replace_pack`` and its kin (a scan never needs it); complete once ``_indexed`` is
    ``len(packs)``."""
    _looks: dict[str, set[str]] = field(init=False, repr=False)
    """Names by lookalike skeleton (both of ``_lookalike_keys``), built with ``_named``."""
    _indexed: int = field(init=False, repr=False)
    cache_stats: CacheStats | None = field(default=None, init=False, repr=False)
    """What the result cache did while this workspace loaded (None when it was not asked)."""
    """How many of ``packs`` (from the start) are in ``_named``: the index is built in steps (``index_names``)."""

    def __post_init__(self) -> None:
        self._index = {p.root: i for i, p in enumerate(self.packs)}
        self._named = {}
        self._looks = {}
        self._indexed = 0

    @classmethod
    def settled(cls, packs: list[Pack], diagnostics: list[Diagnostic], locations: list[ScanLocation],
                options: WorkspaceOptions, verdicts: dict[Path, Verdict] | None = None) -> Workspace:
        """The workspace of ``packs`` (as loaded, in precedence order) with their verdicts applied.

        ``verdicts`` are settled here unless given (a scan in another process sends the ones it computed).
        """
        from studio.core.shadowing import apply, settle

        if verdicts is None:
            verdicts = settle(packs, trusted_project=options.trusted_project, pins=options.pins)
        return cls(apply(packs, verdicts), sort_diagnostics(diagnostics), locations, options)

    def winners(self) -> list[Pack]:
        """Packs that load and won their name."""
        return [p for p in self.packs if p.loads]

    def shadowed(self) -> list[Pack]:
        return [p for p in self.packs if p.shadowed_by is not None]

    def quarantined(self) -> list[Pack]:
        """Packs a client would not load at all (skipped or quarantined)."""
        return [p for p in self.packs if not p.behavior.loads]

    def by_root(self, path: Path | str) -> Pack | None:
        index = self._index.get(Path(os.path.abspath(path)))
        return None if index is None else self.packs[index]

    def pack_for_path(self, path: Path | str) -> Pack | None:
        """The pack whose directory holds ``path`` (the deepest one if packs nest)."""
        root = pack_root_for(self._index, path)
        return None if root is None else self.packs[self._index[root]]

    def find(self, name: str) -> Pack | None:
        """The pack a client would use for ``name``; else the first pack carrying that name."""
        named = [p for p in self.packs if p.name == name]
        return next((p for p in named if p.loads), named[0] if named else None)

    def copies(self, name: str) -> list[Pack]:
        """Every pack named ``name``, in precedence order (the winner, if any, among the loadable ones first)."""
        return [p for p in self.packs if p.name == name]

    def verdict(self, root: Path) -> Verdict:
        pack = self.by_root(root)
        return pack.verdict if pack is not None else NO_VERDICT

    def findings(self, root: Path) -> tuple[Diagnostic, ...]:
        """The pack's own findings plus its verdict's, sorted by position (empty for an unknown root)."""
        pack = self.by_root(root)
        return pack.findings if pack is not None else ()

    def all_diagnostics(self) -> list[Diagnostic]:
        out = list(self.diagnostics)
        for pack in self.packs:
            out.extend(pack.findings)
        return out

    def replace_pack(self, pack: Pack) -> list[Path]:
        """Swap in a reloaded pack (or add a new one) and settle its name again.

        Returns the roots whose settled pack changed, ``pack.root`` first: only packs sharing the old or the new
        name can win or lose a collision, so only those are settled (the app reloads a pack on every save; a
        10,000-pack workspace must not be settled whole each time).
        """
        from studio.core.pack_loader import pack_order

        named = self._names()
        fresh = pack.with_verdict(NO_VERDICT)  # settled below with its name group
        index = self._index.get(pack.root)
        if index is None:
            self.packs.append(fresh)
            self.packs.sort(key=pack_order)
            self._indexed = len(self.packs)  # its name is added below
            self._index = {p.root: i for i, p in enumerate(self.packs)}
            old_name = pack.name
        else:
            old_name = self.packs[index].name
            self.packs[index] = fresh
            named.get(old_name, set()).discard(pack.root)
        self._add_name(pack.name, pack.root)
        # The replaced pack is new whatever its verdict: it comes first, then any namesake that changed.
        peers = self._related({old_name, pack.name})
        return [pack.root, *(r for r in self._resettle(peers) if r != pack.root)]

    def remove_pack(self, root: Path) -> list[Path]:
        """Drop the pack at ``root`` (deleted, or its folder renamed) and settle its name again.

        Returns the roots of the other packs whose settled copy changed (a namesake it shadowed loads again).
        """
        index = self._index.get(root)
        if index is None:
            return []
        named = self._names()  # before the list changes: a partial index counts positions in it
        gone = self.packs.pop(index)
        self._indexed = len(self.packs)
        self._index = {p.root: i for i, p in enumerate(self.packs)}
        named.get(gone.name, set()).discard(root)
        return self._resettle(self._related({gone.name}))

    def set_pin(self, name: str, root: Path | None) -> list[Path]:
        """Pin the copy at ``root`` as the winner of ``name`` in its scope (None removes the pin), and settle again.

        Returns the roots whose settled pack changed. The pin lives in ``options.pins``; storing it between
        sessions is the caller's (the CLI's pins file, the app's settings).
        """
        if root is None:
            self.options.pins.pop(name, None)
        else:
            self.options.pins[name] = Path(os.path.abspath(root))
        return self._resettle(self._related({name}))

    def _related(self, names: set[str]) -> set[Path]:
        """Roots of every pack whose name is one of ``names`` or looks like one of them (transitively): the group a
        change to those names can settle differently."""
        named = self._names()
        seen: set[str] = set()
        todo = set(names)
        while todo:
            name = todo.pop()
            seen.add(name)
            for key in _lookalike_keys(name):
                todo.update(self._looks.get(key, set()) - seen)
        return set().union(*(named.get(n, ()) for n in seen))

    def _resettle(self, roots: set[Path]) -> list[Path]:
        """Settle the packs at ``roots`` (a whole name group) again; the roots whose settled copy changed."""
        from studio.core.pack_loader import pack_order
        from studio.core.shadowing import settle

        group = sorted((self.packs[self._index[r]] for r in roots), key=pack_order)
        verdicts = settle(group, trusted_project=self.options.trusted_project, pins=self.options.pins)
        changed = []
        for member in group:
            settled = member.with_verdict(verdicts.get(member.root, NO_VERDICT))
            if settled is not member:
                self.packs[self._index[member.root]] = settled
                changed.append(member.root)
        return changed

    def scope_of(self, path: Path) -> tuple[Scope, Path | None]:
        """The scope and scope root a new pack at ``path`` belongs to: the deepest scanned location holding it."""
        candidate = Path(os.path.abspath(path))
        best: ScanLocation | None = None
        for location in self.locations:
            if candidate.is_relative_to(location.path) and candidate != location.path and (
                    best is None or len(location.path.parts) > len(best.path.parts)):
                best = location
        return (best.scope, best.path) if best is not None else (Scope.EXPLICIT, None)

    def index_names(self, limit: int | None = None) -> bool:
        """Index the names of ``limit`` more packs (all of them when None) for ``replace_pack``, which otherwise
        indexes them all on its first call; True once every pack is indexed.

        10,000 names take 30-40 ms: the app indexes them a few hundred at a time between other work on the
        window's thread, where they contend with nothing (in a worker thread they held the interpreter lock the
        window needed just as a scan ended). Indexing is only ever partial while the packs stay as scanned: every
        call that changes them completes it first.
        """
        packs = self.packs
        stop = len(packs) if limit is None else min(len(packs), self._indexed + max(limit, 0))
        for i in range(self._indexed, stop):
            self._add_name(packs[i].name, packs[i].root)
        self._indexed = max(self._indexed, stop)
        return self._indexed >= len(packs)

    def _names(self) -> dict[str, set[Path]]:
        """Roots by name, and names by lookalike skeleton (``_looks``), every pack indexed; kept up to date from
        here on."""
        self.index_names()
        return self._named

    def _add_name(self, name: str, root: Path) -> None:
        if name not in self._named:
            for key in _lookalike_keys(name):
                self._looks.setdefault(key, set()).add(name)
        self._named.setdefault(name, set()).add(root)


def _lookalike_keys(name: str) -> tuple[str, str]:
    """The two skeletons that decide whether names look alike (``lookalike.lookalike_groups``)."""
    from studio.core.lookalike import skeleton

    return (skeleton(name), "\0" + skeleton(name, fold_case_first=True))


def pack_root_for(roots: Container[Path], path: Path | str) -> Path | None:
    """The deepest of ``roots`` that holds ``path`` (itself or a parent folder), or None."""
    candidate = Path(os.path.abspath(path))
    return next((folder for folder in (candidate, *candidate.parents) if folder in roots), None)


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
        out.append((Scope.BUILTIN, examples_dir()))
    return out


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
    from studio.core.pack_loader import FoundPack, StreamingLoader

    loader = StreamingLoader(options.processes, content=options.content_checks, findings_only=options.findings_only,
                             on_pack=on_pack, on_progress=on_progress, cancelled=cancelled,
                             worker_init=options.worker_init, cache=options.cache)
    # Each pack goes to the loader as the walk finds it: with workers, loading starts while the walk goes on.
    scan = _scan_all(options, cancelled, lambda root, scope, scope_root, top_dirs, _stamp: loader.add(
        FoundPack(Path(root), scope, scope_root, top_dirs)), loader.cache_stats)
    packs, load_stopped = loader.finish()
    diagnostics = scan.diagnostics
    if scan.stopped or load_stopped:
        diagnostics.append(SCAN_CANCELLED(
            f"Scan cancelled: {len(packs)} of {scan.found} packs found so far were loaded",
            str(scan.locations[-1].path if scan.locations else Path.cwd())))
    workspace = Workspace.settled(packs, diagnostics, scan.locations, options)
    workspace.cache_stats = loader.cache_stats
    return workspace


@dataclass(frozen=True, slots=True)
class FoundRoot:
    """A pack folder as ``find_packs`` lists it: where it is and the scope it was found in."""

    root: str
    """Absolute (a string: 10,000 ``Path`` objects cost more than a scan answered from the cache)."""
    scope: Scope
    scope_root: Path | None
    stamp: Stamp | None
    """The folder's device, inode, mtime and ctime in ns as this run saw them (``scan.FoundDir.stamp``); None for
    a pack named directly. The search index compares folder times with its records: it needs no stat of its own."""
    top_dirs: frozenset[str] | None = None
    """Its top-level folders when the scan listed it (what a stored result is checked against, ``cached_first``)."""


def find_packs(options: WorkspaceOptions, notes: list[Diagnostic] | None = None,
               cancelled: Callable[[], bool] | None = None) -> list[FoundRoot]:
    """Every pack folder of the workspace, in ``open_workspace``'s order, none of them loaded or read.

    For a command that needs only where the packs are and their scopes (``search`` reads the files itself):
    the same scan as ``open_workspace`` (answered from the result cache when no folder it lists changed), without
    reading a ``KNOWLEDGE.md`` or asking the result cache for packs, which for 10,000 unchanged packs would still
    walk every pack to vouch for results nobody prints. ``notes`` receives what the scan itself found (a scan
    limit reached, an unreadable folder, a result cache rebuilt), so the caller can say that some packs were not
    looked at. ``cancelled()`` turning true ends the walk with what it found so far (such a scan is not cached).
    """
    found: list[FoundRoot] = []
    stats = CacheStats()
    scan = _scan_all(options, cancelled, lambda root, scope, scope_root, top, stamp: found.append(
        FoundRoot(root, scope, scope_root, stamp, top)), stats)
    if notes is not None:
        notes.extend(scan.diagnostics)
        notes.extend(stats.notices)
    # ``pack_order`` on strings: an absolute path's parts are its pieces between slashes.
    found.sort(key=lambda f: (f.scope.precedence, f.root.split(os.sep)))
    return found


@dataclass(slots=True)
class _Scan:
    locations: list[ScanLocation]
    diagnostics: list[Diagnostic]
    stopped: bool
    found: int
    """Distinct pack folders found."""


OnFound = Callable[[str, Scope, Path | None, frozenset[str] | None, Stamp | None], None]
"""Told of each distinct pack folder: (its absolute path, scope, scope root, top-level folders and stamp when the
scan listed it)."""
_Found = Callable[[str, Path | None, frozenset[str] | None, Stamp | None], None]


def _scan_all(options: WorkspaceOptions, cancelled: Callable[[], bool] | None, on_found: OnFound,
              stats: CacheStats) -> _Scan:
    """Scan every location in precedence order, handing each distinct pack folder to ``on_found`` as it is found
    (``stats`` receives the result cache's notices)."""
    scan = _Scan([], [], False, 0)
    seen: set[object] = set()

    def found_in(scope: Scope) -> _Found:
        def found(pack_dir: str, scope_root: Path | None, top_dirs: frozenset[str] | None,
                  stamp: Stamp | None) -> None:
            key = _identity(pack_dir) if stamp is None else stamp[:2]
            if key not in seen:  # the same folder reached from two locations keeps the first scope
                seen.add(key)
                on_found(pack_dir, scope, scope_root, top_dirs, stamp)
        return found

    for scope, path in scan_locations(options):
        if cancelled is not None and cancelled():
            scan.stopped = True
            break
        location, diags, scan.stopped = _scan_one(scope, path, options.limits, options.cache, stats, cancelled,
                                                  found_in(scope))
        scan.locations.append(location)
        scan.diagnostics.extend(diags)
        if scan.stopped:
            break
    scan.found = len(seen)
    return scan


def _scan_one(
    scope: Scope, path: Path, limits: ScanLimits, cache: CacheSpec | None, stats: CacheStats,
    cancelled: Callable[[], bool] | None, found: _Found,
) -> tuple[ScanLocation, list[Diagnostic], bool]:
    """Scan one location (from the result cache when none of its folders changed), calling ``found(pack dir, scope
    root, top-level folders, (device, inode) or None)`` for each pack as it is found: (location, diagnostics,
    cancelled)."""
    named = scope in (Scope.EXPLICIT, Scope.ORGANIZATION)
    if scope is Scope.BUILTIN and not os.path.isdir(path):
        return ScanLocation(scope, path, os.path.exists(path)), builtin_scope_findings(path, 0), False
    if not os.path.exists(path):
        diags = [_missing_root(scope, path)] if named else []
        return ScanLocation(scope, path, exists=False), diags, False
    if scope is Scope.EXPLICIT and _opens_directly(path):
        found(str(path.parent if os.path.isfile(path) else path), None, None, None)
        return ScanLocation(scope, path, True, 1, 1), [], False
    if not os.path.isdir(path):
        from studio.core.pack import NOT_A_DIRECTORY

        diag = NOT_A_DIRECTORY(f"{path} is not a directory", file=str(path),
                               hint="Point the studio at a pack directory or a folder of packs.")
        return ScanLocation(scope, path, exists=True), [diag] if named else [], False
    result, from_cache = find_pack_dirs_cached(path, cache, max_depth=limits.max_depth, max_dirs=limits.max_dirs,
                                               honor_gitignore=limits.honor_gitignore, cancelled=cancelled,
                                               on_pack_dir=lambda f: found(f.path, path, f.top_dirs, f.stamp),
                                               stats=stats)
    diags = list(result.diagnostics)
    if scope is Scope.BUILTIN and not result.cancelled:
        diags.extend(builtin_scope_findings(path, len(result.found)))
    if scope is Scope.EXPLICIT and not result.found and not result.cancelled:
        diags.append(NO_PACKS_FOUND(f"No pack (folder with a KNOWLEDGE.md) found under {path}", str(path)))
    location = ScanLocation(scope, path, True, len(result.found), result.dirs_visited, result.truncated,
                            from_cache)
    return location, diags, result.cancelled


def _identity(pack_dir: str) -> object:
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


def _abs(path: Path) -> Path:
    return Path(os.path.abspath(os.path.expanduser(path)))


__all__ = ["FoundRoot", "ScanLimits", "ScanLocation", "Workspace", "WorkspaceOptions", "find_packs", "open_workspace",
           "scan_locations"]
