"""Start-up cost: a command imports its own modules, and ``--version`` imports nothing of the core.

Scripts call ``pack-studio`` once per pack; each run paying for every command's imports (the core, the
search stack, the evals' ir-measures) would cost more than the work. Measured in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import build_parser, command_names


def _loaded_after(argv: list[str], env: dict[str, str] | None = None) -> set[str]:
    return _run_in_fresh_interpreter(argv, env)[1]


def _run_in_fresh_interpreter(argv: list[str], env: dict[str, str] | None = None) -> tuple[object, set[str]]:
    """The command's exit status and every module loaded once it is done."""
    code = (
        "import contextlib, io, json, sys\n"
        "from studio.launcher import main\n"
        "status = None\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        status = main({argv!r})\n"
        "    except SystemExit as exc:\n"
        "        status = exc.code\n"
        "sys.stderr.write(json.dumps([status, sorted(sys.modules)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
                          env=env)
    status, loaded = json.loads(done.stderr.splitlines()[-1])
    return status, set(loaded)


def test_version_imports_no_part_of_the_app() -> None:
    loaded = _loaded_after(["--version"])
    assert not any(m.startswith(("studio.core", "studio.cli", "studio.ui", "yaml", "PySide6")) for m in loaded)


@pytest.mark.parametrize(("command", "foreign"), [
    ("guide", ("studio.core.search", "studio.core.evals", "studio.cli.validate", "studio.cli.eval")),
    ("rules", ("studio.core.workspace", "studio.core.search", "studio.core.evals", "studio.cli.guide")),
    ("resolve", ("studio.core.search", "studio.core.evals", "studio.cli.search")),
    ("validate", ("studio.core.search", "studio.core.evals", "studio.core.resolver.session", "studio.cli.fence")),
])
def test_a_command_imports_only_its_own_modules(command: str, foreign: tuple[str, ...]) -> None:
    loaded = _loaded_after([command, "--help"])
    assert f"studio.cli.{command}" in loaded
    assert not any(m.startswith(foreign) for m in loaded), sorted(m for m in loaded if m.startswith(foreign))
    assert "PySide6.QtCore" not in loaded


def test_a_warm_search_imports_neither_the_resolver_nor_a_markdown_parser(tmp_path: Path) -> None:
    # A warm search takes the packs from the result cache and the hits from the index: the resolver's session and
    # ranking, markdown-it, the evals and the content checks' runs and feedback would be paid for and never used.
    examples = Path(__file__).resolve().parents[2] / "resources" / "examples"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    argv = ["search", "espresso", str(examples)]
    first, _ = _run_in_fresh_interpreter(argv, env)  # builds the index and fills the result cache
    status, loaded = _run_in_fresh_interpreter(argv, env)
    assert first == status == 0  # found something, both times
    assert "studio.cli.search" in loaded and "studio.core.search.index" in loaded
    # Nor, its pack list being a scan (answered from the cache), loading packs, their checks, pins or settling.
    foreign = ("studio.core.resolver", "markdown_it", "studio.core.evals", "studio.core.runs", "studio.core.feedback",
               "PySide6", "studio.core.pack_loader", "studio.core.checks", "studio.core.pack_fingerprint",
               "studio.core.pins", "studio.core.shadowing", "studio.core.lookalike", "yaml", "studio.core.frontmatter",
               # nor OpenSSL's bindings (BLAKE2b is CPython's own) or shutil's archive modules: 3 ms between them
               "_hashlib", "shutil", "lzma", "bz2")
    assert not any(m.startswith(foreign) for m in loaded), sorted(m for m in loaded if m.startswith(foreign))


def test_help_is_wrapped_to_the_width_the_terminal_gives() -> None:
    # The width is found once (not through shutil at every argument): $COLUMNS still rules, as argparse's own did.
    def help_lines(columns: int) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "studio", "search", "--help"], capture_output=True, text=True,
                              timeout=120, check=True, env={**os.environ, "COLUMNS": str(columns)})
        return done.stdout.splitlines()

    narrow, wide = help_lines(60), help_lines(160)
    assert 130 < max(len(line) for line in wide) <= 160
    assert len(narrow) > 1.3 * len(wide)  # the same help, wrapped shorter
    prose = [line for line in narrow if " " in line.strip() and "[" not in line and "{" not in line]
    assert prose and max(len(line) for line in prose) <= 60


def test_every_module_is_a_command_of_its_own_name() -> None:
    # The lazy path finds a command's module by its name; the full parser must agree on every one.
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert sorted(sub.choices) == command_names()


def test_an_unknown_command_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    assert main(["valdate"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'valdate'" in err
    assert "validate" in err and "read-files" in err


def test_the_collector_is_back_on_while_a_command_works() -> None:
    """The launcher turns the cycle collector off while a command's modules are imported; the command itself
    runs with it on (a long validate must not grow without bound)."""
    code = ("import gc, sys\n"
            "from studio.cli import validate\n"
            "seen = []\n"
            "real = validate.open_workspace\n"
            "validate.open_workspace = lambda options: (seen.append(gc.isenabled()), real(options))[1]\n"
            "from studio.launcher import main\n"
            "main(['validate', sys.argv[1], '--format', 'json'])\n"
            "sys.stderr.write(repr(seen))\n")
    examples = Path(__file__).resolve().parents[2] / "resources" / "examples"
    done = subprocess.run([sys.executable, "-c", code, str(examples)], capture_output=True, text=True, timeout=120)
    assert done.stderr.strip().splitlines()[-1] == "[True]"
