"""Turn one gap into work: a draft eval case appended to the pack's suite and a draft page that answers it.

``draft_gap`` only plans: it reads the pack and returns the edits with their diffs, so a dry run and a confirm
dialog show exactly what ``apply_draft`` will write. ``apply_draft`` writes each edit atomically, by descriptor
inside the pack, and only over the file the plan was made from (a compare-and-swap: a suite changed meanwhile
is not overwritten); a new file must still be new.

The suite is edited by ``evals.json_append``, as ``evals.authoring.add_case`` edits it: a curator's formatting
survives a draft. The page goes to ``documents/`` for a
``document-first`` pack and to ``wiki/`` otherwise, with frontmatter that marks it a draft and names its task.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.core.atomic import FileIdentity, write_atomic
from studio.core.authoring.skeletons import slugify
from studio.core.evals.authoring import ANSWER_QUALITY, case_id_for
from studio.core.evals.json_append import NotAppendable, append_to_array
from studio.core.evals.suites import MAX_SUITE_BYTES
from studio.core.model import Pack
from studio.core.pack_fs import PackFS, Status

MAX_TASK_CHARS = 500
"""A task longer than this is cut in the drafts (a page title and a case prompt, not a document)."""


@dataclass(frozen=True, slots=True)
class PlannedEdit:
    """One file a draft writes: new (``before`` is None) or appended to."""

    path: str
    """Pack-relative POSIX path."""
    before: str | None
    after: str
    expect: FileIdentity | None = None
    """The identity of the file the plan read (None for a new file)."""

    @property
    def is_new(self) -> bool:
        return self.before is None

    def diff(self) -> str:
        """A unified diff from the current file (or /dev/null) to the planned text."""
        old = (self.before or "").splitlines(keepends=True)
        new = self.after.splitlines(keepends=True)
        lines = difflib.unified_diff(old, new, "/dev/null" if self.is_new else f"a/{self.path}", f"b/{self.path}")
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "new": self.is_new, "diff": self.diff()}


@dataclass(frozen=True, slots=True)
class GapDraft:
    """The planned edits for one gap: the eval case and the page."""

    task: str
    case_id: str
    suite: PlannedEdit
    page: PlannedEdit

    @property
    def edits(self) -> tuple[PlannedEdit, PlannedEdit]:
        return (self.page, self.suite)

    def diff(self) -> str:
        return "".join(e.diff() for e in self.edits)

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "case_id": self.case_id, "edits": [e.to_json() for e in self.edits]}


def draft_gap(pack: Pack, task: str, suite: str = ANSWER_QUALITY) -> GapDraft:
    """Plan the draft for ``task``. Raises ValueError when the suite cannot take a case (e.g. not valid JSON)."""
    task = " ".join(task.split())[:MAX_TASK_CHARS]
    if not task:
        raise ValueError("the task is empty")
    with PackFS(pack.root) as fs:
        found = fs.read(suite, MAX_SUITE_BYTES + 1)
        folder = "documents" if pack.effective_profile == "document-first" else "wiki"
        stem = _stem(task)
        page_path = f"{folder}/{stem}.md"
        n = 1
        while fs.lstat(page_path) is not None and n < 1000:
            n += 1
            page_path = f"{folder}/{stem}-{n}.md"
    before, expect, taken = _suite_state(suite, found)
    case_id = case_id_for(task, taken)
    case = {"id": case_id, "prompt": task, "required_context": [page_path]}
    if before is None:
        after = json.dumps({"pack_name": pack.name, "evals": [case]}, ensure_ascii=False, indent=2) + "\n"
    else:
        try:
            after = append_to_array(before, "evals", case)
        except NotAppendable as exc:
            raise ValueError(f"{suite} cannot take a case: {exc}") from None
    page = PlannedEdit(page_path, None, _page_text(task, suite, case_id))
    return GapDraft(task, case_id, PlannedEdit(suite, before, after, expect), page)


def _stem(task: str) -> str:
    """A file stem for the page: the task's ASCII slug, plus a short hash when the slug dropped letters (a task in
    Chinese keeps only "northwind-pro-2"; two such tasks must not share a page)."""
    stem = slugify(task)[:60].strip("-")
    if any(ch.isalpha() and not ch.isascii() for ch in task):
        digest = hashlib.sha256(task.encode("utf-8", "surrogatepass")).hexdigest()[:10]
        stem = f"gap-{digest}" if stem == "untitled" else f"{stem}-{digest}"
    return stem


def _suite_state(suite: str, found: Any) -> tuple[str | None, FileIdentity | None, set[str]]:
    if found.status is Status.MISSING:
        return None, None, set()
    if found.status is not Status.OK or found.data is None or found.identity is None:
        raise ValueError(f"{suite} cannot be read ({found.status.value}); refusing to draft into it")
    if found.size > MAX_SUITE_BYTES:
        raise ValueError(f"{suite} is over {MAX_SUITE_BYTES:,} bytes; not edited here")
    try:
        text = found.data.decode("utf-8")
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ValueError(f"{suite} is not valid JSON ({exc}); fix it before drafting") from None
    cases = data.get("evals") if isinstance(data, dict) else None
    if not isinstance(cases, list):
        raise ValueError(f"{suite} has no 'evals' list; it is not an answer-quality suite")
    taken = {str(c.get("id")) for c in cases if isinstance(c, dict)}
    return text, FileIdentity.of(found.identity, found.data), taken


def _page_text(task: str, suite: str, case_id: str) -> str:
    # JSON strings with ASCII escapes are valid YAML double-quoted scalars: no task text can break the frontmatter.
    quoted = json.dumps(task, ensure_ascii=True)
    return (f"---\ntitle: {quoted}\nstatus: draft\ndraft: true\nanswers: {quoted}\neval_case: "
            f"{json.dumps(f'{suite}#{case_id}')}\n---\n\n# {_heading(task)}\n\n"
            "Draft: write the answer to this task here, with its sources, then remove `draft: true`.\n")


def _heading(task: str) -> str:
    return "".join(ch if ch.isprintable() else " " for ch in task).replace("#", "").strip() or "Draft"


def apply_draft(pack: Pack, draft: GapDraft) -> list[Path]:
    """Write the draft's files atomically inside the pack; the page first, so the case never names a missing file.

    Raises OSError (``ChangedOnDisk``, ``OutsidePack``, FileExistsError) and writes nothing further on the first
    failure; the page is new, so a failed suite write leaves only a draft page behind, never a broken suite.
    """
    written = []
    for edit in draft.edits:
        written.append(write_atomic(pack.root / edit.path, edit.after, root=pack.root,
                                    exclusive=edit.is_new, expect=edit.expect))
    return written
