"""The workspace: which packs a user sees from which scope, which copy wins a name, and why."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from studio.core.diagnostics import Behavior, Diagnostic, Severity
from studio.core.model import Pack, Scope
from studio.core.pack import load_pack, reload_pack
from studio.core.resources import examples_dir
from studio.core.workspace import (
    ScanLimits,
    Workspace,
    WorkspaceOptions,
    find_packs,
    open_workspace,
    scan_locations,
)


def knowledge(name: str, trust: str | None = None, description: str = "Facts used by the tests.") -> str:
    lines = ["---", f"name: {name}", f"description: {description}", "type: domain-reference",
             "status: ready", "profile: wiki-first", "version: 1.0.0"]
    if trust:
        lines.append(f"trust: {trust}")
    return "\n".join([*lines, "---", "# Guide", "", "Read the wiki.", ""])


def put(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "KNOWLEDGE.md").write_text(text, encoding="utf-8")
    (folder / "wiki").mkdir(exist_ok=True)
    (folder / "wiki" / "index.md").write_text("# Index\n", encoding="utf-8")
    return folder


@pytest.fixture
def dirs(tmp_path: Path) -> dict[str, Path]:
    names = ("project", "home", "org", "explicit")
    out = {n: tmp_path / n for n in names}
    for path in out.values():
        path.mkdir()
    return out


def options(dirs: dict[str, Path], **kw: object) -> WorkspaceOptions:
    base: dict[str, object] = dict(project=dirs["project"], home=dirs["home"], org_roots=[dirs["org"]],
                                   builtin=False)
    base.update(kw)
    return WorkspaceOptions(**base)  # type: ignore[arg-type]


def codes(pack: Pack) -> list[str]:
    return [d.code for d in pack.findings]


def diag(pack: Pack, code: str) -> Diagnostic:
    [found] = [d for d in pack.findings if d.code == code]
    return found


def test_locations_in_precedence_order(dirs: dict[str, Path]) -> None:
    opts = options(dirs, explicit=[dirs["explicit"]], builtin=True, client_native=(".pack-studio", ".acme"))
    assert scan_locations(opts) == [
        (Scope.EXPLICIT, dirs["explicit"]),
        (Scope.PROJECT, dirs["project"] / ".agents" / "knowledge"),
        (Scope.PROJECT, dirs["project"] / ".pack-studio" / "knowledge"),
        (Scope.PROJECT, dirs["project"] / ".acme" / "knowledge"),
        (Scope.USER, dirs["home"] / ".agents" / "knowledge"),
        (Scope.USER, dirs["home"] / ".pack-studio" / "knowledge"),
        (Scope.USER, dirs["home"] / ".acme" / "knowledge"),
        (Scope.ORGANIZATION, dirs["org"]),
        (Scope.BUILTIN, examples_dir()),
    ]


def test_packs_from_every_scope(dirs: dict[str, Path]) -> None:
    put(dirs["project"] / ".agents" / "knowledge" / "proj", knowledge("proj"))
    put(dirs["project"] / ".pack-studio" / "knowledge" / "native", knowledge("native"))
    put(dirs["home"] / ".agents" / "knowledge" / "mine", knowledge("mine"))
    put(dirs["org"] / "team" / "shared-org", knowledge("shared-org"))
    ws = open_workspace(options(dirs))
    assert [(p.name, p.scope) for p in ws.packs] == [
        ("proj", Scope.PROJECT), ("native", Scope.PROJECT), ("mine", Scope.USER),
        ("shared-org", Scope.ORGANIZATION),
    ]
    assert ws.diagnostics == []
    assert ws.find("mine") is ws.by_root(dirs["home"] / ".agents" / "knowledge" / "mine")
    assert ws.packs[0].scope_root == dirs["project"] / ".agents" / "knowledge"


def test_collision_explicit_beats_project_user_and_org(dirs: dict[str, Path]) -> None:
    chosen = put(dirs["explicit"] / "shared", knowledge("shared"))
    proj = put(dirs["project"] / ".agents" / "knowledge" / "shared", knowledge("shared"))
    user = put(dirs["home"] / ".agents" / "knowledge" / "shared", knowledge("shared"))
    org = put(dirs["org"] / "shared", knowledge("shared"))
    ws = open_workspace(options(dirs, explicit=[chosen]))
    winner = ws.by_root(chosen)
    assert winner is not None and winner.scope is Scope.EXPLICIT and winner.scope_root is None
    assert ws.winners() == [winner]
    assert [p.root for p in ws.shadowed()] == [proj, user, org]
    win_diag = diag(winner, "name-collision")
    assert (win_diag.severity, win_diag.behavior, win_diag.rule) == (Severity.WARNING, Behavior.LOAD, "V56")
    assert win_diag.line == 2  # the name: line, so the editor can jump there
    for loser in ws.shadowed():
        assert loser.shadowed_by == chosen and not loser.loads
        lost = diag(loser, "name-collision")
        assert lost.behavior is Behavior.HIDDEN
        assert str(chosen) in lost.message and f"explicit scope outranks {loser.scope.value}" in lost.message


def test_collision_project_beats_user_beats_org(dirs: dict[str, Path]) -> None:
    put(dirs["home"] / ".agents" / "knowledge" / "a", knowledge("same"))
    put(dirs["org"] / "b", knowledge("same"))
    ws = open_workspace(options(dirs))
    assert [p.scope for p in ws.winners()] == [Scope.USER]
    put(dirs["project"] / ".pack-studio" / "knowledge" / "c", knowledge("same"))
    ws = open_workspace(options(dirs))
    assert [p.scope for p in ws.winners()] == [Scope.PROJECT]
    assert ws.find("same") is ws.winners()[0]


def test_user_pack_shadows_builtin_example(dirs: dict[str, Path]) -> None:
    builtin = open_workspace(WorkspaceOptions(builtin=True))
    loading = [p for p in builtin.winners() if p.scope is Scope.BUILTIN]
    if not loading:
        pytest.skip("no bundled example loads yet")
    name = loading[0].name
    mine = put(dirs["home"] / ".agents" / "knowledge" / name, knowledge(name))
    ws = open_workspace(options(dirs, builtin=True))
    assert ws.find(name) is ws.by_root(mine)
    example = ws.by_root(loading[0].root)
    assert example is not None and example.shadowed_by == mine


def test_quarantined_pack_never_shadows(dirs: dict[str, Path]) -> None:
    broken = dirs["project"] / ".agents" / "knowledge" / "dup"
    broken.mkdir(parents=True)
    (broken / "KNOWLEDGE.md").write_text("---\nname: [unclosed\n---\n", encoding="utf-8")
    good = put(dirs["home"] / ".agents" / "knowledge" / "dup", knowledge("dup"))
    ws = open_workspace(options(dirs))
    assert [p.root for p in ws.quarantined()] == [broken]
    assert ws.find("dup") is ws.by_root(good)
    assert ws.shadowed() == []
    assert "name-collision" not in codes(ws.by_root(good))  # type: ignore[arg-type]


def test_lower_trust_winner_is_flagged(dirs: dict[str, Path]) -> None:
    proj = put(dirs["project"] / ".agents" / "knowledge" / "policy", knowledge("policy"))  # no trust
    put(dirs["home"] / ".agents" / "knowledge" / "policy", knowledge("policy", trust="official"))
    ws = open_workspace(options(dirs))
    winner = ws.by_root(proj)
    assert winner is not None and winner.loads
    flag = diag(winner, "lower-trust-shadows")
    assert (flag.severity, flag.rule) == (Severity.WARNING, "V57")
    assert "unreviewed" in flag.message and "official" in flag.message


def test_more_trusted_winner_is_not_flagged(dirs: dict[str, Path]) -> None:
    proj = put(dirs["project"] / ".agents" / "knowledge" / "policy", knowledge("policy", trust="official"))
    put(dirs["home"] / ".agents" / "knowledge" / "policy", knowledge("policy", trust="external"))
    winner = open_workspace(options(dirs)).by_root(proj)
    assert winner is not None and "lower-trust-shadows" not in codes(winner)


def test_untrusted_project_needs_confirmation(dirs: dict[str, Path]) -> None:
    proj = put(dirs["project"] / ".agents" / "knowledge" / "p", knowledge("p"))
    user = put(dirs["home"] / ".agents" / "knowledge" / "u", knowledge("u"))
    ws = open_workspace(options(dirs, trusted_project=False))
    gated = diag(ws.by_root(proj), "untrusted-origin")  # type: ignore[arg-type]
    assert (gated.severity, gated.behavior, gated.rule) == (
        Severity.WARNING, Behavior.REQUIRE_CONFIRMATION, "V55")
    assert ws.by_root(proj).behavior is Behavior.REQUIRE_CONFIRMATION  # type: ignore[union-attr]
    assert "untrusted-origin" not in codes(ws.by_root(user))  # type: ignore[arg-type]
    assert "untrusted-origin" not in codes(open_workspace(options(dirs)).by_root(proj))  # type: ignore[arg-type]


def test_missing_roots_are_listed_and_only_named_ones_reported(dirs: dict[str, Path]) -> None:
    gone = dirs["explicit"] / "nope"
    ws = open_workspace(options(dirs, explicit=[gone], org_roots=[dirs["org"] / "absent"]))
    assert all(not loc.exists for loc in ws.locations)
    assert len(ws.locations) == 6
    assert sorted((d.code, d.file) for d in ws.diagnostics) == [
        ("scope-root-missing", str(gone)),
        ("scope-root-missing", str(dirs["org"] / "absent")),
    ]
    assert all(d.pack == "" for d in ws.diagnostics)
    # A typed path that does not exist is an error; an offline organization root only a note.
    assert {d.file: d.severity for d in ws.diagnostics} == {
        str(gone): Severity.ERROR, str(dirs["org"] / "absent"): Severity.INFO}


def test_explicit_path_forms(dirs: dict[str, Path]) -> None:
    direct = put(dirs["explicit"] / "direct", knowledge("direct"))
    put(direct / "documents" / "inner", knowledge("inner"))  # inside a pack: not discovered
    via_file = put(dirs["explicit"] / "via-file", knowledge("via-file"))
    scanned = dirs["explicit"] / "collection"
    put(scanned / "x", knowledge("x"))
    empty = dirs["explicit"] / "empty"
    empty.mkdir()
    ws = open_workspace(options(dirs, explicit=[direct, via_file / "KNOWLEDGE.md", scanned, empty]))
    assert [(p.name, p.scope, p.scope_root) for p in ws.packs] == [
        ("x", Scope.EXPLICIT, scanned), ("direct", Scope.EXPLICIT, None), ("via-file", Scope.EXPLICIT, None),
    ]
    assert [(d.code, d.file) for d in ws.diagnostics] == [("no-packs-found", str(empty))]
    assert [loc.packs_found for loc in ws.locations[:4]] == [1, 1, 1, 0]


def test_find_packs_lists_the_packs_open_workspace_holds_without_loading_one(dirs: dict[str, Path],
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # ``search`` takes its pack list from here: the same folders, scopes and order as the loaded workspace,
    # shadowed copies, a folder reached twice, an explicit KNOWLEDGE.md and a pack that fails to load included.
    shared = put(dirs["explicit"] / "shared", knowledge("shared"))
    put(dirs["project"] / ".agents" / "knowledge" / "shared", knowledge("shared"))
    put(dirs["home"] / ".agents" / "knowledge" / "z" / "mine", knowledge("mine"))
    put(dirs["home"] / ".agents" / "knowledge" / "a" / "broken", "---\nname: [unclosed\n")
    put(dirs["org"] / "team" / "shared", knowledge("shared"))
    via_file = put(dirs["explicit"] / "via-file", knowledge("via-file"))
    opts = options(dirs, explicit=[shared, via_file / "KNOWLEDGE.md", dirs["home"]], builtin=True)
    expected = [(str(p.root), p.scope, p.scope_root) for p in open_workspace(opts).packs]
    assert len(expected) == 6 + len(list(examples_dir().iterdir()))  # the home packs once, as explicit

    def no_loading(*args: object, **kw: object) -> None:
        raise AssertionError("find_packs loaded a pack")

    monkeypatch.setattr("studio.core.pack_loader.load_pack", no_loading)
    assert [(f.root, f.scope, f.scope_root) for f in find_packs(opts)] == expected


def test_explicit_folder_with_wrong_case_file_gets_the_loader_error(dirs: dict[str, Path]) -> None:
    folder = dirs["explicit"] / "decoy"
    folder.mkdir()
    (folder / "knowledge.md").write_text(knowledge("decoy"), encoding="utf-8")
    [pack] = open_workspace(options(dirs, explicit=[folder])).packs
    assert codes(pack) == ["missing-knowledge-md"] and not pack.loads


def test_explicit_file_that_is_not_a_pack(dirs: dict[str, Path]) -> None:
    stray = dirs["explicit"] / "notes.txt"
    stray.write_text("x", encoding="utf-8")
    ws = open_workspace(options(dirs, explicit=[stray]))
    assert [(d.code, d.severity, d.rule) for d in ws.diagnostics] == [("not-a-directory", Severity.ERROR, "V01")]


def test_same_folder_reached_twice_is_loaded_once(dirs: dict[str, Path]) -> None:
    pack = put(dirs["project"] / ".agents" / "knowledge" / "p", knowledge("p"))
    ws = open_workspace(options(dirs, explicit=[pack, dirs["project"]]))
    assert [(p.root, p.scope) for p in ws.packs] == [(pack, Scope.EXPLICIT)]
    assert ws.shadowed() == []


def test_order_is_deterministic_and_limits_apply(dirs: dict[str, Path]) -> None:
    root = dirs["home"] / ".agents" / "knowledge"
    for i in range(12):
        put(root / f"g{i % 3}" / f"p{i:02}", knowledge(f"p{i:02}"))
    put(root / "a" / "b" / "c" / "deep", knowledge("deep"))
    first = open_workspace(options(dirs))
    second = open_workspace(options(dirs))
    assert [p.root for p in first.packs] == [p.root for p in second.packs]
    assert [p.root for p in first.packs] == sorted((p.root for p in first.packs), key=lambda r: r.parts)
    shallow = open_workspace(options(dirs, limits=ScanLimits(max_depth=2)))
    assert "deep" not in [p.name for p in shallow.packs]
    assert [d.code for d in shallow.diagnostics] == ["scan-depth-limit"]


def test_progress_and_on_pack_callbacks(dirs: dict[str, Path]) -> None:
    for i in range(5):
        put(dirs["org"] / f"p{i}", knowledge(f"p{i}"))
    seen: list[str] = []
    progress: list[tuple[int, int]] = []
    ws = open_workspace(options(dirs), on_pack=lambda p: seen.append(p.name),
                        on_progress=lambda done, total: progress.append((done, total)))
    assert sorted(seen) == [p.name for p in ws.packs]
    assert progress == [(i, 5) for i in range(6)]


def test_cancel_returns_what_was_loaded(dirs: dict[str, Path]) -> None:
    for i in range(6):
        put(dirs["org"] / f"p{i}", knowledge(f"p{i}"))
    loaded: list[Pack] = []
    ws = open_workspace(options(dirs), on_pack=loaded.append, cancelled=lambda: len(loaded) >= 2)
    assert len(ws.packs) == 2
    assert [d.code for d in ws.diagnostics] == ["scan-cancelled"]
    assert "2 of 6" in ws.diagnostics[0].message
    stopped_early = open_workspace(options(dirs), cancelled=lambda: True)
    assert stopped_early.packs == [] and [d.code for d in stopped_early.diagnostics] == ["scan-cancelled"]


def test_replace_pack_recomputes_collisions(dirs: dict[str, Path]) -> None:
    proj = put(dirs["project"] / ".agents" / "knowledge" / "a", knowledge("shared"))
    user = put(dirs["home"] / ".agents" / "knowledge" / "b", knowledge("shared"))
    ws: Workspace = open_workspace(options(dirs, trusted_project=False))
    assert ws.by_root(user).shadowed_by == proj  # type: ignore[union-attr]
    (proj / "KNOWLEDGE.md").write_text(knowledge("renamed"), encoding="utf-8")
    ws.replace_pack(reload_pack(ws.by_root(proj)))  # type: ignore[arg-type]
    renamed, freed = ws.by_root(proj), ws.by_root(user)
    assert renamed is not None and freed is not None
    assert freed.loads and freed.shadowed_by is None and "name-collision" not in codes(freed)
    assert "name-collision" not in codes(renamed)
    assert codes(renamed).count("untrusted-origin") == 1  # origin findings survive a reload
    (proj / "KNOWLEDGE.md").write_text(knowledge("shared"), encoding="utf-8")
    ws.replace_pack(reload_pack(renamed))
    assert ws.by_root(user).shadowed_by == proj  # type: ignore[union-attr]
    assert codes(ws.by_root(proj)).count("name-collision") == 1  # type: ignore[arg-type]


def test_replace_pack_adds_a_new_pack(dirs: dict[str, Path]) -> None:
    put(dirs["org"] / "old", knowledge("old"))
    ws = open_workspace(options(dirs))
    new = put(dirs["project"] / ".agents" / "knowledge" / "new", knowledge("new"))
    ws.replace_pack(reload_pack(Pack(root=new, scope=Scope.PROJECT)))
    assert [p.name for p in ws.packs] == ["new", "old"]


def _snapshot(root: Path) -> dict[str, tuple[str, int]]:
    snap: dict[str, tuple[str, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
            snap[str(path)] = (digest, path.lstat().st_mtime_ns)
    return snap


def test_opening_a_workspace_writes_nothing(dirs: dict[str, Path], tmp_path: Path) -> None:
    put(dirs["project"] / ".agents" / "knowledge" / "s", knowledge("s"))
    put(dirs["home"] / ".agents" / "knowledge" / "s", knowledge("s", trust="official"))
    (dirs["org"] / ".gitignore").write_text("skip/\n", encoding="utf-8")
    put(dirs["org"] / "skip" / "z", knowledge("z"))
    before = _snapshot(tmp_path)
    open_workspace(options(dirs, explicit=[dirs["explicit"]], trusted_project=False))
    assert _snapshot(tmp_path) == before


def test_knowledge_md_linking_outside_is_quarantined_not_read(dirs: dict[str, Path], tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text(knowledge("stolen"), encoding="utf-8")
    pack = dirs["org"] / "linked"
    pack.mkdir()
    (pack / "KNOWLEDGE.md").symlink_to(secret)
    [loaded] = open_workspace(options(dirs)).packs
    assert loaded.root == pack and loaded.knowledge is None
    assert "symlink-escape" in codes(loaded) and not loaded.loads
    assert loaded.name == "linked"  # the outside file's frontmatter was never parsed


def test_a_loader_crash_in_a_worker_process_is_reported_not_hung(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A worker process that dies (as a C-extension crash would) costs one pack, never the scan."""
    import os as _os

    from studio.core import pack_loader

    root = tmp_path / "many"
    for i in range(210):
        put(root / f"p{i:03d}", knowledge(f"p{i:03d}"))
    real = pack_loader.load_safely

    def crash_on_p007(found, content=False, findings_only=False):  # type: ignore[no-untyped-def]
        if found.root.name == "p007":
            _os._exit(139)  # what a segfault looks like to the pool
        return real(found, content, findings_only)

    monkeypatch.setattr(pack_loader, "load_safely", crash_on_p007)
    opts = WorkspaceOptions(explicit=[root], builtin=False, processes=2, limits=ScanLimits(max_dirs=10_000))
    ws = open_workspace(opts)
    assert len(ws.packs) == 210
    crashed = [p for p in ws.packs if not p.loads]
    assert [(p.root.name, [d.code for d in p.diagnostics]) for p in crashed] == [("p007", ["internal-error"])]


