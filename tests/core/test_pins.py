"""Pins: the curator chooses which same-scope copy wins; scopes still decide first; the pins file is strict."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core.model import Scope
from studio.core.pack import load_pack, reload_pack
from studio.core.pins import PinsError, parse_pin_option, read_pins_file, write_pins_file
from studio.core.shadowing import decide, settle
from studio.core.workspace import WorkspaceOptions, open_workspace


def put(folder: Path, name: str, version: str, updated: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "KNOWLEDGE.md").write_text(
        f"---\nname: {name}\ndescription: Facts for the tests.\ntype: domain-reference\nstatus: ready\n"
        f"profile: wiki-first\nversion: {version}\nupdated: {updated}\n---\n# Guide\n", encoding="utf-8")
    return folder


@pytest.fixture
def two_copies(tmp_path: Path) -> tuple[Path, Path]:
    """An old and a new checkout of one pack, opened together: the old one's path sorts first."""
    old = put(tmp_path / "packs" / "v0.4.0" / "brief", "brief", "0.4.0", "2025-01-10")
    new = put(tmp_path / "packs" / "v0.7.2" / "brief", "brief", "0.7.2", "2026-03-01")
    return old, new


def collision(ws_pack) -> str:  # type: ignore[no-untyped-def]
    return next(d.message for d in ws_pack.findings if d.code == "name-collision")


def test_without_a_pin_path_order_decides_and_the_finding_says_so(two_copies: tuple[Path, Path]) -> None:
    old, new = two_copies
    ws = open_workspace(WorkspaceOptions(explicit=[old.parent.parent], builtin=False))
    winner, loser = ws.by_root(old), ws.by_root(new)
    assert winner is not None and loser is not None and loser.shadowed_by == old
    text = collision(winner)
    assert "version 0.4.0, updated 2025-01-10" in text and "version 0.7.2, updated 2026-03-01" in text
    assert "same scope (explicit) and no pin" in text
    finding = next(d for d in winner.findings if d.code == "name-collision")
    assert "--pin brief=PATH" in finding.hint
    assert "pin a copy to choose" in collision(loser)


def test_a_pin_makes_the_chosen_copy_win_and_says_so(two_copies: tuple[Path, Path]) -> None:
    old, new = two_copies
    ws = open_workspace(WorkspaceOptions(explicit=[old.parent.parent], builtin=False, pins={"brief": new}))
    assert ws.by_root(old).shadowed_by == new  # type: ignore[union-attr]
    assert ws.find("brief") is ws.by_root(new)
    assert "you pinned this copy" in collision(ws.by_root(new))
    assert "you pinned that copy" in collision(ws.by_root(old))
    # A reload of either copy keeps honouring the pin.
    assert set(ws.replace_pack(reload_pack(ws.by_root(old)))) <= {old, new}  # type: ignore[arg-type]
    assert ws.find("brief").root == new  # type: ignore[union-attr]


def test_set_pin_resettles_only_that_name_and_can_be_undone(two_copies: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = two_copies
    other = put(tmp_path / "packs" / "other", "other", "1.0.0", "2026-01-01")
    ws = open_workspace(WorkspaceOptions(explicit=[old.parent.parent, other], builtin=False))
    untouched = ws.by_root(other)
    assert sorted(ws.set_pin("brief", new)) == sorted([old, new])
    assert ws.find("brief").root == new and ws.by_root(other) is untouched  # type: ignore[union-attr]
    assert sorted(ws.set_pin("brief", None)) == sorted([old, new])
    assert ws.find("brief").root == old  # type: ignore[union-attr]


def test_a_pin_never_beats_a_higher_scope(tmp_path: Path) -> None:
    project = put(tmp_path / "p" / "acme", "acme", "1.0.0", "2026-01-01")
    user = put(tmp_path / "u" / "acme", "acme", "2.0.0", "2026-02-01")
    packs = [load_pack(project, Scope.PROJECT), load_pack(user, Scope.USER)]
    verdicts = settle(packs, pins={"acme": user})
    assert verdicts[user].shadowed_by == project
    assert "your pin chooses among copies of one scope only" in verdicts[user].findings[0].message
    assert decide(packs, user) == (packs[0], "scope")


def test_a_pin_to_a_copy_that_is_gone_is_reported(two_copies: tuple[Path, Path], tmp_path: Path) -> None:
    old, _new = two_copies
    ws = open_workspace(WorkspaceOptions(explicit=[old.parent.parent], builtin=False,
                                         pins={"brief": tmp_path / "moved" / "brief"}))
    codes = [d.code for d in ws.by_root(old).findings]  # type: ignore[union-attr]
    assert "pin-unmatched" in codes


def test_pins_file_round_trips_with_paths_relative_to_the_project(tmp_path: Path) -> None:
    file = tmp_path / ".pack-studio" / "workspace.json"
    root = tmp_path / "packs" / "v0.7.2" / "brief"
    write_pins_file(file, {"brief": root})
    assert '"brief": "packs/v0.7.2/brief"' in file.read_text(encoding="utf-8")
    assert read_pins_file(file) == {"brief": root}
    assert read_pins_file(tmp_path / "absent.json") == {}


@pytest.mark.parametrize(("text", "why"), [
    ('{"pins": {"a": "x", "a": "y"}}', "duplicate key"),
    ('{"pin": {"a": "x"}}', "unknown key"),
    ('{"pins": {"a": 3}}', "non-empty path"),
    ('{"pins": {"a": "x"},}', "not valid JSON"),
    ('{"pins": {"a": NaN}}', "NaN is not JSON"),
    ('["a"]', "expected an object"),
    ('{"pins": ' * 5000 + "1" + "}" * 5000, "nested too deeply"),
])
def test_a_bad_pins_file_is_an_error_with_its_reason(tmp_path: Path, text: str, why: str) -> None:
    file = tmp_path / "workspace.json"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(PinsError, match=why):
        read_pins_file(file)


def test_a_huge_or_special_pins_file_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (70 * 1024) + b"{}")
    with pytest.raises(PinsError, match="at most"):
        read_pins_file(big)
    with pytest.raises(PinsError, match="not a regular file"):
        read_pins_file(tmp_path)


def test_pin_option_needs_name_and_path(tmp_path: Path) -> None:
    assert parse_pin_option("brief=packs/brief/KNOWLEDGE.md", tmp_path) == ("brief", tmp_path / "packs" / "brief")
    for bad in ("brief", "=x", "brief="):
        with pytest.raises(PinsError):
            parse_pin_option(bad)
