"""The Diff view in the window: from the Workspace tree's menu (a git ref, a folder) and from Review mode (changes
since the last review decision), on a real git repository made in the test, in a real offscreen window."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QGuiApplication

from studio.core.review import make_review_record, write_review_record
from studio.ui.main_window import MainWindow
from studio.ui.models.pack_tree import Role
from studio.ui.panels.diff_view import MAX_LINE_CHARS, DiffDialog, shown, shown_lines
from studio.ui.panels.review_panel import ReviewPanel

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "atlas-lending-policy"
SPLIT = "compiled/splits/lending-policy/products.md"


def git(top: Path, *args: str, when: str = "") -> str:
    env = dict(os.environ)
    if when:
        env.update(GIT_COMMITTER_DATE=when, GIT_AUTHOR_DATE=when)
    done = subprocess.run(["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c",
                           "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args], cwd=top, env=env,
                          capture_output=True, check=True)
    return done.stdout.decode()


def commit(top: Path, message: str, when: str, tag: str = "") -> str:
    git(top, "add", "-A")
    git(top, "commit", "-qm", message, when=when)
    if tag:
        git(top, "tag", tag)
    return git(top, "rev-parse", "HEAD").strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The atlas example in a git repository at tag v1 (committed 2026-01-01); returns the pack folder."""
    top = tmp_path / "repo"
    pack = top / "packs" / "atlas-lending-policy"
    shutil.copytree(EXAMPLE, pack)
    git(top, "init", "-q")
    commit(top, "v1", "2026-01-01T10:00:00Z", tag="v1")
    return pack


def change(pack: Path) -> None:
    """What a pull request does: status and trust, a split removed, a claim disputed, a new file."""
    knowledge = pack / "KNOWLEDGE.md"
    knowledge.write_text(knowledge.read_text().replace("status: ready", "status: needs-review")
                         .replace("trust: official", "trust: unreviewed"))
    (pack / SPLIT).unlink()
    source_map = pack / "indexes" / "source-map.json"
    data = json.loads(source_map.read_text())
    data["claims"][0]["status"] = "disputed"
    source_map.write_text(json.dumps(data, indent=2))
    (pack / "compiled" / "glossary.md").write_text("# Glossary\n\nDSCR: debt service coverage ratio.\n")


def pack_index(window: MainWindow, root: Path) -> QModelIndex:
    return window.workspace_panel.view_index(window.tree_model.index_for_pack(root))


def wait_report(qtbot, dialog: DiffDialog) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: dialog.view.report is not None or dialog.view.trouble.isVisibleTo(dialog), timeout=20_000)


def test_compare_with_git_ref_from_the_tree_menu_shows_every_section(qtbot, window: MainWindow, open_and_wait,
                                                                    repo: Path) -> None:
    change(repo)
    before = git(repo.parents[1], "status", "--porcelain", "--ignored")
    open_and_wait(window, [repo])
    index = pack_index(window, repo)
    assert index.data(Role.KIND) == "pack"
    menu = window.workspace_panel.menu_at(index)
    assert menu is not None
    actions = {a.text(): a for a in menu.actions()}
    assert {"Compare with git ref…", "Compare with folder…"} <= set(actions)
    window.diffs.ask_ref = lambda pack: "v1"
    started = time.perf_counter()
    actions["Compare with git ref…"].trigger()
    assert time.perf_counter() - started < 0.2  # the comparison runs in a worker, not in the click
    dialog = window.diffs.dialog
    assert dialog is not None and dialog.isVisible()
    assert "Comparing" in dialog.view.summary.text()
    wait_report(qtbot, dialog)
    report = dialog.view.report
    assert report is not None and not report.identical
    sections = dialog.view.item_texts()
    titles = list(sections)
    assert [t.split(" ")[0] for t in titles[:7]] == ["Frontmatter", "Files", "Claims", "Findings", "Tiers:",
                                                   "Resolver", "Evals"]
    frontmatter = next(rows for title, rows in sections.items() if title.startswith("Frontmatter"))
    assert frontmatter[:2] == ["~ status", "~ trust"]  # status and trust changes first
    files = next(rows for title, rows in sections.items() if title.startswith("Files"))
    assert "+ compiled/glossary.md" in files and f"- {SPLIT}" in files
    claims = next(rows for title, rows in sections.items() if title.startswith("Claims"))
    assert any("status ready -> disputed" in row or "status confirmed -> disputed" in row for row in claims)
    tiers = next(rows for title, rows in sections.items() if title.startswith("Tiers"))
    assert tiers[:3] == ["~ catalog", "~ guide", "~ fence"]
    assert "v1 (" in dialog.view.heading.text()

    # Keyboard: the tree has the focus; moving down a section shows that row in full in the pane beside it.
    qtbot.waitUntil(lambda: dialog.view.tree.hasFocus() or not dialog.isActiveWindow(), timeout=2000)
    tree = dialog.view.tree
    tier_top = dialog.view.sections()[titles.index(next(t for t in titles if t.startswith("Tiers")))]
    tree.setCurrentItem(tier_top)
    qtbot.keyClick(tree, Qt.Key.Key_Down)
    assert tree.currentItem() is dialog.view.rows("Tiers")[0]
    detail = dialog.view.detail.toPlainText()
    assert detail.startswith("catalog: ") and "@@" in detail and "+    <status>needs-review</status>" in detail

    tree.setCurrentItem(dialog.view.rows("Resolver")[0])
    assert "picked before:" in dialog.view.detail.toPlainText()

    dialog.copy_markdown()
    assert QGuiApplication.clipboard().text() == dialog.markdown and dialog.markdown.startswith("#")
    assert git(repo.parents[1], "status", "--porcelain", "--ignored") == before  # nothing written
    dialog.close()
    qtbot.waitUntil(lambda: window.diffs.dialog is None, timeout=2000)


