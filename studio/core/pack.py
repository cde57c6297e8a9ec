"""Load one pack: read ``KNOWLEDGE.md`` safely, parse it, run every check. Never stops at the first problem."""

from __future__ import annotations

import os
from pathlib import Path

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity, sort_diagnostics
from studio.core.frontmatter import MAX_KNOWLEDGE_BYTES, read_knowledge_bytes
from studio.core.model import Pack, Scope
from studio.core.paths import list_top_dirs, read_bounded, read_regular_file
from studio.core.validate import validate_pack

NOT_A_DIRECTORY = Code("not-a-directory", Severity.ERROR, "a path given as a pack or a scope root is not a folder",
                       Behavior.SKIP, "V01", hint="Point the studio at a pack directory.")
BROKEN_SYMLINK = Code("broken-symlink", Severity.ERROR, "KNOWLEDGE.md is a symlink that leads nowhere or to itself",
                      Behavior.SKIP, "V02", hint="Replace the symlink with the file itself.")
MISSING_KNOWLEDGE_MD = Code("missing-knowledge-md", Severity.ERROR,
                            "the folder has no KNOWLEDGE.md (the name is case-sensitive)", Behavior.SKIP, "V02",
                            hint="Name the entry file exactly KNOWLEDGE.md.")
KNOWLEDGE_MD_NOT_FILE = Code("knowledge-md-not-file", Severity.ERROR, "KNOWLEDGE.md is a folder, not a file",
                             Behavior.SKIP, "V02", hint="KNOWLEDGE.md must be a regular Markdown file.")
CODES = (NOT_A_DIRECTORY, BROKEN_SYMLINK, MISSING_KNOWLEDGE_MD, KNOWLEDGE_MD_NOT_FILE)
NO_SUCH_FOLDER = "does not exist (a pack folder is needed here)"
"""What a command says of a pack path that is not there: usually a pack's name typed where its folder belongs."""


def load_pack(root: Path, scope: Scope = Scope.EXPLICIT, scope_root: Path | None = None, *,
              content: bool = False, top_dirs: frozenset[str] | None = None) -> Pack:
    """Read and validate the pack at ``root``; the Pack returned is frozen and carries only its own findings.

    Returns a Pack in every case; problems (including "this is not a pack") are in ``pack.diagnostics``.
    ``content`` also runs the checks that read every text file (see ``validate_pack``).
    Reads at most ``MAX_KNOWLEDGE_BYTES`` (+1) of ``KNOWLEDGE.md`` and nothing is written. ``top_dirs`` are
    the pack's top-level folder names when the caller just listed them (the scanner does), else they are read.
    Shadowing and collisions are not decided here: see ``studio.core.shadowing.settle``.
    """
    root = _absolute(root)
    plain = read_regular_file(os.path.join(root, "KNOWLEDGE.md"), MAX_KNOWLEDGE_BYTES + 1)
    if plain is not None:
        return _parse_and_check(Pack(root, scope, scope_root, top_dirs=top_dirs), *plain, content)
    # Not a plain regular file: a symlink, a directory, missing, unreadable... the careful path names it.
    problem = _pack_path_problem(root)
    if problem is None:
        data, size, problem = read_bounded(root / "KNOWLEDGE.md", MAX_KNOWLEDGE_BYTES + 1, root=root)
        if problem is None:
            assert data is not None
            return _parse_and_check(Pack(root, scope, scope_root, top_dirs=top_dirs), data, size, content)
    return Pack(root, scope, scope_root, diagnostics=(problem.with_pack(str(root)),), top_dirs=top_dirs)


def _absolute(root: Path | str) -> Path:
    # The scanner hands over absolute, normalised paths; building a second Path for each pack showed up.
    if isinstance(root, Path) and root.is_absolute() and ".." not in root.parts:
        return root
    return Path(os.path.abspath(root))


def validate_text(root: Path, text: str, scope: Scope = Scope.EXPLICIT, scope_root: Path | None = None, *,
                  content: bool = True) -> Pack:
    """Validate an unsaved ``KNOWLEDGE.md`` buffer as if it were on disk in ``root`` (the editor's live check).

    The rest of the pack (directories, pointers) is read from disk; nothing is written. The content checks run
    too, as in every validation, so the pack's counts do not change while it is edited; what they find in the
    pack's other files is reused while those files are unchanged (``validate_pack(reuse_files=True)``).
    """
    data = text.encode("utf-8")
    return _parse_and_check(Pack(Path(os.path.abspath(root)), scope, scope_root), data, len(data), content,
                            reuse_files=True)


def _parse_and_check(draft: Pack, data: bytes, size: int, content: bool = False, reuse_files: bool = False) -> Pack:
    """The frozen pack: ``draft`` (root, scope, folder names) with its knowledge file and every finding."""
    knowledge, diags = read_knowledge_bytes(data, size=size)
    top_dirs = draft.top_dirs if draft.top_dirs is not None else list_top_dirs(draft.root)
    # Built with the constructor, not dataclasses.replace (several times slower, twice per pack of a scan).
    draft = Pack(draft.root, draft.scope, draft.scope_root, knowledge=knowledge, top_dirs=top_dirs)
    diags.extend(validate_pack(draft, content=content, reuse_files=reuse_files))
    owner = str(draft.root)
    return Pack(draft.root, draft.scope, draft.scope_root, knowledge=knowledge, top_dirs=top_dirs,
                diagnostics=tuple(sort_diagnostics(d if d.pack else d.with_pack(owner) for d in diags)))


def reload_pack(pack: Pack, *, content: bool = True) -> Pack:
    """Load the same directory again (after a file changed on disk), keeping scope and the last verdict.

    The workspace settles the verdict again when the fresh pack replaces the old one.
    """
    return load_pack(pack.root, pack.scope, pack.scope_root, content=content).with_verdict(pack.verdict)


def _pack_path_problem(root: Path) -> Diagnostic | None:
    if not root.is_dir():
        # A name typed where a folder was wanted (``read-files northwind-espresso``) is the usual cause: say that
        # nothing is there, not only that it is not a folder.
        what = "is not a directory" if os.path.lexists(root) else NO_SUCH_FOLDER
        return NOT_A_DIRECTORY(f"{root} {what}", file=str(root))
    knowledge = root / "KNOWLEDGE.md"
    if knowledge.is_symlink() and not knowledge.exists():
        return BROKEN_SYMLINK("KNOWLEDGE.md is a symlink that leads nowhere (or to itself)")
    if not knowledge.exists():
        near = [p.name for p in _safe_listdir(root) if p.name.lower() == "knowledge.md" and p.name != "KNOWLEDGE.md"]
        extra = f" (found '{near[0]}': the name is case-sensitive)" if near else ""
        return MISSING_KNOWLEDGE_MD(f"No KNOWLEDGE.md in this directory{extra}", file="KNOWLEDGE.md")
    if knowledge.is_dir():
        return KNOWLEDGE_MD_NOT_FILE("KNOWLEDGE.md is a directory, not a file")
    return None


def _safe_listdir(root: Path) -> list[Path]:
    try:
        return list(root.iterdir())
    except OSError:
        return []
