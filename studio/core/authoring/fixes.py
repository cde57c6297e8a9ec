"""Quick fixes: for a finding, the minimal edits that repair it, each proved by validating the result.

A fixer (``fix_rules``) proposes edits for one diagnostic code; ``fixes_for`` keeps only the proposals that
pass ``verify``: validated again, the text must have lost the finding and gained none (a placeholder fix
may name the findings it knowingly brings, such as ``status-draft`` for a ``status: draft`` placeholder).
When the frontmatter could not be read before the fix (tab indentation), findings its values now show
were there all along, hidden by the parse error; only new parse errors count then.

Kinds: ``edit`` changes ``KNOWLEDGE.md``'s text; ``placeholder`` inserts a required key with a value to type
over (never applied by the CLI); ``create-file`` creates a file a context map names and ``rename-folder``
renames the pack folder (both in the app only). ``cli`` marks the meaning-preserving edits that
``pack-studio fix --write`` applies.
"""

from __future__ import annotations

import difflib
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from studio.core.authoring.files import create_file, create_folder
from studio.core.authoring.fix_rules import FIXERS
from studio.core.authoring.fix_types import Fix, FixContext, FixKind
from studio.core.diagnostics import Diagnostic
from studio.core.frontmatter_edit import EditError, FieldEdit, read_knowledge_text, unified_diff, write_knowledge_edit
from studio.core.model import Pack
from studio.core.pack import validate_text

PARSE_CODES = frozenset({"invalid-yaml", "tab-indentation", "duplicate-key", "yaml-anchor-alias",
                         "frontmatter-not-mapping", "frontmatter-too-complex", "missing-frontmatter",
                         "unclosed-frontmatter", "invalid-encoding"})


def has_fix(code: str) -> bool:
    """Whether findings with ``code`` may have a quick fix (cheap: no text is read)."""
    return code in FIXERS


def fixable_codes() -> tuple[str, ...]:
    return tuple(sorted(FIXERS))


def fixes_for(root: Path, text: str, diagnostic: Diagnostic, pack: Pack | None = None) -> list[Fix]:
    """The verified fixes for ``diagnostic``, found in ``text`` (``KNOWLEDGE.md`` of the pack at ``root``)."""
    propose = FIXERS.get(diagnostic.code)
    if propose is None or diagnostic.file != "KNOWLEDGE.md":
        return []
    root = Path(os.path.abspath(root))
    pack = pack if pack is not None else validate_text(root, text)
    context = FixContext(root, text, pack)
    try:
        proposals = propose(context, diagnostic)
    except EditError:
        return []
    return [fix for fix in proposals if verify(root, fix, before=pack) is None]


def fixes_at_line(root: Path, text: str, line: int) -> list[Fix]:
    """Every verified fix for the findings on ``line`` of ``text`` (the editor's Ctrl+.)."""
    pack = validate_text(Path(os.path.abspath(root)), text)
    out: list[Fix] = []
    for diagnostic in pack.diagnostics:
        if diagnostic.line == line and diagnostic.file == "KNOWLEDGE.md":
            out.extend(fixes_for(root, text, diagnostic, pack))
    return out


def lines_with_fixes(root: Path, text: str) -> frozenset[int]:
    """The lines of ``text`` where a verified fix applies: where the editor shows its light bulb.

    A code with a fixer is not enough (an unknown key with no near-miss has none); each finding's fixes are
    worked out and proved, so this runs off the GUI thread.
    """
    root = Path(os.path.abspath(root))
    pack = validate_text(root, text)
    return frozenset(d.line for d in pack.diagnostics
                     if has_fix(d.code) and d.file == "KNOWLEDGE.md" and fixes_for(root, text, d, pack))


def verify(root: Path, fix: Fix, *, before: Pack | None = None) -> str | None:
    """None when ``fix`` removes its finding and adds none; else why it is refused."""
    if fix.kind in (FixKind.CREATE_FILE, FixKind.RENAME_FOLDER):
        return None  # changes no text; the file operations check their own targets
    if fix.new_text == fix.old_text:
        return "the fix changes nothing"
    before = before if before is not None else validate_text(root, fix.old_text)
    after = validate_text(root, fix.new_text)
    return compare(before.diagnostics, after.diagnostics, fix.code, fix.expected,
                   readable_before=before.frontmatter is not None)


def compare(before: Sequence[Diagnostic], after: Sequence[Diagnostic], code: str, expected: tuple[str, ...] = (), *,
            readable_before: bool = True) -> str | None:
    """The verification rule on two lists of findings (see the module docstring)."""
    old = Counter(d.code for d in before)
    new = Counter(d.code for d in after)
    if new[code] >= old[code]:
        return f"the fix does not remove '{code}'"
    for other, count in new.items():
        if other == code or count <= old[other] + expected.count(other):
            continue
        if not readable_before and other not in PARSE_CODES:
            continue  # shown now that the frontmatter reads; it was there before, hidden by the parse error
        return f"the fix would add '{other}'"
    return None


