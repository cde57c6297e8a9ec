"""The latest compile run's verdict, so views it produced can be flagged (digest 6.7: views that depend
on a ``needs-review`` compile run).

Reads ``runs/compile-*.json`` only (bounded, inside the pack); "latest" is the greatest file name, which
sorts by time for both naming styles the standard shows. A broken record is ignored here: the runs
panel reports it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from studio.core.jsonread import read_pack_json
from studio.core.pack_fs import PackFS

MAX_RECORD_BYTES = 1_048_576
FLAGGED_STATUSES = ("needs-review", "stale", "disputed", "failed")


@dataclass(frozen=True, slots=True)
class CompileVerdict:
    """The latest compile run, when its status puts its outputs in doubt."""

    run: str
    status: str
    outputs: frozenset[str] = field(default_factory=frozenset)


def latest_flagged_compile(root: Path) -> CompileVerdict | None:
    """The latest compile run if its status is one of ``FLAGGED_STATUSES``; else None."""
    with PackFS(root) as fs:  # runs/ itself must be a physical folder; the record is read by descriptor
        tree = fs.walk("runs", max_depth=0, classify_links=False)
        names = sorted(e.rel.rsplit("/", 1)[-1] for e in tree.files if e.is_regular
                       and e.rel.startswith("runs/compile-") and e.rel.endswith(".json"))
        if not names:
            return None
        # None too when the record is not UTF-8 JSON, too deep, or holds a number over Python's digit limit.
        parsed = read_pack_json(fs, f"runs/{names[-1]}", MAX_RECORD_BYTES, follow=False)
    if parsed is None:
        return None
    record = parsed.value
    if not isinstance(record, dict) or record.get("status") not in FLAGGED_STATUSES:
        return None
    outputs = record.get("outputs")
    items = outputs if isinstance(outputs, list) else []
    paths = frozenset(o["path"] for o in items if isinstance(o, dict) and isinstance(o.get("path"), str))
    return CompileVerdict(f"runs/{names[-1]}", str(record["status"]), paths)
