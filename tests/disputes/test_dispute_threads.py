"""Threads rebuilt from records: several writers at once lose nothing, a git merge of two branches holds both
sides' positions, records in any order give the same thread, and ontology claims can be disputed too."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from studio.core.dispute_actions import make_step, write_step
from studio.core.disputes import build_threads, load_threads, read_claims
from studio.core.disputes.threads import read_steps
from studio.core.pack import load_pack
from studio.core.validate import validate_pack

CLAIM = "nw-boiler-volumes"
WRITERS = 6
STEPS_EACH = 5

_WRITER = """
import sys
from pathlib import Path
from studio.core.dispute_actions import make_step, write_step
from studio.core.disputes import read_claims
root, who, count, go = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
claims = read_claims(root)
import time
from datetime import UTC, datetime
same_instant = datetime(2026, 1, 1, tzinfo=UTC)  # every step wants the same file name: they race for each one
while not go.exists():
    time.sleep(0.001)
for n in range(count):
    write_step(root, make_step(root, "northwind-espresso", claims, "nw-boiler-volumes", "comment", f"{who} #{n}",
                               author=who, now=same_instant))
"""


def test_concurrent_writers_in_separate_processes_never_lose_a_position(espresso: Path, tmp_path: Path) -> None:
    claims = read_claims(espresso)
    write_step(espresso, make_step(espresso, "northwind-espresso", claims, CLAIM, "open", "opened", author="lead"))
    go = tmp_path / "go"
    writers = [subprocess.Popen([sys.executable, "-c", _WRITER, str(espresso), f"w{i}", str(STEPS_EACH), str(go)])
               for i in range(WRITERS)]
    go.touch()  # all start together
    assert [w.wait(timeout=120) for w in writers] == [0] * WRITERS
    thread = load_threads(espresso).get(CLAIM)
    assert thread is not None
    texts = sorted(s.text for s in thread.steps if s.step == "comment")
    assert texts == sorted(f"w{i} #{n}" for i in range(WRITERS) for n in range(STEPS_EACH))
    assert len(list((espresso / "runs").glob("dispute-*.json"))) == 1 + WRITERS * STEPS_EACH
    for who in (f"w{i}" for i in range(WRITERS)):  # each writer's own positions stay in the order it wrote them
        mine = [s.text for s in thread.steps if s.author == who]
        assert mine == [f"{who} #{n}" for n in range(STEPS_EACH)]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_git_merge_of_two_branches_holds_both_sides_positions(espresso: Path) -> None:
    _git(espresso, "init", "-q", "-b", "main")
    claims = read_claims(espresso)
    write_step(espresso, make_step(espresso, "northwind-espresso", claims, CLAIM, "open", "opened", author="ana"))
    _git(espresso, "add", "-A")
    _git(espresso, "commit", "-qm", "open")
    _git(espresso, "checkout", "-qb", "other")
    write_step(espresso, make_step(espresso, "northwind-espresso", claims, CLAIM, "comment", "from other",
                                   author="bo"))
    _git(espresso, "add", "-A")
    _git(espresso, "commit", "-qm", "bo")
    _git(espresso, "checkout", "-q", "main")
    write_step(espresso, make_step(espresso, "northwind-espresso", claims, CLAIM, "decide", "kept on main",
                                   decision="keep", author="cy"))
    _git(espresso, "add", "-A")
    _git(espresso, "commit", "-qm", "cy")
    _git(espresso, "merge", "-q", "--no-edit", "other")
    thread = load_threads(espresso).get(CLAIM)
    assert thread is not None
    assert [s.author for s in thread.steps] == ["ana", "bo", "cy"]  # time order across both branches
    assert (thread.state, thread.decision) == ("decided", "keep")


def test_steps_in_any_order_rebuild_the_same_thread(espresso: Path) -> None:
    claims = read_claims(espresso)
    start = datetime(2026, 5, 1, tzinfo=UTC)
    plan = [("open", None, None), ("comment", None, None), ("decide", "amend", "1.0 L"), ("open", None, None),
            ("comment", None, None)]
    for n, (step, decision, new) in enumerate(plan):
        write_step(espresso, make_step(espresso, "p", claims, CLAIM, step, f"step {n}", decision=decision,
                                       new_text=new, author="a", now=start + timedelta(minutes=n)))
    steps, complete = read_steps(espresso)
    shuffled = steps[:]
    random.Random(7).shuffle(shuffled)
    first, second = build_threads(steps, complete).get(CLAIM), build_threads(shuffled).get(CLAIM)
    assert first is not None and second is not None
    assert [s.text for s in first.steps] == [s.text for s in second.steps] == [f"step {n}" for n in range(5)]
    assert first.is_open and first.decided is None  # reopened after the amendment


def test_malformed_and_foreign_records_are_skipped_not_fatal(espresso: Path) -> None:
    runs = espresso / "runs"
    (runs / "dispute-x-1.json").write_text("{not json")
    (runs / "dispute-x-2.json").write_text(json.dumps({"record": "dispute", "step": "decide", "claim": CLAIM}))
    (runs / "dispute-x-3.json").write_bytes(b"\xff" * 10)
    assert load_threads(espresso).by_claim == {}
    codes = {d.code for d in validate_pack(load_pack(espresso), content=True) if d.file.startswith("runs/dispute")}
    assert codes and not any(c.startswith("claim-") for c in codes)  # run-record findings, no dispute ones


def test_ontology_claims_can_be_disputed_and_claims_without_a_source_too(espresso: Path) -> None:
    (espresso / "ontology").mkdir()
    (espresso / "ontology/claims.json").write_text(json.dumps({"claims": [
        {"id": "onto-quiet", "text": "Quieter than any rival", "evidenceStatus": "weak", "reviewStatus": "draft",
         "compiledInto": ["compiled/facts.md"]},
        {"id": "onto-bare", "statement": "No source at all"},
        {"nothing": "without an id"}, "not an object"]}))
    claims = read_claims(espresso)
    quiet, bare = claims.get("onto-quiet"), claims.get("onto-bare")
    assert quiet is not None and (quiet.origin, quiet.evidence_state, quiet.status) == ("ontology", "weak", "draft")
    assert bare is not None and bare.source == "" and bare.text == "No source at all"
    for claim_id in ("onto-quiet", "onto-bare"):
        write_step(espresso, make_step(espresso, "p", claims, claim_id, "open", "why", author="a"))
    codes = [(d.code, d.message) for d in validate_pack(load_pack(espresso), content=True)
             if d.code == "claim-dispute-open"]
    assert len(codes) == 2 and any("onto-quiet" in m and "2 file(s)" in m for _, m in codes)


def test_a_hostile_claim_id_makes_a_safe_record_name(espresso: Path) -> None:
    source_map = espresso / "indexes/source-map.json"
    data = json.loads(source_map.read_text())
    hostile = "../../" + "\u202e" * 3 + "x/" * 100
    data["claims"].append({"claim_id": hostile, "text": "t", "status": "confirmed",
                           "source": {"path": "sources/engineering-spec-sheet.md"}})
    source_map.write_text(json.dumps(data))
    claims = read_claims(espresso)
    path = write_step(espresso, make_step(espresso, "p", claims, hostile, "open", "why", author="a"))
    assert path.parent == espresso / "runs" and path.name.startswith("dispute-x_x_")
    assert len(path.name) < 120 and "/" not in path.name[len("dispute-"):]
    thread = load_threads(espresso).get(hostile)
    assert thread is not None and thread.steps[0].claim == hostile  # the record keeps the real id


def test_an_open_dispute_on_an_ontology_claim_warns_on_the_files_it_names(espresso: Path) -> None:
    from studio.core.resolver import ResolveRequest, ResolverSession, resolve

    (espresso / "ontology").mkdir()
    (espresso / "ontology/claims.json").write_text(json.dumps([
        {"id": "onto-quiet", "text": "Quieter than any rival", "evidenceStatus": "weak",
         "compiledInto": ["compiled/facts.md"]}]))
    request = ResolveRequest(task="brew boiler volume facts", packs=[load_pack(espresso)])
    assert not any("onto-quiet" in w.message for w in resolve(request, ResolverSession()).warnings)
    write_step(espresso, make_step(espresso, "p", read_claims(espresso), "onto-quiet", "open", "no test data",
                                   author="a"))
    result = resolve(request, ResolverSession())
    assert any(d.path == "compiled/facts.md" for res in result.packs for d in res.selected)
    assert any(w.message.startswith("compiled/facts.md carries a disputed claim (onto-quiet)")
               for w in result.warnings)
