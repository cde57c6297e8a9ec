"""Offscreen screenshots of the widgets issue #16 part A changed, from copies of the bundled examples.

    QT_QPA_PLATFORM=offscreen python tools/widget_screenshots.py [OUT_DIR]

Writes ``widget-collision.png``, ``widget-problems-filtered.png``, ``widget-review-queue.png`` and
``widget-findings-wrapped.png`` (default ``docs/screenshots/``). Packs are copied into a temp folder first: the
bundled examples are never written to.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QThreadPool  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from studio.core.diagnostics import Severity  # noqa: E402
from studio.core.pack import load_pack  # noqa: E402
from studio.core.resolver import ResolveRequest, resolve  # noqa: E402
from studio.core.resources import examples_dir  # noqa: E402
from studio.core.workspace import WorkspaceOptions, open_workspace  # noqa: E402
from studio.ui.models.diagnostics_table import DiagnosticsTableModel  # noqa: E402
from studio.ui.panels.resolver_results import FindingsView  # noqa: E402
from studio.ui.panels.review_panel import ReviewPanel  # noqa: E402
from studio.ui.widgets.collision_view import CollisionView  # noqa: E402
from studio.ui.widgets.problems_panel import ProblemsPanel  # noqa: E402


def settle(app: QApplication, rounds: int = 40) -> None:
    """Let workers finish and queued signals arrive."""
    for _ in range(rounds):
        QThreadPool.globalInstance().waitForDone(200)
        app.processEvents()


def grab(widget: QWidget, app: QApplication, out: Path, width: int, height: int) -> None:
    widget.resize(width, height)
    widget.show()
    settle(app)
    widget.grab().save(str(out))
    print(f"saved {out}")


def bump(knowledge: Path, version: str, updated: str) -> None:
    text = knowledge.read_text(encoding="utf-8")
    lines = [ln for ln in text.split("\n") if not ln.startswith(("version:", "updated:"))]
    lines.insert(1, f"version: {version}\nupdated: {updated}")
    knowledge.write_text("\n".join(lines), encoding="utf-8")


def main(out_dir: Path) -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    out_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="pack-studio-shots-"))
    try:
        # Two checkouts of one pack side by side, plus the other examples.
        for folder, version, updated in (("v0.4.0", "0.4.0", "2025-01-10"), ("v0.7.2", "0.7.2", "2026-03-01")):
            shutil.copytree(examples_dir() / "northwind-espresso", work / "packs" / folder / "northwind-espresso")
            bump(work / "packs" / folder / "northwind-espresso" / "KNOWLEDGE.md", version, updated)
        for name in ("harbor-support-playbook", "orbit-launch-notes", "atlas-lending-policy", "lin-yue-persona"):
            shutil.copytree(examples_dir() / name, work / "packs" / "examples" / name)
        ws = open_workspace(WorkspaceOptions(explicit=[work / "packs"], builtin=False))

        view = CollisionView()
        view.set_copies(ws.copies("northwind-espresso"))
        view.select_root(work / "packs" / "v0.7.2" / "northwind-espresso")
        grab(view, app, out_dir / "widget-collision.png", 900, 300)

        model = DiagnosticsTableModel()
        model.show_packs(ws.packs)
        problems = ProblemsPanel(model)
        problems.severity_boxes[Severity.INFO].setChecked(False)
        problems.step(1)
        grab(problems, app, out_dir / "widget-problems-filtered.png", 1240, 330)

        harbor = work / "packs" / "examples" / "harbor-support-playbook"
        orbit = work / "packs" / "examples" / "orbit-launch-notes"
        (orbit / "runs").mkdir(exist_ok=True)
        (orbit / "runs" / "review-2026-05-02T09-15-00Z.json").write_text(json.dumps({
            "record": "review", "pack": "orbit-launch-notes", "reviewer": "Dana Curator",
            "timestamp": "2026-05-02T09:15:00Z", "decision": "needs-review", "reason": "Budget still unapproved.",
            "before": {"status": "needs-review"}, "after": {"status": "needs-review", "trust": "unreviewed"}}), "utf-8")
        text = (harbor / "KNOWLEDGE.md").read_text(encoding="utf-8")
        (harbor / "KNOWLEDGE.md").write_text(text.replace("status: ready", "status: disputed", 1), "utf-8")
        review = ReviewPanel([load_pack(p.root, p.scope, p.scope_root) for p in ws.packs])
        grab(review, app, out_dir / "widget-review-queue.png", 1180, 420)

        espresso = load_pack(work / "packs" / "v0.7.2" / "northwind-espresso")
        result = resolve(ResolveRequest("How long is the boiler warranty when the grinder arrives broken?",
                                        [espresso], budget=600, grounding_override="required"))
        findings = FindingsView()
        findings.show_result(result)
        grab(findings, app, out_dir / "widget-findings-wrapped.png", 760, 380)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "docs" / "screenshots")
