"""ReviewPanel driven like a curator: find the queue, read the reasons, record a decision, see it on disk."""

from __future__ import annotations

import json
from pathlib import Path

from panels_support import set_status
from PySide6.QtCore import QTimer

from studio.core.pack import load_pack
from studio.ui import workers
from studio.ui.panels.review_panel import LAST_DECISION_COLUMN, ReviewPanel

EXAMPLES = ("northwind-espresso", "lin-yue-persona", "harbor-support-playbook", "atlas-lending-policy",
            "orbit-launch-notes")


def _panel(qtbot, examples: Path, disputed: str = "harbor-support-playbook") -> ReviewPanel:
    packs = [set_status(examples / n, "disputed") if n == disputed else load_pack(examples / n) for n in EXAMPLES]
    panel = ReviewPanel(packs)
    qtbot.addWidget(panel)
    return panel


def _select(qtbot, panel: ReviewPanel, name: str) -> None:
    with qtbot.waitSignal(panel.reasons_loaded, timeout=10000):
        assert panel.select_pack(name)


def test_queue_lists_disputed_then_needs_review_and_stale_on_request(qtbot, qtmodeltester, examples_copy: Path) -> None:
    set_status(examples_copy / "atlas-lending-policy", "stale")
    panel = _panel(qtbot, examples_copy)
    qtmodeltester.check(panel.queue)
    assert panel.queued_names() == ["harbor-support-playbook", "orbit-launch-notes"]
    panel.include_stale.setChecked(True)
    assert panel.queued_names() == ["harbor-support-playbook", "orbit-launch-notes", "atlas-lending-policy"]
    assert "1 disputed" in panel.queue_label.text()


def test_reasons_are_gathered_in_one_place_and_open_their_file(qtbot, examples_copy: Path) -> None:
    panel = _panel(qtbot, examples_copy)
    _select(qtbot, panel, "harbor-support-playbook")
    kinds = [r.kind for r in panel.reasons]
    assert kinds[0] == "status" and {"compile-run", "claim", "contradiction", "open-question"} <= set(kinds)
    row = kinds.index("contradiction")
    with qtbot.waitSignal(panel.open_file_requested) as opened:
        panel.reason_list.itemActivated.emit(panel.reason_list.item(row))
    assert opened.args == [examples_copy / "harbor-support-playbook/wiki/contradictions/refund-window.md", 1]


def test_record_stays_disabled_until_a_reason_is_typed(qtbot, examples_copy: Path) -> None:
    panel = _panel(qtbot, examples_copy)
    assert panel.table.currentIndex().isValid() and panel.form.isEnabled()  # the first waiting pack is shown
    _select(qtbot, panel, "orbit-launch-notes")
    assert not panel.form.record_button.isEnabled()
    panel.form.reason.setPlainText("   ")
    assert not panel.form.record_button.isEnabled()
    panel.form.reason.setPlainText("Dates checked against the launch plan.")
    assert panel.form.record_button.isEnabled()


