"""Every module of the core stands on a floor of the import-linter layers contract, so its imports are checked."""

from __future__ import annotations

import tomllib
from pathlib import Path

import studio

CORE = Path(studio.__file__).parent / "core"
PYPROJECT = CORE.parents[1] / "pyproject.toml"


def _floors() -> list[set[str]]:
    contracts = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in contracts if c["type"] == "layers" and c["layers"][0].startswith("studio.core"))
    return [{name.strip() for name in floor.replace(":", "|").split("|")} for floor in layers]


def test_every_core_module_and_package_is_on_a_floor() -> None:
    named = set().union(*_floors())
    modules = {f"studio.core.{p.stem}" for p in CORE.glob("*.py") if p.stem != "__init__"}
    packages = {f"studio.core.{p.parent.name}" for p in CORE.glob("*/__init__.py")}
    assert sorted((modules | packages) - named) == []


def test_no_floor_names_a_module_that_does_not_exist() -> None:
    for floor in _floors():
        for name in floor:
            rel = Path(*name.split(".")[2:])
            assert (CORE / rel).with_suffix(".py").is_file() or (CORE / rel / "__init__.py").is_file(), name
