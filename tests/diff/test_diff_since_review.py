"""Where "changes since the last review decision" start: the commit a review record names, else the last commit
before its time; a pack without a decision, or outside git, gets one line of trouble."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import Repo, git

from studio.core.diff.request import DiffRequest, run_request
from studio.core.diff.since_review import review_base
from studio.core.diff.trouble import DiffTrouble
from studio.core.pack import load_pack
from studio.core.review import make_review_record, write_review_record


def _review(pack: Path, when: datetime, **extra: str) -> Path:
    record = make_review_record("atlas-lending-policy", "confirm", "checked", before={}, after={}, now=when)
    path = write_review_record(pack, record)
    if extra:
        data = json.loads(path.read_text())
        data.update(extra)
        path.write_text(json.dumps(data))
    return path


def _head(repo: Repo) -> str:
    return git(repo.top, "rev-parse", "HEAD").strip()


def test_the_record_time_picks_the_last_commit_before_it(repo: Repo) -> None:
    first = _head(repo)
    _review(repo.pack, datetime.now(UTC))
    repo.edit("KNOWLEDGE.md", "status: ready", "status: disputed")
    base = review_base(load_pack(repo.pack))
    assert base.ref == first and base.decision == "confirm" and "last commit before the review" in base.how
    outcome = run_request(DiffRequest(load_pack(repo.pack), "review"))
    assert outcome.report is not None and outcome.report.old.startswith(first)
    assert [c.key for c in outcome.report.frontmatter] == ["status"]


def test_a_record_that_names_a_commit_is_taken_at_its_word(repo: Repo) -> None:
    first = _head(repo)
    repo.commit("v2")
    _review(repo.pack, datetime.now(UTC), commit=first)
    base = review_base(load_pack(repo.pack))
    assert base.ref == first and "names" in base.how


def test_no_decision_or_no_commit_before_it_is_trouble(repo: Repo) -> None:
    for record in (repo.pack / "runs").glob("review-*.json"):
        record.unlink()
    with pytest.raises(DiffTrouble, match="no recorded review decision"):
        review_base(load_pack(repo.pack))
    _review(repo.pack, datetime(2001, 1, 1, tzinfo=UTC))
    with pytest.raises(DiffTrouble, match="no commit was made before the review of 2001-01-01T00:00:00Z"):
        review_base(load_pack(repo.pack))
    outcome = run_request(DiffRequest(load_pack(repo.pack), "review"))
    assert outcome.report is None and "no commit was made before" in outcome.trouble
