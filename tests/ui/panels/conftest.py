"""Fixtures for the job panels: offscreen Qt, and a check that no worker is left running after a test."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator  # noqa: E402  (Qt must see the platform before anything imports it)

import pytest  # noqa: E402
from PySide6.QtCore import QThreadPool  # noqa: E402


@pytest.fixture(autouse=True)
def no_leftover_workers(qapp: object) -> Iterator[None]:
    """Fail a test that leaves thread-pool work behind (its results would land in the next test)."""
    yield
    pool = QThreadPool.globalInstance()
    assert pool.waitForDone(5000), "a worker was still running 5 s after the test ended"
