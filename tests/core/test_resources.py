"""Bundled resources: found through importlib.resources, and a missing or damaged folder is a named warning."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

import studio.core.workspace as workspace_module
from studio.cli import main
from studio.core.catalogue import lookup
from studio.core.diagnostics import Severity
from studio.core.model import Scope
from studio.core.resources import (
    BUILTIN_SCOPE_MISSING,
    data_root,
    examples_dir,
    icons_dir,
    schemas_dir,
    templates_dir,
)
from studio.core.runs import schemas as schemas_module
from studio.core.workspace import WorkspaceOptions, open_workspace


def test_folders_come_from_the_installed_package() -> None:
    assert data_root() == Path(str(resources.files("studio.resources")))
    assert examples_dir().parent == icons_dir().parent == templates_dir().parent == data_root()
    assert sorted(p.name for p in examples_dir().iterdir() if (p / "KNOWLEDGE.md").is_file()) == [
        "atlas-lending-policy", "harbor-support-playbook", "lin-yue-persona", "northwind-espresso",
        "orbit-launch-notes"]
    assert (icons_dir() / "app.svg").is_file() and (icons_dir() / "error.svg").is_file()
    assert (schemas_dir() / "compile-run.schema.json").is_file()


def test_builtin_scope_lists_the_five_examples_without_a_warning() -> None:
    ws = open_workspace(WorkspaceOptions(builtin=True))
    assert [p.scope for p in ws.packs] == [Scope.BUILTIN] * 5
    assert [d.code for d in ws.diagnostics] == []


@pytest.mark.parametrize("damage, words", [
    ("missing", "does not exist"),
    ("empty", "holds no pack"),
    ("file", "is not a folder"),
])
def test_damaged_builtin_scope_is_a_warning_naming_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             damage: str, words: str) -> None:
    where = tmp_path / "site-packages" / "studio" / "resources" / "examples"
    if damage == "empty":
        (where / "not-a-pack").mkdir(parents=True)
    elif damage == "file":
        where.parent.mkdir(parents=True)
        where.write_text("oops", encoding="utf-8")
    monkeypatch.setattr(workspace_module, "examples_dir", lambda: where)
    ws = open_workspace(WorkspaceOptions(builtin=True))
    (finding,) = ws.diagnostics
    assert finding.code == BUILTIN_SCOPE_MISSING.code and finding.severity is Severity.WARNING
    assert str(where) in finding.message and words in finding.message and finding.file == str(where)
    assert lookup(finding.code) is not None  # declared in the catalogue
    assert ws.packs == []


def test_validate_says_so_when_the_builtin_scope_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    where = tmp_path / "gone" / "examples"
    monkeypatch.setattr(workspace_module, "examples_dir", lambda: where)
    monkeypatch.chdir(tmp_path)
    code = main(["validate", "--home", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0  # a warning, not a failed run...
    assert f"{where}:1:1: warning builtin-scope-missing Bundled example packs not found: {where}" in out
    assert "0 packs (0 load): 0 errors, 1 warning," in out
    assert main(["validate", "--home", str(tmp_path), "--strict"]) == 1  # ...unless warnings fail the run


def test_no_builtin_means_no_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workspace_module, "examples_dir", lambda: tmp_path / "gone")
    assert open_workspace(WorkspaceOptions(builtin=False)).diagnostics == []


def test_a_missing_schema_file_is_a_warning_not_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schemas_module, "schemas_dir", lambda: tmp_path)
    schemas_module.load_schema.cache_clear()
    schemas_module._validator.cache_clear()
    try:
        check = schemas_module.check_against_schema({"kind": "compile"}, "compile-run", file="runs/compile-1.json")
    finally:
        schemas_module.load_schema.cache_clear()
        schemas_module._validator.cache_clear()
    (finding,) = check.diagnostics
    assert finding.code == "resource-missing" and finding.severity is Severity.WARNING
    assert str(tmp_path / "compile-run.schema.json") in finding.message and finding.file == "runs/compile-1.json"
    assert check.valid  # nothing is known against the record itself
