"""Property tests: no JSON value, no byte string and no Markdown text makes the readers raise."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from studio.core.evidence import parse_anchor, parse_citations
from studio.core.review import ReviewError, edit_status_trust
from studio.core.runs import RunKind, Validity, parse_json_record

NAMES = st.sampled_from([
    "compile-2026-05-01T10-30-00Z.json", "context-20260507T100000Z.json", "review-x.json", "usage.json",
    "source-map.json", "eval-discovery-1.json", "lint-2026-05-01.json", "x.json",
])
KEYS = st.sampled_from([
    "run_id", "trigger", "status", "inputs", "outputs", "activated_packs", "claims", "cases", "pack_name",
    "selected_files", "pack", "decision", "reviewer", "record", "results", "summary", "findings", "timestamp",
    "builder_skill", "path", "sha256", "query", "name", "activation", "warnings", "citation_gaps",
]) | st.text(max_size=8)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=6),
                    max_leaves=20)
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(JSON, NAMES)
def test_any_json_gives_a_record(value: object, name: str) -> None:
    record = parse_json_record(json.dumps(value).encode(), f"runs/{name}")
    assert record.kind in set(RunKind)
    assert record.validity in (Validity.VALID, Validity.INVALID, Validity.UNVALIDATED)
    assert isinstance(record.summary, str) and record.summary
    if record.kind.schema_name is None:
        assert record.validity is Validity.UNVALIDATED  # unknown kinds are never "invalid"
    for d in record.diagnostics:
        assert d.line >= 1 and d.column >= 1


@FAST
@given(st.binary(max_size=300), NAMES)
@example(b"[" * 100_000, "compile-1.json")
@example(b"1" * 5000, "x.json")
@example(b'{"a": 1', "x.json")
@example(b"\xff\xfe{}", "x.json")
def test_any_bytes_give_a_record(raw: bytes, name: str) -> None:
    record = parse_json_record(raw, f"runs/{name}")
    assert record.validity in set(Validity)
    if record.validity is Validity.MALFORMED:
        assert record.diagnostics[0].code == "run-malformed-json"


@FAST
@given(st.text(max_size=400))
def test_citation_parser_never_raises(text: str) -> None:
    for citation in parse_citations(text, "x.md"):
        assert 1 <= citation.line <= text.count("\n") + 1 + text.count("\r")
        assert citation.column >= 1


@FAST
@given(st.text(max_size=40))
def test_anchor_parser_never_raises(fragment: str) -> None:
    parse_anchor(fragment)


@FAST
@given(st.text(max_size=300), st.sampled_from(["ready", "disputed", None]),
       st.sampled_from(["official", None]))
def test_status_edit_either_refuses_or_touches_only_frontmatter(text: str, status: str | None,
                                                                 trust: str | None) -> None:
    try:
        edit = edit_status_trust(text, status=status, trust=trust)
    except ReviewError:
        return
    assert len(edit.new_text) >= len(text) - 20
    # The body after the closing fence is never touched.
    tail = text.split("\n---", 2)[-1]
    assert edit.new_text.endswith(tail)


@FAST
@given(JSON, st.sampled_from([None, 1, 2]))
def test_every_value_position_points_at_that_value(value: object, indent: int | None) -> None:
    from studio.core.jsonread import scan

    text = json.dumps(value, indent=indent)
    for path, offset in scan(text).positions.items():
        if path and isinstance(path[-1], str):
            assert text[offset:].startswith(json.dumps(path[-1]))  # members point at their key
        else:
            node = value
            for part in path:
                node = node[part]  # type: ignore[index]
            assert json.JSONDecoder().raw_decode(text, offset)[0] == node


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=200), st.text(max_size=200), NAMES)
def test_read_runs_on_disk_never_raises(raw: bytes, markdown: str, name: str) -> None:
    import tempfile
    from pathlib import Path

    from studio.core.runs import read_runs

    with tempfile.TemporaryDirectory() as tmp:
        runs = Path(tmp) / "runs" / "eval-1"
        runs.mkdir(parents=True)
        (runs.parent / name).write_bytes(raw)
        (runs / "report.md").write_text(markdown, encoding="utf-8", errors="surrogatepass")
        report = read_runs(Path(tmp))
        assert len(report.records) == 2
        assert all(r.summary for r in report.records)
