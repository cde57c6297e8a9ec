"""Shared data for the runs/evidence/review tests (imported by test modules and conftest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

RUNS_DATA = Path(__file__).resolve().parents[1] / "data" / "runs"

KNOWLEDGE = """---
name: {name}
description: Test pack for run records.
type: brand-product
profile: document-first
status: {status}
{trust}metadata:
  primaryDocument: documents/brief.md
  producedBy:
    kind: agent-skill
    name: brief-builder
    version: 1.2.0
    digest: sha256:{digest}
---

# Guide

Read compiled/facts.md first.
"""

VALID_COMPILE: dict[str, Any] = {
    "run_id": "compile-2026-05-01T10-30-00Z",
    "trigger": "ingest",
    "status": "passed",
    "builder_skill": {"name": "brief-builder", "version": "1.2.0", "digest": "sha256:" + "a" * 64},
    "inputs": [{"path": "sources/notes.md"}],
    "outputs": [{"path": "compiled/facts.md", "operation": "updated"}],
    "diagnostics": [],
}


def knowledge_text(name: str = "demo", status: str = "ready", trust: str | None = "unreviewed",
                   digest: str = "a" * 64) -> str:
    return KNOWLEDGE.format(name=name, status=status, trust=f"trust: {trust}\n" if trust else "",
                            digest=digest)
