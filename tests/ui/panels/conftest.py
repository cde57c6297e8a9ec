"""Fixtures for the job panels: offscreen Qt, and a check that no worker is left running after a test."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator  # noqa: E402  (Qt must see the platform before anything imports it)
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QThreadPool  # noqa: E402

from studio.core.model import Pack  # noqa: E402
from studio.core.pack import load_pack  # noqa: E402


@pytest.fixture(autouse=True)
def no_leftover_workers(qapp: object) -> Iterator[None]:
    """Fail a test that leaves thread-pool work behind (its results would land in the next test)."""
    yield
    pool = QThreadPool.globalInstance()
    assert pool.waitForDone(5000), "a worker was still running 5 s after the test ended"


def set_status(root: Path, status: str) -> Pack:
    """Rewrite the ``status:`` line of a copied pack and reload it (test set-up only)."""
    path = root / "KNOWLEDGE.md"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines = [f"status: {status}\n" if line.startswith("status:") else line for line in lines]
    path.write_text("".join(lines), encoding="utf-8")
    return load_pack(root)
