"""The workspace scan in a child process gives the same verdict as the in-process core call."""

from __future__ import annotations

from pathlib import Path

from studio.core.model import Scope
from studio.core.workspace import WorkspaceOptions, open_workspace
from studio.ui.scan_process import open_workspace_in_child

PACK = "---\nname: {name}\ndescription: D.\ntype: domain-reference\nstatus: ready\n---\n# G\n"


def test_child_scan_streams_packs_and_settles_collisions(make_pack, tmp_path: Path) -> None:
    project, home = tmp_path / "project" / ".agents" / "knowledge", tmp_path / "home" / ".agents" / "knowledge"
    make_pack("a", PACK.format(name="same"), parent=project)
    make_pack("b", PACK.format(name="same"), parent=home)
    make_pack("c", PACK.format(name="other").replace("ready", "bogus"), parent=home)
    options = WorkspaceOptions(project=tmp_path / "project", home=tmp_path / "home", builtin=False)
    streamed: list[str] = []
    progress: list[tuple[int, int]] = []
    ws = open_workspace_in_child(options, on_pack=lambda p: streamed.append(p.name),
                                 on_progress=lambda d, t: progress.append((d, t)))
    expected = open_workspace(options)
    assert sorted(streamed) == ["other", "same", "same"]
    assert progress[-1] == (3, 3)
    assert [(p.root, p.scope, p.shadowed_by) for p in ws.packs] == \
        [(p.root, p.scope, p.shadowed_by) for p in expected.packs]
    assert [p.diagnostics for p in ws.packs] == [p.diagnostics for p in expected.packs]
    loser = next(p for p in ws.packs if p.scope is Scope.USER and p.name == "same")
    assert loser.shadowed_by == project / "a"
    ws.replace_pack(loser)  # the rebuilt Workspace is a working core object
    assert [p.name for p in ws.quarantined()] == ["other"]


def test_a_cancelled_child_scan_returns_promptly(make_pack, tmp_path: Path) -> None:
    for i in range(30):
        make_pack(f"p{i}", PACK.format(name=f"p{i}"), parent=tmp_path / "ws")
    ws = open_workspace_in_child(WorkspaceOptions(explicit=[tmp_path / "ws"], builtin=False), cancelled=lambda: True)
    assert len(ws.packs) < 30 or any(d.code == "scan-cancelled" for d in ws.diagnostics)
