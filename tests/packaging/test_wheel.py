"""The wheel: built from the tracked files alone, it carries every resource, both entry points and the version, and
runs from its own files (not from a checkout) with the five built-in packs found through importlib.resources."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging_support import REPO

from studio import __version__

pytestmark = pytest.mark.slow


def tracked_files() -> list[str]:
    """What a clean clone holds: tracked files plus new ones not ignored (so uncommitted work is tested too)."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                         capture_output=True, check=True, timeout=60).stdout
    return [name for name in out.decode("utf-8", "surrogateescape").split("\0") if name and (REPO / name).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs git and a git checkout")
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    for name in tracked_files():
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"),
                             str(source)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    (built,) = (work / "dist").glob("knowledge_pack_studio-*.whl")
    return built


def test_every_resource_ships_in_the_wheel(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    resources = [n for n in tracked_files() if n.startswith("resources/")]
    assert len(resources) > 50
    missing = [n for n in resources if f"studio/{n}" not in names]
    assert missing == []
    schemas = [n for n in tracked_files() if n.startswith("studio/schemas/") and n.endswith(".json")]
    assert schemas and all(n in names for n in schemas)
    assert not [n for n in names if "__pycache__" in n or n.startswith(("tests/", "resources/", "packaging/"))]


def test_wheel_declares_both_entry_points_and_the_version(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    dist_info = f"knowledge_pack_studio-{__version__}.dist-info"
    assert wheel.name.startswith(f"knowledge_pack_studio-{__version__}-")
    entry_points = archive.read(f"{dist_info}/entry_points.txt").decode()
    assert "[console_scripts]\npack-studio = studio.launcher:main" in entry_points
    assert "[gui_scripts]\npack-studio-gui = studio.launcher:gui" in entry_points
    assert f"\nVersion: {__version__}\n" in archive.read(f"{dist_info}/METADATA").decode()


@pytest.fixture(scope="module")
def unpacked(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel's files as an installer lays them out (its dependencies come from this test environment)."""
    target = tmp_path_factory.mktemp("site")
    zipfile.ZipFile(wheel).extractall(target)
    return target


def run_studio(site: Path, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    # PYTHONPATH puts the wheel's studio ahead of the editable install of this checkout; -P keeps the current
    # folder off sys.path. The current folder and HOME are empty: nothing to find but the built-in scope.
    env = {**os.environ, "PYTHONPATH": str(site), "HOME": str(cwd)}
    return subprocess.run([sys.executable, "-P", "-m", "studio", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_python_m_studio_from_the_wheel_lists_the_five_builtin_packs(unpacked: Path, tmp_path: Path) -> None:
    result = run_studio(unpacked, tmp_path, "validate", "--format", "json")
    assert result.returncode == 0, result.stderr[-3000:]
    data = json.loads(result.stdout)
    assert [(p["name"], p["scope"]) for p in data["packs"]] == [
        ("atlas-lending-policy", "builtin"), ("harbor-support-playbook", "builtin"), ("lin-yue-persona", "builtin"),
        ("northwind-espresso", "builtin"), ("orbit-launch-notes", "builtin")]
    assert all(p["path"].startswith(str(unpacked / "studio" / "resources" / "examples")) for p in data["packs"])
    assert data["diagnostics"] == []
    version = run_studio(unpacked, tmp_path, "--version")
    assert version.stdout.strip() == f"pack-studio {__version__}"


def test_a_wheel_install_without_its_examples_says_so(unpacked: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "site"
    shutil.copytree(unpacked, damaged)
    shutil.rmtree(damaged / "studio" / "resources" / "examples")
    result = run_studio(damaged, tmp_path, "validate")
    examples = damaged / "studio" / "resources" / "examples"
    assert result.returncode == 0
    assert f"warning builtin-scope-missing Bundled example packs not found: {examples} does not exist" in result.stdout
    assert "0 packs (0 load): 0 errors, 1 warning," in result.stdout