def test_worker_processes_return_the_same_packs_as_one_process(tmp_path: Path) -> None:
    """The CLI loads big workspaces in worker processes; what comes back must be what one process sees."""
    root = tmp_path / "many"
    for i in range(210):
        text = knowledge(f"p{i:03d}").replace("version: 1.0.0", f"version: 1.{i % 3}\nupdated: 2026-05-0{i % 9 + 1}"
                                              "\nmetadata:\n  primaryDocument: documents/missing.md")
        put(root / f"p{i:03d}", text)
    one = open_workspace(WorkspaceOptions(explicit=[root], builtin=False, limits=ScanLimits(max_dirs=10_000)))
    two = open_workspace(WorkspaceOptions(explicit=[root], builtin=False, processes=2,
                                          limits=ScanLimits(max_dirs=10_000)))
    assert [p.root for p in two.packs] == [p.root for p in one.packs]
    for a, b in zip(one.packs, two.packs, strict=True):
        assert b.diagnostics == a.diagnostics
        assert b.frontmatter is not None and a.frontmatter is not None
        assert b.frontmatter.data == a.frontmatter.data
        assert b.frontmatter.positions == a.frontmatter.positions
        assert b.frontmatter.position("metadata", "primaryDocument").value_column == 20
    assert {d.code for d in two.packs[1].diagnostics} >= {"primary-document-missing", "yaml-coercion"}


