"""Offscreen screenshots of the authoring widgets: New Pack wizard, quick-fix menu and preview, completion, tree menu.

Run from the checkout root: ``.venv/bin/python docs/screenshots/authoring/make_shots.py docs/screenshots/authoring``.
"""
import os, shutil, sys, tempfile
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from pathlib import Path
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import QApplication
from PySide6.QtTest import QTest

from studio.core.pack import load_pack
from studio.ui.document import open_document
from studio.ui.widgets.editor_area import EditorArea
from studio.ui.widgets.new_pack_dialog import NewPackDialog
from studio.ui.models.pack_tree import PackTreeModel
from studio.ui.widgets.workspace_panel import WorkspacePanel

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/shots")
app = QApplication([])
tmp = Path(tempfile.mkdtemp())

def settle(ms=300):
    QTest.qWait(ms)

def composite(base, popup, name):
    """base widget grab with the popup painted where it sits on screen."""
    pix = base.grab()
    painter = QPainter(pix)
    where = base.mapFromGlobal(popup.mapToGlobal(QPoint(0, 0)))
    painter.drawPixmap(where, popup.grab())
    painter.end()
    pix.save(str(OUT / name))

# 1. wizard
dialog = NewPackDialog(tmp / "project" / ".agents" / "knowledge")
dialog.show()
dialog.select_template("personal-profile")
dialog.name.setText("lin-yue")
dialog.description.setPlainText("Background, voice, values and boundaries of Lin Yue, founder of Shanlan Tea. Use when writing in her voice.")
dialog.replan(); settle()
dialog.grab().save(str(OUT / "new-pack-wizard.png"))
dialog.name.setText("Lin Yue")
dialog.replan(); settle()
dialog.grab().save(str(OUT / "new-pack-wizard-bad-name.png"))

# 2. a broken pack in the editor: bulb, menu, preview
broken = Path("tests/data/authoring/broken")
root = tmp / "acme-notes"
shutil.copytree(broken / "clean", root)
text = (root / "KNOWLEDGE.md").read_text()
text = text.replace("name: clean", "name: acme-notes").replace("status: ready", "status: redy").replace("trust: user-confirmed", "trust: offical").replace("profile: wiki-first\n", "").replace("- `compiled/briefing.md`: the briefing.\n", "- `compiled/briefing.md`: the briefing.\n- Short facts: `compiled/facts.md`.\n")
(root / "KNOWLEDGE.md").write_text(text)
area = EditorArea(); area.resize(900, 560); area.show()
pack = load_pack(root)
tab = area.add(open_document(root / "KNOWLEDGE.md", root), pack)
tab.show_pack_diagnostics(pack)
tab.editor.go_to(5, 9); settle()
menu = tab.show_quick_fixes(); settle()
composite(area, menu, "quick-fix-menu.png")
menu.hide()
fix = tab.quick_fix.fixes_at(5)[0]
dlg = tab.quick_fix.preview(fix); settle()
dlg.grab().save(str(OUT / "quick-fix-preview.png"))
dlg.apply_button.click(); settle()
tab.editor.go_to(21, 20); settle()
menu = tab.show_quick_fixes(); settle()
composite(area, menu, "quick-fix-context-map.png"); menu.hide()
create = tab.quick_fix.fixes_at(21)[0]
dlg = tab.quick_fix.preview(create); settle()
dlg.grab().save(str(OUT / "quick-fix-create-file.png")); dlg.reject()

# 3. completion popup
editor = tab.editor
editor.go_to(6, 1)
cursor = editor.textCursor(); cursor.movePosition(cursor.MoveOperation.EndOfBlock); editor.setTextCursor(cursor)
QTest.keyClick(editor, Qt.Key.Key_Return)
settle(1200)
tab.assist.trigger(explicit=True)
settle()
print("keys popup visible", tab.assist.completer.popup().isVisible(), tab.assist.completer.completionCount())
composite(area, tab.assist.completer.popup(), "completion-keys.png")
QTest.keyClick(tab.assist.completer.popup(), Qt.Key.Key_Escape)
QTest.keyClicks(editor, "profile: ")
settle(1200)
if not tab.assist.completer.popup().isVisible():
    tab.assist.trigger(explicit=False)
settle()
print("values popup visible", tab.assist.completer.popup().isVisible(), tab.assist.completer.completionCount())
composite(area, tab.assist.completer.popup(), "completion-values.png")
QTest.keyClick(tab.assist.completer.popup(), Qt.Key.Key_Escape)

# 4. tree context menu
model = PackTreeModel(); model.add_packs([load_pack(root)])
tab.save(); model = PackTreeModel(); model.add_packs([load_pack(root)])
panel = WorkspacePanel(model); panel.resize(640, 300); panel.show(); panel.tree.expandAll(); settle(500)
index = panel.proxy.mapFromSource(model.index_for_pack(root))
panel.tree.expand(index); settle(500)
menu = panel.menu_at(index)
rect = panel.tree.visualRect(index)
menu.popup(panel.tree.viewport().mapToGlobal(rect.center()))
settle()
sub = menu.actions()[0].menu()
menu.setActiveAction(menu.actions()[0]); settle(300)
sub.popup(menu.mapToGlobal(QPoint(menu.width(), 0))); settle(300)
pix = panel.grab()
painter = QPainter(pix)
for w in (menu, sub):
    painter.drawPixmap(panel.mapFromGlobal(w.mapToGlobal(QPoint(0, 0))), w.grab())
painter.end()
pix.save(str(OUT / "tree-context-menu.png"))
print("done", sorted(p.name for p in OUT.glob("*.png")))
