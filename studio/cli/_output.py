"""Output helpers shared by subcommands: JSON to stdout, reference-CLI envelopes."""

from __future__ import annotations

import json
import sys
from typing import Any


def write_json(data: Any) -> None:
    """Pretty, stable JSON on stdout (non-ASCII kept readable)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n")


def envelope(ok: bool, status: str, command: str, pack: str, findings: list[dict[str, Any]],
             **extra: Any) -> dict[str, Any]:
    """The reference CLI's result shape: ``{ok, status, command, pack, findings[]}``."""
    return {"ok": ok, "status": status, "command": command, "pack": pack, "findings": findings, **extra}