def test_worker_processes_report_each_pack_as_it_loads_and_stop_when_cancelled(tmp_path: Path) -> None:
    """The app's scan process loads in workers too: every pack reaches on_pack once, and a cancel stops early."""
    root = tmp_path / "many"
    for i in range(450):
        put(root / f"p{i:03d}", knowledge(f"p{i:03d}"))
    seen: list[Path] = []
    progress: list[tuple[int, int]] = []
    opts = WorkspaceOptions(explicit=[root], builtin=False, processes=2, limits=ScanLimits(max_dirs=10_000))
    ws = open_workspace(opts, on_pack=lambda p: seen.append(p.root), on_progress=lambda a, b: progress.append((a, b)))
    assert sorted(seen) == sorted(p.root for p in ws.packs) and len(seen) == 450
    assert progress[-1] == (450, 450)

    reported: list[Path] = []
    stopped = open_workspace(opts, on_pack=lambda p: reported.append(p.root), cancelled=lambda: len(reported) >= 100)
    assert 100 <= len(stopped.packs) < 450
    assert "scan-cancelled" in {d.code for d in stopped.diagnostics}


def test_findings_only_packs_keep_what_settling_and_the_summary_read(tmp_path: Path) -> None:
    """validate loads findings-only; a collision finding must still sit on the name line, as in the app."""
    root = tmp_path / "ws"
    for folder in ("a", "b"):
        put(root / folder / "same", knowledge("same", trust="official").replace("name: same", "\n\nname: same"))
    full = open_workspace(WorkspaceOptions(explicit=[root], builtin=False))
    lean = open_workspace(WorkspaceOptions(explicit=[root], builtin=False, findings_only=True))
    assert [[(d.code, d.line) for d in p.findings] for p in lean.packs] == \
        [[(d.code, d.line) for d in p.findings] for p in full.packs]
    assert any(d.line > 1 for p in lean.packs for d in p.verdict.findings)
    assert [(p.name, p.status, p.trust, p.profile, p.runtime_mode) for p in lean.packs] == \
        [(p.name, p.status, p.trust, p.profile, p.runtime_mode) for p in full.packs]
    assert all(p.knowledge is not None and p.knowledge.text == "" for p in lean.packs)


