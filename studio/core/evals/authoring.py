"""Author suites: a case from the current Resolve task ("expect these files"), appended to a suite file.

``add_case`` is the only write: it appends to ``evals/<suite>.json`` (creating it when absent) atomically,
never replaces a file it cannot parse, and gives the case an id no other case has. ``check_suite_text``
gives an editor the same positioned findings ``pack-studio eval`` would report.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from studio.core.atomic import FileIdentity, write_atomic
from studio.core.diagnostics import Diagnostic
from studio.core.evals.suites import MAX_SUITE_BYTES, parse_suite
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


def add_case(pack: Pack, case: dict[str, Any], suite: str = ANSWER_QUALITY) -> tuple[Path, str]:
    """Append ``case`` to the pack's suite file ``suite`` (pack-relative); returns (path, the case id used).

    Raises ValueError when the existing file is not a suite of the right shape (it is left untouched),
    PermissionError when the path leads outside the pack, and another OSError (``OutsidePack``, ``ChangedOnDisk``)
    when a folder on the way is a symlink or the file changed since it was read.
    """
    path = pack.root / suite
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
    text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    # By descriptor (a symlinked folder raises OutsidePack), and a compare-and-swap against the file read: a
    # symlink or a file changed meanwhile is not written over (ChangedOnDisk); a new file must still be new.
    write_atomic(path, text, root=pack.root, exclusive=expect is None, expect=expect)
    return path, str(new["id"])


def check_suite_text(text: str, label: str, pack: Pack | None = None) -> list[Diagnostic]:
    """Findings for suite text being edited (not saved yet): the same checks ``pack-studio eval`` runs."""
    return parse_suite(text, label, pack).findings
