"""Path safety: everything a pack names resolves from its root and must stay inside it."""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath


def is_unsafe_pointer(value: str) -> bool:
    """True when a pack-relative pointer is absolute, has a drive, or walks up with ``..``."""
    if not value or value.startswith(("/", "\\")) or (len(value) > 1 and value[1] == ":") or "\x00" in value:
        return True
    parts = PurePosixPath(value.replace("\\", "/")).parts
    return ".." in parts


def resolve_inside(root: Path, value: str) -> Path | None:
    """Resolve ``value`` against ``root``; None when it is unsafe or a symlink leads outside the root.

    Does not check that the target exists.
    """
    if is_unsafe_pointer(value):
        return None
    candidate = root / value.split("#", 1)[0]
    return candidate if is_inside(root, candidate) else None


def is_inside(root: Path, path: Path) -> bool:
    """True when ``path`` (after following symlinks) stays inside ``root``.

    Fast path: when ``path`` lies lexically under ``root`` and no component between them is a symlink,
    it cannot leave the root; only then is ``realpath`` (an lstat per component from ``/``) avoided.
    """
    try:
        rel = Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
    except ValueError:
        rel = None
    if rel is not None and ".." not in rel.parts:
        current = str(root)
        for part in rel.parts:
            current = os.path.join(current, part)
            try:
                if stat.S_ISLNK(os.lstat(current).st_mode):
                    break
            except ValueError:
                return False  # a NUL byte: not a path any file system can hold
            except OSError:
                return True  # nothing there (or a name too long to exist): nothing to escape through
        else:
            return True
    try:
        real_root = Path(os.path.realpath(root))
        real = Path(os.path.realpath(path))
    except (OSError, RuntimeError, ValueError):
        return False
    return real == real_root or real_root in real.parents


def is_file(path: Path) -> bool:
    """``path.is_file()`` that answers False for names the OS rejects (too long, NUL bytes) instead of raising."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False
