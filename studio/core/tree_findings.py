"""Findings about a pack's folder tree as one ``pack_fs`` walk saw it: links out, loops, hard links, early stops.

The studio never follows a symlink out of a pack, and never follows a symlinked folder at all; but a curator
should know that such a link is there (another client may follow it), so a symlink leading outside the pack
and a symlink loop are warnings on the link's path. A regular file with more than one hard link is an info: the
same bytes have another name, possibly outside the pack, and editing either edits both. A walk that stopped at
its depth or entry limit is a warning: files beyond it were not checked.
"""

from __future__ import annotations

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.pack_fs import LinkState, PackTree

SYMLINK_OUTSIDE_PACK = Code("symlink-outside-pack", Severity.WARNING,
                            "a symlink inside the pack leads outside it: the studio never follows it, other clients "
                            "might", Behavior.LOAD, hint="Replace the symlink with the file or folder itself.")
SYMLINK_LOOP = Code("symlink-loop", Severity.WARNING,
                    "a symlink loops (to itself, in a cycle, or to a folder that holds it): never followed",
                    Behavior.LOAD, hint="Remove the symlink.")
HARD_LINK = Code("hard-link", Severity.INFO,
                 "a file has more than one hard link: the same bytes have another name, possibly outside the pack",
                 Behavior.LOAD, hint="Copy the file instead of hard-linking it, so edits stay inside the pack.")
WALK_LIMIT = Code("walk-limit", Severity.WARNING,
                  "a walk of the pack stopped at its depth or entry limit: files beyond it were not checked",
                  Behavior.LOAD, hint="Flatten the folders, or move what is not knowledge out of the pack.")
CODES = (SYMLINK_OUTSIDE_PACK, SYMLINK_LOOP, HARD_LINK, WALK_LIMIT)


def link_findings(tree: PackTree) -> list[Diagnostic]:
    """A warning for each symlink that leads outside the pack or loops, on the link's path."""
    out: list[Diagnostic] = []
    for link in tree.links:
        if link.state is LinkState.OUTSIDE:
            out.append(SYMLINK_OUTSIDE_PACK(f"{link.rel} is a symlink to '{_shown(link.target)}', outside the pack; "
                                            "never followed", link.rel))
        elif link.state is LinkState.LOOP:
            what = "a folder that holds it" if link.resolved is not None else "itself or a cycle of links"
            out.append(SYMLINK_LOOP(f"{link.rel} is a symlink that loops back to {what}; never followed", link.rel))
    return out


def hard_link_findings(tree: PackTree) -> list[Diagnostic]:
    """An info for each regular file with more than one hard link."""
    return [HARD_LINK(f"{entry.rel} has {entry.nlink} hard links: another name for the same file may lie outside "
                      "the pack", entry.rel)
            for entry in tree.files if entry.nlink > 1 and entry.is_regular]


def limit_findings(tree: PackTree, what: str = "the pack", file: str = "KNOWLEDGE.md") -> list[Diagnostic]:
    """A warning when the walk stopped early (depth or entry limit), naming where."""
    out: list[Diagnostic] = []
    if tree.too_deep_count:
        first = tree.too_deep[0] if tree.too_deep else ""
        out.append(WALK_LIMIT(f"{tree.too_deep_count} folder(s) of {what} lie deeper than {tree.max_depth} levels and "
                              f"were not checked (first: {first})", first or file))
    if tree.stopped_at is not None:
        out.append(WALK_LIMIT(f"The walk of {what} stopped after {tree.max_entries:,} entries (in "
                              f"{tree.stopped_at or 'the pack root'}/); the rest was not checked", file))
    return out


def _shown(target: str) -> str:
    # A link's text is pack-controlled: one line, bounded.
    one_line = " ".join(target.split())
    return one_line if len(one_line) <= 120 else one_line[:117] + "..."
