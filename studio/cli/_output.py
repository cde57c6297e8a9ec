"""Output helpers shared by subcommands: JSON to stdout, reference-CLI envelopes."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from studio.core.jsonwrite import dumps


def add_format_option(parser: argparse.ArgumentParser, formats: tuple[str, ...] = ("text", "json"),
                      help: str | None = None) -> None:
    """``--format``: which of ``formats`` the command prints; the first is the default. ``help`` says more than
    "output format" where the formats need explaining."""
    parser.add_argument("--format", choices=formats, default=formats[0],
                        help=help or f"output format (default: {formats[0]})")


def add_encoding_option(parser: argparse.ArgumentParser, what: str = "tokenizer for token counts") -> None:
    """``--encoding``: the tokenizer a command counts with. A name the studio does not know is a usage error
    (exit 2, the known names listed) before any work: counting with the default instead, or printing no count at
    all, both left a script believing it had the figures it asked for."""
    from studio.core.tokens import DEFAULT_ENCODING, is_known_encoding, known_encodings

    def encoding(name: str) -> str:
        if not is_known_encoding(name):
            raise argparse.ArgumentTypeError(f"unknown encoding {name!r}; known: {', '.join(known_encodings())}")
        return name

    parser.add_argument("--encoding", type=encoding, default=DEFAULT_ENCODING, metavar="NAME",
                        help=f"{what} ({', '.join(known_encodings())}; default {DEFAULT_ENCODING})")


def write_json(data: Any, notes: list[str] | None = None) -> None:
    """Pretty, stable, strict JSON on stdout (non-ASCII kept readable; see ``studio.core.jsonwrite``).

    ``notes`` collects what had to be written differently (NaN as ``".nan"``, bytes as base64 ...).
    """
    sys.stdout.write(dumps(data, indent=2, notes=notes) + "\n")


def envelope(ok: bool, status: str, command: str, pack: str, findings: list[dict[str, Any]],
             **extra: Any) -> dict[str, Any]:
    """The reference CLI's result shape: ``{ok, status, command, pack, findings[]}``."""
    return {"ok": ok, "status": status, "command": command, "pack": pack, "findings": findings, **extra}
