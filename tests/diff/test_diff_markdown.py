"""``pack-studio diff --format markdown``: a pull-request comment that pack text cannot break.

Parsed with markdown-it-py (CommonMark plus GFM tables, as GitHub reads a comment): the headings and tables are
the studio's own, every table row has its column count, and text from the pack makes no link, code span, HTML
or heading, however it is spelled.
"""

from __future__ import annotations

import json

import pytest
from conftest import Repo, run_diff
from markdown_it import MarkdownIt
from markdown_it.token import Token

from studio.core.diff.markdown import md

HOSTILE_IDS = ["pipe|split", "tick`code`", "<script>alert(1)</script>", "[link](https://example.com)",
               "# heading", "1. list", "@someone", "**bold** _em_ ~~gone~~", "line\nbreak\x1b[2J"]


def _parse(text: str) -> list[Token]:
    return MarkdownIt("commonmark").enable("table").enable("strikethrough").parse(text)


def _flatten(tokens: list[Token]) -> list[Token]:
    out = []
    for tok in tokens:
        out.append(tok)
        out.extend(_flatten(tok.children or []))
    return out


@pytest.fixture
def hostile_report(repo: Repo, capsys: pytest.CaptureFixture[str]) -> str:
    path = repo.pack / "indexes" / "source-map.json"
    data = json.loads(path.read_text())
    for i, claim_id in enumerate(HOSTILE_IDS):
        data["claims"].append({"claim_id": claim_id, "text": f"Claim {i} | with `ticks` and <b>tags</b>",
                               "status": "confirmed", "source": {"path": "sources/underwriting-manual-2026.md"}})
    data["claims"][0]["status"] = "disputed"
    path.write_text(json.dumps(data, indent=2))
    repo.edit("KNOWLEDGE.md", "status: ready", "status: draft")
    # Runtime text with backtick runs: the fence's text diff must stay inside its code block.
    repo.edit("compiled/boundaries.md", "\n", "\n```` four ticks `` and ``` three </details> <img src=x>\n")
    (repo.pack / "compiled" / "splits" / "lending-policy" / "products.md").unlink()
    code, out, err = run_diff(capsys, str(repo.pack), "--from", "v1", "--format", "markdown")
    assert code == 1 and err == ""
    return out


def test_headings_and_tables_are_well_formed(hostile_report: str) -> None:
    tokens = _flatten(_parse(hostile_report))
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings == ["Pack diff: atlas-lending-policy", "Frontmatter", "Files", "Claims (source map)",
                        "Findings", "What an agent sees", "Resolver picks", "Evals"]
    rows: list[int] = []
    for t in tokens:
        if t.type == "table_open":
            rows = []
        elif t.type == "tr_open":
            rows.append(0)
        elif t.type in ("th_open", "td_open"):
            rows[-1] += 1
        elif t.type == "table_close":
            assert len(set(rows)) == 1, rows  # every row has the header's column count
    claims_table = hostile_report.split("### Claims (source map)")[1].split("###")[0]
    assert claims_table.count("\n| added |") == len(HOSTILE_IDS)


def test_pack_text_makes_no_link_code_span_or_html(hostile_report: str) -> None:
    tokens = _flatten(_parse(hostile_report))
    assert not [t for t in tokens if t.type in ("link_open", "image", "code_inline", "em_open", "s_open")]
    assert [t.content for t in tokens if t.type == "strong_open" or (t.type == "text" and t.content in (
        "old:", "new:"))] == ["", "old:", "", "new:"]  # the only bold text is the studio's own
    html = [t.content.strip() for t in tokens if t.type in ("html_inline", "html_block")]
    assert all(h.startswith(("<details><summary>", "</details>", "<br>")) for h in html), html
    assert "\x1b" not in hostile_report
    for claim_id in ("pipe|split", "<script>alert(1)</script>", "[link](https://example.com)"):
        assert any(claim_id in t.content for t in tokens if t.type == "text"), claim_id  # shown, inert


def test_text_diffs_sit_in_fences_no_line_can_close(hostile_report: str) -> None:
    fences = [t for t in _parse(hostile_report) if t.type == "fence"]
    assert fences and all(t.info == "diff" for t in fences)
    fence_diff = next(t.content for t in fences if "four ticks" in t.content)
    # (the fence itself neutralises '<' in pack text, as an agent sees it)
    assert "+```` four ticks `` and ``` three &lt;/details> &lt;img src=x>" in fence_diff


def test_an_identical_pack_says_so(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_diff(capsys, str(repo.pack), "--from", "v1", "--format", "markdown")
    assert code == 0 and "No differences" in out
    assert [t.type for t in _parse(out)].count("table_open") == 0


@pytest.mark.parametrize("text", HOSTILE_IDS)
def test_escaped_text_renders_as_itself(text: str) -> None:
    tokens = _flatten(_parse(md(text) + "\n"))  # alone on its line: where a heading or a list would start
    rendered = "".join(t.content for t in tokens if t.type == "text")
    expected = text.replace("\n", " ").replace("\x1b", "")
    assert rendered == expected


def test_text_output_never_carries_a_control_sequence(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    hostile = "\x1b]0;pwned\x07\x1b[2J\u202etxt.exe\nforged: 0 errors"
    (repo.pack / "compiled" / f"note{hostile.replace(chr(10), ' ')}.md").write_text(f"# {hostile}\n\n{hostile}\n")
    path = repo.pack / "indexes" / "source-map.json"
    data = json.loads(path.read_text())
    data["claims"].append({"claim_id": hostile, "text": hostile, "status": "confirmed",
                           "source": {"path": "sources/underwriting-manual-2026.md"}})
    path.write_text(json.dumps(data))
    repo.edit("KNOWLEDGE.md", "status: ready", f"status: {json.dumps(hostile)}")
    code, out, err = run_diff(capsys, str(repo.pack), "--from", "v1", "--task", hostile)
    assert code == 1 and "Traceback" not in err
    assert not any(ch in out for ch in "\x1b\x07\u202e")
    assert "\nforged: 0 errors" not in out  # a line break in pack text never starts a line of its own
    assert "\\x1b]0;pwned" in out
