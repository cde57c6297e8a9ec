"""The workspace: every scope scanned, every pack loaded, name collisions settled (digest 4 and 9).

``open_workspace`` is the one call the CLI and the app make; it reads, never writes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Container
from dataclasses import dataclass, field, replace
from multiprocessing.context import BaseContext
from pathlib import Path

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity, sort_diagnostics
from studio.core.lookalike import skeleton
from studio.core.model import NO_VERDICT, Frontmatter, Pack, Scope, Verdict
from studio.core.pack import NOT_A_DIRECTORY, load_pack
from studio.core.resources import builtin_scope_findings, examples_dir
from studio.core.scan import KNOWLEDGE_FILE, find_pack_dirs
from studio.core.shadowing import apply, settle

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
    pins: dict[str, Path] = field(default_factory=dict)
    """Pack name -> absolute root of the copy that wins among copies of that name in one scope (``core.pins``)."""
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
    _named: dict[str, set[Path]] | None = field(init=False, repr=False)
    """Roots by pack name, built on the first ``replace_pack`` (a scan never needs it)."""
    _looks: dict[str, set[str]] = field(init=False, repr=False)
    """Names by lookalike skeleton (both of ``_lookalike_keys``), built with ``_named``."""

    def __post_init__(self) -> None:
        self._index = {p.root: i for i, p in enumerate(self.packs)}
        self._named = None
        self._looks = {}

    @classmethod
    def settled(cls, packs: list[Pack], diagnostics: list[Diagnostic], locations: list[ScanLocation],
                options: WorkspaceOptions, verdicts: dict[Path, Verdict] | None = None) -> Workspace:
        """The workspace of ``packs`` (as loaded, in precedence order) with their verdicts applied.

        ``verdicts`` are settled here unless given (a scan in another process sends the ones it computed).
        """
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
        named = self._names()
        fresh = pack.with_verdict(NO_VERDICT)  # settled below with its name group
        index = self._index.get(pack.root)
        if index is None:
            self.packs.append(fresh)
            self.packs.sort(key=_pack_order)
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
        gone = self.packs.pop(index)
        self._index = {p.root: i for i, p in enumerate(self.packs)}
        self._names().get(gone.name, set()).discard(root)
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
        group = sorted((self.packs[self._index[r]] for r in roots), key=_pack_order)
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

    def _names(self) -> dict[str, set[Path]]:
        """Roots by name, and names by lookalike skeleton (``_looks``); kept up to date from here on."""
        if self._named is None:
            self._named = {}
            self._looks = {}
            for p in self.packs:
                self._add_name(p.name, p.root)
        return self._named

    def _add_name(self, name: str, root: Path) -> None:
        assert self._named is not None
        if name not in self._named:
            for key in _lookalike_keys(name):
                self._looks.setdefault(key, set()).add(name)
        self._named.setdefault(name, set()).add(root)


def _lookalike_keys(name: str) -> tuple[str, str]:
    """The two skeletons that decide whether names look alike (``lookalike.lookalike_groups``)."""
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
    return Workspace.settled(packs, diagnostics, locations, options)


def _scan_one(
    scope: Scope, path: Path, limits: ScanLimits, cancelled: Callable[[], bool] | None
) -> tuple[ScanLocation, list[tuple[Path, Path | None, frozenset[str] | None]], list[Diagnostic], bool]:
    """Scan one location: (location, [(pack dir, scope root, top-level folders)], diagnostics, cancelled)."""
    named = scope in (Scope.EXPLICIT, Scope.ORGANIZATION)
    if scope is Scope.BUILTIN and not os.path.isdir(path):
        return ScanLocation(scope, path, os.path.exists(path)), [], builtin_scope_findings(path, 0), False
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
    if scope is Scope.BUILTIN and not result.cancelled:
        diags.extend(builtin_scope_findings(path, len(result.pack_dirs)))
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
        return replace(pack, knowledge=replace(kf, frontmatter=lean, body="", text=""))
    return pack


def _crashed(found: _Found) -> Pack:
    return Pack(root=found.root, scope=found.scope, scope_root=found.scope_root,
                diagnostics=(INTERNAL_ERROR("Loading this pack crashed the loader process; it was skipped",
                                            pack=str(found.root)),))


def _load_safely(found: _Found, content: bool = False, findings_only: bool = False) -> Pack:
    """``load_pack`` promises not to raise; if a bug breaks that, one pack fails, not the workspace."""
    try:
        pack = load_pack(found.root, found.scope, found.scope_root, content=content, top_dirs=found.top_dirs)
        return _findings_only(pack) if findings_only else pack
    except Exception as exc:  # the boundary that keeps one bad pack from sinking the scan
        return Pack(root=found.root, scope=found.scope, scope_root=found.scope_root,
                    diagnostics=(INTERNAL_ERROR(f"The studio failed while loading this pack: {exc!r}",
                                                pack=str(found.root)),))


def _pack_order(pack: Pack) -> tuple[int, tuple[str, ...]]:
    return (pack.scope.precedence, pack.root.parts)


def _abs(path: Path) -> Path:
    return Path(os.path.abspath(os.path.expanduser(path)))


__all__ = ["ScanLimits", "ScanLocation", "Workspace", "WorkspaceOptions", "open_workspace", "scan_locations"]
