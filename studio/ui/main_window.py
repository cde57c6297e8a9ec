"""The main window: arranges the docks, the editor and the previews, and shows the pack in view.

It holds no domain logic. Its commands and menus are built by ``window_actions``; every workspace-wide view
(tree, Problems, status, Quick open, job modes) follows the session through ``workspace_views``; the modes are
``ModePanel``s registered in ``modes``, each with its own docks (``mode_layouts``). What is left here: the layout,
the current pack, files and tabs, preferences and closing.

The current pack is the window's: one pack that the tree's selection, the Inspector, the previews, the job panels
and the active editor tab all show. The user picks it in the tree, or by bringing a file to the front (a tab, a
problem, F8, Quick open, a panel's "open"); every other view then follows it by its root, never by a row, so a pack
that moves to another group of the tree after a fix stays selected (``_show_pack``, ``_follow_editor``).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QRect, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from studio.core.diagnostics import Diagnostic
from studio.core.model import Pack
from studio.core.paths import user_home
from studio.core.recovery import RecoveryStore
from studio.core.terminal import printable
from studio.ui import child_pool, scan_process
from studio.ui.document import OpenRefused, SaveOutcome, changed_on_disk, open_document
from studio.ui.fit import PageStack, first_size, scroll_page, splitter
from studio.ui.icons import icon
from studio.ui.live_watch import LiveWatch
from studio.ui.mode_layouts import ModeLayouts
from studio.ui.models.diagnostics_table import DiagnosticsTableModel
from studio.ui.models.pack_tree import PackTreeModel, Role
from studio.ui.modes import AUTHOR, JobModes
from studio.ui.pack_copies import PackCopies
from studio.ui.pack_diffs import PackDiffs
from studio.ui.panels.resolver_panel import ResolverPanel
from studio.ui.panels.review_panel import ReviewPanel
from studio.ui.panels.visibility_view import VisibilityView
from studio.ui.panes import Pane, PaneFocus
from studio.ui.recovery_keeper import RecoveryKeeper, default_recovery_dir
from studio.ui.search_service import SearchService
from studio.ui.settings import StudioSettings, default_cache_dir, default_settings
from studio.ui.shown_text import as_typed
from studio.ui.status_line import PrintableStatusBar, StatusLine
from studio.ui.theme import apply_choice, theme_choice
from studio.ui.turns import next_turn
from studio.ui.warm_up import warm_up_editor
from studio.ui.widgets.editor_area import EditorArea
from studio.ui.widgets.editor_tab import EditorTab
from studio.ui.widgets.find_in_workspace import FindInWorkspacePanel
from studio.ui.widgets.inspector import Inspector
from studio.ui.widgets.preferences_dialog import PreferencesDialog, apply_preferences
from studio.ui.widgets.preview_pane import PreviewPane
from studio.ui.widgets.problems_panel import ProblemsPanel
from studio.ui.widgets.quick_open_popup import QuickOpen
from studio.ui.widgets.welcome import WelcomePage
from studio.ui.widgets.workspace_panel import WorkspacePanel
from studio.ui.window_actions import WindowCommands, install_actions
from studio.ui.window_authoring import WindowAuthoring
from studio.ui.workspace_session import WorkspaceSession
from studio.ui.workspace_source import WorkspaceRequest
from studio.ui.workspace_views import WorkspaceViews

APP_TITLE = "Knowledge Pack Studio"
TOOLBAR_WORDS_MIN = 900
"""Below this window width the toolbar shows icons only (the mode buttons, which have none, keep their words)."""


class MainWindow(QMainWindow):
    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.settings = StudioSettings(settings if settings is not None else default_settings())
        self.setWindowTitle(APP_TITLE)
        self.setWindowIcon(icon("app"))
        self._fit_first_size()  # a remembered geometry replaces it below
        self.session = WorkspaceSession(self)
        self.watch = LiveWatch(self)
        self.tree_model = PackTreeModel(self)
        self.diag_model = DiagnosticsTableModel(self)
        self.current_pack: Pack | None = None
        self._pack_views_pending = False
        self._editor_follows = False
        """The current pack was picked in the tree: the editor in front follows it (``_front_pack_in_editor``)."""
        self._followed_tab: EditorTab | None = None

        self.workspace_panel = WorkspacePanel(self.tree_model)
        self.problems = ProblemsPanel(self.diag_model)
        self.inspector = Inspector()
        self.editors = EditorArea()
        self.previews = PreviewPane()
        self.welcome = WelcomePage()
        self.splitter = splitter(Qt.Orientation.Horizontal, (self.editors, 3), (self.previews, 2))
        self.splitter.setSizes([600, 400])  # the editor first; the previews collapse when dragged to the edge
        self.center = PageStack()
        self.center.addWidget(self.welcome)
        self.center.addWidget(self.splitter)
        self.modes = JobModes(self.center, self.splitter, self, labeler=lambda pack: self.views.label_text(pack))
        self.setCentralWidget(self.center)
        self.visibility = VisibilityView()
        # Workspace search: the index lives in the cache folder and is built the first time it is asked for.
        self.cache_dir = default_cache_dir(settings)
        """The search index and the result cache live here (shared with the CLI)."""
        self.search = SearchService(self.cache_dir, self)
        self.search_used = False
        self.find_panel = FindInWorkspacePanel(self.search)
        self.docks = {
            "workspace": self._dock("Workspace", self.workspace_panel, Qt.DockWidgetArea.LeftDockWidgetArea),
            "inspector": self._dock("Inspector", self.inspector, Qt.DockWidgetArea.RightDockWidgetArea),
            "visibility": self._dock("Who sees it", scroll_page(self.visibility),
                                     Qt.DockWidgetArea.RightDockWidgetArea),
            "problems": self._dock("Problems", self.problems, Qt.DockWidgetArea.BottomDockWidgetArea),
            "find": self._dock("Find in Workspace", self.find_panel, Qt.DockWidgetArea.BottomDockWidgetArea),
        }
        self.tabifyDockWidget(self.docks["problems"], self.docks["find"])
        self.docks["find"].hide()
        self.docks["problems"].raise_()
        # Who sees the pack: a tab behind the Inspector, computed only while it is in front.
        self.tabifyDockWidget(self.docks["inspector"], self.docks["visibility"])
        self.docks["inspector"].raise_()
        self._warmed = False
        self._fit_pending = False
        self.setStatusBar(PrintableStatusBar(self))
        self.status = StatusLine(self.statusBar())
        self.status.cancel_requested.connect(self.session.cancel)
        # Copies of unsaved buffers live outside every pack: the app's data folder, or beside a
        # passed-in settings file (tests), so a test never writes into the real user's folders.
        self.recovery = RecoveryKeeper(RecoveryStore(default_recovery_dir(settings)), self)
        self.recovery.message.connect(lambda text: self.statusBar().showMessage(text, 10_000))
        self._recovery_offered = False
        self.quick_open = QuickOpen(self)
        self.views = WorkspaceViews(self.session, self.workspace_panel, self.tree_model, self.diag_model,
                                    self.status, self.watch, self.quick_open, self.modes, self)
        self.panes = PaneFocus(self, self._panes())
        self.authoring = WindowAuthoring(self, self.session, self.editors, self.recovery, open_paths=self.open_paths,
                                         open_file=self.open_file, open_diagnostic=self.open_diagnostic)
        self.copies = PackCopies(self.session, self.settings, self,
                                 lambda text: self.statusBar().showMessage(text, 8000))
        self.diffs = PackDiffs(self, lambda text: self.statusBar().showMessage(text, 8000))
        if self.settings.theme() != theme_choice():
            apply_choice(self.settings.theme())
        self.window_actions = install_actions(self, self._commands(), modes=self.modes, panes=self.panes,
                                              docks=self.docks.values(), current_theme=self.settings.theme())
        self._fill_recent_menu()
        self._connect()
        self.welcome.set_recent(self.settings.recent_workspaces())
        geometry = self.settings.geometry()
        if geometry is not None:
            self.restoreGeometry(geometry)
        self.layouts = ModeLayouts(self, self.docks, self.modes.pages, self.settings)
        self.layouts.enter(AUTHOR)
        self.splitter.splitterMoved.connect(
            lambda *_: self.window_actions.toggle_previews.setChecked(self.previews_shown()))
        self.apply_preferences()  # stored preferences hold from the start, not only after the dialog

    def _fit_first_size(self) -> None:
        """No size remembered yet: open within the screen's available area, at its top left corner."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        area = screen.availableGeometry() if screen is not None else QRect()
        self.resize(first_size(area.size()))
        if not area.isEmpty():
            self.move(area.topLeft())

    # -- layout ---------------------------------------------------------------------------------
    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{title.lower()}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _panes(self) -> list[Pane]:
        """The panes F6 visits, in order, each with its Alt+<n> key (see ``studio.ui.panes``)."""

        def centre() -> QWidget:
            page = self.center.currentWidget()
            if page is None:  # never: the stack always shows the welcome page or a mode
                return self.center
            return self.editors if page is self.splitter else page

        def editor() -> QWidget | None:
            tab = self.editors.current_tab()
            return tab.editor if tab is not None and centre() is self.editors else None

        def previews_shown() -> bool:
            return self.center.currentWidget() is self.splitter and self.previews.width() > 0 and \
                self.previews.isVisible()

        docks = self.docks
        return [
            Pane("Workspace", lambda: self.workspace_panel, lambda: self.workspace_panel.tree, "Alt+1",
                 docks["workspace"]),
            Pane("Editor or mode panel", centre, editor, "Alt+2"),
            Pane("Previews", lambda: self.previews, lambda: None, "Alt+3", shown=previews_shown,
                 reveal=lambda: self.show_previews(True)),
            Pane("Problems", lambda: self.problems, lambda: self.problems.table, "Alt+4", docks["problems"]),
            Pane("Inspector", lambda: self.inspector, lambda: None, "Alt+5", docks["inspector"]),
            Pane("Find in Workspace", lambda: self.find_panel, lambda: None, "", docks["find"]),
        ]

    def _commands(self) -> WindowCommands:
        """What the window's actions call (``studio.ui.window_actions``)."""
        return WindowCommands(
            open=self.choose_folder, new_pack=self.authoring.new_pack, add_root=self.choose_root,
            rescan=self.session.rescan, examples=self.open_examples, quick_open=self.quick_open.popup,
            save=self.save_current, close_tab=self.close_current_tab, find=self.find_in_current,
            find_in_workspace=self.find_in_workspace, preferences=self.open_preferences,
            rerun_resolver=self.rerun_resolver, editor_call=self.editor_call,
            tab_call=lambda name: self.editor_call(name, on_tab=True), step_problem=self.problems.step,
            show_previews=self.show_previews, previews_shown=self.previews_shown,
            set_soft_wrap=self.editors.set_soft_wrap, switch_mode=self.switch_mode,
            set_theme=self.set_theme)

    def _fill_recent_menu(self) -> None:
        menu = self.window_actions.recent_menu
        menu.clear()
        for entry in self.settings.recent_workspaces():
            label = " + ".join("bundled examples" if e == "builtin:" else e for e in entry)
            menu.addAction(label, partial(self._open_recent, entry))
        menu.setEnabled(bool(self.settings.recent_workspaces()))

    def _connect(self) -> None:
        s = self.session
        s.started.connect(self._scan_started)
        s.finished.connect(self._scan_finished)
        s.failed.connect(lambda text: QMessageBox.critical(self, APP_TITLE, as_typed(f"The scan failed:\n{text}")))
        self.views.pack_replaced.connect(self._pack_replaced)
        self.views.pack_removed.connect(self._pack_removed)
        self.problems.title_changed.connect(self.docks["problems"].setWindowTitle)
        self.docks["problems"].setWindowTitle(self.problems.title())
        self.problems.step_note.connect(lambda text: self.statusBar().showMessage(text, 8000) if text else None)
        self.modes.status_message.connect(lambda text: self.statusBar().showMessage(text, 10_000))
        self.modes.pack_chosen.connect(self.workspace_panel.select_pack)
        self.inspector.compare_copies_requested.connect(self.copies.compare)
        self.modes.switch_requested.connect(self.switch_mode)
        self.modes.panel_of(ResolverPanel).set_cache_dir(self.search.cache_dir)
        self.previews.catalog.cache_dir = self.search.cache_dir
        self.find_panel.open_location.connect(lambda path, line: self._open_from_panel(path, line))
        self.search.indexing.connect(self._search_progress)
        self.search.notice.connect(lambda text: self.statusBar().showMessage(text, 10_000))
        self.watch.pack_changed.connect(lambda root: self.search.update_paths([root]) if self.search_used else None)
        self.watch.file_changed.connect(lambda path: self.search.update_paths([path]) if self.search_used else None)
        # A turn after the scan's end (its own views update in that one): 10,000 packs cost a few ms each here.
        s.finished.connect(lambda _cancelled: next_turn(self, self._search_follow_workspace))
        self.docks["visibility"].visibilityChanged.connect(lambda shown: self._show_visibility() if shown else None)
        self.visibility.open_pack_requested.connect(lambda path: self.open_file(path, 1))
        s.finished.connect(lambda _cancelled: self._show_visibility())
        # Authoring: files made, renamed or trashed in the tree and the editors; quick fixes from Problems.
        files = self.workspace_panel.file_actions
        authoring = self.authoring
        files.file_created.connect(authoring.file_created)
        files.renamed.connect(authoring.file_renamed)
        files.deleted.connect(authoring.file_deleted)
        files.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.editors.file_created.connect(authoring.file_created)
        self.editors.pack_folder_renamed.connect(lambda old, new: authoring.pack_moved(Path(old), Path(new)))
        self.editors.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.problems.quick_fix_requested.connect(authoring.quick_fix_for)
        s.packs_added.connect(authoring.packs_arrived)
        self.quick_open.file_chosen.connect(self._quick_open_file)
        self.quick_open.pack_chosen.connect(self._quick_open_pack)
        self.watch.pack_changed.connect(self.session.reload_pack)
        self.watch.file_changed.connect(self._file_changed_on_disk)
        self.workspace_panel.file_activated.connect(self.open_file)
        self.workspace_panel.pack_selected.connect(self._pack_selected)
        self.problems.diagnostic_activated.connect(self.open_diagnostic)
        self.inspector.diagnostic_activated.connect(self.open_diagnostic)
        self.previews.open_file.connect(self.open_file)
        self.previews.built.connect(self.inspector.show_costs)
        self.editors.close_requested.connect(self.close_tab)
        self.editors.currentChanged.connect(self._tab_changed)
        self.editors.live_validated.connect(self.session.replace)
        self.welcome.open_folder.connect(self.choose_folder)
        self.welcome.open_examples.connect(self.open_examples)
        self.welcome.open_recent.connect(self._open_recent)
        self.modes.open_file_requested.connect(self._open_from_panel)
        self.modes.pack_changed.connect(self.session.reload_pack)
        self.workspace_panel.compare_requested.connect(self.diffs.ask)
        self.modes.panel_of(ReviewPanel).diff_requested.connect(self.diffs.since_review)

    # -- opening workspaces -----------------------------------------------------------------------
    def open_paths(self, paths: list[Path]) -> None:
        self.open_request(WorkspaceRequest(explicit=list(paths)))

    def _open_recent(self, entry: list[str]) -> None:
        """A workspace from File ▸ Recent workspaces or the welcome page, as stored in the settings."""
        self.open_request(WorkspaceRequest.from_settings(entry))

    def open_examples(self) -> None:
        self.open_request(WorkspaceRequest(builtin=True))

    def open_request(self, request: WorkspaceRequest) -> None:
        # Org roots, client folders and scan limits come from the preferences, whoever asked to open; the pins
        # (which same-scope copy wins) are remembered per workspace.
        self.settings.preferences().apply_discovery(request)
        request.cache_dir = self.cache_dir
        if request.home is None:  # the user scope is part of what every client here sees (pack-studio visibility)
            request.home = user_home()
        request.make_absolute()
        entry = request.to_settings()  # once: 700 roots make it a few milliseconds
        request.pins = self.copies.stored_pins(request, entry)
        self.session.open(request)
        # On a turn of its own: writing the settings file (QSettings syncs it to disk) and re-reading the list
        # took 10-30 ms with 700 roots an entry, on the turn a re-opening already clears every view.
        next_turn(self, lambda: self._remember_recent(entry))
        self.setWindowTitle(f"{APP_TITLE} — {printable(request.label())}")  # folder names are pack text too
        self.switch_mode(AUTHOR)
        self.window_actions.workspace_opened()

    def _remember_recent(self, entry: list[str]) -> None:
        self.settings.add_recent(entry)
        self._fill_recent_menu()
        self.welcome.set_recent(self.settings.recent_workspaces())

    def open_preferences(self) -> None:
        if PreferencesDialog(self.settings, self).exec() == QDialog.DialogCode.Accepted:
            self.apply_preferences()

    def apply_preferences(self) -> None:
        apply_preferences(self.settings.preferences(), previews=self.previews,
                          resolver_inputs=self.modes.panel_of(ResolverPanel).inputs, request=self.session.request)

    # -- search -------------------------------------------------------------------------------------
    def find_in_workspace(self) -> None:
        """Edit ▸ Find in Workspace: show the panel with the editor's selection as the query."""
        dock = self.docks["find"]
        dock.show()
        dock.raise_()
        if not self.search_used:
            self.search_used = True
            self._search_follow_workspace()
        tab = self.editors.current_tab()
        self.find_panel.activate(tab.editor.textCursor().selectedText() if tab is not None else "")

    def _search_follow_workspace(self) -> None:
        packs = list(self.session.packs.values())
        self.find_panel.set_packs(packs)
        self.previews.set_workspace_packs(packs)
        if self.search_used and not self.session.scanning:
            self.search.refresh([p.root for p in packs])

    def _search_progress(self, done: int, total: int) -> None:
        if total and done < total:
            self.statusBar().showMessage(f"Indexing for search: {done:,} of {total:,} packs", 2000)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open a folder of packs")
        if folder:
            self.open_paths([Path(folder)])

    def choose_root(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a folder of packs to the workspace")
        if folder:
            before = self.session.request.to_settings()
            self.session.add_root(Path(folder))
            after = self.session.request.to_settings()
            for name, root in self.settings.pins(before).items():  # pins are kept per workspace: carry them over
                self.settings.set_pin(after, name, root)
            self.settings.add_recent(after)
            self.setWindowTitle(f"{APP_TITLE} — {printable(self.session.request.label())}")

    def _scan_started(self) -> None:
        self.inspector.show_pack(None)
        self.previews.clear_pack()
        self.current_pack = None
        # The last workspace's packs go now, not when the new scan settles: held until then, a re-opened
        # 10,000-pack workspace lived twice in memory at its peak (and the allocator kept the peak).
        self.find_panel.packs = []
        self.previews.set_workspace_packs([])

    def _scan_finished(self, cancelled: bool) -> None:
        if not cancelled and not self._recovery_offered:
            self._recovery_offered = True  # once per run; later copies are asked about when opened
            QTimer.singleShot(0, self, self._offer_recovery)

    def _offer_recovery(self) -> None:
        self.recovery.offer_pending(self, self.open_file,
                                    can_open=lambda path: self.session.pack_for_path(path) is not None)

    def _show_visibility(self) -> None:
        """Who sees the pack in view, when that tab is in front (pure: reads the settled workspace, no file)."""
        workspace = self.session.workspace
        dock = self.docks["visibility"]
        if workspace is None or self.current_pack is None or not dock.isVisible() or dock.visibleRegion().isEmpty():
            return
        self.visibility.show_workspace(workspace, self.current_pack.name)

    def _pack_replaced(self, fresh: Pack) -> None:
        """A pack's settled copy changed: its tabs and, when it is in view, the Inspector and previews follow."""
        for tab in self.editors.tabs():
            if tab.document_state.pack_root == fresh.root and not (tab.is_knowledge and tab.dirty):
                tab.show_pack_diagnostics(fresh)
        if self.current_pack is not None and self.current_pack.root == fresh.root:
            self._show_pack(fresh)
        self.copies.refresh(fresh.name)

    def _pack_removed(self, gone: Pack) -> None:
        """The current pack left the workspace: the active editor's pack (if any) is current now."""
        if self.current_pack is not None and self.current_pack.root == gone.root:
            self.current_pack = None
            self._follow_editor()

    # -- current pack -------------------------------------------------------------------------------
    def _pack_selected(self, pack: Pack | None) -> None:
        """The user picked a row of the tree (a pack, or a file or folder inside one)."""
        if pack is not None:
            # A pack row: the editor follows. A file row opens its own file when activated.
            self._editor_follows = self.workspace_panel.tree.currentIndex().data(Role.KIND) == "pack"
            self._show_pack(self.session.packs.get(pack.root, pack))

    def _front_pack_in_editor(self, pack: Pack) -> None:
        """The editor in front follows a pack picked in the tree: its open tab, else its guide.

        A guide opened only by following is replaced by the next one picked while it is clean and still in front,
        so running through the tree leaves one such tab, not one per pack. Nothing opens when no tab is shown.
        """
        front = self.editors.current_tab()
        if front is None or front.document_state.pack_root == pack.root:
            return
        followed = self._followed_tab
        own = next((t for t in self.editors.tabs() if t.document_state.pack_root == pack.root), None)
        if own is not None:
            self.editors.setCurrentWidget(own)
            return
        opened = self.open_file(pack.knowledge_path) if pack.knowledge_path.is_file() else None
        if followed is not None and followed is front and not followed.dirty and followed in self.editors.tabs():
            self.close_tab(followed)
        self._followed_tab = opened

    def _follow_editor(self) -> None:
        """The active editor tab's pack becomes the current one (after a tab switch, or a file brought to the front
        from Problems, F8, Quick open or a panel)."""
        tab = self.editors.current_tab()
        pack = self.session.packs.get(tab.document_state.pack_root) if tab is not None else None
        if pack is not None and (self.current_pack is None or self.current_pack.root != pack.root):
            self._show_pack(pack)

    def _show_pack(self, pack: Pack) -> None:
        """Make ``pack`` the current one: the tree selects it now, the other views on the next turns."""
        self.workspace_panel.follow_pack(pack.root)
        self.current_pack = pack
        # The Inspector, previews and job panels follow on the next turn of the event loop: the click (or
        # the tab it opens) is painted first, and running through packs with the arrow keys renders only
        # the pack the user stops at.
        if not self._pack_views_pending:
            self._pack_views_pending = True
            next_turn(self, self._show_pack_views)

    def _show_pack_views(self) -> None:
        self._pack_views_pending = False
        pack = self.current_pack
        if pack is None:
            return
        self.inspector.show_pack(pack, self.views.label_text(pack), self.views.labels.namesakes(pack.name))
        self._show_visibility()
        # The previews and job panels follow one turn later still, so that the Inspector's layout and
        # paint and theirs each fit in a turn of their own instead of adding up to one long stall.
        next_turn(self, lambda: self._show_pack_jobs(pack))

    def _show_pack_jobs(self, pack: Pack) -> None:
        if self.current_pack is not pack or self._pack_views_pending:
            return  # the user moved on: the newer selection's own turns will show it
        if self._editor_follows:
            self._editor_follows = False
            self._front_pack_in_editor(pack)
        self.previews.show_pack(pack)
        self.modes.pack_selected(pack)
        self.session.inspect_pack(pack.root)  # once per pack: its content findings join the Problems panel

    def _tab_changed(self, _index: int) -> None:
        self._follow_editor()

    # -- modes --------------------------------------------------------------------------------------
    def switch_mode(self, name: str) -> None:
        """Show one mode (Author, Resolve, Runs, ...) in the centre; the docks stay."""
        self.window_actions.modes[name].setChecked(True)
        # Each mode shows its own docks (by default the Inspector and Problems in Author only); the window
        # keeps its size.
        self.layouts.enter(name)
        self.modes.show(name)

    def _open_from_panel(self, path: Path, line: int) -> None:
        self.switch_mode(AUTHOR)
        self.open_file(path, max(line, 1))

    def rerun_resolver(self) -> None:
        """View ▸ Re-run the resolver (F5): in Resolve mode, from wherever the focus is."""
        if self.modes.current != "Resolve":
            self.switch_mode("Resolve")  # showing the panel brings it up to date, which runs it
        self.modes.panel_of(ResolverPanel).run_now()

    # -- view ---------------------------------------------------------------------------------------
    def set_theme(self, choice: str) -> None:
        """View ▸ Theme: ``system``, ``light`` or ``dark``, applied at once and remembered."""
        apply_choice(choice)
        self.settings.set_theme(choice)
        action = self.window_actions.themes.get(choice) if hasattr(self, "window_actions") else None
        if action is not None:
            action.setChecked(True)

    def previews_shown(self) -> bool:
        return self.splitter.sizes()[1] > 0

    def show_previews(self, shown: bool) -> None:
        """Collapse the previews to give the editor the whole centre, or bring them back (View ▸ Previews)."""
        if shown and self.modes.current != AUTHOR:
            self.switch_mode(AUTHOR)
        total = sum(self.splitter.sizes())
        if shown and not self.previews_shown():
            self.splitter.setSizes([total * 3 // 5, total - total * 3 // 5])
        elif not shown and self.previews_shown():
            self.splitter.setSizes([total, 0])
        self.window_actions.toggle_previews.setChecked(self.previews_shown())

    # -- files --------------------------------------------------------------------------------------
    def open_file(self, path: Path, line: int | None = None, column: int = 1) -> EditorTab | None:
        """Open a pack file in a tab (or focus its tab) and optionally put the cursor at line:column."""
        path = Path(path)
        tab = self.editors.tab_for(path)
        if tab is None:
            pack = self.session.pack_for_path(path)
            if pack is None:
                self.statusBar().showMessage(f"{path} is not inside an opened pack", 5000)
                return None
            try:
                document = open_document(path, pack.root)
            except OpenRefused as exc:
                QMessageBox.information(self, APP_TITLE, as_typed(str(exc)))
                return None
            tab = self.editors.add(document, pack)
            self.watch.watch_file(path)
            self.recovery.track(tab)  # asks first when an earlier session left unsaved text for this file
        self.editors.setCurrentWidget(tab)
        self._follow_editor()  # the file's pack is the current one, also when its tab was in front already
        if line is not None:
            tab.editor.go_to(line, column)
        return tab

    def _quick_open_file(self, path: Path) -> None:
        self.switch_mode(AUTHOR)
        self.open_file(path)

    def _quick_open_pack(self, root: Path) -> None:
        """A pack chosen in Quick open: it becomes the current one, and in Author mode its guide opens."""
        pack = self.session.packs.get(Path(root))
        if pack is None:
            return
        self.workspace_panel.select_pack(pack.root)
        if self.modes.current == AUTHOR and pack.knowledge_path.is_file():
            self.open_file(pack.knowledge_path)

    def open_diagnostic(self, diag: Diagnostic) -> None:
        base = Path(diag.pack) if diag.pack else None
        path = Path(diag.file) if Path(diag.file).is_absolute() or base is None else base / diag.file
        if path.is_file():
            self.open_file(path, diag.line, diag.column)
        elif base is not None:
            self.workspace_panel.select_pack(base)
            self.statusBar().showMessage(f"{diag.code}: {diag.message}", 8000)

    def _file_changed_on_disk(self, path: Path) -> None:
        tab = self.editors.tab_for(path)
        if tab is None or tab.dirty or not changed_on_disk(tab.document_state):
            return
        try:
            tab.reload_from_disk(open_document(path, tab.document_state.pack_root))
        except OpenRefused as exc:
            self.statusBar().showMessage(str(exc), 5000)

    def editor_call(self, name: str, *, on_tab: bool = False) -> None:
        """Call ``name`` (undo, redo...) on the current tab's editor, or on the tab itself (quick fixes...)."""
        tab = self.editors.current_tab()
        if tab is not None:
            getattr(tab if on_tab else tab.editor, name)()

    def find_in_current(self) -> None:
        tab = self.editors.current_tab()
        if tab is not None:
            tab.find_bar.open_bar()

    def save_current(self) -> bool:
        tab = self.editors.current_tab()
        return self.save_tab(tab) if tab is not None else False

    def save_tab(self, tab: EditorTab) -> bool:
        """Save explicitly; when the file changed on disk since it was opened, ask before overwriting."""
        outcome = tab.save()
        if outcome is SaveOutcome.CONFLICT:
            answer = QMessageBox.warning(
                self, APP_TITLE,
                as_typed(f"{tab.relpath} changed on disk since you opened it.\nOverwrite it with your version?"),
                QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Save:
                return False
            tab.save(force=True)
        self.statusBar().showMessage(f"Saved {tab.path}", 4000)
        self.session.reload_pack(tab.document_state.pack_root)
        return True

    def confirm_discard(self, tab: EditorTab) -> bool:
        """Ask about unsaved changes; True when the tab may close (saved or discarded)."""
        if not tab.dirty:
            return True
        answer = QMessageBox.question(
            self, APP_TITLE, as_typed(f"{tab.relpath} has unsaved changes."),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save_tab(tab)
        return answer == QMessageBox.StandardButton.Discard

    def close_tab(self, tab: EditorTab) -> None:
        if self.confirm_discard(tab):
            discarded = tab.dirty and tab.is_knowledge
            self.recovery.forget(tab)  # saved or discarded: its recovery copy goes too
            self.editors.remove(tab)
            if discarded:  # the workspace showed the unsaved buffer's findings; go back to the disk
                self.session.reload_pack(tab.document_state.pack_root)

    def close_current_tab(self) -> None:
        tab = self.editors.current_tab()
        if tab is not None:
            self.close_tab(tab)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._warmed:
            self._warmed = True
            warm_up_editor(self)  # the first file opened then paints as fast as every later one
        # Dock sizes only stick once the window has its real size: a first-time layout is sized now.
        QTimer.singleShot(0, self, self.layouts.shown)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        # Narrower: the side docks give up room before the editor does, and the toolbar drops its words.
        if not self._fit_pending:
            self._fit_pending = True
            QTimer.singleShot(0, self, self._fit)

    def _fit(self) -> None:
        self._fit_pending = False
        self.layouts.keep_centre_room()
        if self.modes.current == AUTHOR:  # the previews may have come back collapsed from the last session
            self.window_actions.toggle_previews.setChecked(self.previews_shown())
        style = (Qt.ToolButtonStyle.ToolButtonIconOnly if self.width() < TOOLBAR_WORDS_MIN
                 else Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.window_actions.toolbar.setToolButtonStyle(style)

    def closeEvent(self, event: QCloseEvent) -> None:
        for tab in self.editors.tabs():
            if not self.confirm_discard(tab):
                event.ignore()
                return
        for tab in self.editors.tabs():
            self.recovery.forget(tab)  # each one was just saved, discarded or clean
        self.recovery.finish()  # waits for the last removals: no copy of this session is left
        self.session.cancel()
        self.search.close()
        self.modes.shutdown()
        child_pool.shutdown()
        scan_process.shutdown()
        self.layouts.save()
        self.settings.save_window(self.saveGeometry(), self.saveState())
        event.accept()
