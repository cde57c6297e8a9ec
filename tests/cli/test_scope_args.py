"""Where CLI commands look for packs: PATH arguments, scope options and their defaults."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from studio.cli import main
from studio.cli._scope import add_scope_arguments, options_from_args
from studio.core.workspace import ScanLimits

GOOD = ("---\nname: good\ndescription: A pack that validates cleanly.\ntype: domain-reference\n"
        "status: ready\nprofile: wiki-first\nversion: 1.0.0\n---\n# Guide\n\nRead the wiki.\n")


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_scope_arguments(parser)
    return parser.parse_args(list(argv))


def test_paths_mean_only_those_paths(tmp_path: Path) -> None:
    opts = options_from_args(parse(str(tmp_path / "a"), str(tmp_path / "b")))
    assert opts.explicit == [tmp_path / "a", tmp_path / "b"]
    assert (opts.project, opts.home, opts.org_roots, opts.builtin) == (None, None, [], False)


def test_paths_with_named_scopes(tmp_path: Path) -> None:
    opts = options_from_args(parse("x", "--home", str(tmp_path), "--project", "p", "--org", "o1",
                                   "--org", "o2", "--builtin"))
    assert (opts.home, opts.project, opts.org_roots, opts.builtin) == (
        tmp_path, Path("p"), [Path("o1"), Path("o2")], True)


def test_no_paths_scans_like_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(fake_home))
    monkeypatch.chdir(tmp_path)
    opts = options_from_args(parse())
    assert (opts.explicit, opts.project, opts.home, opts.builtin) == ([], tmp_path, fake_home, True)
    assert options_from_args(parse("--no-builtin")).builtin is False


def test_limits_and_trust_flags() -> None:
    opts = options_from_args(parse("x", "--max-depth", "2", "--max-dirs", "10", "--no-gitignore",
                                   "--untrusted-project"))
    assert opts.limits == ScanLimits(max_depth=2, max_dirs=10, honor_gitignore=False)
    assert opts.trusted_project is False
    defaults = options_from_args(parse("x"))
    assert defaults.limits == ScanLimits() and defaults.trusted_project


@pytest.mark.parametrize("argv", [["--max-depth", "-1"], ["--max-dirs", "0"], ["--max-depth", "many"],
                                  ["--builtin", "--no-builtin"]])
def test_bad_values_are_usage_errors(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path), *argv]) == 2
    assert "error" in capsys.readouterr().err


def test_validate_path_ignores_the_surrounding_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / ".agents" / "knowledge" / "broken"
    broken.mkdir(parents=True)
    (broken / "KNOWLEDGE.md").write_text("no frontmatter here\n", encoding="utf-8")
    good = tmp_path / "good"
    (good / "wiki").mkdir(parents=True)
    (good / "KNOWLEDGE.md").write_text(GOOD, encoding="utf-8")
    (good / "wiki" / "index.md").write_text("# Index\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    home = ["--home", str(tmp_path / "home")]
    assert main(["validate", str(good), *home]) == 0
    assert str(broken) not in capsys.readouterr().out
    assert main(["validate", "--no-builtin", *home]) == 1  # no PATH: the project scope is scanned
    assert str(broken) in capsys.readouterr().out
