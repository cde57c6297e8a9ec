"""Evidence: anchors resolve to the right lines; bad sources are reported and never read outside the pack."""

from __future__ import annotations

import hashlib
import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.evidence import AnchorKind, ExcerptState, build_evidence, parse_anchor, parse_citations, slugify
from studio.core.evidence.anchors import find_headings
from studio.core.runs import read_runs

SOURCE = "\n".join([
    "# Spec sheet",            # 1
    "",                        # 2
    "## Boilers",              # 3
    "Brew boiler: 0.8 L.",     # 4
    "Steam boiler: 1.5 L.",    # 5
    "",                        # 6
    "### Materials",           # 7
    "316L stainless steel.",   # 8
    "",                        # 9
    "## Offline capabilities", # 10
    "Queues up to 50 orders.", # 11
    "```",                     # 12
    "## Not a heading",        # 13
    "```",                     # 14
]) + "\n"

TRANSCRIPT = "WEBVTT\n\n00:12:30.000 --> 00:12:40.000\nWe never promise lifetime cover.\n\n" \
             "00:12:41.000 --> 00:12:50.000\nNext topic.\n"


def claim(claim_id: str, path: str, anchor: str | None = None, status: str = "confirmed",
          compiled_into: list[str] | None = None) -> dict[str, object]:
    source: dict[str, str] = {"path": path}
    if anchor is not None:
        source["anchor"] = anchor
    return {"claim_id": claim_id, "text": f"text of {claim_id}", "status": status, "source": source,
            "compiled_into": compiled_into or []}


@pytest.fixture
def evidence_pack(runs_pack):
    claims = [
        claim("line", "sources/spec.md", "#L4"),
        claim("bare-line", "sources/spec.md", "L5"),
        claim("range", "sources/spec.md", "#L3-L5"),
        claim("heading", "sources/spec.md", "#boilers"),
        claim("heading-2", "sources/spec.md", "offline-capabilities"),
        claim("fenced", "sources/spec.md", "#not-a-heading"),
        claim("past-end", "sources/spec.md", "#L99"),
        claim("media", "sources/call.vtt", "#t=00:12:33"),
        claim("pdf", "sources/deck.pdf", "#page=4"),
        claim("gone", "sources/deleted.md", "#L1"),
        claim("escape", "../outside.md", "#L1"),
        claim("absolute", "/etc/hostname"),
        claim("argued", "sources/spec.md", "#L8", status="disputed"),
        claim("compiled", "sources/spec.md", "#L4",
              compiled_into=["compiled/facts.md", "compiled/nope.md", "documents/brief.md#brief",
                             "documents/brief.md#no-such-section"]),
    ]
    return runs_pack({}, files={
        "sources/spec.md": SOURCE,
        "sources/call.vtt": TRANSCRIPT,
        "sources/deck.pdf": b"%PDF-1.7\x00binary",
        "indexes/source-map.json": json.dumps({"claims": claims}, indent=2),
    })


def test_anchors_resolve_to_the_right_lines(evidence_pack: Path) -> None:
    report = build_evidence(evidence_pack)
    got = {c.claim.claim_id: c.excerpt for c in report.claims}
    assert (got["line"].start_line, got["line"].text) == (4, "Brew boiler: 0.8 L.")
    assert got["bare-line"].text == "Steam boiler: 1.5 L."
    assert (got["range"].start_line, got["range"].end_line) == (3, 5)
    # A heading's section runs to the next heading of the same or higher rank (sub-headings included).
    assert (got["heading"].start_line, got["heading"].end_line) == (3, 9)
    assert got["heading-2"].text.startswith("## Offline capabilities\nQueues up to 50 orders.")
    assert got["fenced"].state is ExcerptState.NOT_FOUND
    assert got["past-end"].state is ExcerptState.OUT_OF_RANGE
    assert got["media"].text == "00:12:30.000 --> 00:12:40.000\nWe never promise lifetime cover."
    assert got["pdf"].state is ExcerptState.NOT_TEXT


def test_bad_sources_are_reported_with_their_claim(evidence_pack: Path) -> None:
    report = build_evidence(evidence_pack)
    codes = {(d.code, d.message.split(":")[0]) for d in report.diagnostics}
    assert ("evidence-source-missing", "claim gone") in codes
    assert ("evidence-source-outside", "claim escape") in codes
    assert ("evidence-source-outside", "claim absolute") in codes
    assert ("evidence-anchor-out-of-range", "claim past-end") in codes
    assert any(d.code == "evidence-claim-disputed" and "argued" in d.message for d in report.diagnostics)
    compiled = report.claim("compiled")
    assert compiled is not None
    assert dict(compiled.compiled_into) == {
        "compiled/facts.md": "ok", "compiled/nope.md": "missing", "documents/brief.md#brief": "ok",
        "documents/brief.md#no-such-section": "section-missing"}
    # Diagnostics point at the claim's line in the source map.
    text = (evidence_pack / "indexes/source-map.json").read_text().splitlines()
    gone = next(d for d in report.diagnostics if d.code == "evidence-source-missing")
    assert '"gone"' in text[gone.line - 1]


