"""What the race tests share: a swap of a pack's file or folder for a symlink out of it, and wrappers that run such
a swap right before or right after a module's function is first called (between a check and the read after it)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def swap_for_link(path: Path, target: Path) -> None:
    """Replace ``path`` (a file or folder) by a symlink to ``target``; the original is kept beside it."""
    os.rename(path, path.with_name(path.name + ".real"))
    os.symlink(target, path)


def after_first_call(module: Any, name: str, action: Callable[[], None],
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrap ``module.name`` so that ``action`` runs once, right after its first call returns."""
    real = getattr(module, name)
    done: list[bool] = []

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        if not done:
            done.append(True)
            action()
        return result

    monkeypatch.setattr(module, name, wrapped)


def before_first_call(module: Any, name: str, action: Callable[[], None],
                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrap ``module.name`` so that ``action`` runs once, right before its first call."""
    real = getattr(module, name)
    done: list[bool] = []

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not done:
            done.append(True)
            action()
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapped)
