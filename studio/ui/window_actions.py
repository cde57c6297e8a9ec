"""The main window's actions, toolbar and menus: every command the window offers, with its key and its place.

Built once by ``install_actions``, from the window's slots (``WindowCommands``) and the parts the menus list (the
modes, the panes, the docks): handed in, so this module never imports the window's. Every command with a key is put
in a menu (even those whose key belongs to the editor, such as Ctrl+. and Ctrl+Space), so Help ▸ Keyboard Shortcuts,
which reads the menus (``widgets.shortcuts_dialog``), lists them all without a second, hand-written list.

Keys, chosen not to clash: Ctrl+1..5 the modes, Alt+1..5 a pane each (Workspace, editor or mode panel, previews,
Problems, Inspector), F6 / Shift+F6 the next / previous pane, F5 re-run the resolver, F8 / Shift+F8 problems.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QToolBar, QToolButton

from studio.ui.about import show_about
from studio.ui.icons import icon
from studio.ui.modes import AUTHOR, AUTHOR_TIP, JobModes
from studio.ui.panes import PaneFocus
from studio.ui.widgets.shortcuts_dialog import ShortcutsDialog

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
    soft_wrap: QAction
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


@dataclass(frozen=True, slots=True)
class WindowCommands:
    """What the window's actions call, each command by the name of its action."""

    open: Callable[[], object]
    new_pack: Callable[[], object]
    add_root: Callable[[], object]
    rescan: Callable[[], object]
    examples: Callable[[], object]
    quick_open: Callable[[], object]
    save: Callable[[], object]
    close_tab: Callable[[], object]
    find: Callable[[], object]
    find_in_workspace: Callable[[], object]
    preferences: Callable[[], object]
    rerun_resolver: Callable[[], object]
    editor_call: Callable[[str], object]
    """Undo, redo...: call the named method of the current tab's editor."""
    tab_call: Callable[[str], object]
    """Quick fixes, completion, formatting: call the named method of the current tab."""
    step_problem: Callable[[int], object]
    """F8 / Shift+F8: the next (1) or previous (-1) problem."""
    show_previews: Callable[[bool], object]
    previews_shown: Callable[[], bool]
    set_soft_wrap: Callable[[bool], object]
    """View ▸ Soft wrap Markdown (Alt+Z): wrap Markdown tabs at the editor's width or not."""
    switch_mode: Callable[[str], object]
    set_theme: Callable[[str], object]