def test_outside_sources_are_never_read(runs_pack, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("TOP SECRET\n")
    root = runs_pack({}, files={"indexes/source-map.json": json.dumps(
        {"claims": [claim("linked", "sources/link.md", "#L1")]})})
    (root / "sources" / "link.md").symlink_to(secret)
    report = build_evidence(root)
    assert report.claims[0].excerpt.state is ExcerptState.OUTSIDE
    assert "TOP SECRET" not in json.dumps(report.to_dict())


def test_source_changed_since_compile_is_stale(runs_pack) -> None:
    old = hashlib.sha256(b"# Notes\nThe widget was green.\n").hexdigest()
    compile_run = {"run_id": "compile-1", "trigger": "manual", "status": "passed",
                   "inputs": [{"path": "sources/notes.md", "sha256": old}], "outputs": []}
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": compile_run}, files={
        "indexes/source-map.json": json.dumps({"claims": [claim("c", "sources/notes.md", "#L2")]})})
    report = build_evidence(root, read_runs(root))
    assert report.claims[0].source_changed
    assert any(d.code == "evidence-source-changed" for d in report.diagnostics)


def test_inline_citations_are_found_and_resolved(runs_pack) -> None:
    root = runs_pack({}, files={"wiki/page.md": "# Page\n\n- Blue. [source: sources/notes.md#L2]\n"
                                                 "```\n[source: sources/in-code.md#L1]\n```\n"
                                                 "Two. [source: sources/notes.md#L3; sources/missing.md]\n"})
    report = build_evidence(root)
    by_ref = {(c.citation.file, c.citation.ref): c for c in report.citations}
    assert by_ref[("wiki/page.md", "sources/notes.md#L2")].excerpt.text == "The widget is blue."
    assert by_ref[("compiled/facts.md", "sources/notes.md#L2")].citation.claim == "The widget is blue."
    assert ("wiki/page.md", "sources/in-code.md#L1") not in by_ref
    missing = next(d for d in report.diagnostics if d.code == "evidence-source-missing")
    assert (missing.file, missing.line) == ("wiki/page.md", 7)


def test_citation_columns_point_at_the_reference() -> None:
    line = "- Fact. [source: a.md#L1, b.md#page=2]"
    first, second = parse_citations(line, "x.md")
    assert line[first.column - 1:].startswith("a.md#L1")
    assert line[second.column - 1:].startswith("b.md#page=2")


@pytest.mark.parametrize(("fragment", "kind", "start", "end"), [
    ("#L42", AnchorKind.LINE, 42, 42), ("L10-L20", AnchorKind.LINES, 10, 20), ("#page=4", AnchorKind.PAGE, 4, 4),
    ("#t=00:12:33", AnchorKind.TIME, 753, 753), ("#t=01:00:00", AnchorKind.TIME, 3600, 3600),
    ("tiers", AnchorKind.HEADING, 0, 0), ("", AnchorKind.NONE, 0, 0),
])
def test_anchor_forms(fragment: str, kind: AnchorKind, start: int, end: int) -> None:
    anchor = parse_anchor(fragment)
    assert (anchor.kind, anchor.start, anchor.end) == (kind, start, end)


def test_slugs_match_rendered_headings() -> None:
    assert slugify("Offline Capabilities") == "offline-capabilities"
    assert slugify("Pricing & availability (US)") == "pricing--availability-us"
    assert slugify("保修政策") == "保修政策"


def test_malformed_source_map_is_a_positioned_error(runs_pack) -> None:
    root = runs_pack({}, files={"indexes/source-map.json": '{"claims": [\n  {"claim_id": }\n]}'})
    report = build_evidence(root)
    [diag] = report.diagnostics
    assert (diag.code, diag.line) == ("source-map-malformed", 2)


def test_blank_line_anchor_and_document_sections(runs_pack) -> None:
    source_map = {
        "claims": [claim("blank", "sources/notes.md", "#L3")],
        "document_sections": [
            {"document": "documents/brief.md", "section_id": "brief", "title": "Brief",
             "source_anchors": ["sources/notes.md#L2", "sources/none.md#L1"],
             "compiled_into": ["compiled/facts.md", "compiled/gone.md"]},
            {"document": "documents/missing.md", "section_id": "x", "title": "X"},
        ],
    }
    root = runs_pack({}, files={"sources/notes.md": "# Notes\nThe widget is blue.\n\nEnd.\n",
                                "indexes/source-map.json": json.dumps(source_map, indent=2)})
    report = build_evidence(root)
    found = sorted((d.code, d.line) for d in report.diagnostics)
    text = (root / "indexes/source-map.json").read_text().splitlines()
    assert '      "claim_id": "blank",' in text
    first_section = next(i for i, line in enumerate(text, 1) if '"document": "documents/brief.md"' in line) - 1
    second_section = next(i for i, line in enumerate(text, 1) if '"documents/missing.md"' in line) - 1
    assert found == sorted([
        ("evidence-anchor-blank", text.index('      "claim_id": "blank",') + 1),
        ("evidence-source-missing", first_section),
        ("evidence-compiled-into-missing", first_section),
        ("evidence-section-document-missing", second_section),
    ])


