"""Output helpers shared by subcommands: JSON to stdout, reference-CLI envelopes."""

from __future__ import annotations

import sys
from typing import Any

from studio.core.jsonwrite import dumps


def write_json(data: Any, notes: list[str] | None = None) -> None:
    """Pretty, stable, strict JSON on stdout (non-ASCII kept readable; see ``studio.core.jsonwrite``).

    ``notes`` collects what had to be written differently (NaN as ``".nan"``, bytes as base64 ...).
    """
    sys.stdout.write(dumps(data, indent=2, notes=notes) + "\n")


def envelope(ok: bool, status: str, command: str, pack: str, findings: list[dict[str, Any]],
             **extra: Any) -> dict[str, Any]:
    """The reference CLI's result shape: ``{ok, status, command, pack, findings[]}``."""
    return {"ok": ok, "status": status, "command": command, "pack": pack, "findings": findings, **extra}
