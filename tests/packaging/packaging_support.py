"""Shared by the packaging tests: external validators, and the rule that CI may not skip them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGING = REPO / "packaging"
REQUIRE_TOOLS = "STUDIO_REQUIRE_PACKAGING_TOOLS"
"""Set (to 1) by ``.ci/run``: a missing validator then fails the test instead of skipping it."""


def require_tool(name: str, package: str) -> str:
    """The absolute path of the command ``name``; skipped where it is not installed, failed in CI."""
    found = shutil.which(name)
    if found:
        return found
    message = f"{name} is not installed (Debian package {package})"
    if os.environ.get(REQUIRE_TOOLS):
        pytest.fail(f"{message}; {REQUIRE_TOOLS} is set, so it must be")
    pytest.skip(message)
