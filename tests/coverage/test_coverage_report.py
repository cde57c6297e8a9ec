"""The coverage report: planted gaps are reported, answered tasks are not, bad input is listed and skipped."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from coverage_planted import ANSWERED, HOSTILE, UNSPOKEN

from studio.cli import main
from studio.core.coverage import CoverageOptions, CoverageReport, cluster_gaps, compute_coverage
from studio.core.pack import load_pack


def _report(root: Path) -> CoverageReport:
    return compute_coverage([load_pack(root)], CoverageOptions())[0]


def test_planted_gaps_are_all_reported_and_answered_tasks_are_not(planted: Path) -> None:
    report = _report(planted)
    by_text = {t.text: t for t in report.tasks}
    paid = next(t for t in report.tasks if t.id.endswith(":paid-budget"))
    assert not paid.answered and "no such file: wiki/concepts/channels-and-budget.md" in paid.why
    for query in ["How do I refinance a zebra mortgage on Jupiter?", "Refinance zebra mortgage Jupiter: how?",
                  UNSPOKEN[3], HOSTILE]:
        assert by_text[query].source == "run" and not by_text[query].answered, query
    timeline = [t for t in report.tasks if t.text == ANSWERED]
    assert {t.source for t in timeline} == {"eval", "run"}
    assert all(t.answered and "wiki/concepts/launch-timeline.md" in t.by for t in timeline)
    assert report.summary() == {"tasks": len(report.tasks), "answered": report.answered_count,
                                "gaps": len(report.gaps)}


def test_recorded_variants_merge_and_similar_gaps_cluster(planted: Path) -> None:
    report = _report(planted)
    merged = next(t for t in report.tasks if t.text == UNSPOKEN[0])
    assert merged.count == 2  # the same words, other case: one task asked twice
    clusters = cluster_gaps(report.tasks)
    zebra = next(c for c in clusters if UNSPOKEN[0] in {t.text for t in c.tasks})
    assert {t.text for t in zebra.tasks} >= {UNSPOKEN[0], UNSPOKEN[2]}
    assert UNSPOKEN[3] not in {t.text for t in zebra.tasks}


def test_malformed_records_are_listed_and_skipped(planted: Path) -> None:
    skipped = {s.path: s.reason for s in _report(planted).skipped}
    assert "malformed" in skipped["runs/context-2026-11-20T10-00-00Z.json"]
    assert "query" in skipped["runs/context-2026-11-21T10-00-00Z.json"]


def test_a_pack_without_suites_or_runs_gives_an_empty_report_said_plainly(
        make_pack: Callable[..., Path], capsys: pytest.CaptureFixture[str]) -> None:
    root = make_pack("bare", "---\nname: bare\ndescription: A bare pack.\n---\n# Bare\n",
                     {"wiki/a.md": "# A\n\nSome text.\n"})
    report = _report(root)
    assert report.tasks == [] and report.never_selected == []
    assert "No known tasks" in report.notes[0]
    assert main(["coverage", str(root)]) == 0
    assert "0 task(s)" in capsys.readouterr().out


def test_files_no_task_selects_are_listed(planted: Path) -> None:
    (planted / "wiki" / "concepts" / "espresso-grinders.md").write_text(
        "# Espresso grinders\n\nBurr sizes and retention of grinders.\n", encoding="utf-8")
    assert "wiki/concepts/espresso-grinders.md" in _report(planted).never_selected


def test_text_output_escapes_hostile_queries_and_json_stays_valid(
        planted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", str(planted)]) == 1  # gaps found
    text = capsys.readouterr().out
    assert "\x1b" not in text and "\u202e" not in text and "\nfake: 0 gaps" not in text
    assert "\\x1b]0;pwned" in text
    assert main(["coverage", str(planted), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert HOSTILE in {t["text"] for t in data["tasks"]}
    assert set(data["summary"]) == {"tasks", "answered", "gaps"}
    assert all(set(t) >= {"id", "source", "text", "answered", "by", "why"} for t in data["tasks"])
    assert main(["coverage", str(planted), "--format", "markdown"]) == 1
    assert "\x1b" not in capsys.readouterr().out


def test_ontology_coverage_rows_are_tasks_and_their_own_missing_status_is_a_gap(planted: Path) -> None:
    (planted / "ontology").mkdir()
    rows = [{"id": "timeline", "question": ANSWERED, "status": "covered"},
            {"id": "budget", "question": ANSWERED, "status": "missing-material"},
            {"status": "ready"}]
    (planted / "ontology" / "coverage.json").write_text(json.dumps({"rows": rows}), encoding="utf-8")
    report = _report(planted)
    by_id = {t.id: t for t in report.tasks if t.source == "ontology"}
    assert by_id["ontology:timeline"].answered
    assert not by_id["ontology:budget"].answered and "missing-material" in by_id["ontology:budget"].why
    assert "ontology/coverage.json#2" in {s.path for s in report.skipped}


def test_an_unreadable_ontology_coverage_file_is_listed_not_fatal(planted: Path) -> None:
    (planted / "ontology").mkdir()
    (planted / "ontology" / "coverage.json").write_text("[{", encoding="utf-8")
    assert any(s.path == "ontology/coverage.json" and "not valid JSON" in s.reason for s in _report(planted).skipped)


def test_a_jsonl_log_in_runs_counts_each_line_as_a_record(planted: Path) -> None:
    lines = [json.dumps({"task": "Where do the Orbit payload hamsters sleep?", "status": "passed"}),
             json.dumps({"query": ANSWERED.upper()}),  # the same question as a context record: merged, asked twice
             "", "{broken", json.dumps(["a list, not a record"]),
             json.dumps({"pack": "orbit", "selected_files": []})]  # a usage line without a query: not a task
    lines += ["not json"] * 25
    (planted / "runs" / "usage.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = _report(planted)
    hamsters = next(t for t in report.tasks if "hamsters" in t.text)
    assert hamsters.source == "run" and not hamsters.answered and hamsters.origin == "runs/usage.jsonl:1"
    timeline = next(t for t in report.tasks if t.source == "run" and t.text == ANSWERED)
    assert timeline.count == 2 and timeline.answered
    skipped = [s for s in report.skipped if s.path.startswith("runs/usage.jsonl")]
    assert [s.path for s in skipped[:3]] == ["runs/usage.jsonl:4", "runs/usage.jsonl:5", "runs/usage.jsonl:7"]
    assert len(skipped) == 21 and "7 more lines" in skipped[-1].reason  # 27 bad lines: 20 listed, the rest counted


def test_a_core_view_that_mentions_the_task_answers_it(make_pack: Callable[..., Path]) -> None:
    # compiled/facts.md loads for every task (a core view), so it is never "picked for" one; when it holds the
    # answer the task is answered by it, as resolve shows, and it is not listed as never selected.
    root = make_pack("widget-facts", "---\nname: widget-facts\ndescription: Facts about the Acme Widget.\n"
                     "type: brand-product\nstatus: ready\n---\n# Widget facts\n\nRead compiled/facts.md.\n",
                     {"compiled/facts.md": "# Facts\n\nThe Acme Widget supports offline queueing of orders.\n",
                      "runs/context-2026-11-20T10-00-00Z.json": json.dumps(
                          {"query": "Can the Acme Widget queue orders offline?", "selected": []})})
    report = _report(root)
    task = next(t for t in report.tasks if t.source == "run")
    assert task.answered and task.by == ("compiled/facts.md",), task.why
    assert "compiled/facts.md" not in report.never_selected
