"""Benchmark: CLI start-up, the whole process, against the bare interpreter measured in the same run.

Scripts call ``pack-studio`` once per pack, so start-up is paid thousands of times. Times (median of
``--repeat`` runs) for ``pack-studio --version`` and ``pack-studio COMMAND --help`` for a few commands, each
beside ``python -c pass`` (the floor no Python tool can beat) and as a ratio to it.

``--search CORPUS`` (issue #28) times a warm ``pack-studio search QUERY CORPUS`` instead: the search index built
and the result cache filled by two runs first (in a cache folder of the bench's own), then ``--repeat`` runs of
the search and of ``pack-studio --version`` in turns, so that both see the same load. It prints the median and
the spread (lowest-highest) of wall and CPU time (user + system, which a shared machine disturbs less) of each,
and the search's cost over ``--version``: the goal is at most 100 ms at 1,000 packs.

Python writes and reuses compiled modules here as an installed studio does (``PYTHONDONTWRITEBYTECODE`` is
dropped for the children): compiling every module on each run is not what a user pays.

    python bench/bench_startup.py            # --version and the common commands
    python bench/bench_startup.py --repeat 21
    python bench/bench_startup.py --search /tmp/corpus1k --repeat 10
    git archive main | tar -x -C /tmp/base && python bench/bench_startup.py --search /tmp/corpus1k --against /tmp/base
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = (["--version"], ["rules", "--help"], ["validate", "--help"], ["guide", "--help"],
            ["resolve", "--help"], ["search", "--help"], ["eval", "--help"])
# The console script does exactly this: import studio.launcher and call main().
LAUNCHER = [sys.executable, "-c", "import sys; from studio.launcher import main; sys.exit(main())"]


def _median_seconds(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process, started in the root folder: ``python -c`` puts its working
    folder first on the module path, where a checkout would shadow the tree ``PYTHONPATH`` names."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)  # microseconds, where os.times() counts 10 ms ticks
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd="/")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _spread(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    return f"median {statistics.median(ms):6.0f} ms ({ms[0]:.0f}-{ms[-1]:.0f})"


def warm_search(corpus: Path, query: str, repeat: int, against: Path | None = None) -> None:
    """Warm ``pack-studio search`` against ``pack-studio --version``, in turns (see the module docstring); with
    ``against``, the search of that other source tree too (its own cache folder), in the same turns."""
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    trees = {"this tree": None} if against is None else {"before": against.resolve(), "after": None}
    search = [*LAUNCHER, "search", query, str(corpus), "--max-dirs", "10000000"]
    with tempfile.TemporaryDirectory(prefix="kps-startup-") as cache:
        envs = {}
        for label, tree in trees.items():
            env = dict(base, XDG_CACHE_HOME=str(Path(cache) / label.replace(" ", "-")))
            if tree is not None:
                env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tree), base.get("PYTHONPATH", "")) if p)
            envs[label] = env
            built = _timed(search, env)[0]
            _timed(search, env)  # stores the folder stamps the build left unsure (too young to trust)
            print(f"{label}: index built in {built:.1f} s")
        _timed([*LAUNCHER, "--version"], base)
        runs: dict[str, list[tuple[float, float]]] = {"--version": [], **{label: [] for label in trees}}
        for _ in range(repeat):
            runs["--version"].append(_timed([*LAUNCHER, "--version"], base))
            for label in trees:
                runs[label].append(_timed(search, envs[label]))
    print(f"warm search {query!r} over {corpus}, {repeat} runs each in turns")
    for label, times in runs.items():
        name = "pack-studio --version" if label == "--version" else f"search, {label}"
        print(f"{name:<30} wall {_spread([w for w, _ in times])}   CPU {_spread([c for _, c in times])}")
    version = runs.pop("--version")
    for label, times in runs.items():
        extra_wall = statistics.median(w for w, _ in times) - statistics.median(w for w, _ in version)
        extra_cpu = statistics.median(c for _, c in times) - statistics.median(c for _, c in version)
        paired = sorted((s[0] - v[0]) * 1000 for v, s in zip(version, times, strict=True))
        print(f"search, {label:<22} over --version: wall +{extra_wall * 1000:.0f} ms (per turn {paired[0]:.0f} to "
              f"{paired[-1]:.0f}), CPU +{extra_cpu * 1000:.0f} ms  (goal: at most +100 ms at 1,000 packs)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--search", type=Path, metavar="CORPUS", help="time a warm search over CORPUS instead")
    parser.add_argument("--query", default="retry backoff")
    parser.add_argument("--against", type=Path, metavar="TREE",
                        help="with --search: also time the search of another source tree (e.g. `git archive` of "
                             "the commit before a change), in the same turns")
    args = parser.parse_args()
    if args.search is not None:
        warm_search(args.search, args.query, args.repeat, args.against)
        return 0
    floor = _median_seconds([sys.executable, "-c", "pass"], args.repeat)
    print(f"python -c pass: {floor * 1000:.0f} ms (floor)")
    for command in COMMANDS:
        seconds = _median_seconds([*LAUNCHER, *command], args.repeat)
        print(f"pack-studio {' '.join(command):<18} {seconds * 1000:6.0f} ms  {seconds / floor:5.1f}x floor  "
              f"(+{(seconds - floor) * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
