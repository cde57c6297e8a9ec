"""Files changed on disk refresh the affected pack without a rescan."""

from __future__ import annotations

from pathlib import Path

from studio.core.pack import reload_pack
from studio.ui.main_window import MainWindow
from studio.ui.pacing import Pace


def test_an_external_edit_reloads_only_that_pack(qtbot, open_and_wait, window: MainWindow,
                                                  examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    target = (examples_copy / "harbor-support-playbook").resolve()
    others = {root: pack for root, pack in window.session.packs.items() if root != target}
    knowledge = target / "KNOWLEDGE.md"
    qtbot.waitUntil(lambda: str(knowledge) in window.watch.watcher.files(), timeout=3000)  # listed in a worker
    knowledge.write_text(knowledge.read_text(encoding="utf-8").replace("status: ready", "status: bogus"),
                         encoding="utf-8")
    qtbot.waitUntil(lambda: any(d.code == "invalid-status" for d in window.session.packs[target].diagnostics),
                    timeout=3000)
    assert window.tree_model.index_for_pack(target).parent().data().startswith("Quarantined")
    assert window.diag_model.counts().by_code.get("invalid-status") == 1
    # No rescan: every other pack is still the very same object.
    assert all(window.session.packs[root] is pack for root, pack in others.items())


def test_an_open_clean_tab_follows_the_file_on_disk(qtbot, open_and_wait, window: MainWindow,
                                                     examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    target = examples_copy / "northwind-espresso" / "compiled" / "facts.md"
    tab = window.open_file(target)
    assert tab is not None
    qtbot.waitUntil(lambda: str(target) in window.watch.watcher.files(), timeout=3000)
    target.write_text("# Rewritten by a Builder Skill\n", encoding="utf-8")
    qtbot.waitUntil(lambda: tab.text() == "# Rewritten by a Builder Skill\n", timeout=3000)
    assert not tab.dirty


def test_renaming_a_pack_frees_and_shadows_its_namesakes(open_and_wait, window: MainWindow, make_pack,
                                                          tmp_path: Path) -> None:
    text = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: ready\n---\n# G\n"
    first = make_pack("a", text.format(name="alpha"), parent=tmp_path / "one").resolve()
    second = make_pack("b", text.format(name="beta"), parent=tmp_path / "two").resolve()
    open_and_wait(window, [tmp_path / "one", tmp_path / "two"])

    def group_of(root: Path) -> str:
        return window.tree_model.index_for_pack(root).parent().data()

    def rename(root: Path, name: str) -> None:
        (root / "KNOWLEDGE.md").write_text(text.format(name=name), encoding="utf-8")
        window.session.replace(reload_pack(window.session.packs[root]))

    rename(second, "alpha")  # takes a name the first folder already uses: it loses
    assert window.session.packs[second].shadowed_by == first
    assert group_of(second).startswith("Shadowed")
    assert window.status.packs_label.text() == "packs 2 (1 shadowed)"
    rename(first, "gamma")  # the winner gives the name up: the pack renamed earlier loads again
    assert window.session.packs[second].shadowed_by is None
    assert group_of(second).startswith("Explicit")
    rename(first, "alpha")
    assert group_of(second).startswith("Shadowed")


def test_a_scan_delivers_each_pack_once_and_then_only_the_verdicts(qtbot, open_and_wait, window: MainWindow,
                                                                    make_pack, tmp_path: Path) -> None:
    text = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: ready\n---\n# G\n"
    make_pack("a", text.format(name="same"), parent=tmp_path / "one")
    make_pack("b", text.format(name="same"), parent=tmp_path / "two")
    for i in range(5):
        make_pack(f"solo{i}", text.format(name=f"solo{i}"), parent=tmp_path / "one")
    added: list[Path] = []
    settled: list[Path] = []
    window.session.findings_added.connect(lambda packs: added.extend(p.root for p in packs))
    window.session.settled.connect(lambda packs: settled.extend(p.root for p in packs))
    open_and_wait(window, [tmp_path / "one", tmp_path / "two"])
    assert sorted(added) == sorted(window.session.packs) and len(added) == len(set(added)) == 7
    # Only the two namesakes got a verdict; the Problems table shows each of their collisions once.
    assert sorted(p.name for p in settled) == ["a", "b"]
    assert window.diag_model.counts().by_code.get("name-collision") == 2


def test_packs_and_their_problems_arrive_a_slice_at_a_time_each_once_and_in_order(qtbot, open_and_wait,
                                                                                   window: MainWindow, make_pack,
                                                                                   tmp_path: Path,
                                                                                   monkeypatch) -> None:
    """The scan wakes the window as packs arrive; the tree takes them a few a turn, the Problems table follows, and
    the workspace settles only once every pack and every finding is shown (however the slices fall)."""
    text = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: ready\n---\n# G\n"
    for i in range(9):
        make_pack(f"p{i}", text.format(name="same" if i < 2 else f"p{i}"), parent=tmp_path / ("ws" if i else "ws2"))
    monkeypatch.setattr(window.session._arrivals, "pace", Pace.fixed(2))
    monkeypatch.setattr(window.session._findings, "pace", Pace(budget_s=1.0, first=3, low=3, high=3, gap_s=0.05))
    events: list[tuple[str, list[Path]]] = []
    window.session.packs_added.connect(lambda packs: events.append(("tree", [p.root for p in packs])))
    window.session.findings_added.connect(lambda packs: events.append(("problems", [p.root for p in packs])))
    window.session.settled.connect(lambda packs: events.append(("settled", [p.root for p in packs])))
    open_and_wait(window, [tmp_path / "ws", tmp_path / "ws2"])

    tree = [root for kind, roots in events if kind == "tree" for root in roots]
    problems = [root for kind, roots in events if kind == "problems" for root in roots]
    assert sorted(tree) == sorted(problems) == sorted(window.session.packs) and len(set(tree)) == 9
    assert all(len(roots) <= 2 for kind, roots in events if kind == "tree")  # a slice at a time
    assert max(len(roots) for kind, roots in events if kind == "problems") <= 3
    for root in tree:  # a pack's problems are listed after the pack is in the tree
        shown = next(i for i, (kind, roots) in enumerate(events) if kind == "tree" and root in roots)
        listed = next(i for i, (kind, roots) in enumerate(events) if kind == "problems" and root in roots)
        assert shown < listed
    assert [kind for kind, _ in events].count("settled") == 1 and events[-1][0] == "settled"
    assert sorted(root.name for root in events[-1][1]) == ["p0", "p1"]  # the namesakes got their verdict
    assert window.diag_model.counts().by_code.get("name-collision") == 2


def test_a_large_settle_spread_over_turns_lists_the_same_problems(qtbot, open_and_wait, window: MainWindow,
                                                                   make_pack, tmp_path: Path,
                                                                   monkeypatch) -> None:
    """At 10,000 packs the tree and the Problems table take settled packs a few at a time, over many turns;
    the table must end up as it does when a small workspace settles in one turn."""

    text = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: {status}\n---\n# G\n"
    for i in range(6):  # six names, each in both folders: a verdict each
        for folder in ("one", "two"):
            make_pack(f"p{i}", text.format(name=f"shared{i}", status="bogus" if i % 2 else "ready"),
                      parent=tmp_path / folder)

    def table() -> list[tuple[str, str, str]]:
        model = window.diag_model
        return sorted((model.index(r, 1).data(), model.index(r, 2).data(), model.index(r, 3).data())
                      for r in range(model.rowCount()))

    open_and_wait(window, [tmp_path / "one", tmp_path / "two"])
    in_one_turn = table()
    assert sum(1 for code, _, _ in in_one_turn if code == "name-collision") == 6  # one per shared name

    monkeypatch.setattr(window.views._settling, "pace", Pace.fixed(2))  # 12 changed packs count as many
    monkeypatch.setattr(window.views._problems, "pace", Pace.fixed(1))  # one pack a turn
    turns: list[int] = []
    window.diag_model.layoutChanged.connect(lambda: turns.append(window.diag_model.rowCount()))
    open_and_wait(window, [tmp_path / "one", tmp_path / "two"])
    qtbot.waitUntil(lambda: table() == in_one_turn, timeout=5000)
    assert len(set(turns)) > 6  # the table grew over many updates, not in one


def test_opening_another_workspace_frees_every_pack_of_the_last_one(qtbot, open_and_wait, window: MainWindow,
                                                                     make_pack, tmp_path: Path) -> None:
    """Re-opening must not grow memory: no view, cache or finished job may keep the packs it showed."""
    import gc

    from studio.core.model import Pack
    from studio.ui import let_go

    text = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: ready\n---\n# G\n"
    for i in range(8):
        make_pack(f"old{i}", text.format(name=f"old{i}"), parent=tmp_path / "first")
        make_pack(f"new{i}", text.format(name=f"new{i}"), parent=tmp_path / "second")
    window.show()
    qtbot.waitExposed(window)
    open_and_wait(window, [tmp_path / "first"])
    old_roots = set(window.session.packs)
    for root in old_roots:  # each pack selected, its row painted, its previews and counts worked out
        window.workspace_panel.select_pack(root)
        window.workspace_panel.tree.viewport().repaint()
        qtbot.wait(20)
    open_and_wait(window, [tmp_path / "second"])
    qtbot.waitUntil(lambda: let_go.held() == 0, timeout=3000)
    qtbot.wait(100)  # delivered jobs are dropped a turn later
    gc.unfreeze()  # the settled workspace is frozen out of the collector's sight; bring it back to look
    gc.collect()
    alive = [o.root for o in gc.get_objects() if isinstance(o, Pack) and o.root in old_roots]
    assert alive == []


def test_after_a_scan_the_name_index_is_built_a_slice_per_turn_and_saves_settle_namesakes(
        qtbot, open_and_wait, window: MainWindow, make_pack, tmp_path: Path, monkeypatch) -> None:
    """The index a save needs to settle a pack's namesakes is built on the window's thread after the scan, a few
    names a turn (in the scan's thread it held the interpreter lock the window needed); a save before it is done
    still settles the namesakes."""
    text = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: ready\n---\n# G\n"
    roots = [make_pack(f"p{i}", text.format(name=f"name{i}"), parent=tmp_path / "ws").resolve() for i in range(8)]
    monkeypatch.setattr(window.session._naming, "pace", Pace.fixed(1))
    open_and_wait(window, [tmp_path / "ws"])
    core = window.session.workspace
    assert core is not None and not core.index_names(0)  # not built in the scan's thread
    qtbot.waitUntil(lambda: core.index_names(0), timeout=3000)

    open_and_wait(window, [tmp_path / "ws"])  # again, and save before the index is complete
    core = window.session.workspace
    assert core is not None and not core.index_names(0)
    (roots[0] / "KNOWLEDGE.md").write_text(text.format(name="name7"), encoding="utf-8")
    window.session.replace(reload_pack(window.session.packs[roots[0]]))
    assert window.session.packs[roots[7]].shadowed_by == roots[0]  # same scope: the first folder wins
    assert core.index_names(0)
