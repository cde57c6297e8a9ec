"""The standalone bundle's PyInstaller spec leaves out only modules nothing needs: an excluded module that the
studio imports, or that a runtime dependency is, makes a command crash in the bundle alone (numpy was excluded
while search indexing and the answer-quality measures needed it)."""

from __future__ import annotations

import ast
import re
import tomllib

from packaging_support import PACKAGING, REPO


def spec_excludes() -> list[str]:
    tree = ast.parse((PACKAGING / "pack-studio.spec").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Analysis":
            for keyword in node.keywords:
                if keyword.arg == "excludes":
                    return [str(name) for name in ast.literal_eval(keyword.value)]
    raise AssertionError("no Analysis(excludes=...) in the spec")


def studio_imports() -> set[str]:
    """Every module the studio's code imports, at module level or inside a function, with its parents."""
    names: set[str] = set()
    for path in (REPO / "studio").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else [])
            for name in found:
                parts = name.split(".")
                names.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
    return names


def runtime_dependencies() -> set[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [*project["dependencies"], *project.get("optional-dependencies", {}).get("gui", [])]
    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].strip().lower().replace("-", "_") for r in requirements}


def test_the_bundle_excludes_nothing_the_studio_imports_or_depends_on() -> None:
    excludes = spec_excludes()
    assert "tkinter" in excludes  # the parse found the real list
    imported = studio_imports()
    assert "numpy" in imported and "PySide6.QtWidgets" in imported  # the scan sees function-level imports too
    assert sorted(set(excludes) & imported) == []
    assert sorted({e.lower() for e in excludes} & runtime_dependencies()) == []
