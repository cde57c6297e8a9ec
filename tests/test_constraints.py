"""The test command installs pinned versions of everything it needs, so an upstream release cannot break CI.

A dependency added to pyproject.toml without a pin in constraints.txt would be resolved afresh on every clean
checkout: these tests fail until it is pinned.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement string (PEP 503)."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def _pins() -> dict[str, str]:
    pins = {}
    for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep, f"constraints.txt pins exact versions only, not {line!r}"
            pins[_name(name)] = version.strip()
    return pins


def test_every_declared_dependency_is_pinned() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        declared.extend(extra)
    pins = _pins()
    unpinned = sorted({_name(req) for req in declared} - set(pins))
    assert not unpinned, f"add these to constraints.txt: {unpinned}"


def test_the_readme_and_ci_install_the_pins() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if "pytest" in line and line.startswith("python3 -m venv"))
    assert "-c constraints.txt" in command
    assert command in ci, "the README's test command is the one .ci/run runs"