def test_folder_names_from_the_scan_match_a_fresh_listing(tmp_path: Path) -> None:
    """Layout checks use the scanner's listing of each pack; it must see what loading the pack alone sees."""
    root = tmp_path / "ws"
    pack = put(root / "linked", knowledge("linked"))
    (pack / "documents").mkdir()
    (pack / "notes.md").write_text("# not a folder\n", encoding="utf-8")
    outside = tmp_path / "outside-wiki"
    outside.mkdir()
    (pack / "compiled").symlink_to(outside, target_is_directory=True)
    ws = open_workspace(WorkspaceOptions(explicit=[root], builtin=False))
    scanned = ws.packs[0]
    alone = load_pack(pack, content=True)  # a workspace runs the content checks too
    assert scanned.top_dirs == {"wiki", "documents"}
    assert [d.code for d in scanned.diagnostics] == [d.code for d in alone.diagnostics]


def test_findings_only_keeps_every_finding_and_value_but_no_text(tmp_path: Path) -> None:
    """``validate`` loads packs findings-only; what it prints must equal a full load's."""
    root = tmp_path / "ws"
    put(root / "alpha", knowledge("alpha", trust="official"))
    put(root / "beta", knowledge("beta").replace("status: ready", "status: disputed"))
    put(root / "gamma", "---\nname: gamma\n---\nno type, no description\n")
    full = open_workspace(WorkspaceOptions(explicit=[root], builtin=False))
    lean = open_workspace(WorkspaceOptions(explicit=[root], builtin=False, findings_only=True))
    for a, b in zip(full.packs, lean.packs, strict=True):
        assert (b.name, b.status, b.trust, b.profile, b.loads, b.in_catalog, b.behavior) == (
            a.name, a.status, a.trust, a.profile, a.loads, a.in_catalog, a.behavior)
        assert b.diagnostics == a.diagnostics
        assert b.knowledge is not None and b.knowledge.text == "" and b.knowledge.body == ""
    assert {p.name for p in lean.packs} == {"alpha", "beta", "gamma"}
