"""Review reasons: what puts a pack in the queue and what the curator is shown."""

from __future__ import annotations

from pathlib import Path

from studio.core.pack import load_pack
from studio.core.review_reasons import gather_review_reasons, review_queue
from studio.core.runs import read_runs

DISPUTED = """---
name: {name}
description: A pack under dispute for the review tests.
type: domain-reference
status: {status}
trust: unreviewed
---
# Body
"""


def test_queue_orders_disputed_first_and_stale_only_on_request(make_pack) -> None:
    packs = [load_pack(make_pack(n, DISPUTED.format(name=n, status=s)))
             for n, s in (("a-ready", "ready"), ("b-stale", "stale"), ("c-review", "needs-review"),
                          ("d-disputed", "disputed"))]
    assert [p.name for p in review_queue(packs)] == ["d-disputed", "c-review"]
    assert [p.name for p in review_queue(packs, include_stale=True)] == ["d-disputed", "c-review", "b-stale"]


def test_reasons_gather_status_runs_claims_and_pages(make_pack) -> None:
    root = make_pack("argued", DISPUTED.format(name="argued", status="disputed"), {
        "runs/compile-2026-01-01T00-00-00Z.json":
            '{"run_id": "c1", "trigger": "manual", "status": "needs-review", "inputs": [], "outputs": [],'
            ' "review": {"required": true, "reason": "two sources disagree"}}',
        "runs/compile-2025-01-01T00-00-00Z.json":
            '{"run_id": "c0", "trigger": "manual", "status": "passed", "inputs": [], "outputs": []}',
        "indexes/source-map.json":
            '{"claims": [{"claim_id": "k1", "text": "Refunds take 14 days.", "status": "disputed",'
            ' "source": {"path": "sources/a.md"}},'
            ' {"claim_id": "k2", "text": "Fine claim.", "status": "confirmed", "source": {"path": "sources/a.md"}}]}',
        "wiki/contradictions/refunds.md": "# Refunds\n",
        "documents/open-questions.md": "# Open\n",
    })
    pack = load_pack(root)
    reasons = gather_review_reasons(pack, read_runs(root))
    kinds = [r.kind for r in reasons]
    assert kinds == ["status", "compile-run", "claim", "contradiction", "open-question"]
    status = reasons[0]
    assert (status.file, status.line) == ("KNOWLEDGE.md", 5)
    assert "two sources disagree" in reasons[1].summary
    assert "k1" in reasons[2].summary and "k2" not in reasons[2].summary
    assert reasons[3].file == "wiki/contradictions/refunds.md"


def test_symlinked_contradictions_folder_is_not_followed(make_pack, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# not part of the pack\n")
    root = make_pack("linked", DISPUTED.format(name="linked", status="disputed"))
    (root / "wiki").mkdir()
    (root / "wiki" / "contradictions").symlink_to(outside)
    reasons = gather_review_reasons(load_pack(root))
    assert [r.kind for r in reasons] == ["status"]