@dataclass(frozen=True, slots=True)
class FixRun:
    """What ``pack-studio fix`` does to one pack: the fixes applied in turn, and the findings left."""

    root: Path
    old_text: str
    new_text: str
    applied: tuple[Fix, ...]
    left: tuple[tuple[Diagnostic, str], ...]
    """Fixable findings not fixed, with why (the fix needs the app, or no safe fix is certain)."""
    remaining: tuple[Diagnostic, ...]
    """Every finding of the text after the fixes."""
    creations: tuple[Fix, ...] = ()
    """With ``create``: the create-file fixes for the findings left (``create_files`` makes them)."""

    @property
    def diff(self) -> str:
        return unified_diff(self.old_text, self.new_text)

    def diff_named(self, path: str) -> str:
        """The diff with ``path`` (e.g. the absolute file path) in its header lines."""
        return "".join(difflib.unified_diff(self.old_text.splitlines(keepends=True),
                                            self.new_text.splitlines(keepends=True), path, path))

    @property
    def changed(self) -> bool:
        return self.new_text != self.old_text


MAX_STEPS = 100


def plan_fixes(root: Path, text: str | None = None, *, codes: frozenset[str] | None = None,
               create: bool = False) -> FixRun:
    """Apply every meaning-preserving fix to ``text`` (``KNOWLEDGE.md`` by default), one at a time, each
    verified on the result of the one before. Writes nothing; ``write_fixes`` does.

    Line numbers (of the fixes applied and the findings left) are those of the original text, where the
    author looks for them. With ``create``, a finding left that a new file or folder repairs (a context-map
    line naming a missing file) is planned as a creation instead (``creations``; ``create_files`` makes them).
    """
    root = Path(os.path.abspath(root))
    original = read_knowledge_text(root) if text is None else text
    current = original
    applied: list[Fix] = []
    for _step in range(MAX_STEPS):
        pack = validate_text(root, current)
        step = _first_cli_fix(root, current, pack, codes)
        if step is None:
            break
        steps = [fix.old_text for fix in applied] + [current]  # the texts line numbers go back through
        applied.append(replace(step, line=original_line(steps, step.line)))
        current = step.new_text
    texts = [fix.old_text for fix in applied] + [current]
    pack = validate_text(root, current)
    left = []
    creations = []
    for diagnostic in pack.diagnostics:
        if diagnostic.file != "KNOWLEDGE.md" or not has_fix(diagnostic.code):
            continue
        if codes is not None and diagnostic.code not in codes:
            continue
        fixes = fixes_for(root, current, diagnostic, pack)
        made = next((f for f in fixes if f.kind is FixKind.CREATE_FILE), None) if create else None
        if made is not None:
            creations.append(replace(made, line=original_line(texts, made.line)))
        else:
            left.append((replace(diagnostic, line=original_line(texts, diagnostic.line)), _why_left(fixes)))
    return FixRun(root, original, current, tuple(applied), tuple(left), tuple(pack.diagnostics),
                  tuple(creations))


def original_line(texts: Sequence[str], line: int) -> int:
    """Where 1-based ``line`` of ``texts[-1]`` was in ``texts[0]``, going back one edit at a time.

    A line an edit inserted maps to the line before the insertion (the place the author would look).
    """
    for new, old in zip(reversed(texts[1:]), reversed(texts[:-1]), strict=True):
        if new != old:
            line = _line_before(old, new, line)
    return line


def _line_before(old: str, new: str, line: int) -> int:
    matcher = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if new_start < line <= new_end:
            inside = line - 1 - new_start
            if tag == "equal" or (tag == "replace" and inside < old_end - old_start):
                return old_start + inside + 1
            return max(old_start, 1)  # inserted: the line just before, in the original
    return line


def _first_cli_fix(root: Path, text: str, pack: Pack, codes: frozenset[str] | None) -> Fix | None:
    # Parse problems first: until the frontmatter reads, the other findings cannot be seen.
    ordered = sorted(pack.diagnostics, key=lambda d: d.code not in PARSE_CODES)
    for diagnostic in ordered:
        if codes is not None and diagnostic.code not in codes:
            continue
        for fix in fixes_for(root, text, diagnostic, pack):
            if fix.cli:
                return fix
    return None


def _why_left(fixes: list[Fix]) -> str:
    if not fixes:
        return "no fix applies safely here"
    notes = [f.note for f in fixes if f.kind is FixKind.EDIT and f.note]
    if notes:
        return notes[0]
    return "the fix needs a choice in the app (Ctrl+.): " + "; ".join(f.title for f in fixes)


def create_for_fix(root: Path, fix: Fix) -> Path:
    """Make the file or folder a create-file ``fix`` names, never over anything (FileOpError says why not)."""
    if fix.kind is not FixKind.CREATE_FILE or fix.path is None:
        raise ValueError(f"{fix.title} creates nothing")
    if fix.file_text is None:
        return create_folder(root, fix.path)
    return create_file(root, fix.path, fix.file_text)


def create_files(run: FixRun) -> list[Path]:
    """Make every file ``run`` planned (``plan_fixes(create=True)``); stops at the first FileOpError."""
    return [create_for_fix(run.root, fix) for fix in run.creations]


def write_fixes(run: FixRun) -> Path:
    """Write ``run``'s text atomically; refuses (EditError) if ``KNOWLEDGE.md`` changed since it was read."""
    return write_knowledge_edit(run.root, FieldEdit(run.old_text, run.new_text, run.diff))
