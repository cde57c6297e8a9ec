"""Every command that counts tokens takes ``--encoding`` alike: it counts with the encoding named, and a name the
studio does not know is a usage error before any work (a script must never get the default's figures, or none,
while believing it got the ones it asked for)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.cli import build_parser, main

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
ATLAS = EXAMPLES / "atlas-lending-policy"
COMMANDS = {
    "guide": [str(ATLAS)],
    "fence": [str(ATLAS)],
    "resolve": [str(ATLAS), "--task", "loan terms"],
    "eval": [str(ATLAS), "--suite", "evals/answer-quality.json"],
    "index": [str(EXAMPLES)],
    "diff": [str(ATLAS), str(ATLAS)],
}


def test_every_command_with_an_encoding_option_is_covered_here() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    with_encoding = sorted(name for name, sub in commands.items()
                           if any("--encoding" in a.option_strings for a in sub._actions))
    assert with_encoding == sorted(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unknown_encoding_is_refused_with_the_known_ones(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, *COMMANDS[command], "--encoding", "bogus"]) == 2
    err = capsys.readouterr().err
    assert "unknown encoding 'bogus'" in err and "cl100k_base" in err and "o200k_base" in err


@pytest.mark.parametrize("command", ["guide", "fence"])
def test_the_token_line_counts_with_the_encoding_named(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    counts = {}
    for encoding in ("cl100k_base", "o200k_base"):
        assert main([command, *COMMANDS[command], "--encoding", encoding]) == 0
        line = capsys.readouterr().err.splitlines()[0]
        found = re.fullmatch(r"tokens: (\d+) tokens \((\w+)\)", line)
        assert found is not None, line
        assert found.group(2) == encoding
        counts[encoding] = int(found.group(1))
    assert counts["cl100k_base"] != counts["o200k_base"]  # two tokenizers, two counts of the same text


def test_a_fence_of_a_pack_no_client_loads_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = tmp_path / "no-frontmatter"
    pack.mkdir()
    (pack / "KNOWLEDGE.md").write_text("# Notes\n\nNo frontmatter at all.\n", encoding="utf-8")
    assert main(["fence", str(pack)]) == 1
    out = capsys.readouterr()
    assert out.out.startswith("<knowledge_pack")  # the fence is still shown, for debugging
    assert "A client would not load this pack" in out.err and "missing-frontmatter" in out.err
