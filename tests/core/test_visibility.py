"""Who sees a pack: copies per scope root, winners per client context, standard vs user-first precedence."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from studio.cli import main
from studio.core.model import Scope
from studio.core.visibility import Policy, open_visibility, visibility
from studio.core.workspace import WorkspaceOptions, open_workspace

DATA = Path(__file__).resolve().parents[1] / "data" / "visibility"
NAME = "acme-product-brief"


def _place(source: str, folder: Path) -> Path:
    target = folder / NAME
    shutil.copytree(DATA / source, target)
    return target


@pytest.fixture
def collision(tmp_path: Path) -> WorkspaceOptions:
    """The real collision: a draft copy in the project, the user-confirmed one at home, another in an org root."""
    _place("acme-v0.4.0", tmp_path / "proj" / ".agents" / "knowledge")
    _place("acme-v0.7.2", tmp_path / "home" / ".agents" / "knowledge")
    _place("acme-v0.7.1", tmp_path / "org")
    return WorkspaceOptions(project=tmp_path / "proj", home=tmp_path / "home", org_roots=[tmp_path / "org"],
                            builtin=False)


def test_standard_precedence_loads_the_project_copy_and_warns_about_trust(collision: WorkspaceOptions) -> None:
    report = open_visibility(collision, NAME)
    assert len(report.copies) == 3
    winner = report.winner()
    assert winner is not None and winner.scope is Scope.PROJECT and winner.status == "draft"
    given = report.given.outcomes[Policy.STANDARD]
    assert given.reason.startswith("project outranks user, organization")
    assert given.lower_trust is not None and given.lower_trust.trust == "user-confirmed"


def test_user_first_loads_the_user_copy_and_the_change_is_shown(collision: WorkspaceOptions) -> None:
    report = open_visibility(collision, NAME, Policy.USER_FIRST)
    winner = report.winner()
    assert winner is not None and winner.scope is Scope.USER and winner.trust == "user-confirmed"
    assert report.winner(Policy.STANDARD) is not None and report.winner(Policy.STANDARD).scope is Scope.PROJECT
    assert report.given.outcomes[Policy.USER_FIRST].lower_trust is None
    changed = [c.label for c in report.changes]
    assert changed == ["everything given", "without the organization roots"]


def test_each_context_without_one_scope(collision: WorkspaceOptions) -> None:
    report = open_visibility(collision, NAME)
    by_label = {c.label: c.outcomes[Policy.STANDARD].winner for c in report.contexts}
    assert {label: w.scope if w else None for label, w in by_label.items()} == {
        "everything given": Scope.PROJECT,
        "outside this project (no project folder)": Scope.USER,
        "without the home folder (no user packs)": Scope.PROJECT,
        "without the organization roots": Scope.PROJECT,
    }


def test_each_scope_root_lists_its_copies(collision: WorkspaceOptions, tmp_path: Path) -> None:
    shutil.copytree(DATA / "acme-v0.4.0", tmp_path / "org" / "a-older" / NAME)  # a second copy in the org root
    report = open_visibility(collision, NAME)
    org = next(r for r in report.roots if r.scope is Scope.ORGANIZATION)
    assert [c.root.parent.name for c in org.copies] == ["a-older", "org"]
    assert org.winner is not None and org.winner.root == tmp_path / "org" / "a-older" / NAME
    missing = [r for r in report.roots if not r.exists]
    assert {r.path.parent.name for r in missing} == {".pack-studio"}  # the client-native folders were looked at


def test_a_copy_that_does_not_load_never_wins(collision: WorkspaceOptions, tmp_path: Path) -> None:
    knowledge = tmp_path / "proj" / ".agents" / "knowledge" / NAME / "KNOWLEDGE.md"
    knowledge.write_text(knowledge.read_text(encoding="utf-8").replace("type: brand-product\n", ""),
                         encoding="utf-8")  # no type: quarantined
    report = open_visibility(collision, NAME)
    project = next(c for c in report.copies if c.scope is Scope.PROJECT)
    assert not project.competes and project.why_not.startswith("quarantine")
    winner = report.winner()
    assert winner is not None and winner.scope is Scope.USER


def test_an_unknown_name_has_no_copies(collision: WorkspaceOptions) -> None:
    report = open_visibility(collision, "no-such-pack")
    assert report.copies == [] and report.winner() is None and report.given.outcomes[Policy.STANDARD].reason == (
        "no copy is visible here")


_SCOPES = st.sampled_from(["project", "home", "org1", "org2", "explicit"])
_COPY = st.tuples(_SCOPES, st.sampled_from(["a", "b"]), st.booleans(), st.sampled_from(["", "official"]))


@given(st.lists(_COPY, min_size=1, max_size=6, unique_by=lambda c: (c[0], c[1])))
@example([("project", "a", True, ""), ("home", "a", True, "official")])
@example([("explicit", "a", True, ""), ("project", "a", True, "")])
@example([("org2", "a", True, ""), ("org1", "b", True, ""), ("org1", "a", False, "official")])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_standard_policy_agrees_with_the_workspace(copies: list[tuple[str, str, bool, str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        folders = {"project": base / "proj" / ".agents" / "knowledge", "home": base / "home" / ".agents" / "knowledge",
                   "org1": base / "org1", "org2": base / "org2", "explicit": base / "explicit"}
        for scope, sub, loads, trust in copies:
            root = folders[scope] / sub / NAME
            shutil.copytree(DATA / "acme-v0.7.1", root)
            text = (root / "KNOWLEDGE.md").read_text(encoding="utf-8")
            text = text.replace("status: ready\n", "status: ready\n" + (f"trust: {trust}\n" if trust else ""))
            if not loads:
                text = text.replace("type: brand-product\n", "")
            (root / "KNOWLEDGE.md").write_text(text, encoding="utf-8")
        options = WorkspaceOptions(explicit=[folders["explicit"]] if folders["explicit"].exists() else [],
                                   project=base / "proj", home=base / "home",
                                   org_roots=[folders["org1"], folders["org2"]], builtin=False)
        workspace = open_workspace(options)
        settled = [p for p in workspace.packs if p.name == NAME and p.loads]
        report = visibility(workspace, NAME)
        winner = report.winner()
        assert (winner.root if winner else None) == (settled[0].root if settled else None)
        flagged = any(d.code == "lower-trust-shadows" for p in settled for d in p.findings)
        assert flagged == (report.given.outcomes[Policy.STANDARD].lower_trust is not None)


# -- CLI --------------------------------------------------------------------------------------------------------
def _args(options: WorkspaceOptions) -> list[str]:
    return ["--project", str(options.project), "--home", str(options.home), "--org", str(options.org_roots[0]),
            "--no-builtin"]


def test_cli_text_explains_the_collision(collision: WorkspaceOptions, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["visibility", NAME, *_args(collision)]) == 0
    out = capsys.readouterr().out
    assert "everything given: the project copy at" in out
    assert "warning: trust unreviewed shadows a more trusted copy (trust user-confirmed)" in out
    assert "user-first would load instead: the user copy at" in out


def test_cli_json_and_policy(collision: WorkspaceOptions, capsys: pytest.CaptureFixture[str],
                             run_json: Callable[[list[str]], dict[str, object]]) -> None:
    doc = run_json(["visibility", NAME, *_args(collision), "--policy", "user-first", "--format", "json"])
    assert doc["policy"] == "user-first" and str(doc["winner"]).endswith("home/.agents/knowledge/" + NAME)
    given = doc["contexts"][0]  # type: ignore[index]
    assert given["differs"] is True and given["standard"]["winner_scope"] == "project"
    assert given["user-first"]["winner_scope"] == "user"


def test_cli_unknown_name_exits_1(collision: WorkspaceOptions, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["visibility", "nope", *_args(collision)]) == 1
    assert "no pack named 'nope'" in capsys.readouterr().err


@pytest.fixture
def run_json(capsys: pytest.CaptureFixture[str]) -> Callable[[list[str]], dict[str, object]]:
    def _run(argv: list[str]) -> dict[str, object]:
        assert main(argv) == 0
        data: dict[str, object] = json.loads(capsys.readouterr().out)
        return data

    return _run
