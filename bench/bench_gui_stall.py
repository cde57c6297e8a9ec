"""How long does the GUI thread stall while the studio opens a large workspace?

Generates (or reuses) a synthetic corpus with ``make_corpus.py``, opens it in the real main window
offscreen, and runs a 10 ms heartbeat timer on the GUI thread. The longest gap between two ticks,
minus the 10 ms period, is the longest stall a user would feel. Also reports the time until the first
and the last pack appear in the Workspace tree, and stalls while browsing packs afterwards, then while
switching to each mode in turn (each one follows the whole workspace when it is first shown).

The heartbeat starts once the window is on screen, so the window's first frame (part of launching the
app, before a workspace is opened) is timed and printed separately rather than counted as a stall.

Qt runs a timer only once no posted event is waiting (queued signals, zero-delay calls, repaints), so
a gap covers a whole burst of such events, not just the longest single one.

    python bench/bench_gui_stall.py                 # 1,000 packs x 40 files (goal: longest stall < 50 ms)
    python bench/bench_gui_stall.py --packs 200     # quicker
    python bench/bench_gui_stall.py --corpus DIR    # reuse a corpus generated earlier
    python bench/bench_gui_stall.py --trace         # also name the code behind each stall
    BENCH_PROFILE_PHASE=browsing python bench/bench_gui_stall.py   # and a cProfile of one phase, to a file
    python bench/bench_gui_stall.py --open-after 0  # select a pack and open its file in one step
    python bench/bench_gui_stall.py --corpus /tmp/corpus-10k --reopen 3 --compare-cli   # the 10,000-pack figures

``--against TREE`` compares this checkout with another one (a ``git worktree`` of the commit before a change),
side by side in one run: each opening runs in a fresh process, the two checkouts taking turns (ABBA, ``--runs`` each),
so that a machine that gets busier or quieter meanwhile weighs on both alike; the load average is given per run.

    git worktree add /tmp/base 09cf5dc
    python bench/bench_gui_stall.py --corpus /tmp/corpus-10k --reopen 1 --against /tmp/base --runs 3

A stall with little GUI CPU is a wait (for the interpreter lock or a core). To see who held what, run the bench under
``perf sched record -g -k CLOCK_MONOTONIC -- python bench/bench_gui_stall.py ...``: the stalls over 50 ms are listed
with the moment the heartbeat started on that clock, so ``perf sched timehist`` shows each thread around them.

``--reopen N`` opens the same workspace N more times after browsing and prints the window process's memory
(resident set, from /proc) after each opening: it must not grow from one to the next. The first opening is cold
(the window's result cache starts empty, beside its throwaway settings), the re-openings warm: a warm re-opening
shows every pack the cache knows at once, then confirms them (issue #28), so two times are given for it, until
every pack is in the tree ("from the cache") and until the scan has settled ("confirmed"). ``--compare-cli``
first times a warm ``pack-studio validate --format json`` on the same folders in a fresh process (run twice, the
second timed), so the openings can be given as ratios to it (the goal: at most 1.5x for the warm re-opening).

While browsing, every fifth pack the user selects also has its KNOWLEDGE.md opened, by default 150 ms
after the selection as the second press of a double-click would; the first of these comes right after
the scan ends, while the settled packs are still being re-read.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import gc
import os
import pstats
import re
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QSettings, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from studio.core.first_use import prepare_in_background  # noqa: E402
from studio.core.tokens import DEFAULT_ENCODING  # noqa: E402
from studio.ui.app import make_app  # noqa: E402
from studio.ui.main_window import MainWindow  # noqa: E402
from studio.ui.workspace_source import WorkspaceRequest  # noqa: E402

MAKE_CORPUS = Path("/work/shared/bench/make_corpus.py")
PERIOD_MS = 10


REPORT_MS = 50
"""Stalls longer than this are listed one by one (the goal)."""


class Heartbeat:
    """Ticks every 10 ms on the GUI thread and remembers the gaps between ticks, per phase."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.clock.start()
        self.started_wall = time.perf_counter()
        """When the clock started, on Python's clock (the sampler names stalls in the clock's time)."""
        self.started_monotonic = time.clock_gettime(time.CLOCK_MONOTONIC) if hasattr(time, "CLOCK_MONOTONIC") else 0.0
        """The same moment on the system's monotonic clock, to find a stall in ``perf record -k CLOCK_MONOTONIC``
        or ``strace -ttt`` output taken at the same time."""
        self.last = 0
        self.last_wall = time.perf_counter()
        """The same tick on Python's clock, read by the stack sampler's thread."""
        self.longest = 0
        self.longest_at = 0
        self.phase = "start"
        self.longest_phase = ""
        self.longest_by_phase: dict[str, int] = {}
        self.stalls: list[tuple[str, int, int, int]] = []
        """(phase, ms since start at the end of the gap, stall in ms, GUI thread's CPU ms in the gap) for
        every stall over REPORT_MS. CPU time well below the stall means the thread was waiting (for the
        interpreter lock or for a core the machine gave to another process), not working."""
        self.last_cpu = time.thread_time()
        self.on_tick: list[Any] = []
        """Called on every tick (cheap checks of what the window shows)."""
        self.timer = QTimer()
        self.timer.setInterval(PERIOD_MS)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def tick(self) -> None:
        now = self.clock.elapsed()
        self.last_wall = time.perf_counter()
        gap = now - self.last
        if gap > self.longest:
            self.longest, self.longest_at, self.longest_phase = gap, now, self.phase
        self.longest_by_phase[self.phase] = max(self.longest_by_phase.get(self.phase, 0), gap)
        cpu = time.thread_time()
        if gap - PERIOD_MS > REPORT_MS:
            self.stalls.append((self.phase, now, gap - PERIOD_MS, round(1000 * (cpu - self.last_cpu))))
        self.last, self.last_cpu = now, cpu
        for look in self.on_tick:
            look()

    def reset(self, phase: str) -> None:
        self.phase = phase
        _profile_phase(phase)


