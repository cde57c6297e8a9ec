"""Benchmark: CLI start-up, the whole process, against the bare interpreter measured in the same run.

Scripts call ``pack-studio`` once per pack, so start-up is paid thousands of times. Times (median of
``--repeat`` runs) for ``pack-studio --version`` and ``pack-studio COMMAND --help`` for a few commands, each
beside ``python -c pass`` (the floor no Python tool can beat) and as a ratio to it.

    python bench/bench_startup.py            # --version and the common commands
    python bench/bench_startup.py --repeat 21
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = (["--version"], ["rules", "--help"], ["validate", "--help"], ["guide", "--help"],
            ["resolve", "--help"], ["search", "--help"], ["eval", "--help"])


def _median_seconds(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args()
    # The console script does exactly this: import studio.launcher and call main().
    launcher = [sys.executable, "-c", "import sys; from studio.launcher import main; sys.exit(main())"]
    floor = _median_seconds([sys.executable, "-c", "pass"], args.repeat)
    print(f"python -c pass: {floor * 1000:.0f} ms (floor)")
    for command in COMMANDS:
        seconds = _median_seconds([*launcher, *command], args.repeat)
        print(f"pack-studio {' '.join(command):<18} {seconds * 1000:6.0f} ms  {seconds / floor:5.1f}x floor  "
              f"(+{(seconds - floor) * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
