"""Every command that takes ``--budget`` has the core's default and refuses the core's out-of-range values alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import build_parser, main
from studio.core.resolver.budget import DEFAULT_BUDGET, MAX_BUDGET

ATLAS = Path(__file__).resolve().parents[2] / "resources" / "examples" / "atlas-lending-policy"
COMMANDS = {
    "resolve": [str(ATLAS), "--task", "loan terms"],
    "eval": [str(ATLAS), "--suite", "evals/answer-quality.json"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_default_budget_is_the_cores(command: str) -> None:
    args = build_parser(command).parse_args([command, *COMMANDS[command]])
    assert args.budget == DEFAULT_BUDGET


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("budget", "words"), [(-1, "zero or more"), (MAX_BUDGET + 1, f"at most {MAX_BUDGET:,}")])
def test_every_command_refuses_the_same_budgets_in_the_same_words(command: str, budget: int, words: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, *COMMANDS[command], "--budget", str(budget)]) == 2
    assert capsys.readouterr().err == f"pack-studio {command}: --budget: the budget must be {words}" + (
        " tokens\n" if budget > MAX_BUDGET else "\n")


def test_eval_refuses_an_out_of_range_budget_to_compare_with(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["eval", *COMMANDS["eval"], "--compare", f"budget={MAX_BUDGET + 1}"])
    out = capsys.readouterr()
    assert code == 2
    assert f"at most {MAX_BUDGET:,}" in out.err + out.out


@pytest.mark.parametrize("compare", ["threshold=nan", "threshold=inf", "threshold=-0.1", "threshold=1.5"])
def test_eval_compare_checks_a_threshold_like_threshold_does(compare: str, capsys: pytest.CaptureFixture[str]) -> None:
    pack = Path(__file__).resolve().parents[2] / "resources" / "examples" / "atlas-lending-policy"
    assert main(["eval", str(pack), "--suite", "evals/discovery.train.json", "--compare", compare]) == 2
    assert "between 0 and 1" in capsys.readouterr().err
