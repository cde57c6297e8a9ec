"""Run the test suite against the newest releases of every dependency, and re-pin them when it passes.

    python3 tools/update_constraints.py            # newest releases; rewrites constraints.txt if the suite passes
    python3 tools/update_constraints.py --check    # the same run, but never writes (what a scheduled CI job runs)

The README's test command installs ``constraints.txt``, so an upstream release cannot break CI on its own; this
script is how the pins move forward, and how anyone sees early that a new release would break the suite. It
uses a scratch venv (``.venv-newest`` by default) so the developer's ``.venv`` is left as it was.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONSTRAINTS = ROOT / "constraints.txt"
HEADER_END = "# there, and rewrites this file only if it passes).\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="run the suite on the newest releases; write nothing")
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv-newest", help="scratch venv (default .venv-newest)")
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest (default: -q)")
    args = parser.parse_args(argv)

    venv.EnvBuilder(with_pip=True, clear=True).create(args.venv)
    python = str(args.venv / "bin" / "python")
    # No constraints here: -U takes the newest release each range in pyproject.toml allows.
    subprocess.run([python, "-m", "pip", "install", "-q", "-U", "-e", ".[test]"], cwd=ROOT, check=True)
    tested = subprocess.run([python, "-m", "pytest", *(args.pytest_args or ["-q"])], cwd=ROOT)
    if tested.returncode != 0:
        print(f"update_constraints: the suite fails on the newest releases (pytest exit {tested.returncode});"
              " constraints.txt is unchanged", file=sys.stderr)
        return 1
    if args.check:
        print("update_constraints: the suite passes on the newest releases")
        return 0
    frozen = subprocess.run([python, "-m", "pip", "freeze", "--exclude-editable"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    pins = [line for line in frozen.splitlines() if line and not line.startswith(("#", "-e", "knowledge-pack-studio"))]
    header = CONSTRAINTS.read_text(encoding="utf-8").split(HEADER_END)[0] + HEADER_END
    CONSTRAINTS.write_text(header + "\n".join(pins) + "\n", encoding="utf-8")
    print(f"update_constraints: {len(pins)} pins written to {CONSTRAINTS.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
