"""packaging/: the desktop entry, AppStream metainfo and icons pass the freedesktop validators and agree with the code.

A broken file must fail here, not on a user's desktop: each validator is also shown rejecting a damaged copy.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import struct
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from packaging_support import PACKAGING, REPO, REQUIRE_TOOLS, require_tool

from studio import APP_ID, __version__

DESKTOP = PACKAGING / f"{APP_ID}.desktop"
METAINFO = PACKAGING / f"{APP_ID}.metainfo.xml"
ICONS = PACKAGING / "icons" / "hicolor"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def desktop_entry(path: Path = DESKTOP) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string(path.read_text(encoding="utf-8"))
    return dict(parser["Desktop Entry"])


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=60)


def test_desktop_entry_passes_desktop_file_validate(tmp_path: Path) -> None:
    validator = require_tool("desktop-file-validate", "desktop-file-utils")
    result = run(validator, str(DESKTOP))
    assert result.returncode == 0 and result.stdout.strip() == "", result.stdout + result.stderr
    broken = tmp_path / DESKTOP.name
    broken.write_text(DESKTOP.read_text(encoding="utf-8").replace("Type=Application\n", "").replace(
        "Categories=", "Categories=NotACategory;"), encoding="utf-8")
    assert run(validator, str(broken)).returncode != 0


def test_desktop_entry_opens_folders_with_the_gui_script() -> None:
    entry = desktop_entry()
    command, *args = entry["Exec"].split()
    assert command in pyproject()["project"]["gui-scripts"]
    assert pyproject()["project"]["gui-scripts"][command] == "studio.launcher:gui"
    assert args == ["%F"] and entry["TryExec"] == command
    assert "inode/directory" in entry["MimeType"].split(";")
    assert entry["Icon"] == APP_ID and entry["Terminal"] == "false"


def test_metainfo_passes_appstreamcli(tmp_path: Path) -> None:
    appstreamcli = require_tool("appstreamcli", "appstream")
    result = run(appstreamcli, "validate", "--no-net", "--no-color", str(METAINFO))
    assert result.returncode == 0, result.stdout + result.stderr
    assert not re.search(r"^[EW]: ", result.stdout, re.M), result.stdout  # no error and no warning either
    broken = tmp_path / METAINFO.name
    broken.write_text(re.sub(r"<summary>.*?</summary>", "", METAINFO.read_text(encoding="utf-8")), encoding="utf-8")
    assert run(appstreamcli, "validate", "--no-net", str(broken)).returncode != 0


def test_metainfo_names_the_app_and_its_version() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == DESKTOP.name
    assert root.findtext("icon") == APP_ID
    assert root.find("releases/release").get("version") == __version__  # type: ignore[union-attr]
    assert root.findtext("url[@type='homepage']") == pyproject()["project"]["urls"]["Homepage"]
    assert {b.text for b in root.iter("binary")} == {*pyproject()["project"]["scripts"],
                                                      *pyproject()["project"]["gui-scripts"]}


def test_metainfo_asks_for_the_screen_the_readme_promises() -> None:
    # README: "Every mode works at 1280×720 and at 1024×700": the smallest screen the app is laid out for.
    assert "1024×700" in (REPO / "README.md").read_text(encoding="utf-8")
    lengths = {d.get("side", "shortest"): (d.get("compare"), d.text)
               for d in ET.parse(METAINFO).getroot().iter("display_length")}
    assert lengths == {"shortest": ("ge", "700"), "longest": ("ge", "1024")}


def test_metainfo_screenshots_are_the_repository_images() -> None:
    images = list(ET.parse(METAINFO).getroot().iter("image"))
    assert len(images) >= 3
    for image in images:
        url = image.text or ""
        assert url.startswith("https://raw.githubusercontent.com/") and "/docs/screenshots/" in url
        local = REPO / "docs" / "screenshots" / url.rsplit("/", 1)[1]
        assert local.is_file(), f"{url} names no file in docs/screenshots"
        assert png_size(local) == (int(image.get("width", 0)), int(image.get("height", 0))), url


def test_changelog_starts_with_the_current_version() -> None:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    first = re.search(r"^## \[?(\d+\.\d+\.\d+[^\]\s]*)\]?", text, re.M)
    assert first and first.group(1) == __version__


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_app_icon_as_svg_and_every_png_size() -> None:
    svg = ICONS / "scalable" / "apps" / f"{APP_ID}.svg"
    assert svg.read_bytes() == (REPO / "resources" / "icons" / "app.svg").read_bytes(), \
        "run python packaging/render_icons.py after changing resources/icons/app.svg"
    for size in PNG_SIZES:
        assert png_size(ICONS / f"{size}x{size}" / "apps" / f"{APP_ID}.png") == (size, size)


def test_install_script_puts_everything_where_desktops_look(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    gui = bin_dir / "pack-studio-gui"
    gui.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    gui.chmod(0o755)
    prefix = tmp_path / "prefix"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(["sh", str(PACKAGING / "install-desktop.sh"), "--prefix", str(prefix)],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    share = prefix / "share"
    installed = share / "applications" / DESKTOP.name
    entry = desktop_entry(installed)
    assert entry["Exec"] == f"{gui} %F" and entry["TryExec"] == str(gui)  # desktops often lack ~/.local/bin
    assert (share / "metainfo" / METAINFO.name).read_bytes() == METAINFO.read_bytes()
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    for size in PNG_SIZES:
        assert (share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png").is_file()
    if os.environ.get(REQUIRE_TOOLS) or shutil.which("desktop-file-validate"):
        assert run(require_tool("desktop-file-validate", "desktop-file-utils"), str(installed)).returncode == 0
    removed = subprocess.run(["sh", str(PACKAGING / "install-desktop.sh"), "--prefix", str(prefix), "--uninstall"],
                             capture_output=True, text=True, env=env, timeout=60)
    assert removed.returncode == 0, removed.stderr
    assert not installed.exists() and not any(share.rglob(f"{APP_ID}*"))
    assert [p.relative_to(prefix).as_posix() for p in prefix.rglob("*")] == ["share"], \
        "--uninstall removes the folders and caches it added, not only the files"


@pytest.mark.parametrize(("has_qt", "warned"), [(True, False), (False, True)])
def test_install_script_warns_when_the_launcher_cannot_start_the_app(tmp_path: Path, has_qt: bool,
                                                                     warned: bool) -> None:
    # A CLI-only install (no PySide6) has a pack-studio-gui that can only say what is missing: the installer asks
    # the launcher's own Python, and says how to add the app, rather than install a menu entry that fails.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    python = bin_dir / "python3"  # stands for the launcher's interpreter: imports PySide6 or fails to
    python.write_text(f"#!/bin/sh\nexit {0 if has_qt else 1}\n", encoding="utf-8")
    python.chmod(0o755)
    gui = bin_dir / "pack-studio-gui"
    gui.write_text(f"#!{python}\nimport sys\n", encoding="utf-8")
    gui.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(["sh", str(PACKAGING / "install-desktop.sh"), "--prefix", str(tmp_path / "prefix")],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert ("no PySide6" in result.stderr and "[gui]" in result.stderr) is warned, result.stderr


def test_uninstall_leaves_what_others_installed(tmp_path: Path) -> None:
    share = tmp_path / "prefix" / "share"
    other = share / "icons" / "hicolor" / "48x48" / "apps" / "other.png"
    other.parent.mkdir(parents=True)
    other.write_bytes(b"png")
    (share / "applications").mkdir()
    (share / "applications" / "other.desktop").write_text("[Desktop Entry]\n", encoding="utf-8")
    assert run("sh", str(PACKAGING / "install-desktop.sh"), "--prefix", str(tmp_path / "prefix")).returncode == 0
    assert run("sh", str(PACKAGING / "install-desktop.sh"), "--prefix", str(tmp_path / "prefix"),
               "--uninstall").returncode == 0
    assert other.is_file() and (share / "applications" / "other.desktop").is_file()


@pytest.mark.parametrize("bad", ["--prefix", "--nonsense"])
def test_install_script_refuses_bad_usage(bad: str) -> None:
    result = run("sh", str(PACKAGING / "install-desktop.sh"), bad)
    assert result.returncode == 2 and "usage" in result.stderr.lower()
