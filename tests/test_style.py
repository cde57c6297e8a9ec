"""The codebase stays ruff-clean, mypy-strict on the core and the CLI, and within its import contracts.

The rules live in pyproject.toml (``[tool.ruff]``, ``[tool.mypy]``, ``[tool.importlinter]``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    path = Path(sys.executable).with_name(name)
    if not path.exists():
        pytest.fail(f"{name} is part of the test extra; install it with pip install -e '.[test]'")
    return str(path)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=REPO, capture_output=True, text=True)


def test_ruff_is_clean() -> None:
    result = _run(_tool("ruff"), "check", "studio", "tests", "bench")
    assert result.returncode == 0, result.stdout[-3000:]


def test_import_contracts_hold() -> None:
    """Core without Qt or either face, the CLI and the GUI independent, and the core's floors in order."""
    result = _run(_tool("lint-imports"))
    assert result.returncode == 0, result.stdout[-3000:]


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    result = _run(_tool("mypy"))
    assert result.returncode == 0, result.stdout[-3000:]
