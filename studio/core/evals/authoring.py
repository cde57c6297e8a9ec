"""Author suites: a case from the current Resolve task ("expect these files"), appended to a suite file.

``prepare_case`` says what adding a case would change (the text before and after, as a diff a user can look at)
without writing; ``write_case`` is the only write: it appends to ``evals/<suite>.json`` (creating it when absent)
atomically, never replaces a file it cannot parse, and gives the case an id no other case has. ``check_suite_text``
gives an editor the same positioned findings ``pack-studio eval`` would report.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.core.atomic import FileIdentity, write_atomic
from studio.core.diagnostics import Diagnostic
from studio.core.evals.json_append import NotAppendable, append_to_array
from studio.core.evals.suites import MAX_SUITE_BYTES, parse_suite
from studio.core.frontmatter_edit import unified_diff
from studio.core.model import Pack
from studio.core.pack_fs import PackFS, Status
from studio.core.paths import is_unsafe_pointer
from studio.core.resolver import ResolveResult

ANSWER_QUALITY = "evals/answer-quality.json"
_ID_WORD = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]{1,4}")


def case_id_for(prompt: str, taken: set[str]) -> str:
    """A short id from the prompt's first words (``warranty-length``), unique among ``taken``."""
    words = _ID_WORD.findall(prompt.lower())[:4]
    base = "-".join(words)[:48] or "case"
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def context_case_from_result(result: ResolveResult, pack_name: str, *, include_guide: bool = False,
                             files: list[str] | None = None) -> dict[str, Any]:
    """An answer-quality case expecting what ``result`` selected for ``pack_name`` (or ``files`` when given).

    Document sections become ``path#slug`` entries; the guide (always loaded) is left out unless asked for.
    """
    if files is None:
        slugs = {(r.path, r.section): r.slug for r in result.ranking}
        picked: list[str] = []
        for res in result.packs:
            if res.name != pack_name:
                continue
            for d in res.selected:
                if d.path == "KNOWLEDGE.md" and not include_guide:
                    continue
                slug = slugs.get((d.path, d.section))
                picked.append(f"{d.path}#{slug}" if slug else d.path)
        files = list(dict.fromkeys(picked))
    return {"id": "", "prompt": result.task, "required_context": files, "budget": result.budget}


@dataclass(frozen=True)
class CaseAddition:
    """What appending one case to a suite file would write: shown as a diff first, written on request."""

    pack_root: Path
    suite: str  # pack-relative
    case_id: str
    old_text: str | None  # None: the suite file does not exist yet
    new_text: str
    expect: FileIdentity | None  # the file as read: a file changed meanwhile is not written over

    @property
    def path(self) -> Path:
        return self.pack_root / self.suite

    @property
    def diff(self) -> str:
        return unified_diff(self.old_text or "", self.new_text, self.suite)


def add_case(pack: Pack, case: dict[str, Any], suite: str = ANSWER_QUALITY) -> tuple[Path, str]:
    """Append ``case`` to the pack's suite file ``suite`` (pack-relative); returns (path, the case id used)."""
    addition = prepare_case(pack, case, suite)
    write_case(addition)
    return addition.path, addition.case_id


def prepare_case(pack: Pack, case: dict[str, Any], suite: str = ANSWER_QUALITY) -> CaseAddition:
    """What appending ``case`` to the pack's suite file ``suite`` would write; nothing is written.

    Raises ValueError when the existing file is not a suite of the right shape (it is left untouched),
    PermissionError when the path leads outside the pack, and another OSError (``OutsidePack``, ``ChangedOnDisk``)
    when a folder on the way is a symlink or the file changed since it was read.
    """
    if is_unsafe_pointer(suite):
        raise PermissionError(f"{suite} is outside the pack; refusing to write")
    key = "evals" if "required_context" in case or "cases" not in case and "expected" not in case else "cases"
    with PackFS(pack.root) as fs:  # read by descriptor, never through a symlink leading out of the pack
        found = fs.read(suite, MAX_SUITE_BYTES + 1)
    if found.status is Status.OK and found.data is not None and found.identity is not None:
        if found.size > MAX_SUITE_BYTES:
            raise ValueError(f"{suite} is {found.size:,} bytes; suites over {MAX_SUITE_BYTES:,} bytes are not "
                             "edited here")
        try:
            data = json.loads(found.data.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as exc:
            raise ValueError(f"{suite} is not valid JSON ({exc}); fix it before adding cases") from None
        if not isinstance(data, dict) or not isinstance(data.get(key), list):
            raise ValueError(f"{suite} has no '{key}' list; it is not a suite of this kind")
        expect: FileIdentity | None = FileIdentity.of(found.identity, found.data)
    elif found.status is Status.MISSING:
        data, expect = {"pack_name": pack.name, key: []}, None
    elif found.status is Status.OUTSIDE:
        raise PermissionError(f"{suite} is outside the pack; refusing to write")
    elif found.status is Status.UNREADABLE:
        raise ValueError(f"{suite} cannot be read ({found.error}); fix it before adding cases")
    else:  # a folder, a FIFO, a link loop: never written over
        raise PermissionError(f"{suite} is not a regular file; refusing to write")
    taken = {str(c.get("id")) for c in data[key] if isinstance(c, dict)}
    new = dict(case)
    if not new.get("id") or str(new["id"]) in taken:
        new["id"] = case_id_for(str(new.get("prompt", "")), taken)
    data[key].append(new)
    old_text = found.data.decode("utf-8-sig") if expect is not None and found.data is not None else None
    text = appended_text(old_text, key, new, data) if old_text is not None else None
    if text is None:
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return CaseAddition(pack.root, suite, str(new["id"]), old_text, text, expect)


def write_case(addition: CaseAddition) -> Path:
    """Write what ``prepare_case`` showed; raises OSError (``OutsidePack``, ``ChangedOnDisk``) as ``add_case``."""
    # By descriptor (a symlinked folder raises OutsidePack), and a compare-and-swap against the file read: a
    # symlink or a file changed meanwhile is not written over (ChangedOnDisk); a new file must still be new.
    write_atomic(addition.path, addition.new_text, root=addition.pack_root, exclusive=addition.expect is None,
                 expect=addition.expect)
    return addition.path


def appended_text(text: str, key: str, case: dict[str, Any], expected: Any) -> str | None:
    """``text`` with ``case`` added at the end of its top-level ``key`` list and every other byte kept (the
    author's indentation, key order, spacing and escapes: ``json_append``); None when the list cannot be found
    that way or the result would not read back as ``expected`` (then the suite is written whole instead)."""
    try:
        result = append_to_array(text, key, case)
        return result if json.loads(result) == expected else None
    except (NotAppendable, json.JSONDecodeError, RecursionError, ValueError):
        return None


def check_suite_text(text: str, label: str, pack: Pack | None = None) -> list[Diagnostic]:
    """Findings for suite text being edited (not saved yet): the same checks ``pack-studio eval`` runs."""
    return parse_suite(text, label, pack).findings
