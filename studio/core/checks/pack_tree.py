"""Symlinks out of the pack and symlink loops (warnings), hard links (info), and a walk that stopped early.

A content check over the shared walk of the pack (``CheckContext.tree``). The studio never follows a symlink
out of a pack, nor a symlinked folder at all; these findings say where such links are, because another client
may follow them. A regular file with more than one hard link (``st_nlink > 1``) may share its bytes with a file
outside the pack. When the walk stops at its depth or entry limit, a ``walk-limit`` warning says where, since
the other content checks did not see what lies beyond. The findings are declared in ``tree_findings``.
"""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Diagnostic
from studio.core.tree_findings import hard_link_findings, limit_findings, link_findings


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    tree = ctx.tree
    yield from link_findings(tree)
    yield from hard_link_findings(tree)
    yield from limit_findings(tree)
