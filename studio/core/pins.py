"""Pins: which copy of a pack name wins within one scope, as the curator chose, and the file that stores them.

When two loadable packs of one name sit in the same scope, the standard gives no order; the studio falls back
on path order (``shadowing.settle``), which can let an old checkout shadow the current one. A pin names the copy
that should win instead. Pins never reorder scopes: a project copy still outranks a user copy (digest 4.3).

One store for the app and the CLI: ``<project>/.pack-studio/workspace.json``, where the project is the
``--project`` folder, else the first folder opened (``workspace_pins_file``), so ``pack-studio validate .`` and
a window opened on ``.`` agree on which copy wins. The CLI also takes ``--pins FILE`` and ``--pin NAME=PATH``;
the app keeps pins in its settings only for a workspace with no folder (the bundled examples alone). The file is
strict JSON, at most 64 KiB::

    {
      "pins": {
        "acme": "packs/v0.7.2/acme"
      }
    }

A relative path is read from the project folder, the one holding ``.pack-studio/`` (for a file elsewhere: the
folder holding the file). Duplicate keys, unknown keys, non-string values, ``NaN`` and anything beyond JSON are
errors, so a typo never passes silently.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from studio.core.atomic import make_folders, write_atomic
from studio.core.paths import read_bounded

PINS_FILE = Path(".pack-studio") / "workspace.json"
"""Where a project keeps its pins, relative to the project folder."""
MAX_PINS_BYTES = 64 * 1024
MAX_PINS = 1000


class PinsError(ValueError):
    """The pins file or a ``NAME=PATH`` pin cannot be used; the message says where and why."""


def project_pins_file(project: Path) -> Path:
    return Path(project) / PINS_FILE


def workspace_pins_file(project: Path | None, explicit: Sequence[Path] = ()) -> Path | None:
    """The pins file of a workspace: its project's, else its first opened folder's; None when it has neither."""
    folder = project if project is not None else next(iter(explicit), None)
    return project_pins_file(Path(os.path.abspath(folder))) if folder is not None else None


def set_pin_in_file(file: Path, name: str, root: Path | None) -> dict[str, Path]:
    """Pin ``root`` for ``name`` in ``file`` (None removes it), written atomically; returns the pins now stored.

    Raises PinsError when the file cannot be read, and OSError when it cannot be written.
    """
    pins = read_pins_file(file)
    if root is None:
        pins.pop(name, None)
    else:
        pins[name] = Path(os.path.abspath(root))
    make_folders(Path(file).parent.parent, Path(file).parent.name)
    write_pins_file(file, pins)
    return pins


def pins_base(file: Path) -> Path:
    """The folder relative pins are read from: the project for ``.pack-studio/workspace.json``, else the file's."""
    folder = Path(os.path.abspath(file)).parent
    return folder.parent if folder.name == ".pack-studio" else folder


def read_pins_file(file: Path) -> dict[str, Path]:
    """The pins in ``file`` (name -> absolute pack root); {} when the file does not exist. Raises PinsError."""
    try:
        if not os.path.lexists(file):
            return {}
    except ValueError:  # a NUL byte in the name
        raise PinsError(f"{file!r}: not a file name") from None
    data, size, problem = read_bounded(Path(file), MAX_PINS_BYTES + 1)
    if problem is not None or data is None:
        raise PinsError(f"{file}: {problem.message if problem else 'cannot be read'}")
    if size > MAX_PINS_BYTES:
        raise PinsError(f"{file}: {size:,} bytes; a pins file holds at most {MAX_PINS_BYTES:,}")
    return parse_pins(data, file)


def parse_pins(data: bytes, file: Path) -> dict[str, Path]:
    """Parse the bytes of a pins file named ``file`` (for messages and relative paths). Raises PinsError."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PinsError(f"{file}: not UTF-8 (byte {exc.start})") from None
    try:
        doc = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise PinsError(f"{file}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise PinsError(f"{file}: nested too deeply to be a pins file") from None
    except ValueError as exc:  # a duplicate key, NaN, an integer over Python's digit limit
        raise PinsError(f"{file}: {exc}") from None
    if not isinstance(doc, dict):
        raise PinsError(f"{file}: expected an object with a \"pins\" object")
    unknown = sorted(set(doc) - {"pins"})
    if unknown:
        raise PinsError(f"{file}: unknown key(s) {', '.join(map(repr, unknown))}; the file holds only \"pins\"")
    pins = doc.get("pins", {})
    if not isinstance(pins, dict):
        raise PinsError(f"{file}: \"pins\" must be an object of pack name -> path")
    if len(pins) > MAX_PINS:
        raise PinsError(f"{file}: more than {MAX_PINS} pins")
    base = pins_base(file)
    out: dict[str, Path] = {}
    for name, value in pins.items():
        if not name.strip() or not isinstance(value, str) or not value.strip() or "\0" in value:
            raise PinsError(f"{file}: pin {name!r} must map a pack name to a non-empty path")
        out[name] = _absolute(value, base)
    return out


def parse_pin_option(text: str, base: Path | None = None) -> tuple[str, Path]:
    """``NAME=PATH`` (from ``--pin``) as (name, absolute root); a relative PATH is read from ``base`` or the cwd."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip() or "\0" in text:
        raise PinsError(f"expected NAME=PATH, got {text!r}")
    return name.strip(), _absolute(value.strip(), base or Path.cwd())


def write_pins_file(file: Path, pins: Mapping[str, Path]) -> Path:
    """Write ``pins`` to ``file`` atomically (sorted; paths inside the base folder written relative to it)."""
    base = pins_base(file)
    doc = {"pins": {name: _relative(root, base) for name, root in sorted(pins.items())}}
    return write_atomic(Path(file), json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def _absolute(value: str, base: Path) -> Path:
    path = Path(os.path.expanduser(value))
    if path.name == "KNOWLEDGE.md":
        path = path.parent
    return Path(os.path.abspath(path if path.is_absolute() else base / path))


def _relative(root: Path, base: Path) -> str:
    try:
        rel = Path(os.path.abspath(root)).relative_to(base)
    except ValueError:
        return str(root)
    return rel.as_posix() or "."


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


__all__ = ["MAX_PINS_BYTES", "PINS_FILE", "PinsError", "parse_pin_option", "parse_pins", "pins_base",
           "project_pins_file", "read_pins_file", "set_pin_in_file", "workspace_pins_file", "write_pins_file"]