# The heading regexes anchors.py used before it parsed headings with string methods; they backtracked
# quadratically on long blank runs, but they stay the reference for what a heading and its slug are.
_OLD_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_OLD_EXPLICIT_ID = re.compile(r"\s*\{#([^}\s]+)\}\s*$")


def _old_headings(lines: list[str]) -> list[tuple[int, int, str, str]]:
    found = []
    for number, line in enumerate(lines, start=1):
        if match := _OLD_ATX.match(line):
            title = (match[2] or "").strip()
            explicit = _OLD_EXPLICIT_ID.search(title)
            if explicit:
                found.append((number, len(match[1]), title[: explicit.start()].strip(), explicit[1].lower()))
            else:
                found.append((number, len(match[1]), title, ""))
    return found


def _old_slugify(title: str) -> str:
    text = re.sub(r"<[^>]*>", "", title)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return slugify(text)  # the rest of slugify is unchanged; tags and links are gone, so it keeps them gone


_HEADING_PARTS = st.sampled_from(["#", "##", "#######", " ", "  ", "    ", "\t", "a", "B c", "{#id}", "{#", "}",
                                  "\u00a0", "\\#", "<b>", "</b>", "<", ">", "[x](u)", "![i](p)", "[", "]", "(",
                                  ")", "!", "林"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(_HEADING_PARTS, max_size=8).map("".join), max_size=6))
def test_heading_parsing_matches_the_regex_reference(lines: list[str]) -> None:
    new = [(h.line, h.level, h.title) for h in find_headings(lines)]
    old = _old_headings(lines)
    assert new == [(n, level, title) for n, level, title, _ in old]
    for heading, (_n, _level, title, explicit) in zip(find_headings(lines), old, strict=True):
        if explicit:
            assert heading.slug == explicit
        assert slugify(title) == _old_slugify(title)


@pytest.mark.timeout(10)
def test_hostile_headings_are_parsed_in_linear_time(runs_pack) -> None:
    wide = 200_000
    lines = ["# a" + " " * wide + "b", "## c" + " " * wide + "##", "# " + "<" * wide, "# " + "[" * wide,
             "# " + "[a](" * (wide // 4), "# x " + "{#" * (wide // 2) + "}", "## Boilers  {#boil}"]
    started = time.perf_counter()
    headings = find_headings(lines)
    assert time.perf_counter() - started < 2
    assert [(h.level, h.slug) for h in headings] == [
        (1, "a" + "-" * wide + "b"), (2, "c"), (1, ""), (1, "-1"), (1, "a" * (wide // 4)),
        (1, ("{#" * (wide // 2))[2:].lower()), (2, "boil")]
    source = "# Intro\n\n# a" + " " * wide + "b\ntext\n"
    root = runs_pack({}, files={"sources/wide.md": source, "indexes/source-map.json": json.dumps(
        {"claims": [claim("wide", "sources/wide.md", "#a" + "-" * wide + "b")]})})
    started = time.perf_counter()
    report = build_evidence(root)
    assert time.perf_counter() - started < 5
    assert not [d for d in report.diagnostics if d.code != "evidence-compiled-into-missing"]


def test_unopenable_source_paths_are_reported_not_a_crash(runs_pack) -> None:
    long_name = "sources/" + "a" * 300 + ".md"  # ENAMETOOLONG from Path.is_file() on Python 3.11
    nul_name = "sources/a\x00b.md"  # ValueError: embedded null byte
    claims = [claim("long", long_name, "#L1", compiled_into=[long_name]), claim("nul", nul_name, "#intro"),
              claim("ok", "sources/notes.md", "#L2", compiled_into=["compiled/facts.md", nul_name + "#x"])]
    root = runs_pack({}, files={"indexes/source-map.json": json.dumps({"claims": claims}, indent=2)})
    report = build_evidence(root)
    unopened = {"evidence-source-missing", "evidence-source-outside"}
    assert sorted(d.message.split(":")[0] for d in report.diagnostics if d.code in unopened) == [
        "claim long", "claim nul"]
    assert len([d for d in report.diagnostics if d.code == "evidence-compiled-into-missing"]) == 2
