"""The main window's actions, toolbar and menus: every command the window offers, with its key and its place.

Built once by ``install_actions``; the window's methods are the slots. Keeping the list here makes the
window's own module about layout and the pack in view, and gives Help ▸ Keyboard Shortcuts one place to read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QToolButton

from studio.ui.about import show_about
from studio.ui.icons import icon
from studio.ui.modes import AUTHOR, AUTHOR_TIP

if TYPE_CHECKING:
    from studio.ui.main_window import MainWindow

Shortcut = QKeySequence | QKeySequence.StandardKey | str


@dataclass(slots=True)
class WindowActions:
    """The window's commands (``QAction``s), by name, and the menus that change at run time."""

    open: QAction
    new_pack: QAction
    add_root: QAction
    rescan: QAction
    examples: QAction
    quick_open: QAction
    save: QAction
    close_tab: QAction
    quit: QAction
    undo: QAction
    redo: QAction
    find: QAction
    find_in_workspace: QAction
    quick_fix: QAction
    format_frontmatter: QAction
    preferences: QAction
    next_problem: QAction
    prev_problem: QAction
    about: QAction
    recent_menu: QMenu
    modes: dict[str, QAction] = field(default_factory=dict)

    def workspace_opened(self) -> None:
        """Commands that need a workspace become available."""
        for act in (*self.modes.values(), self.rescan, self.add_root):
            act.setEnabled(True)


def install_actions(window: MainWindow) -> WindowActions:
    """Create the window's actions, toolbar and menus, connected to the window's methods."""

    def act(text: str, slot: Callable[[], object], shortcut: Shortcut | None = None, icon_name: str = "") -> QAction:
        action = QAction(icon(icon_name), text, window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False: slot())
        window.addAction(action)
        return action

    keys = QKeySequence.StandardKey
    menu_bar = window.menuBar()
    file_menu = menu_bar.addMenu("&File")
    actions = WindowActions(
        open=act("Open folder…", window.choose_folder, keys.Open, "open"),
        new_pack=act("New pack…", window.new_pack, "Ctrl+Shift+N"),
        add_root=act("Add root…", window.choose_root, None, "add-root"),
        rescan=act("Rescan", window.session.rescan, "Ctrl+R", "rescan"),
        examples=act("Open the bundled examples", window.open_examples),
        quick_open=act("Quick open…", window.quick_open.popup, "Ctrl+P"),
        save=act("Save", window.save_current, keys.Save),
        close_tab=act("Close tab", window.close_current_tab, keys.Close),
        quit=act("Quit", window.close, keys.Quit),
        undo=act("Undo", lambda: window.editor_call("undo"), keys.Undo),
        redo=act("Redo", lambda: window.editor_call("redo"), "Ctrl+Shift+Z"),
        find=act("Find…", window.find_in_current, keys.Find),
        find_in_workspace=act("Find in Workspace…", window.find_in_workspace, "Ctrl+Shift+F"),
        # Ctrl+. belongs to the editor itself (like undo): the menu entry shows the key without owning it.
        quick_fix=act("Quick fix…", lambda: window.editor_call("show_quick_fixes", on_tab=True)),
        format_frontmatter=act("Format frontmatter", lambda: window.editor_call("format_frontmatter", on_tab=True)),
        preferences=act("Preferences…", window.open_preferences, "Ctrl+,"),
        next_problem=act("Next problem", lambda: window.problems.step(1), "F8"),
        prev_problem=act("Previous problem", lambda: window.problems.step(-1), "Shift+F8"),
        about=act("About Knowledge Pack Studio", lambda: show_about(window)),
        recent_menu=QMenu("Recent workspaces", file_menu),
    )
    actions.preferences.setMenuRole(QAction.MenuRole.PreferencesRole)
    # Undo/redo belong to the focused editor's own shortcuts; the menu entries are for discovery.
    actions.undo.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    actions.redo.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    actions.rescan.setEnabled(False)
    actions.add_root.setEnabled(False)

    toolbar = window.addToolBar("Main")
    toolbar.setObjectName("toolbar-main")
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    for a in (actions.open, actions.add_root, actions.rescan):
        toolbar.addAction(a)
    toolbar.addSeparator()
    group = QActionGroup(window)
    for i, name in enumerate(window.modes.names):
        mode = QAction(name, window, checkable=True)
        mode.setShortcut(QKeySequence(f"Ctrl+{i + 1}"))
        group.addAction(mode)
        mode.setChecked(name == AUTHOR)
        tip = AUTHOR_TIP if name == AUTHOR else window.modes.panel(name).mode_tip
        mode.setToolTip(f"{tip} (Ctrl+{i + 1})")
        mode.setEnabled(False)  # until a workspace is open
        mode.triggered.connect(lambda _checked=False, n=name: window.switch_mode(n))
        toolbar.addAction(mode)
        button = toolbar.widgetForAction(mode)
        if isinstance(button, QToolButton):
            button.setToolTip(mode.toolTip())
        actions.modes[name] = mode

    actions.quick_fix.setShortcut(QKeySequence("Ctrl+."))
    actions.quick_fix.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    for a in (actions.new_pack, actions.open, actions.add_root, actions.examples, actions.quick_open):
        file_menu.addAction(a)
    file_menu.addMenu(actions.recent_menu)
    file_menu.addSeparator()
    for a in (actions.save, actions.close_tab, actions.rescan):
        file_menu.addAction(a)
    file_menu.addSeparator()
    file_menu.addAction(actions.quit)
    edit = menu_bar.addMenu("&Edit")
    for a in (actions.undo, actions.redo, actions.find, actions.find_in_workspace):
        edit.addAction(a)
    edit.addSeparator()
    for a in (actions.quick_fix, actions.format_frontmatter):
        edit.addAction(a)
    edit.addSeparator()
    edit.addAction(actions.preferences)
    view = menu_bar.addMenu("&View")
    for a in (actions.next_problem, actions.prev_problem):
        view.addAction(a)
    view.addSeparator()
    for dock in window.docks.values():
        view.addAction(dock.toggleViewAction())
    menu_bar.addMenu("&Help").addAction(actions.about)
    return actions
