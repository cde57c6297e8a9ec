"""Counts read in the singular and the plural ("1 copy", "2 copies", "1 warning") in the CLI."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def test_visibility_counts_one_copy_in_the_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(EXAMPLES / "northwind-espresso", tmp_path / "packs" / "northwind-espresso")
    main(["visibility", "northwind-espresso", str(tmp_path / "packs"), "--no-builtin", "--home", str(tmp_path)])
    out = capsys.readouterr().out
    assert out.startswith("northwind-espresso: 1 copy; ") and "copy(ies)" not in out

