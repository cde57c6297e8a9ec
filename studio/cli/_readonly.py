"""The built-in example packs are read-only: every command that writes into a pack refuses them the same way."""

from __future__ import annotations

from pathlib import Path

from studio.cli._errors import UsageError
from studio.core.model import Scope
from studio.core.resources import in_builtin_scope
from studio.core.terminal import printable


def refuse_builtin(root: Path, what: str = "", scope: Scope | None = None) -> None:
    """Raise UsageError (exit status 2) when the pack at ``root`` is a built-in example.

    Those ship inside the installed package (``site-packages``, or the bundle): a run record or an edit written
    there would change the installation, and be lost or refused at the next upgrade. ``what`` names the option or
    action refused (``--write-run``, ``accept``), none when the command itself is the write (``feedback``: the
    message already starts with the command's name); ``scope`` is the pack's discovery scope when known.
    """
    if scope is Scope.BUILTIN or in_builtin_scope(root):
        raise UsageError(f"{what + ': ' if what else ''}{printable(str(root))} is a built-in example pack, shipped "
                         "read-only inside the installation; nothing written. Copy the pack to a folder of yours and "
                         "use the copy")
