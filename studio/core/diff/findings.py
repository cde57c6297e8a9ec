"""Validation findings new in the new version and resolved since the old one.

A finding is matched on its code, file and message, not its line: an edit above it moves it without making it
new. The pack's own folder is taken out of messages and file names first (a ref is validated in a temporary
folder; two folders being compared have different paths), so only what the pack says can differ.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from studio.core.diagnostics import Diagnostic
from studio.core.diff.report import Finding, FindingsDiff
from studio.core.model import Pack


def findings_of(pack: Pack) -> list[Finding]:
    return [_finding(d, pack.root) for d in pack.diagnostics]


def diff_findings(old: list[Finding], new: list[Finding]) -> FindingsDiff:
    def key(f: Finding) -> tuple[str, str, str]:
        return (f.code, f.file, f.message)

    before = Counter(key(f) for f in old)
    after = Counter(key(f) for f in new)
    out = FindingsDiff()
    left = before - after
    for f in new:  # as many of a key as the new version has more of: the last ones are the new ones
        if after[key(f)] > before[key(f)]:
            out.added.append(f)
            after[key(f)] -= 1
    for f in old:
        if left[key(f)] > 0:
            out.removed.append(f)
            left[key(f)] -= 1
    return out


def _finding(d: Diagnostic, root: Path) -> Finding:
    prefix = str(root)
    file = d.file
    if file.startswith(prefix + "/") or file.startswith(prefix + "\\"):
        file = file[len(prefix) + 1:].replace("\\", "/")
    message = d.message.replace(prefix + "/", "").replace(prefix, ".")
    return Finding(d.code, d.severity.value, file, d.line, message)
