"""The studio's bundled data: example packs, icons, pack templates and JSON schemas, found through importlib.resources.

The repository keeps examples, icons and templates in ``resources/`` at its top level; the build maps that folder
into the installed package as ``studio.resources`` (``setup.py``), so an editable install, a wheel and a frozen
bundle reach it the same way. The JSON schemas live inside the code package (``studio/schemas``). No caller finds
these folders by a path relative to a source file.

An installation can still be incomplete (a hand-copied tree, a broken packaging step): the findings below name the
folder that should be there, so the built-in scope is never silently empty.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from studio.core.diagnostics import Code, Diagnostic, Severity

DATA_PACKAGE = "studio.resources"

BUILTIN_SCOPE_MISSING = Code(
    "builtin-scope-missing", Severity.WARNING,
    "the bundled example packs (the built-in scope) are missing or damaged in this installation, so no built-in "
    "pack is listed",
    hint="Reinstall Knowledge Pack Studio (pip install --force-reinstall knowledge-pack-studio); an editable "
    "install needs `pip install -e .` again after its build configuration changed.",
)
RESOURCE_MISSING = Code(
    "resource-missing", Severity.WARNING,
    "a file the studio ships with (a JSON schema) is missing or unreadable, so the check that needs it did not run",
    hint="Reinstall Knowledge Pack Studio; the installation is incomplete.",
)
CODES = (BUILTIN_SCOPE_MISSING, RESOURCE_MISSING)


@cache
def data_root() -> Path:
    """The folder of ``studio.resources`` on disk, or where it should be when the installation lacks it."""
    # Imported here: importlib.resources brings shutil and tempfile (~15 ms), and a command given its paths
    # never asks for the bundled data.
    from importlib import resources

    try:
        root = resources.files(DATA_PACKAGE)
    except ModuleNotFoundError:
        # The data package is absent (a damaged install, or an editable install made before the mapping
        # existed): name the place a wheel puts it, so the warning points somewhere useful.
        return Path(str(resources.files("studio"))) / "resources"
    # A folder on disk is a Path; anything else (a zip import) cannot be scanned like a folder, and the
    # checks below then report its location as missing.
    return root if isinstance(root, Path) else Path(str(root))


def examples_dir() -> Path:
    """The bundled example packs: the built-in discovery scope."""
    return data_root() / "examples"


def in_builtin_scope(path: Path) -> bool:
    """Whether ``path`` lies in the bundled examples' folder (the built-in scope), which ships inside the installed
    package and is read-only to the studio: a run record or an edit written there would change the installation.
    Links are followed (a link to an example is the example); an unresolvable path is not built-in."""
    try:
        here = os.path.realpath(path)
        base = os.path.realpath(examples_dir())
    except (OSError, ValueError):
        return False
    return here == base or here.startswith(base.rstrip(os.sep) + os.sep)


def icons_dir() -> Path:
    """The studio's SVG icons (``<name>.svg``), including the application icon ``app.svg``."""
    return data_root() / "icons"


def templates_dir() -> Path:
    """Pack templates for new packs, one folder per template (``templates/<template-name>/``)."""
    return data_root() / "templates"


def schemas_dir() -> Path:
    """The JSON schema files run records and indexes are checked against (``<name>.schema.json``)."""
    from importlib import resources

    return Path(str(resources.files("studio"))) / "schemas"


def builtin_scope_findings(path: Path, packs_found: int) -> list[Diagnostic]:
    """A warning when the built-in scope at ``path`` is missing, not a folder, or holds no pack; else nothing."""
    if not os.path.exists(path):
        why = f"{path} does not exist"
    elif not os.path.isdir(path):
        why = f"{path} is not a folder"
    elif packs_found == 0:
        why = f"{path} holds no pack (no folder with a KNOWLEDGE.md)"
    else:
        return []
    return [BUILTIN_SCOPE_MISSING(f"Bundled example packs not found: {why}; this installation is incomplete",
                                  file=str(path))]


def missing_resource(path: Path, reason: str, *, file: str) -> Diagnostic:
    """The finding for a bundled file that could not be read; ``file`` is the pack file whose check it stopped."""
    return RESOURCE_MISSING(f"Cannot read the studio's own {path} ({reason}); {file} was not checked against it",
                            file=file)
