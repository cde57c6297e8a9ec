"""The fast line reader must agree with the full YAML loader on every text it accepts.

The validator takes the line reader's answer for plain frontmatter and the loader's for everything
else, so a curator must never see a different value, position or diagnostic depending on which one
ran. Hypothesis writes frontmatter-like texts from tricky pieces; whenever the reader accepts one,
its values, key positions and diagnostics must equal the loader's.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.frontmatter import _parse_plain, parse_with_loader, parse_yaml_block

KEYS = ["name", "description", "type", "status", "version", "language", "updated", "metadata",
        "primaryDocument", "producedBy", "kind", "a", "b", "x-y", "on", "1", "k.v"]
VALUES = [
    "", "northwind", "Espresso notes", '"quoted: with # signs"', "'single ''quoted'''", "'unclosed",
    '"unclosed', '"esc\\"aped"', "1.10", "1.0.3", "no", "yes", "off", "~", "null", "2026-05-01",
    "2026-05-01 10:00:00", "-1", "0o17", "0x1F", "1_000", "190:20:30", ".inf", "=", "<<", "---", "- x",
    "-x", "?x", ":x", "a: b", "a:b", "C#", "x #comment", "[a, b]", "{a: 1}", "&anchor v", "*alias", "!tag v",
    "|", ">-", "@at", "`tick`", "%pct", "trailing:", "tab\there", "文档说明", "value  ", "R&D *bold*",
    "true", "False", "3.14", "1e3", "+5", "0.", ".", "'", '"', "''", '""',
]


@st.composite
def frontmatter_lines(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 9))):
        indent = " " * draw(st.sampled_from([0, 0, 0, 1, 2, 2, 4]))
        kind = draw(st.sampled_from(["key", "key", "key", "item", "comment", "blank", "junk"]))
        if kind == "key":
            value = draw(st.sampled_from(VALUES))
            lines.append(f"{indent}{draw(st.sampled_from(KEYS))}:{' ' + value if value else ''}")
        elif kind == "item":
            lines.append(f"{indent}- {draw(st.sampled_from(VALUES)) or 'x'}")
        elif kind == "comment":
            lines.append(f"{indent}# note")
        elif kind == "blank":
            lines.append(draw(st.sampled_from(["", "   "])))
        else:
            lines.append(indent + draw(st.text(alphabet=" -:#'\"ab\t[]{}", max_size=8)))
    return "\n".join(lines)


def _comparable(result: tuple) -> tuple:
    data, positions, diagnostics = result
    return data, list(positions.items()), [(d.code, d.line, d.column, d.message) for d in diagnostics]


@settings(max_examples=1500, deadline=None)
@given(frontmatter_lines())
def test_line_reader_agrees_with_the_loader_whenever_it_accepts(raw: str) -> None:
    fast = _parse_plain(raw, 2)
    if fast is None:
        return
    assert _comparable(fast) == _comparable(parse_with_loader(raw, first_line=2)), raw


def test_the_reader_accepts_typical_frontmatter_and_keeps_positions() -> None:
    raw = ("name: northwind-espresso\ndescription: \"Brand facts: prices, # of stores\"\nversion: 1.10\n"
           "updated: 2026-05-01\nmetadata:\n  primaryDocument: documents/brand.md\n  tags:\n  - coffee\n"
           "  - 咖啡\nruntime:\n  mode: data")
    fast = _parse_plain(raw, 2)
    assert fast is not None
    data, positions, diagnostics = fast
    assert data["description"] == "Brand facts: prices, # of stores"
    assert data["version"] == "1.10" and data["updated"] == "2026-05-01"
    assert data["metadata"] == {"primaryDocument": "documents/brand.md", "tags": ["coffee", "咖啡"]}
    assert positions[("metadata", "primaryDocument")] == (7, 3, 7, 20)
    assert [d.code for d in diagnostics] == ["yaml-coercion"]
    assert _comparable(fast) == _comparable(parse_with_loader(raw, first_line=2))


def test_unusual_yaml_goes_to_the_loader_and_keeps_its_diagnostics() -> None:
    unusual = ("a: x\n  b: y", "a: b\na: c", "a:\n-   \n- b", "a:\n  - x\n   - y", "a: &x 1\nb: *x",
               "a: |\n  text", "a: [1, 2]", "a: x # note")
    for raw in unusual:
        assert _parse_plain(raw, 2) is None, raw
    for depth in (32, 33, 40):  # the loader's nesting limit applies to both readers alike
        nested = "\n".join(" " * i + "k:" for i in range(depth))
        fast = _parse_plain(nested, 2)
        assert fast is None or _comparable(fast) == _comparable(parse_with_loader(nested, first_line=2)), depth
    assert _parse_plain("\n".join(" " * i + "k:" for i in range(33)), 2) is None
    _, _, diagnostics = parse_yaml_block("name: a\nname: b", first_line=2)
    assert [(d.code, d.line) for d in diagnostics] == [("duplicate-key", 3)]
