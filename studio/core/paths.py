"""Path safety: everything a pack names resolves from its root and must stay inside it."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def is_unsafe_pointer(value: str) -> bool:
    """True when a pack-relative pointer is absolute, has a drive, or walks up with ``..``."""
    if not value or value.startswith(("/", "\\")) or (len(value) > 1 and value[1] == ":") or "\x00" in value:
        return True
    return ".." in value.replace("\\", "/").split("/")


def resolve_inside(root: Path, value: str) -> Path | None:
    """Resolve ``value`` against ``root``; None when it is unsafe or a symlink leads outside the root.

    Does not check that the target exists.
    """
    if is_unsafe_pointer(value):
        return None
    candidate = root / value.split("#", 1)[0]
    return candidate if is_inside(root, candidate) else None


def is_inside(root: Path | str, path: Path | str) -> bool:
    """True when ``path`` (after following symlinks) stays inside ``root``.

    Fast path: when ``path`` lies lexically under ``root`` and no component between them is a symlink,
    it cannot leave the root; only then is ``realpath`` (an lstat per component from ``/``) avoided.
    Works on strings: this runs for every pointer of every pack, and pathlib objects cost more than
    the system calls here.
    """
    try:
        root_s = os.path.abspath(root)
        path_s = os.path.abspath(path)
    except ValueError:
        return False  # a NUL byte: not a path any file system can hold
    if path_s == root_s:
        return True
    prefix = root_s if root_s.endswith(os.sep) else root_s + os.sep
    if path_s.startswith(prefix):
        current = root_s
        for part in path_s[len(prefix):].split(os.sep):
            current = os.path.join(current, part)
            try:
                if stat.S_ISLNK(os.lstat(current).st_mode):
                    break
            except ValueError:
                return False
            except OSError:
                return True  # nothing there (or a name too long to exist): nothing to escape through
        else:
            return True
    try:
        real_root = os.path.realpath(root_s)
        real = os.path.realpath(path_s)
    except (OSError, RuntimeError, ValueError):
        return False
    return real == real_root or real.startswith(real_root if real_root.endswith(os.sep) else real_root + os.sep)


def is_file(path: Path) -> bool:
    """``path.is_file()`` that answers False for names the OS rejects (too long, NUL bytes) instead of raising."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False
