"""Architecture rules: the core never imports Qt, the UI or the CLI."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "studio" / "core"
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "studio.ui", "studio.cli")


def test_core_imports_without_pyside6() -> None:
    """Import every core module in a fresh interpreter where importing PySide6 fails."""
    code = (
        "import sys, importlib, pkgutil\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('PySide6', 'shiboken6'):\n"
        "            raise ImportError('PySide6 is blocked in this test')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import studio.core\n"
        "for m in pkgutil.walk_packages(studio.core.__path__, 'studio.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "assert not any(k.startswith('PySide6') for k in sys.modules)\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_no_core_module_names_qt_ui_or_cli() -> None:
    offenders = []
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.startswith(FORBIDDEN)]
    assert offenders == []
