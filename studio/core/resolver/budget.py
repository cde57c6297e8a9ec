"""The resolver's token budget: its default and the range the studio offers, defined once for every face."""

from __future__ import annotations

DEFAULT_BUDGET = 4000
"""Tokens for the whole fenced output, wrappers included, when nobody says otherwise."""
MIN_BUDGET = 100
"""The smallest budget the app offers: below it not even a wrapper with one short item fits."""
MAX_BUDGET = 200_000
"""The largest budget accepted: beyond any model's context window today."""


def budget_problem(value: int) -> str | None:
    """Why ``value`` is not a budget the studio resolves with, or None when it is.

    The resolver itself accepts any budget from 0 (which shows what even an empty fence costs) up to
    ``MAX_BUDGET``; the app's slider and preferences keep to ``MIN_BUDGET``..``MAX_BUDGET``.
    """
    if value < 0:
        return "the budget must be zero or more"
    if value > MAX_BUDGET:
        return f"the budget must be at most {MAX_BUDGET:,} tokens"
    return None
