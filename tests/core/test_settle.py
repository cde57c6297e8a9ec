"""Settling as a value: packs stay as loaded, verdicts are computed purely, and a replace names what changed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from studio.core.model import NO_VERDICT, Pack, Scope
from studio.core.pack import load_pack, reload_pack
from studio.core.shadowing import settle
from studio.core.workspace import Workspace, WorkspaceOptions, open_workspace


def put(folder: Path, name: str, trust: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    extra = f"trust: {trust}\n" if trust else ""
    (folder / "KNOWLEDGE.md").write_text(
        f"---\nname: {name}\ndescription: Facts for the tests.\ntype: domain-reference\nstatus: ready\n"
        f"profile: wiki-first\n{extra}---\n# Guide\n", encoding="utf-8")
    (folder / "compiled").mkdir(exist_ok=True)
    (folder / "compiled" / "briefing.md").write_text("# Briefing\n", encoding="utf-8")
    return folder


def test_a_loaded_pack_is_frozen_and_carries_only_its_own_findings(tmp_path: Path) -> None:
    pack = load_pack(put(tmp_path / "alpha", "alpha"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        pack.diagnostics = ()  # type: ignore[misc]
    assert pack.verdict == NO_VERDICT and pack.findings == pack.diagnostics


def test_settle_is_pure_and_leaves_out_packs_with_nothing_to_say(tmp_path: Path) -> None:
    project = load_pack(put(tmp_path / "p" / "shared", "shared"), Scope.PROJECT)
    user = load_pack(put(tmp_path / "u" / "shared", "shared", trust="official"), Scope.USER)
    alone = load_pack(put(tmp_path / "u" / "alone", "alone"), Scope.USER)
    before = [(p, p.diagnostics) for p in (project, user, alone)]
    verdicts = settle([project, user, alone])
    assert [(p, p.diagnostics) for p in (project, user, alone)] == before  # nothing was touched
    assert set(verdicts) == {project.root, user.root}
    assert verdicts[user.root].shadowed_by == project.root
    assert {d.code for d in verdicts[project.root].findings} == {"name-collision", "lower-trust-shadows"}
    assert settle([project, user, alone]) == verdicts  # the same input gives the same verdicts


def test_findings_are_own_plus_verdict_sorted_by_position(tmp_path: Path) -> None:
    project = put(tmp_path / "p" / ".agents" / "knowledge" / "shared", "shared")
    put(tmp_path / "u" / ".agents" / "knowledge" / "shared", "shared")
    ws = open_workspace(WorkspaceOptions(project=tmp_path / "p", home=tmp_path / "u", builtin=False,
                                         trusted_project=False))
    winner = ws.by_root(project)
    assert winner is not None
    assert [d.code for d in ws.findings(project)] == ["name-collision", "untrusted-origin"]
    assert winner.diagnostics == () and list(winner.findings) == list(ws.findings(project))
    assert [(d.line, d.column) for d in winner.findings] == sorted((d.line, d.column) for d in winner.findings)


def test_replace_pack_returns_exactly_the_roots_whose_verdict_changed(tmp_path: Path) -> None:
    a = put(tmp_path / "p" / ".agents" / "knowledge" / "a", "shared")
    b = put(tmp_path / "u" / ".agents" / "knowledge" / "b", "shared")
    c = put(tmp_path / "u" / ".agents" / "knowledge" / "c", "other")
    ws = open_workspace(WorkspaceOptions(project=tmp_path / "p", home=tmp_path / "u", builtin=False))
    untouched = ws.by_root(c)
    # Reloading a pack whose name group does not change: only that pack is new.
    assert ws.replace_pack(reload_pack(ws.by_root(c))) == [c]  # type: ignore[arg-type]
    assert ws.by_root(c) is not untouched
    # Renaming the winner frees the loser: both changed.
    (a / "KNOWLEDGE.md").write_text((a / "KNOWLEDGE.md").read_text().replace("name: shared", "name: a"))
    assert ws.replace_pack(reload_pack(ws.by_root(a))) == [a, b]  # type: ignore[arg-type]
    freed = ws.by_root(b)
    assert freed is not None and freed.loads and freed.verdict == NO_VERDICT
    # Renaming it back shadows the other copy again.
    (a / "KNOWLEDGE.md").write_text((a / "KNOWLEDGE.md").read_text().replace("name: a", "name: shared"))
    assert ws.replace_pack(reload_pack(ws.by_root(a))) == [a, b]  # type: ignore[arg-type]
    assert ws.by_root(b).shadowed_by == a  # type: ignore[union-attr]


def test_a_workspace_built_from_sent_verdicts_equals_one_settled_in_place(tmp_path: Path) -> None:
    # The app's scan runs in a child process that sends packs as loaded plus the verdicts it settled.
    put(tmp_path / "p" / ".agents" / "knowledge" / "x", "x")
    put(tmp_path / "u" / ".agents" / "knowledge" / "x", "x")
    options = WorkspaceOptions(project=tmp_path / "p", home=tmp_path / "u", builtin=False)
    settled_here = open_workspace(options)
    as_loaded = [dataclasses.replace(p, verdict=NO_VERDICT) for p in settled_here.packs]
    sent = {p.root: p.verdict for p in settled_here.packs if p.verdict != NO_VERDICT}
    rebuilt = Workspace.settled(as_loaded, [], [], options, verdicts=sent)
    assert [(p.root, p.findings, p.shadowed_by) for p in rebuilt.packs] == \
        [(p.root, p.findings, p.shadowed_by) for p in settled_here.packs]


def test_pack_for_path_finds_the_deepest_pack(tmp_path: Path) -> None:
    outer = put(tmp_path / "outer", "outer")
    ws = open_workspace(WorkspaceOptions(explicit=[outer], builtin=False))
    assert ws.pack_for_path(outer / "compiled" / "briefing.md") is ws.by_root(outer)
    assert ws.pack_for_path(tmp_path / "elsewhere.md") is None
    assert isinstance(ws.pack_for_path(outer), Pack)


def test_lookalike_names_are_settled_and_follow_a_rename(tmp_path: Path) -> None:
    latin = put(tmp_path / "p" / ".agents" / "knowledge" / "payments", "payments")
    cyrillic = put(tmp_path / "u" / ".agents" / "knowledge" / "payments-2", "p\u0430yments")
    other = put(tmp_path / "u" / ".agents" / "knowledge" / "refunds", "refunds")
    ws = open_workspace(WorkspaceOptions(project=tmp_path / "p", home=tmp_path / "u", builtin=False))
    assert [d.code for d in ws.verdict(latin).findings] == ["lookalike-pack-names"]
    assert [d.code for d in ws.verdict(cyrillic).findings] == ["lookalike-pack-names"]  # (its own: invalid-name)
    assert "\\u0430" in ws.verdict(latin).findings[0].message  # the differing character is shown, not hidden
    assert ws.findings(other) == ()
    # Renaming the look-alike away clears both packs' findings: the workspace settles the lookalike group again.
    (cyrillic / "KNOWLEDGE.md").write_text((cyrillic / "KNOWLEDGE.md").read_text().replace("p\u0430yments", "billing"))
    changed = ws.replace_pack(reload_pack(ws.by_root(cyrillic)))  # type: ignore[arg-type]
    assert changed == [cyrillic, latin]
    assert ws.findings(latin) == () and ws.verdict(cyrillic).findings == ()


@pytest.mark.parametrize("indexed", [0, 1, 2, 3])
def test_a_change_settles_namesakes_alike_however_far_the_name_index_got(tmp_path: Path, indexed: int) -> None:
    # The app indexes names a slice per turn after a scan; a save, a deletion or a pin may come before the end.
    a = put(tmp_path / "p" / ".agents" / "knowledge" / "a", "shared")
    b = put(tmp_path / "u" / ".agents" / "knowledge" / "b", "shared")
    c = put(tmp_path / "u" / ".agents" / "knowledge" / "c", "sh\u0430red")  # a look-alike (Cyrillic a)
    ws = open_workspace(WorkspaceOptions(project=tmp_path / "p", home=tmp_path / "u", builtin=False))
    assert ws.index_names(indexed) is (indexed >= 3)
    # Deleting the winner: its namesake loads again, and the look-alike is settled with it.
    ws.remove_pack(a)
    assert ws.by_root(b).loads and ws.by_root(b).shadowed_by is None  # type: ignore[union-attr]
    assert ws.index_names(0)  # the removal completed the index
    # Back again: it shadows its namesake, the look-alike stays listed beside it.
    assert ws.replace_pack(load_pack(a, Scope.PROJECT, tmp_path / "p" / ".agents" / "knowledge"))[:2] == [a, b]
    assert ws.by_root(b).shadowed_by == a  # type: ignore[union-attr]
    assert [d.code for d in ws.verdict(c).findings] == ["lookalike-pack-names"]


def test_partial_indexing_then_a_save_gives_what_a_whole_index_gives(tmp_path: Path) -> None:
    roots = [put(tmp_path / "u" / ".agents" / "knowledge" / f"n{i}", f"name-{i % 4}") for i in range(12)]
    options = WorkspaceOptions(home=tmp_path / "u", builtin=False)
    stepped, whole = open_workspace(options), open_workspace(options)
    steps = 0
    while not stepped.index_names(5):
        steps += 1
    assert steps == 2  # 12 names, 5 at a time
    whole.index_names()
    for root in roots[::3]:
        (root / "KNOWLEDGE.md").write_text((root / "KNOWLEDGE.md").read_text().replace("name: name-", "name: re-"))
        assert stepped.replace_pack(reload_pack(stepped.by_root(root))) == \
            whole.replace_pack(reload_pack(whole.by_root(root)))  # type: ignore[arg-type]
    assert [(p.root, p.verdict) for p in stepped.packs] == [(p.root, p.verdict) for p in whole.packs]
