"""``--budget``: one default, one range and one refusal for every command that takes a token budget.

The range and the words of the refusal are the core's (``studio.core.resolver.budget``), so the CLI refuses
exactly what the app's slider and preferences refuse.
"""

from __future__ import annotations

import argparse
import sys

from studio.core.resolver.budget import DEFAULT_BUDGET, budget_problem


def add_budget_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--budget N`` with the studio's default; ``what`` says what the budget bounds."""
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help=f"{what} (default {DEFAULT_BUDGET})")


def refused_budget(command: str, value: int) -> bool:
    """True (after saying why on stderr) when ``value`` is not a budget the studio resolves with."""
    problem = budget_problem(value)
    if problem is None:
        return False
    sys.stderr.write(f"pack-studio {command}: --budget: {problem}\n")
    return True
