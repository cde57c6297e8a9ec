"""A writer killed at a random moment leaves the old state or the complete new file, never a partial one."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from runs_support import knowledge_text

from studio.core.runs import Validity, read_runs

REPO = Path(__file__).resolve().parents[2]
BIG = 6 * 1024 * 1024
ROUNDS = 6

WRITE_RECORD = """
import sys
from datetime import UTC, datetime
from pathlib import Path
from studio.core.review import make_review_record, write_review_record
root = Path(sys.argv[1])
record = make_review_record("demo", "confirm", "x" * {big}, reviewer="kill-test",
                            before={{"status": "disputed", "trust": None}},
                            after={{"status": "disputed", "trust": None}},
                            now=datetime(2026, 5, 1, tzinfo=UTC))
print("go", flush=True)
write_review_record(root, record)
print("done", flush=True)
"""

WRITE_KNOWLEDGE = """
import sys
from pathlib import Path
from studio.core.atomic import write_atomic
root = Path(sys.argv[1])
new = (root / "KNOWLEDGE.md").read_text() + "\\n" + "y" * {big} + "\\n"
print("go", flush=True)
write_atomic(root / "KNOWLEDGE.md", new)
print("done", flush=True)
"""


def kill_during(script: str, root: Path, delay: float) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with subprocess.Popen([sys.executable, "-c", script, str(root)], stdout=subprocess.PIPE, env=env) as child:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"go"
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)


def test_killed_record_writer_leaves_nothing_or_a_complete_record(runs_pack) -> None:
    rng = random.Random(5)
    for round_number in range(ROUNDS):
        root = runs_pack({}, name=f"kill-record-{round_number}")
        kill_during(WRITE_RECORD.format(big=BIG), root, rng.uniform(0, 0.12))
        finals = sorted((root / "runs").glob("review-*.json")) if (root / "runs").exists() else []
        assert len(finals) <= 1
        for path in finals:
            data = json.loads(path.read_text())  # complete: parses, and holds the whole reason
            assert len(data["reason"]) == BIG
        # Leftover temp files are hidden and never listed as records (nor reported malformed).
        records = read_runs(root).records
        assert [r.path for r in records] == [f"runs/{p.name}" for p in finals]
        assert all(r.validity is not Validity.MALFORMED for r in records)


def test_killed_knowledge_writer_leaves_old_or_new_text(runs_pack) -> None:
    rng = random.Random(7)
    outcomes = set()
    for round_number in range(ROUNDS):
        name = f"kill-knowledge-{round_number}"
        old = knowledge_text(name)
        new = old + "\n" + "y" * BIG + "\n"
        root = runs_pack({}, name=name)
        kill_during(WRITE_KNOWLEDGE.format(big=BIG), root, rng.uniform(0, 0.12))
        text = (root / "KNOWLEDGE.md").read_text()
        assert text in (old, new)
        outcomes.add(text == new)
    assert outcomes
