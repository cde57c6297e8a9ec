"""The workspace scan in a child process gives the same verdict as the in-process core call."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.core.model import Scope
from studio.core.workspace import WorkspaceOptions, open_workspace
from studio.ui import scan_process
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


@pytest.fixture
def waiting_children(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Children wait for scans (a window closed earlier in the session stops that), and none is left behind."""
    monkeypatch.setattr(scan_process, "_closed", False)
    yield
    scan_process.shutdown()


@pytest.mark.usefixtures("waiting_children")
def test_a_started_child_waits_for_the_next_scan_and_serves_it(make_pack, tmp_path: Path) -> None:
    make_pack("a", PACK.format(name="alpha"), parent=tmp_path / "ws")
    options = WorkspaceOptions(explicit=[tmp_path / "ws"], builtin=False)
    first = open_workspace_in_child(options)
    waiting = scan_process._waiting
    assert waiting is not None and waiting.process.is_alive()  # started when the first scan ended
    make_pack("b", PACK.format(name="beta"), parent=tmp_path / "ws")
    second = open_workspace_in_child(options)
    assert [p.name for p in first.packs] == ["alpha"] and sorted(p.name for p in second.packs) == ["alpha", "beta"]
    waiting.process.join(timeout=5)
    assert waiting.process.exitcode == 0  # it ran the second scan and ended by itself, not killed
    assert scan_process._waiting is not None and scan_process._waiting is not waiting


@pytest.mark.usefixtures("waiting_children")
def test_closing_stops_the_waiting_child_and_starts_no_other(make_pack, tmp_path: Path) -> None:
    make_pack("a", PACK.format(name="alpha"), parent=tmp_path / "ws")
    options = WorkspaceOptions(explicit=[tmp_path / "ws"], builtin=False)
    open_workspace_in_child(options)
    waiting = scan_process._waiting
    assert waiting is not None
    scan_process.shutdown()
    assert not waiting.process.is_alive() and scan_process._waiting is None
    assert [p.name for p in open_workspace_in_child(options).packs] == ["alpha"]  # still scans, in a fresh child
    assert scan_process._waiting is None
