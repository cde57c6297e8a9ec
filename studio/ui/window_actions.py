"""The main window's actions, toolbar and menus: every command the window offers, with its key and its place.

Built once by ``install_actions``; the window's methods are the slots. Every command with a key is put in a menu
(even those whose key belongs to the editor, such as Ctrl+. and Ctrl+Space), so Help ▸ Keyboard Shortcuts, which
reads the menus (``widgets.shortcuts_dialog``), lists them all without a second, hand-written list.

Keys, chosen not to clash: Ctrl+1..5 the modes, Alt+1..5 a pane each (Workspace, editor or mode panel, previews,
Problems, Inspector), F6 / Shift+F6 the next / previous pane, F5 re-run the resolver, F8 / Shift+F8 problems.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QToolBar, QToolButton, QWidget

from studio.ui.about import show_about
from studio.ui.icons import icon
from studio.ui.modes import AUTHOR, AUTHOR_TIP
from studio.ui.panes import Pane
from studio.ui.widgets.shortcuts_dialog import ShortcutsDialog

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
    shortcuts: QAction
    complete: QAction
    rerun_resolver: QAction
    next_pane: QAction
    prev_pane: QAction
    toggle_previews: QAction
    recent_menu: QMenu
    toolbar: QToolBar
    modes: dict[str, QAction] = field(default_factory=dict)
    panes: dict[str, QAction] = field(default_factory=dict)
    """Alt+<n>: go to that pane, by the pane's name."""
    themes: dict[str, QAction] = field(default_factory=dict)
    """View ▸ Theme: ``system``, ``light``, ``dark``."""

    def workspace_opened(self) -> None:
        """Commands that need a workspace become available."""
        for act in (*self.modes.values(), self.rescan, self.add_root):
            act.setEnabled(True)


def window_panes(window: MainWindow) -> list[Pane]:
    """The panes F6 visits, in order, each with its Alt+<n> key (see ``studio.ui.panes``)."""

    def centre() -> QWidget:
        page = window.center.currentWidget()
        return window.editors if page is window.splitter else page

    def editor() -> QWidget | None:
        tab = window.editors.current_tab()
        return tab.editor if tab is not None and centre() is window.editors else None

    def previews_shown() -> bool:
        return window.center.currentWidget() is window.splitter and window.previews.width() > 0 and \
            window.previews.isVisible()

    docks = window.docks
    return [
        Pane("Workspace", lambda: window.workspace_panel, lambda: window.workspace_panel.tree, "Alt+1",
             docks["workspace"]),
        Pane("Editor or mode panel", centre, editor, "Alt+2"),
        Pane("Previews", lambda: window.previews, lambda: None, "Alt+3", shown=previews_shown,
             reveal=lambda: window.show_previews(True)),
        Pane("Problems", lambda: window.problems, lambda: window.problems.table, "Alt+4", docks["problems"]),
        Pane("Inspector", lambda: window.inspector, lambda: None, "Alt+5", docks["inspector"]),
        Pane("Find in Workspace", lambda: window.find_panel, lambda: None, "", docks["find"]),
    ]


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
        shortcuts=act("Keyboard Shortcuts", lambda: ShortcutsDialog(window.menuBar(), window).exec()),
        # Like Ctrl+., Ctrl+Space belongs to the editor (frontmatter completion): listed here, owned there.
        complete=act("Complete frontmatter…", lambda: window.editor_call("complete", on_tab=True)),
        rerun_resolver=act("Re-run the resolver", window.rerun_resolver, "F5"),
        next_pane=act("Next pane", lambda: window.panes.cycle(1), "F6"),
        prev_pane=act("Previous pane", lambda: window.panes.cycle(-1), "Shift+F6"),
        toggle_previews=act("Previews beside the editor", lambda: window.show_previews(not window.previews_shown())),
        recent_menu=QMenu("Recent workspaces", file_menu),
        toolbar=window.addToolBar("Main"),
    )
    actions.preferences.setMenuRole(QAction.MenuRole.PreferencesRole)
    # Undo/redo belong to the focused editor's own shortcuts; the menu entries are for discovery.
    actions.undo.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    actions.redo.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    actions.rescan.setEnabled(False)
    actions.add_root.setEnabled(False)

    toolbar = actions.toolbar
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

    for action, key in ((actions.quick_fix, "Ctrl+."), (actions.complete, "Ctrl+Space")):
        action.setShortcut(QKeySequence(key))
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    actions.toggle_previews.setCheckable(True)
    actions.toggle_previews.setChecked(True)
    for pane in window.panes.panes:
        if pane.key:
            actions.panes[pane.name] = act(f"Go to {pane.name}", lambda p=pane: window.panes.focus(p), pane.key)
    themes = QActionGroup(window)
    for choice, label in (("system", "System"), ("light", "Light"), ("dark", "Dark")):
        theme = QAction(label, window, checkable=True)
        theme.setChecked(choice == window.settings.theme())
        theme.triggered.connect(lambda _checked=False, c=choice: window.set_theme(c))
        themes.addAction(theme)
        actions.themes[choice] = theme
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
    for a in (actions.quick_fix, actions.complete, actions.format_frontmatter):
        edit.addAction(a)
    edit.addSeparator()
    edit.addAction(actions.preferences)
    view = menu_bar.addMenu("&View")
    modes_menu = view.addMenu("Mode")
    for a in actions.modes.values():
        modes_menu.addAction(a)
    view.addAction(actions.rerun_resolver)
    view.addSeparator()
    for a in (actions.next_problem, actions.prev_problem, actions.next_pane, actions.prev_pane):
        view.addAction(a)
    panes_menu = view.addMenu("Go to pane")
    for a in actions.panes.values():
        panes_menu.addAction(a)
    view.addSeparator()
    for dock in window.docks.values():
        view.addAction(dock.toggleViewAction())
    view.addAction(actions.toggle_previews)
    theme_menu = view.addMenu("Theme")
    for a in actions.themes.values():
        theme_menu.addAction(a)
    help_menu = menu_bar.addMenu("&Help")
    help_menu.addAction(actions.shortcuts)
    help_menu.addAction(actions.about)
    return actions
