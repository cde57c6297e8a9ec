"""Shared by the coverage tests: a copy of orbit-launch-notes with planted gaps, answered tasks and bad records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "orbit-launch-notes"
UNSPOKEN = [
    "How do I refinance a zebra mortgage on Jupiter?",
    "how do i refinance a zebra mortgage on jupiter",
    "Refinance zebra mortgage Jupiter: how?",
    "What is the torque spec of the quantum gearbox?",
]
ANSWERED = "What is the tentative timeline for the Orbit 3.0 launch?"
HOSTILE = "\x1b]0;pwned\x07\x1b[2J zebra mortgage \u202e refinance\nfake: 0 gaps"


def _record(root: Path, name: str, data: object) -> None:
    (root / "runs" / name).write_text(json.dumps(data), encoding="utf-8")


def plant(tmp_path: Path) -> Path:
    root = tmp_path / "orbit-launch-notes"
    shutil.copytree(EXAMPLE, root)
    (root / "wiki" / "concepts" / "channels-and-budget.md").unlink()  # the paid-budget case loses its file
    for i, query in enumerate([*UNSPOKEN, ANSWERED, HOSTILE]):
        _record(root, f"context-2026-11-0{i % 9 + 1}T10-00-0{i}Z.json",
                {"run_id": f"r{i}", "query": query, "status": "passed", "activated_packs": []})
    (root / "runs" / "context-2026-11-20T10-00-00Z.json").write_text("{not json", encoding="utf-8")
    _record(root, "context-2026-11-21T10-00-00Z.json", {"run_id": "x", "query": 42, "activated_packs": []})
    return root
