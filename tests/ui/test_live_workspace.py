"""Files changed on disk refresh the affected pack without a rescan."""

from __future__ import annotations

from pathlib import Path

from studio.ui.main_window import MainWindow


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
