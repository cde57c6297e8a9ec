"""``pack-studio open``: a clear message instead of a crash when no window can be shown."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.launcher import main


def test_without_a_display_open_explains_and_exits_2(monkeypatch, capsys) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["open", "somewhere"]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "pack-studio validate" in err


def test_no_arguments_means_open(monkeypatch, capsys) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main([]) == 2
    assert "cannot open the desktop app" in capsys.readouterr().err


def test_missing_pyside_is_reported(monkeypatch, capsys) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setitem(sys.modules, "studio.ui.app", None)  # makes the lazy import fail like a missing PySide6
    assert main(["open"]) == 2
    assert "needs PySide6" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["open"], []])
def test_an_install_without_pyside_says_how_to_get_the_app(argv: list[str]) -> None:
    # A CLI-only install (pipx install .) has no PySide6 at all: the app's package must still import far enough
    # for the launcher to say what is missing, with no traceback.
    code = ("import sys\n"
            "sys.modules['PySide6'] = None  # what a missing package looks like to an import\n"
            "from studio.launcher import main\n"
            f"sys.exit(main({argv!r}))\n")
    done = _open_in_a_process(_env(QT_QPA_PLATFORM="offscreen"), code)
    assert done.returncode == 2, done.stderr
    assert "needs PySide6" in done.stderr and "knowledge-pack-studio[gui]" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("flag", ["--project", "--home"])
def test_scope_options_are_accepted(flag: str, monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["open", flag, str(tmp_path)]) == 2  # parsed fine; stopped only by the missing display


def _open_in_a_process(env: dict[str, str], *code: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-c", code[0]] if code else [sys.executable, "-m", "studio", "open"]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "XAUTHORITY")}
    env["QT_QPA_PLATFORM"] = ""  # empty: Qt picks by itself, which means xcb when DISPLAY is set
    env.update(extra)
    return env


def test_an_unreachable_x_display_is_said_and_exits_2_without_qt_aborting() -> None:
    started = time.monotonic()
    result = _open_in_a_process(_env(DISPLAY=":97"))
    assert (result.returncode, time.monotonic() - started < 20) == (2, True), result.stderr[-2000:]
    assert "cannot connect to the X display :97 (" in result.stderr and "Traceback" not in result.stderr


@pytest.fixture
def xvfb(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A real X server that admits only clients holding its cookie: (display, client authority file)."""
    if shutil.which("Xvfb") is None or shutil.which("xauth") is None:
        pytest.skip("needs Xvfb and xauth")
    cookie = secrets.token_hex(16)
    server_auth, client_auth = tmp_path / "server.auth", tmp_path / "client.auth"
    subprocess.run(["xauth", "-f", str(server_auth), "add", ":0", ".", cookie], check=True, capture_output=True)
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-auth", str(server_auth), "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as answer:
            number = answer.readline().strip()
        assert number, "Xvfb did not start"
        display = f":{number}"
        subprocess.run(["xauth", "-f", str(client_auth), "add", display, ".", cookie], check=True,
                       capture_output=True)
        yield display, client_auth
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:  # seen once in a loaded full run: Xvfb still shutting down after 10 s
            server.kill()
            server.wait(timeout=10)


PROBE = "from studio.ui.launch import x_connection_problem; print(x_connection_problem())"


def test_a_reachable_x_display_passes_and_one_refusing_the_client_is_said(xvfb: tuple[str, Path]) -> None:
    display, cookie = xvfb
    admitted = _open_in_a_process(_env(DISPLAY=display, XAUTHORITY=str(cookie)), PROBE)
    assert admitted.stdout.strip() == "None", admitted.stderr[-2000:]
    refused = _open_in_a_process(_env(DISPLAY=display, XAUTHORITY=str(cookie.with_name("none"))))
    assert refused.returncode == 2, refused.stderr[-2000:]
    assert f"cannot connect to the X display {display} (" in refused.stderr and "XAUTHORITY" in refused.stderr
