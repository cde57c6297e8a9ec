"""Generates tests/data/authoring/broken: one pack per fixable finding (the output is committed; run from the
checkout root to regenerate it)."""

from __future__ import annotations

import shutil
from pathlib import Path

BASE = """---
name: {name}
description: A small pack used to test quick fixes; it holds nothing but this guide and a briefing.
type: domain-reference
profile: wiki-first
status: ready
trust: user-confirmed
grounding: recommended
runtime:
  mode: data
---

# Test pack

## When to use

- Tests of the studio's quick fixes.

## Context map

- `compiled/briefing.md`: the briefing.

## Runtime boundaries

- This pack is data; nothing in it is an instruction.
"""
OUT = Path("tests/data/authoring/broken")
shutil.rmtree(OUT, ignore_errors=True)

def pack(case: str, text: str, files: dict[str, str] | None = None, crlf: bool = False, bom: bool = False) -> None:
    root = OUT / case
    (root / "compiled").mkdir(parents=True)
    (root / "compiled" / "briefing.md").write_text("# Briefing\n\nA short briefing.\n")
    for rel, content in (files or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(content)
    data = text.replace("\n", "\r\n") if crlf else text
    (root / "KNOWLEDGE.md").write_bytes((b"\xef\xbb\xbf" if bom else b"") + data.encode())

def base(case: str) -> str:
    return BASE.format(name=case)

pack("clean", base("clean"))
pack("name-mismatch", BASE.format(name="acme-widget"))
pack("invalid-name", BASE.format(name="Invalid Name"))
pack("status-typo", base("status-typo").replace("status: ready", "status: redy"))
pack("status-case", base("status-case").replace("status: ready", "status: 'Ready'  # reviewed in May"),
     crlf=True, bom=True)
pack("trust-typo", base("trust-typo").replace("trust: user-confirmed", "trust: offical"))
pack("grounding-typo", base("grounding-typo").replace("grounding: recommended", "grounding: requried"))
pack("type-typo", base("type-typo").replace("type: domain-reference", "type: domain_refrence"))
pack("profile-typo", base("profile-typo").replace("profile: wiki-first", "profile: docment-first").replace(
    "runtime:\n  mode: data\n", "runtime:\n  mode: data\nmetadata:\n  primaryDocument: documents/main.md\n"),
    {"documents/main.md": "# Main\n"})
pack("profile-prefix", base("profile-prefix").replace("profile: wiki-first", "profile: wiki"))
pack("mode-typo", base("mode-typo").replace("  mode: data", "  mode: persnoa"))
pack("unknown-key", base("unknown-key").replace("grounding: recommended\n",
                                                "grounding: recommended\nversoin: \"1.0.0\"\n"))
pack("unknown-key-case", base("unknown-key-case").replace("trust: user-confirmed", "Trust: user-confirmed"))
pack("tabs", base("tabs").replace("runtime:\n  mode: data\n",
                                  "runtime:\n\tmode: data\nmetadata:\n\tproducedBy:\n\t\tkind: manual\n"))
pack("missing-profile", base("missing-profile").replace("profile: wiki-first\n", ""))
pack("context-map-missing", base("context-map-missing").replace(
    "- `compiled/briefing.md`: the briefing.\n",
    "- `compiled/briefing.md`: the briefing.\n- Short facts: `compiled/facts.md`.\n"))
pack("context-map-folder", base("context-map-folder").replace(
    "- `compiled/briefing.md`: the briefing.\n",
    "- `compiled/briefing.md`: the briefing.\n- Cite from `sources/` only.\n"))
pack("context-map-shared-line", base("context-map-shared-line").replace(
    "- `compiled/briefing.md`: the briefing.\n", "- `compiled/briefing.md` then `wiki/terms.md`.\n"))
pack("missing-name", base("missing-name").replace("name: missing-name\n", ""))
pack("missing-description", base("missing-description").replace(
    "description: A small pack used to test quick fixes; it holds nothing but this guide and a briefing.\n",
    "description:\n"))
pack("missing-type", base("missing-type").replace("type: domain-reference\n", ""))
pack("missing-status", base("missing-status").replace("status: ready\n", ""))
print(sorted(p.name for p in OUT.iterdir()))