def test_confirming_a_disputed_pack_writes_the_record_and_the_minimal_edit(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "harbor-support-playbook"
    panel = _panel(qtbot, examples_copy)
    _select(qtbot, panel, "harbor-support-playbook")
    before = (root / "KNOWLEDGE.md").read_text(encoding="utf-8")
    panel.form.set_decision("confirm")
    panel.form.reason.setPlainText("Support Ops signed off the 30-day window.")
    panel.form.reviewer.setText("Dana Curator")
    panel.form.update_knowledge.setChecked(True)
    shown_diff: list[str] = []

    def accept_diff() -> None:
        assert panel.diff_dialog is not None
        shown_diff.append(panel.diff_dialog.diff.toPlainText())
        panel.diff_dialog.accept()

    QTimer.singleShot(0, accept_diff)
    with qtbot.waitSignal(panel.review_recorded, timeout=10000) as recorded:
        panel.form.record_button.click()
    record_path, knowledge_path = recorded.args
    assert "-status: disputed" in shown_diff[0] and "+status: ready" in shown_diff[0]
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record_path.parent == root / "runs" and record_path.name.startswith("review-")
    assert (record["decision"], record["reviewer"], record["before"]["status"], record["after"]["status"]) == (
        "confirm", "Dana Curator", "disputed", "ready")
    assert "wiki/contradictions/refund-window.md" in record["files_examined"]
    after = (root / "KNOWLEDGE.md").read_text(encoding="utf-8")
    assert knowledge_path == root / "KNOWLEDGE.md"
    expected = before.replace("status: disputed", "status: ready").replace("trust: official", "trust: user-confirmed")
    assert after == expected, "only status and trust changed; every other byte is the same"
    assert load_pack(root).status == "ready"
    assert "harbor-support-playbook" not in panel.queued_names()


def test_cancelling_the_diff_writes_nothing(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "orbit-launch-notes"
    panel = _panel(qtbot, examples_copy)
    _select(qtbot, panel, "orbit-launch-notes")
    runs_before = sorted(p.name for p in (root / "runs").iterdir())
    text_before = (root / "KNOWLEDGE.md").read_bytes()
    panel.form.reason.setPlainText("Not yet.")
    panel.form.update_knowledge.setChecked(True)
    QTimer.singleShot(0, lambda: panel.diff_dialog.reject())
    panel.form.record_button.click()
    assert sorted(p.name for p in (root / "runs").iterdir()) == runs_before
    assert (root / "KNOWLEDGE.md").read_bytes() == text_before


def test_keep_needs_review_without_edit_records_only(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "orbit-launch-notes"
    panel = _panel(qtbot, examples_copy)
    _select(qtbot, panel, "orbit-launch-notes")
    text_before = (root / "KNOWLEDGE.md").read_bytes()
    panel.form.set_decision("needs-review")
    panel.form.reason.setPlainText("Budget still unapproved.")
    with qtbot.waitSignal(panel.review_recorded, timeout=10000) as recorded:
        panel.form.record_button.click()
    assert recorded.args[1] is None
    assert json.loads(recorded.args[0].read_text(encoding="utf-8"))["decision"] == "needs-review"
    assert (root / "KNOWLEDGE.md").read_bytes() == text_before
    assert "orbit-launch-notes" in panel.queued_names()


def test_a_status_that_cannot_be_edited_safely_is_explained_and_nothing_is_written(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "orbit-launch-notes"
    knowledge = root / "KNOWLEDGE.md"
    folded = knowledge.read_text(encoding="utf-8").replace("status: needs-review", "status: >-\n  needs-review")
    knowledge.write_text(folded, encoding="utf-8")
    panel = _panel(qtbot, examples_copy)
    _select(qtbot, panel, "orbit-launch-notes")
    runs_before = sorted(p.name for p in (root / "runs").iterdir())
    panel.form.reason.setPlainText("Looks fine now.")
    panel.form.update_knowledge.setChecked(True)
    panel.form.record_button.click()
    assert "edit it by hand" in panel.problem.text() and not panel.problem.isHidden()
    assert sorted(p.name for p in (root / "runs").iterdir()) == runs_before


def test_a_recorded_decision_is_confirmed_and_shown_in_the_queue(qtbot, examples_copy: Path) -> None:
    panel = _panel(qtbot, examples_copy)
    with qtbot.waitSignal(panel.decisions_loaded, timeout=10000):
        pass
    row = panel.queued_names().index("orbit-launch-notes")
    assert panel.queue.index(row, LAST_DECISION_COLUMN).data() == "never reviewed"
    _select(qtbot, panel, "orbit-launch-notes")
    panel.form.set_decision("needs-review")
    panel.form.reason.setPlainText("Budget still unapproved.")
    panel.form.reviewer.setText("Dana Curator")
    said: list[str] = []
    panel.status_message.connect(said.append)
    with qtbot.waitSignal(panel.decisions_loaded, timeout=10000):
        panel.form.record_button.click()
    [message] = said
    record = panel.last_record_path()
    assert message.startswith("Recorded \u201cneeds-review\u201d for orbit-launch-notes in runs/review-")
    assert record is not None and record.name in message and not panel.notice.isHidden()
    # Still in the queue (its status did not change), but marked as decided, with who and what.
    row = panel.queued_names().index("orbit-launch-notes")
    cell = panel.queue.index(row, LAST_DECISION_COLUMN).data()
    assert cell.startswith("\u2713 needs-review, Dana Curator, 20")
    assert "1 decided" in panel.queue_label.text()
    assert panel.pack is not None and panel.pack.name == "orbit-launch-notes"  # the curator stays on the pack


def test_a_decision_reopened_by_a_later_status_change_is_not_shown_as_decided(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "orbit-launch-notes"
    (root / "runs" / "review-2020-01-01T00-00-00Z.json").write_text(json.dumps({
        "record": "review", "pack": "orbit-launch-notes", "reviewer": "Ann", "timestamp": "2020-01-01T00:00:00Z",
        "decision": "confirm", "reason": "ok", "before": {"status": "needs-review"},
        "after": {"status": "ready", "trust": None}}), encoding="utf-8")
    panel = _panel(qtbot, examples_copy)
    with qtbot.waitSignal(panel.decisions_loaded, timeout=10000):
        pass
    row = panel.queued_names().index("orbit-launch-notes")
    assert panel.queue.index(row, LAST_DECISION_COLUMN).data() == "confirm, Ann, 2020-01-01"
    assert "decided" not in panel.queue_label.text()


def test_a_large_workspace_queue_is_worked_out_in_a_worker_and_only_the_latest_shows(
        qtbot, monkeypatch, examples_copy: Path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(workers, "IN_PLACE_LIMIT", 2)  # five packs count as a large workspace here
    panel = _panel(qtbot, examples_copy)
    qtbot.waitUntil(lambda: panel.queued_names() == ["harbor-support-playbook", "orbit-launch-notes"], timeout=10000)
    disputed_too = set_status(examples_copy / "atlas-lending-policy", "disputed")
    packs = [disputed_too if p.name == "atlas-lending-policy" else p for p in panel.packs]
    panel.set_packs(packs[:3])  # an older workspace, overtaken at once by the next
    panel.set_packs(packs)
    assert panel.queued_names() == ["harbor-support-playbook", "orbit-launch-notes"], "the old queue stays meanwhile"
    qtbot.waitUntil(lambda: panel.queued_names() == ["atlas-lending-policy", "harbor-support-playbook",
                                                     "orbit-launch-notes"], timeout=10000)
    qtbot.wait(200)  # the overtaken answer, were it shown now, would leave harbor-support-playbook alone
    assert "2 disputed" in panel.queue_label.text()
