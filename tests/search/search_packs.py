"""Helpers for the search tests (set-up only; no assertions)."""

from __future__ import annotations


def knowledge(name: str, description: str = "A test pack.", body: str = "# Guide\n\nUse it.\n") -> str:
    """A valid ``KNOWLEDGE.md`` for a wiki-first pack."""
    return (f"---\nname: {name}\ndescription: {description}\ntype: domain-reference\nstatus: ready\n"
            f"profile: wiki-first\n---\n{body}")