def install_actions(window: QMainWindow, commands: WindowCommands, *, modes: JobModes, panes: PaneFocus,
                    docks: Iterable[QDockWidget], current_theme: str) -> WindowActions:
    """Create the window's actions, toolbar and menus, connected to ``commands``, with ``current_theme`` checked."""

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
        open=act("Open folder…", commands.open, keys.Open, "open"),
        new_pack=act("New pack…", commands.new_pack, "Ctrl+Shift+N"),
        add_root=act("Add root…", commands.add_root, None, "add-root"),
        rescan=act("Rescan", commands.rescan, "Ctrl+R", "rescan"),
        examples=act("Open the bundled examples", commands.examples),
        quick_open=act("Quick open…", commands.quick_open, "Ctrl+P"),
        save=act("Save", commands.save, keys.Save),
        close_tab=act("Close tab", commands.close_tab, keys.Close),
        quit=act("Quit", window.close, keys.Quit),
        undo=act("Undo", lambda: commands.editor_call("undo"), keys.Undo),
        redo=act("Redo", lambda: commands.editor_call("redo"), "Ctrl+Shift+Z"),
        find=act("Find…", commands.find, keys.Find),
        find_in_workspace=act("Find in Workspace…", commands.find_in_workspace, "Ctrl+Shift+F"),
        # Ctrl+. belongs to the editor itself (like undo): the menu entry shows the key without owning it.
        quick_fix=act("Quick fix…", lambda: commands.tab_call("show_quick_fixes")),
        format_frontmatter=act("Format frontmatter", lambda: commands.tab_call("format_frontmatter")),
        preferences=act("Preferences…", commands.preferences, "Ctrl+,"),
        next_problem=act("Next problem", lambda: commands.step_problem(1), "F8"),
        prev_problem=act("Previous problem", lambda: commands.step_problem(-1), "Shift+F8"),
        about=act("About Knowledge Pack Studio", lambda: show_about(window)),
        shortcuts=act("Keyboard Shortcuts", lambda: ShortcutsDialog(window.menuBar(), window).exec()),
        # Like Ctrl+., Ctrl+Space belongs to the editor (frontmatter completion): listed here, owned there.
        complete=act("Complete frontmatter…", lambda: commands.tab_call("complete")),
        rerun_resolver=act("Re-run the resolver", commands.rerun_resolver, "F5"),
        next_pane=act("Next pane", lambda: panes.cycle(1), "F6"),
        prev_pane=act("Previous pane", lambda: panes.cycle(-1), "Shift+F6"),
        toggle_previews=act("Previews beside the editor",
                            lambda: commands.show_previews(not commands.previews_shown())),
        soft_wrap=QAction("Soft wrap Markdown", window, checkable=True, checked=True),
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
    for i, name in enumerate(modes.names):
        mode = QAction(name, window, checkable=True)
        mode.setShortcut(QKeySequence(f"Ctrl+{i + 1}"))
        group.addAction(mode)
        mode.setChecked(name == AUTHOR)
        tip = AUTHOR_TIP if name == AUTHOR else modes.panel(name).mode_tip
        mode.setToolTip(f"{tip} (Ctrl+{i + 1})")
        mode.setEnabled(False)  # until a workspace is open
        mode.triggered.connect(lambda _checked=False, n=name: commands.switch_mode(n))
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
    actions.soft_wrap.setShortcut(QKeySequence("Alt+Z"))
    actions.soft_wrap.toggled.connect(commands.set_soft_wrap)
    window.addAction(actions.soft_wrap)
    for pane in panes.panes:
        if pane.key:
            actions.panes[pane.name] = act(f"Go to {pane.name}", partial(panes.focus, pane), pane.key)
    themes = QActionGroup(window)
    for choice, label in (("system", "System"), ("light", "Light"), ("dark", "Dark")):
        theme = QAction(label, window, checkable=True)
        theme.setChecked(choice == current_theme)
        theme.triggered.connect(lambda _checked=False, c=choice: commands.set_theme(c))
        themes.addAction(theme)
        actions.themes[choice] = theme
    _fill(file_menu,
          [actions.new_pack, actions.open, actions.add_root, actions.examples, actions.quick_open,
           actions.recent_menu.menuAction()],
          [actions.save, actions.close_tab, actions.rescan],
          [actions.quit])
    _fill(menu_bar.addMenu("&Edit"),
          [actions.undo, actions.redo, actions.find, actions.find_in_workspace],
          [actions.quick_fix, actions.complete, actions.format_frontmatter],
          [actions.preferences])
    view = menu_bar.addMenu("&View")
    _fill(view,
          [_submenu("Mode", view, actions.modes.values()), actions.rerun_resolver],
          [actions.next_problem, actions.prev_problem, actions.next_pane, actions.prev_pane,
           _submenu("Go to pane", view, actions.panes.values())],
          [*(dock.toggleViewAction() for dock in docks), actions.toggle_previews, actions.soft_wrap,
           _submenu("Theme", view, actions.themes.values())])
    _fill(menu_bar.addMenu("&Help"), [actions.shortcuts, actions.about])
    return actions


def _fill(menu: QMenu, *groups: Iterable[QAction]) -> QMenu:
    """Put each group of actions in ``menu``, in order, with a separator between one group and the next."""
    for n, group in enumerate(groups):
        if n:
            menu.addSeparator()
        menu.addActions(list(group))
    return menu


def _submenu(title: str, parent: QMenu, actions: Iterable[QAction]) -> QAction:
    """A submenu of ``parent`` listing ``actions``: the action that opens it, to place among ``parent``'s own."""
    return _fill(QMenu(title, parent), actions).menuAction()
