"""Reading suites: valid cases run, bad ones are left out with a finding at the offending value."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.catalogue import lookup
from studio.core.evals.suites import pack_suites, parse_suite, read_suite
from studio.core.pack import load_pack


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_bundled_suites_read_clean() -> None:
    root = Path(__file__).resolve().parents[2] / "resources" / "examples"
    total = 0
    for pack_dir in sorted(root.iterdir()):
        pack = load_pack(pack_dir)
        suites = pack_suites(pack.root)
        assert "evals/answer-quality.json" in suites and "evals/discovery.train.json" in suites
        for rel in suites:
            suite = read_suite(pack.root / rel, pack)
            assert suite.findings == [], (rel, suite.findings)
            total += len(suite.cases)
    assert total >= 40


def test_invalid_json_is_one_positioned_finding(tmp_path: Path) -> None:
    path = tmp_path / "suite.json"
    path.write_text('{"pack_name": "x",\n  "cases": [\n    {"id": "a", }\n]}', encoding="utf-8")
    suite = read_suite(path)
    assert suite.kind is None and suite.cases == []
    [finding] = suite.findings
    assert (finding.code, finding.line) == ("eval-suite-malformed-json", 3)
    assert lookup(finding.code) is not None  # a declared code


def test_bad_cases_are_left_out_and_the_valid_ones_run(example) -> None:  # type: ignore[no-untyped-def]
    pack = load_pack(example("northwind-espresso"))
    text = json.dumps({"pack_name": "northwind-espresso", "evals": [
        {"id": "ok", "prompt": "warranty length", "required_context": ["compiled/splits/product-brief/warranty.md"]},
        {"id": "no-prompt"},
        {"id": "ok", "prompt": "a duplicate id"},
        {"id": "escape", "prompt": "x", "required_context": ["../other-pack/KNOWLEDGE.md"]},
        {"id": "absolute", "prompt": "x", "required_context": ["/etc/passwd"]},
        {"id": "gone", "prompt": "pricing", "required_context": ["compiled/nothing-here.md"]},
        {"id": "extra", "prompt": "pricing", "colour": "blue"},
    ]}, indent=2)
    suite = parse_suite(text, "evals/answer-quality.json", pack)
    assert [c.id for c in suite.context] == ["ok", "gone", "extra"]
    assert suite.skipped_cases == 4
    codes = {(d.code, d.line) for d in suite.findings}
    assert ("eval-suite-schema-violation", _line_of(text, '"no-prompt"') - 1) in codes  # the case's opening brace
    assert ("eval-suite-duplicate-id", _line_of(text, '"a duplicate id"') - 1) in codes
    assert ("eval-suite-path-outside-pack", _line_of(text, "../other-pack")) in codes
    assert ("eval-suite-path-outside-pack", _line_of(text, "/etc/passwd")) in codes
    assert ("eval-suite-missing-context", _line_of(text, "nothing-here")) in codes
    assert ("eval-suite-extra-field", _line_of(text, '"colour"')) in codes
    assert all(lookup(d.code) is not None for d in suite.findings)


def test_discovery_case_with_a_bad_expectation_is_left_out() -> None:
    text = '{"pack_name": "p", "cases": [\n {"id": "a", "prompt": "x", "expected": "maybe"},\n' \
           ' {"id": "b", "prompt": "y", "expected": "select"}]}'
    suite = parse_suite(text, "d.json")
    assert [c.id for c in suite.discovery] == ["b"]
    [finding] = suite.findings
    assert finding.line == 2 and "maybe" in finding.message


def test_a_suite_for_another_pack_is_reported(example) -> None:  # type: ignore[no-untyped-def]
    pack = load_pack(example("orbit-launch-notes"))
    suite = parse_suite('{"pack_name": "someone-else", "cases": [{"id": "a", "prompt": "x", "expected": "reject"}]}',
                        "s.json", pack)
    assert [d.code for d in suite.findings] == ["eval-suite-pack-mismatch"]
    assert len(suite.discovery) == 1


def test_unknown_shape() -> None:
    suite = parse_suite('[1, 2, 3]', "s.json")
    assert suite.kind is None and [d.code for d in suite.findings] == ["eval-suite-unknown-shape"]


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_any_input_gives_a_suite_and_never_raises(raw: str | bytes) -> None:
    suite = parse_suite(raw, "s.json")
    assert suite.kind in (None, "discovery", "context")
    for d in suite.findings:
        assert d.line >= 1 and d.column >= 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fixed_dictionaries({"id": st.text(max_size=4), "prompt": st.text(max_size=10)},
                                      optional={"expected": st.sampled_from(["select", "reject", "warn", "x"])}),
                max_size=8))
def test_run_cases_are_exactly_the_valid_unique_ones(cases: list[dict[str, str]]) -> None:
    suite = parse_suite(json.dumps({"pack_name": "p", "cases": cases}), "s.json")
    valid = [c for c in cases if c.get("expected") in ("select", "reject", "warn")]
    unique = list({c["id"]: c for c in reversed(valid)}.values())
    assert len(suite.discovery) == len(unique)
    assert len(suite.discovery) + suite.skipped_cases == len(cases)
