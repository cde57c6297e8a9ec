"""What the task asks for, beyond relevance: evidence (citation, verification, dispute, ingest) or not."""

from __future__ import annotations

import re

# Substrings, English and Chinese. The reference CLI only knows "source", "citation", "引用", "来源".
EVIDENCE_WORDS = (
    "source", "cite", "citation", "evidence", "verify", "verification", "fact-check", "fact check", "prove",
    "proof", "dispute", "contradict", "conflicting", "anchor", "ingest", "provenance",
    "引用", "来源", "出处", "证据", "核实", "验证", "核查", "查证", "争议", "依据", "溯源",
)
REFERENCE_EVIDENCE_WORDS = ("source", "citation", "引用", "来源")
_SPACES = re.compile(r"\s+")


def asks_for_evidence(task: str) -> bool:
    """True when the task needs source anchors (citation, verification, ingest or dispute handling)."""
    text = _SPACES.sub(" ", task.lower())
    return any(word in text for word in EVIDENCE_WORDS)


def reference_asks_for_sources(task: str) -> bool:
    """The reference CLI's narrower test (digest 6.8)."""
    text = task.lower()
    return any(word in text for word in REFERENCE_EVIDENCE_WORDS)
