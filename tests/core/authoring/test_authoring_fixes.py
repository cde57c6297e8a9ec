"""Quick fixes: every fix removes its finding and adds none (property over every broken fixture), edits are
byte-minimal, the CLI-safe set excludes placeholders, and a fix never applies over a file that changed."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from authoring_support import BROKEN, CASES, copy_case, knowledge
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.core.authoring.files import create_file, create_folder, plan_rename, rename
from studio.core.authoring.fix_types import Fix, FixKind
from studio.core.authoring.fixes import create_files, fixes_for, has_fix, plan_fixes, write_fixes
from studio.core.diagnostics import Diagnostic
from studio.core.frontmatter_edit import EditError
from studio.core.model import GROUNDING_POLICIES, PROFILES, STATUSES, TRUST_LEVELS
from studio.core.pack import load_pack, validate_text

PARSE = {"tab-indentation", "invalid-yaml"}


def _codes(diagnostics: list[Diagnostic]) -> Counter[str]:
    return Counter(d.code for d in diagnostics)


def _all_fixes(root: Path) -> list[tuple[Diagnostic, Fix]]:
    text = knowledge(root)
    pack = validate_text(root, text)
    return [(d, f) for d in pack.diagnostics for f in fixes_for(root, text, d, pack)]


def _apply(root: Path, fix: Fix) -> Path:
    """Apply ``fix`` for real in ``root`` (a private copy); returns the pack folder afterwards."""
    if fix.kind is FixKind.CREATE_FILE:
        assert fix.path is not None
        if fix.file_text is None:
            create_folder(root, fix.path)
        else:
            create_file(root, fix.path, fix.file_text)
        return root
    if fix.kind is FixKind.RENAME_FOLDER:
        assert fix.path is not None
        return rename(plan_rename(root, root, fix.path))
    (root / "KNOWLEDGE.md").write_bytes(fix.new_text.encode("utf-8"))
    return root


def test_the_clean_fixture_is_clean() -> None:
    assert load_pack(BROKEN / "clean", content=True).diagnostics == ()


@pytest.mark.parametrize("case", CASES)
def test_every_fixture_has_a_finding_with_a_fix(case: str) -> None:
    pack = load_pack(BROKEN / case, content=True)
    assert any(has_fix(d.code) for d in pack.diagnostics), [d.code for d in pack.diagnostics]
    assert _all_fixes(BROKEN / case), f"no verified fix for {[d.code for d in pack.diagnostics]}"


@pytest.mark.parametrize("case", CASES)
def test_each_fix_removes_its_finding_and_adds_none_under_full_validation(case: str, tmp_path: Path) -> None:
    for index, (diagnostic, fix) in enumerate(_all_fixes(BROKEN / case)):
        root = copy_case(case, tmp_path / str(index))
        before = load_pack(root, content=True)
        after = load_pack(_apply(root, fix), content=True)
        old, new = _codes(before.diagnostics), _codes(after.diagnostics)
        assert new[diagnostic.code] < old[diagnostic.code], (fix.title, after.diagnostics)
        added = {c: n - old[c] for c, n in new.items() if n > old[c] + fix.expected.count(c)}
        if diagnostic.code in PARSE:  # the frontmatter now reads: only new parse problems would count
            added = {c: n for c, n in added.items() if c in PARSE}
        assert not added, (fix.title, added)


def test_enum_fixes_pick_the_closest_allowed_value(tmp_path: Path) -> None:
    expected = {
        "status-typo": "status: ready", "trust-typo": "trust: official", "grounding-typo": "grounding: required",
        "type-typo": "type: domain-reference", "profile-typo": "profile: document-first",
        "profile-prefix": "profile: wiki-first", "mode-typo": "  mode: persona",
        "status-case": "status: 'ready'  # reviewed in May",
    }
    for case, line in expected.items():
        first = _all_fixes(BROKEN / case)[0][1]
        assert first.cli, case
        assert line in first.new_text, (case, first.new_text)


def test_a_fix_changes_only_the_value_keeping_bom_crlf_quotes_and_comments() -> None:
    root = BROKEN / "status-case"
    fix = _all_fixes(root)[0][1]
    old = knowledge(root)
    assert old.startswith("\ufeff---\r\n")
    assert fix.new_text == old.replace("status: 'Ready'", "status: 'ready'")


def test_unknown_near_miss_keys_are_renamed() -> None:
    assert "\nversion: \"1.0.0\"\n" in _all_fixes(BROKEN / "unknown-key")[0][1].new_text
    assert "\ntrust: user-confirmed\n" in _all_fixes(BROKEN / "unknown-key-case")[0][1].new_text


def test_name_mismatch_offers_the_folder_name_and_a_folder_rename() -> None:
    fixes = [f for _, f in _all_fixes(BROKEN / "name-mismatch")]
    assert [f.kind for f in fixes] == [FixKind.EDIT, FixKind.RENAME_FOLDER]
    assert "name: name-mismatch\n" in fixes[0].new_text and fixes[0].cli
    assert fixes[1].path == "acme-widget" and not fixes[1].cli


def test_missing_required_fields_get_placeholders_selected_for_typing_never_cli() -> None:
    for case, value in (("missing-name", "missing-name"), ("missing-status", "draft"),
                        ("missing-type", "domain-reference"),
                        ("missing-description", "Say what this pack holds and when an agent should use it.")):
        fix = _all_fixes(BROKEN / case)[0][1]
        assert fix.kind is FixKind.PLACEHOLDER and not fix.cli
        assert fix.select is not None
        assert fix.new_text[fix.select[0]:fix.select[1]] == value, case


def test_context_map_fixes_create_the_file_or_remove_the_line() -> None:
    fixes = [f for _, f in _all_fixes(BROKEN / "context-map-missing")]
    assert [f.kind for f in fixes] == [FixKind.CREATE_FILE, FixKind.EDIT]
    assert fixes[0].path == "compiled/facts.md" and fixes[0].file_text and not fixes[0].cli
    assert "compiled/facts.md" not in fixes[1].new_text
    assert not fixes[1].cli, "removing a guide line the author wrote is a choice, never automatic"
    folder = [f for _, f in _all_fixes(BROKEN / "context-map-folder")][0]
    assert folder.path == "sources/" and folder.file_text is None
    shared = [f for _, f in _all_fixes(BROKEN / "context-map-shared-line")]
    assert not any(f.cli for f in shared), "a line naming an existing file too is not removed by the CLI"


def test_tab_indentation_becomes_spaces() -> None:
    fix = _all_fixes(BROKEN / "tabs")[0][1]
    assert "\t" not in fix.new_text.split("---")[1]
    assert "\nmetadata:\n  producedBy:\n    kind: manual\n" in fix.new_text


def test_plan_fixes_applies_only_meaning_preserving_fixes() -> None:
    for case in CASES:
        root = BROKEN / case
        run = plan_fixes(root)
        for fix in run.applied:
            assert fix.cli and fix.kind is FixKind.EDIT
        if case.startswith("missing-") and case != "missing-profile":
            assert not run.changed, f"{case}: placeholders are never written by the CLI"


def test_plan_fixes_repairs_a_pack_with_many_problems(tmp_path: Path, make_pack) -> None:  # type: ignore[no-untyped-def]
    root = make_pack("acme", "---\nname: acme-old\ndescripton: Facts about Acme widgets and when to use them.\n"
                     "type: brand_product\nstatus: Ready\ntrust: offical\n---\n\n# Acme\n\n## Context map\n\n"
                     "- `wiki/index.md`: start\n\n## Runtime boundaries\n\n- Data only.\n", {"wiki/a.md": "# A\n"})
    run = plan_fixes(root, create=True)
    assert {f.code for f in run.applied} == {"missing-profile", "name-directory-mismatch", "unknown-key",
                                             "unknown-type", "invalid-status", "invalid-trust"}
    assert [f.path for f in run.creations] == ["wiki/index.md"]
    write_fixes(run)
    create_files(run)
    assert "- `wiki/index.md`: start" in (root / "KNOWLEDGE.md").read_text(), "the guide line is kept"
    assert load_pack(root, content=True).diagnostics == ()


def test_plan_fixes_never_removes_a_guide_line(tmp_path: Path) -> None:
    root = copy_case("context-map-missing", tmp_path)
    run = plan_fixes(root)
    assert not run.changed and not run.creations
    assert [(d.code, d.line) for d, _why in run.left] == [("context-map-missing-file", 22)]
    assert "fix --create" in run.left[0][1]


def test_fix_line_numbers_are_those_of_the_original_file(make_pack) -> None:  # type: ignore[no-untyped-def]
    # The implied profile is inserted above the status line: later findings move down one line in the
    # fixed text, but the author reads the file as it was.
    root = make_pack("acme", "---\nname: acme\ndescription: Facts about Acme widgets and when to use them.\n"
                     "type: brand-product\nstatus: redy\ntrust: offical\n---\n\n# Acme\n\n## Context map\n\n"
                     "- `wiki/a.md`: start\n- `wiki/gone.md`: gone\n\n## Runtime boundaries\n\n- Data only.\n",
                     {"wiki/a.md": "# A\n"})
    run = plan_fixes(root)
    assert {f.code: f.line for f in run.applied} == {"missing-profile": 1, "invalid-status": 5,
                                                      "invalid-trust": 6}
    assert [(d.code, d.line) for d, _why in run.left] == [("context-map-missing-file", 14)]


def test_a_scalar_maintainer_becomes_a_maintainers_list(make_pack) -> None:  # type: ignore[no-untyped-def]
    root = make_pack("acme", "---\nname: acme\ndescription: Facts about Acme widgets and when to use them.\n"
                     "type: brand-product\nprofile: wiki-first\nstatus: ready\nmaintainer: Ana Lima  # lead\n"
                     "---\n\n# Acme\n\n## Runtime boundaries\n\n- Data only.\n")
    run = plan_fixes(root)
    assert [f.title for f in run.applied] == ["Rename 'maintainer' to 'maintainers' as a list"]
    assert "\nmaintainers:\n  - Ana Lima  # lead\n---\n" in run.new_text
    assert validate_text(root, run.new_text).frontmatter.data["maintainers"] == ["Ana Lima"]  # type: ignore[union-attr]


def test_a_fix_is_refused_when_the_file_changed_on_disk(tmp_path: Path) -> None:
    root = copy_case("status-typo", tmp_path)
    run = plan_fixes(root)
    (root / "KNOWLEDGE.md").write_text(knowledge(root) + "\nEdited meanwhile.\n", "utf-8")
    with pytest.raises(EditError, match="changed on disk"):
        write_fixes(run)
    assert knowledge(root).endswith("Edited meanwhile.\n")


def test_no_fix_for_hostile_or_unreadable_frontmatter(make_pack) -> None:  # type: ignore[no-untyped-def]
    root = make_pack("odd", "---\n{name: odd, status: redy}\n---\n")
    assert plan_fixes(root).applied == ()
    root = make_pack("alias", "---\nname: &a alias\nstatus: *a\n---\n")
    assert plan_fixes(root).applied == ()


_ENUMS = {"status": STATUSES, "trust": TRUST_LEVELS, "grounding": GROUNDING_POLICIES, "profile": PROFILES}


@st.composite
def _misspelled(draw: st.DrawFn) -> tuple[str, str, str]:
    key = draw(st.sampled_from(sorted(_ENUMS)))
    value = draw(st.sampled_from(_ENUMS[key]))
    at = draw(st.integers(0, len(value) - 1))
    letter = draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz"))
    kind = draw(st.sampled_from(["swap", "drop", "add", "change", "upper"]))
    if kind == "swap" and at < len(value) - 1:
        typo = value[:at] + value[at + 1] + value[at] + value[at + 2:]
    elif kind == "drop":
        typo = value[:at] + value[at + 1:]
    elif kind == "add":
        typo = value[:at] + letter + value[at:]
    elif kind == "upper":
        typo = value.capitalize()
    else:
        typo = value[:at] + letter + value[at + 1:]
    return key, value, typo


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_misspelled())
def test_a_one_edit_misspelling_is_fixed_to_an_allowed_value(tmp_path: Path, case: tuple[str, str, str]) -> None:
    key, value, typo = case
    root = BROKEN / "profile-typo"  # has documents/, compiled/ and a primary document: every profile fits
    text = knowledge(root).replace("profile: docment-first", "profile: document-first")
    line = next(ln for ln in text.splitlines() if ln.startswith(f"{key}:"))
    broken = text.replace(line, f"{key}: {typo}")
    pack = validate_text(root, broken)
    codes = [d for d in pack.diagnostics if d.code == f"invalid-{key}"]
    if typo in _ENUMS[key] or not codes:
        return  # the edit made another allowed value (or kept it valid)
    fixes = fixes_for(root, broken, codes[0], pack)
    assert fixes, (key, typo)
    chosen = {f.new_text.split(f"\n{key}: ", 1)[1].split("\n", 1)[0] for f in fixes}
    assert chosen <= set(_ENUMS[key])
    assert value in chosen or len(typo) <= 4, (key, value, typo, chosen)
    for fix in fixes:
        assert fix.cli == (fix is fixes[0] and fix.cli)