_PROFILE: list[Any] = []


def _profile_phase(phase: str) -> None:
    """With ``BENCH_PROFILE_PHASE=browsing`` (a phase's name), profile the GUI thread through that phase and
    write the slowest functions to ``bench-profile-<phase>.txt`` when it ends."""
    wanted = os.environ.get("BENCH_PROFILE_PHASE", "")
    if _PROFILE:
        profile, name = _PROFILE.pop()
        profile.disable()
        out = Path(f"bench-profile-{name.replace(' ', '-')}.txt")
        with out.open("w") as fh:
            pstats.Stats(profile, stream=fh).sort_stats("cumulative").print_stats(60)
        print(f"profile of {name!r} written to {out}")
    if wanted and phase == wanted:
        profile = cProfile.Profile()
        _PROFILE.append((profile, phase))
        profile.enable()


class StackSampler:
    """Samples the GUI thread's Python stack from another thread while the heartbeat is late.

    A cheap way to name the code behind each stall: when no tick has come for 30 ms, the GUI thread's
    innermost project frames are recorded every 5 ms, grouped by the tick the stall started after.
    Sampling needs the interpreter lock, so a stall inside one long C call shows up as the Python line
    that made the call.
    """

    def __init__(self, beat: Heartbeat) -> None:
        self.beat = beat
        self.gui_thread = threading.get_ident()
        self.samples: dict[float, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.others: dict[float, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        """The other threads' innermost frames in the same samples."""
        self.collections: list[tuple[float, float, int]] = []
        """(start, end, generation) of every cyclic garbage collection: one holds the interpreter lock in C, where
        the sampler cannot see it (its samples wait until it is over)."""
        self._collecting = 0.0
        gc.callbacks.append(self._gc_event)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(0.005):
            since = self.beat.last_wall
            if time.perf_counter() - since < 0.030:
                continue
            frame = sys._current_frames().get(self.gui_thread)
            if frame is None:
                continue
            stack = [f for f in traceback.extract_stack(frame) if "/studio/" in f.filename]
            where = " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(stack[-4:]))
            self.samples[since][where or "(Qt / event loop)"] += 1
            # A stall with little GUI CPU is a wait: for the interpreter lock, most often, held by one of these.
            for ident, other in sys._current_frames().items():
                if ident not in (self.gui_thread, threading.get_ident()):
                    top = traceback.extract_stack(other)[-2:]
                    line = " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(top))
                    self.others[since][line] += 1

    def _gc_event(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._collecting = time.perf_counter()
        else:
            self.collections.append((self._collecting, time.perf_counter(), info.get("generation", -1)))

    def report(self) -> None:
        self.stop.set()
        gc.callbacks.remove(self._gc_event)
        for since, counter in sorted(self.samples.items()):
            total = sum(counter.values())
            if total * 5 < REPORT_MS - 30:
                continue  # too few samples for a stall worth naming
            at = since - self.beat.started_wall
            print(f"  stall after {at:.2f} s (the times of 'stalls over 50 ms' below), ~{30 + 5 * total} ms:")
            for where, n in counter.most_common(3):
                print(f"    {n:3d} x {where}")
            for where, n in self.others[since].most_common(2):
                print(f"    {n:3d} x (other thread) {where}")
            until = since + 0.030 + 0.005 * total
            during = [(end - start, gen) for start, end, gen in self.collections if start < until and end > since]
            if during:
                print("      garbage collections meanwhile: " + ", ".join(f"generation {gen} {1000 * took:.0f} ms"
                                                                      for took, gen in during))


def knowledge_roots(corpus: Path) -> list[Path]:
    """Every ``.agents/knowledge`` folder of the corpus (user scope and each project, nested ones too)."""
    found = []
    for dirpath, dirnames, _files in os.walk(corpus):
        dirnames[:] = [d for d in dirnames if d not in ("node_modules", ".git")]
        if dirpath.endswith(os.path.join(".agents", "knowledge")):
            found.append(Path(dirpath))
            dirnames[:] = []
    return sorted(found)


def resident_mib() -> float:
    """This process's resident set size in MiB (Linux /proc; 0 where there is none)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cli_validate_seconds(roots: list[Path]) -> float:
    """Wall time of ``pack-studio validate --format json ROOTS`` in a fresh process (what the app is compared to)."""
    argv = [sys.executable, "-c", "import sys; from studio.launcher import main; sys.exit(main())",
            "validate", "--format", "json", *map(str, roots)]
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)  # warm the cache
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def generate_corpus(out: Path, packs: int, files_per_pack: int) -> Path:
    """A corpus made by ``make_corpus.py`` at ``out`` (seed 0)."""
    subprocess.run([sys.executable, str(MAKE_CORPUS), "--out", str(out), "--packs", str(packs),
                    "--files-per-pack", str(files_per_pack), "--seed", "0"], check=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--packs", type=int, default=1000)
    parser.add_argument("--files-per-pack", type=int, default=40)
    parser.add_argument("--corpus", type=Path, help="an existing corpus directory (skips generation)")
    parser.add_argument("--trace", action="store_true", help="sample the GUI thread's stack during each stall")
    parser.add_argument("--reopen", type=int, default=0, metavar="N",
                        help="open the same workspace N more times after browsing; print memory after each")
    parser.add_argument("--compare-cli", action="store_true",
                        help="time `pack-studio validate` on the same folders first, for a ratio")
    parser.add_argument("--open-after", type=int, default=150, metavar="MS",
                        help="open the file this long after selecting its pack, as the second press of a "
                             "double-click would (default 150 ms; 0: in the same step as the selection, "
                             "which no single user action does, the strictest case)")
    parser.add_argument("--against", type=Path, metavar="TREE",
                        help="another checkout of the studio (the 'before'): run both in turns, figures side by side")
    parser.add_argument("--runs", type=int, default=3, help="with --against: openings per checkout (default 3)")
    args = parser.parse_args()
    if args.against is not None:
        return compare(args)
    tmp = tempfile.TemporaryDirectory(prefix="studio-bench-")
    corpus = args.corpus or generate_corpus(Path(tmp.name) / "corpus", args.packs, args.files_per_pack)
    roots = knowledge_roots(corpus)
    cli_seconds = cli_validate_seconds(roots) if args.compare_cli else None

    app = make_app()  # the same set-up as the real app (theme, GIL switch interval)
    prepared = prepare_in_background([DEFAULT_ENCODING])  # and, as the app does, its first-use tables built before
    window = MainWindow(QSettings(str(Path(tmp.name) / "settings.ini"), QSettings.Format.IniFormat))
    window.resize(1400, 900)
    prepared.join()
    shown_at = time.perf_counter()
    window.show()
    # The heartbeat starts once the window is on screen: what is measured is opening a workspace in a
    # running studio. The window's first frame (launch, not opening) is timed and printed on its own.
    QTest.qWaitForWindowExposed(window)
    app.processEvents()
    first_frame = time.perf_counter() - shown_at
    beat = Heartbeat()
    sampler = StackSampler(beat) if args.trace else None
    marks: dict[str, float] = {}
    started = time.perf_counter()

    def packs_added(_packs: list) -> None:
        marks.setdefault("first pack shown", time.perf_counter() - started)

    def shown_from_cache(count: int) -> None:
        # Every pack the cache knew is in the tree now: the warm re-opening as the user sees it (the scan goes on).
        which = f"re-open {opened[0]}" if opened[0] else "first opening"
        marks[f"all packs shown from the cache ({which})"] = time.perf_counter() - (reopened_at[0] or started)
        in_tree[which] = (count, len(window.tree_model.pack_items))

    in_tree: dict[str, tuple[int, int]] = {}

    memory: list[tuple[str, float]] = []
    opened = [0]

    def finished(_cancelled: bool) -> None:
        if opened[0]:  # a re-opening: note the memory, then open again or end
            marks[f"all packs shown (re-open {opened[0]})"] = time.perf_counter() - reopened_at[0]
            if scan_done_at[0]:
                marks[f"all packs shown after the scan ended (re-open {opened[0]})"] = (
                    time.perf_counter() - scan_done_at[0])
            QTimer.singleShot(1000, reopen)
            return
        marks["all packs shown"] = time.perf_counter() - started
        expected[0] = len(window.tree_model.pack_items)
        beat.reset("browsing")
        # The first click comes on a later turn of the event loop than the scan's end, as a user's would
        # (and while the settled packs are still being re-read, the worst moment for it).
        packs = list(window.session.packs.values())[:25]
        QTimer.singleShot(0, lambda: browse(packs))

    def browse(packs: list) -> None:
        # Click through packs like a user: each selection renders previews and counts tokens in workers.
        if not packs:
            QTimer.singleShot(1500, lambda: switch_modes(window.modes.names[1:] + window.modes.names[:1]))
            return
        window.workspace_panel.select_pack(packs[0].root)
        pause = 120
        if packs[0].knowledge_path.is_file() and len(packs) % 5 == 0:
            path = packs[0].knowledge_path
            if args.open_after <= 0:
                window.open_file(path, 1)
            else:
                QTimer.singleShot(args.open_after, lambda: window.open_file(path, 1))
                pause += args.open_after  # the next pack is selected once this one's file is open
        QTimer.singleShot(pause, lambda: browse(packs[1:]))

    def switch_modes(names: list[str]) -> None:
        # Each job mode once, as a user looking around would (each follows the whole workspace when first
        # shown), then back to Author; its own phase each, so a slow mode is named.
        if not names:
            QTimer.singleShot(1000, reopen)
            return
        beat.reset(f"switching to {names[0]}")
        window.switch_mode(names[0])
        QTimer.singleShot(1500, lambda: switch_modes(names[1:]))

    reopened_at = [0.0]
    expected = [0]
    filling = [0]
    """The re-opening whose tree is not full yet (0: none)."""

    def tree_full() -> None:
        # Any studio: the first tick on which the tree holds as many packs as the first opening showed (the same
        # folders), whether they came from the cache or from the scan.
        if filling[0] and len(window.tree_model.pack_items) >= expected[0] > 0:
            marks[f"every pack in the tree (re-open {filling[0]})"] = time.perf_counter() - reopened_at[0]
            filling[0] = 0

    beat.on_tick.append(tree_full)

    def reopen() -> None:
        # Memory once the views have settled (a second after the scan ended, or after browsing).
        memory.append((f"after opening {opened[0] + 1}", resident_mib()))
        if opened[0] >= args.reopen:
            app.quit()
            return
        opened[0] += 1
        beat.reset(f"re-opening {opened[0]}")
        reopened_at[0] = time.perf_counter()
        filling[0] = opened[0]
        window.open_request(WorkspaceRequest(explicit=roots))

    window.session.packs_added.connect(packs_added)
    if hasattr(window.session, "shown_from_cache"):  # a studio from before issue #28's warm opening has none
        window.session.shown_from_cache.connect(shown_from_cache)
    window.session.finished.connect(finished)
    # When the scan's result reached the window (the session hands it its own handler when a scan starts): what
    # comes after is the window's own share of the time to all packs shown.
    scan_done_at = [0.0]
    on_scan_done = window.session._on_scan_done

    def scan_done(*result: Any) -> None:
        scan_done_at[0] = time.perf_counter()
        on_scan_done(*result)
    window.session._on_scan_done = scan_done  # type: ignore[method-assign]  # a probe, in the bench only
    beat.reset("opening")
    QTimer.singleShot(0, lambda: window.open_request(WorkspaceRequest(explicit=roots)))
    QTimer.singleShot(600_000, app.quit)  # never hang a CI job
    app.exec()

    stall = max(beat.longest - PERIOD_MS, 0)
    if sampler is not None:
        print("where the GUI thread was during stalls (innermost first):")
        sampler.report()
    print(f"corpus: {corpus} ({len(roots)} scan roots)")
    print(f"packs shown: {window.tree_model.rowCount() and len(window.tree_model.pack_items)}")
    print(f"problems listed: {window.diag_model.rowCount()}")
    print(f"window's first frame (launch, before the heartbeat): {1000 * first_frame:.0f} ms")
    for name, seconds in marks.items():
        print(f"time to {name}: {seconds:.2f} s")
    for which, (count, rows) in in_tree.items():
        print(f"packs in the tree once the {count} from the cache were shown ({which}): {rows}")
    if cli_seconds is not None and "all packs shown" in marks:
        print(f"pack-studio validate on the same folders (fresh process): {cli_seconds:.2f} s; all packs shown in "
              f"{marks['all packs shown'] / cli_seconds:.2f}x that (goal <= 2x)")
        last = args.reopen
        warm = marks.get(f"every pack in the tree (re-open {last})")
        confirmed = marks.get(f"all packs shown (re-open {last})")
        if warm is not None:
            print(f"warm re-open, every pack in the tree: {warm / cli_seconds:.2f}x the warm validate (goal <= 1.5x)")
        if confirmed is not None:
            print(f"warm re-open, confirmed: {confirmed / cli_seconds:.2f}x the warm validate")
    for when, mib in memory:
        print(f"window process memory (resident) {when}: {mib:.0f} MiB")
    if len(memory) > 1:
        print(f"growth from the first opening to the last: {memory[-1][1] - memory[0][1]:+.0f} MiB")
    for phase in ("opening", "browsing"):
        print(f"longest stall while {phase}: {max(beat.longest_by_phase.get(phase, 0) - PERIOD_MS, 0)} ms")
    switches = [(phase, gap) for phase, gap in beat.longest_by_phase.items() if phase.startswith("switching to ")]
    print("longest stall " + ", ".join(f"{phase[len('switching '):]} {max(gap - PERIOD_MS, 0)} ms"
                                       for phase, gap in switches) + " (switching modes)")
    reopens = [gap for phase, gap in beat.longest_by_phase.items() if phase.startswith("re-opening")]
    if reopens:
        print(f"longest stall while re-opening: {max(max(reopens) - PERIOD_MS, 0)} ms")
    over = ", ".join(f"{ms} ms at {at / 1000:.2f} s ({phase}, {cpu} ms CPU)" for phase, at, ms, cpu in beat.stalls)
    print(f"stalls over {REPORT_MS} ms: {over or 'none'}")
    print(f"(the times above count from {beat.started_monotonic:.6f} s on the system's monotonic clock)")
    print(f"longest GUI stall: {stall} ms (gap {beat.longest} ms during {beat.longest_phase}, ending at "
          f"{beat.longest_at / 1000:.2f} s; goal < 50 ms)")
    tmp.cleanup()
    return 0 if stall < 50 else 1


FIGURES: tuple[tuple[str, str], ...] = (
    ("longest GUI stall", r"longest GUI stall: (\d+) ms"),
    ("longest stall while opening", r"longest stall while opening: (\d+) ms"),
    ("longest stall while browsing", r"longest stall while browsing: (\d+) ms"),
    ("longest stall switching modes", r"longest stall (.*) \(switching modes\)"),
    ("longest stall while re-opening", r"longest stall while re-opening: (\d+) ms"),
    ("stalls over 50 ms", r"stalls over 50 ms: (.*)"),
    ("cold: time to all packs shown (s)", r"time to all packs shown: ([\d.]+) s"),
    ("warm: every pack in the tree (s)", r"time to every pack in the tree \(re-open \d+\): ([\d.]+) s"),
    ("warm: all packs from the cache in the tree (s)",
     r"time to all packs shown from the cache \(re-open \d+\): ([\d.]+) s"),
    ("warm: all packs shown and confirmed (s)", r"time to all packs shown \(re-open \d+\): ([\d.]+) s"),
    ("all packs shown after the scan ended, last re-open (s)",
     r"time to all packs shown after the scan ended \(re-open \d+\): ([\d.]+) s"),
    ("cold all shown / CLI warm validate", r"all packs shown in ([\d.]+)x that"),
    ("warm from cache / CLI warm validate", r"warm re-open, every pack in the tree: ([\d.]+)x"),
    ("warm confirmed / CLI warm validate", r"warm re-open, confirmed: ([\d.]+)x"),
    ("CLI validate, same run (s)", r"validate on the same folders \(fresh process\): ([\d.]+) s"),
    ("memory growth over re-openings (MiB)", r"growth from the first opening to the last: ([+-]?\d+) MiB"),
)


def _figures(output: str) -> dict[str, float]:
    """The figures of one run's report (missing ones left out)."""
    found: dict[str, float] = {}
    for name, pattern in FIGURES:
        matches = list(re.finditer(pattern, output))
        if not matches:
            continue
        match = matches[-1]  # the last re-opening: the warmest
        text = match.group(1)
        if name == "longest stall switching modes":  # "to Resolve 12 ms, to Runs 8 ms": the worst of them
            found[name] = max((float(ms) for ms in re.findall(r"(\d+) ms", text)), default=0.0)
        elif name == "stalls over 50 ms":
            found[name] = 0.0 if text.strip() == "none" else float(text.count(" ms at "))
        else:
            found[name] = float(text)
    return found


def compare(args: argparse.Namespace) -> int:
    """Open the same corpus with this checkout and with ``--against``, in turns; print the figures side by side."""
    trees = {"before": args.against.resolve(), "after": Path(__file__).resolve().parent.parent}
    tmp = tempfile.TemporaryDirectory(prefix="studio-bench-")
    corpus = args.corpus or generate_corpus(Path(tmp.name) / "corpus", args.packs, args.files_per_pack)
    child = [sys.executable, str(Path(__file__).resolve()), "--corpus", str(corpus), "--reopen", str(args.reopen),
             "--open-after", str(args.open_after)] + (["--compare-cli"] if args.compare_cli else [])
    results: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for run in range(args.runs):
        for which in (("before", "after") if run % 2 == 0 else ("after", "before")):  # ABBA
            path = os.pathsep.join(p for p in (str(trees[which]), os.environ.get("PYTHONPATH", "")) if p)
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
            done = subprocess.run(child, env=dict(os.environ, PYTHONPATH=path), capture_output=True, text=True,
                                  timeout=1800, check=False)
            figures = _figures(done.stdout)
            results[which].append({**figures, LOAD: load})
            print(f"run {run + 1} {which:6s} (load {load:.1f}): "
                  + ", ".join(f"{name} {value:g}" for name, value in figures.items()), flush=True)
            if done.returncode not in (0, 1) or not figures:
                print(done.stdout[-2000:] + done.stderr[-2000:], flush=True)
    tmp.cleanup()
    print(f"\n{corpus}: {args.runs} openings each; before: {trees['before']}, after: {trees['after']}")
    print(f"{'':38s} {'before: median; each run':>34s}   {'after: median; each run':>34s}")
    for name in [name for name, _ in FIGURES] + [LOAD]:
        cells = []
        for which in ("before", "after"):
            values = [r[name] for r in results[which] if name in r]
            median = sorted(values)[len(values) // 2] if values else None
            cells.append("-" if median is None else f"{median:g}; " + " ".join(f"{v:g}" for v in values))
        if cells != ["-", "-"]:
            print(f"{name:38s} {cells[0]:>34s}   {cells[1]:>34s}")
    return 0


LOAD = "load average (1 min) at start"


if __name__ == "__main__":
    sys.exit(main())