def test_compare_with_folder_and_a_ref_that_does_not_exist(qtbot, window: MainWindow, open_and_wait, repo: Path,
                                                            tmp_path: Path) -> None:
    old = tmp_path / "old" / "atlas-lending-policy"
    shutil.copytree(repo, old)
    change(repo)
    open_and_wait(window, [repo])
    pack = window.session.packs[repo]
    window.diffs.ask_folder = lambda _pack: str(old)
    window.diffs.ask(pack, "folder")
    dialog = window.diffs.dialog
    assert dialog is not None
    wait_report(qtbot, dialog)
    assert dialog.view.report is not None and str(old) in dialog.view.report.old

    window.diffs.ask_ref = lambda _pack: "no-such-tag"
    window.diffs.ask(pack, "ref")
    wait_report(qtbot, dialog)
    assert dialog.view.report is None
    assert "no commit 'no-such-tag'" in dialog.view.trouble.text()
    assert dialog.view.tree.topLevelItemCount() == 0 and not dialog.copy_button.isEnabled()


def test_changes_since_the_last_review_decision_from_review_mode(qtbot, window: MainWindow, open_and_wait,
                                                                  repo: Path) -> None:
    top = repo.parents[1]
    first = git(top, "rev-parse", "HEAD").strip()
    record = make_review_record("atlas-lending-policy", "confirm", "checked the rates", before={}, after={},
                                now=datetime(2026, 2, 1, 9, 0, tzinfo=UTC))
    write_review_record(repo, record)
    change(repo)  # after the review: what the curator has not seen
    commit(top, "v2", "2026-03-01T10:00:00Z")
    open_and_wait(window, [repo])
    window.switch_mode("Review")
    panel = window.modes.panel_of(ReviewPanel)
    qtbot.waitUntil(lambda: "atlas-lending-policy" in panel.queued_names(), timeout=5000)
    assert panel.select_pack("atlas-lending-policy")
    qtbot.waitUntil(panel.since_review.isEnabled, timeout=5000)
    qtbot.mouseClick(panel.since_review, Qt.MouseButton.LeftButton)
    dialog = window.diffs.dialog
    assert dialog is not None
    wait_report(qtbot, dialog)
    report = dialog.view.report
    assert report is not None, dialog.view.trouble.text()
    assert report.old.startswith(first) and first[:10] in report.old  # the commit before the decision
    assert "last commit before the review of 2026-02-01T09:00:00Z" in dialog.view.summary.text()
    assert any(c.key == "status" for c in report.frontmatter)


def test_a_pack_without_a_review_decision_says_so(qtbot, window: MainWindow, open_and_wait, repo: Path) -> None:
    for record in (repo / "runs").glob("review-*.json"):
        record.unlink()
    open_and_wait(window, [repo])
    window.diffs.since_review(window.session.packs[repo])
    dialog = window.diffs.dialog
    assert dialog is not None
    wait_report(qtbot, dialog)
    assert "has no recorded review decision" in dialog.view.trouble.text()


def test_hostile_text_is_escaped_and_bounded(qtbot, window: MainWindow, open_and_wait, repo: Path) -> None:
    facts = repo / "compiled" / "facts.md"
    facts.write_text(facts.read_text() + "\n" + "\x1b[2J" + "x" * 2_000_000 + "\u202e\n")
    (repo / "compiled" / "bell\x07name.md").write_text("# Bell\n")
    open_and_wait(window, [repo])
    window.diffs.ask_ref = lambda pack: "v1"
    window.diffs.ask(window.session.packs[repo], "ref")
    dialog = window.diffs.dialog
    assert dialog is not None
    wait_report(qtbot, dialog)
    files = next(rows for title, rows in dialog.view.item_texts().items() if title.startswith("Files"))
    assert "+ compiled/bell\\x07name.md" in files
    new_file = next(tree_row for tree_row in dialog.view.rows("Files") if "bell" in tree_row.text(0))
    dialog.view.tree.setCurrentItem(new_file)
    assert "\x07" not in dialog.view.detail.toPlainText() and "bell\\x07name" in dialog.view.detail.toPlainText()
    started = time.perf_counter()
    dialog.view.tree.setCurrentItem(dialog.view.rows("Tiers")[2])  # the fence holds the runtime file's long line
    qtbot.wait(1)
    assert time.perf_counter() - started < 0.5
    detail = dialog.view.detail.toPlainText()
    assert "x" * 300 in detail and "more characters)" in detail  # the long line is there, cut
    assert max(len(line) for line in detail.splitlines()) < MAX_LINE_CHARS + 60


def test_shown_escapes_and_cuts() -> None:
    assert shown("a\nb\x1b[31m") == "a\\nb\\x1b[31m"
    assert shown("x" * 1000, 10) == "x" * 10 + "… (990 more characters)"
    lines = shown_lines(["a", "b", "c"], 2).splitlines()
    assert lines[:2] == ["a", "b"] and lines[2].startswith("… (more lines") and len(lines) == 3
