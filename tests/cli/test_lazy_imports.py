"""Start-up cost: a command imports its own modules, and ``--version`` imports nothing of the core.

Scripts call ``pack-studio`` once per pack; each run paying for every command's imports (the core, the
search stack, the evals' ir-measures) would cost more than the work. Measured in a fresh interpreter.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from studio.cli import build_parser, command_names


def _loaded_after(argv: list[str]) -> set[str]:
    code = (
        "import contextlib, io, json, sys\n"
        "from studio.launcher import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({argv!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "sys.stderr.write(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    return set(json.loads(done.stderr))


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
