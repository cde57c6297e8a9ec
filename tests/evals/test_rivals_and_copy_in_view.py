"""One rule for every view: the copy in view is evaluated (and said to be shadowed); hidden copies and
namesakes never compete for a prompt (issue #34 item 3, issue #36 item 5)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from studio.cli import main
from studio.core.evals.discovery import Simulator
from studio.core.evals.model import DiscoveryCase
from studio.core.evals.runner import run_suite
from studio.core.evals.suites import read_suite
from studio.core.pack import load_pack
from studio.core.shadowing import apply, settle

GUIDE = "---\nname: {name}\ndescription: {description}\ntype: brand-product\nstatus: ready\n---\n# Guide\n"
SUITE = {"pack": "kiln-glaze-notes", "cases": [
    {"id": "glaze", "prompt": "Which kiln glaze recipes crawl at cone six firing?", "expected": "select"}]}


def _pack(make_pack: Callable[..., Path], folder: str, name: str, description: str, parent: Path) -> Path:
    root = make_pack(name, GUIDE.format(name=name, description=description), parent=parent / folder)
    (root / "evals").mkdir()
    (root / "evals" / "discovery.json").write_text(json.dumps(SUITE | {"pack": name}), encoding="utf-8")
    return root


def _settled(roots: list[Path]) -> list:  # type: ignore[type-arg]
    packs = [load_pack(r) for r in roots]
    return apply(packs, settle(packs))


def test_a_namesake_never_takes_a_prompt_from_its_other_copy(make_pack, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # Two copies of one pack: the later one says more about kilns, so as a rival it would win the prompt.
    first = _pack(make_pack, "a", "kiln-glaze-notes", "Cone firing notes.", tmp_path)
    second = _pack(make_pack, "b", "kiln-glaze-notes",
                   "Kiln glaze recipes, kiln glaze crawl fixes and cone six kiln firing notes.", tmp_path)
    workspace = [load_pack(first), load_pack(second)]  # not even settled: a namesake is still no rival
    case = DiscoveryCase("glaze", SUITE["cases"][0]["prompt"], "select")
    outcome = Simulator(workspace[0], workspace, threshold=0.0).decide(case)
    assert outcome.actual == "select", outcome.reason


def test_a_shadowed_or_quarantined_pack_is_no_rival(make_pack, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ours = _pack(make_pack, "a", "kiln-glaze-notes", "Cone firing notes.", tmp_path)
    winner = _pack(make_pack, "b", "pottery-studio", "Studio hours and class schedule.", tmp_path)
    loser = _pack(make_pack, "c", "pottery-studio",
                  "Kiln glaze recipes, kiln glaze crawl fixes and cone six kiln firing notes.", tmp_path)
    broken = make_pack("glaze-wiki", "---\nname: [unterminated\n---\nkiln glaze cone six crawl kiln glaze\n",
                       parent=tmp_path / "d")
    workspace = _settled([ours, winner, loser, broken])
    assert workspace[2].shadowed_by == winner and not workspace[3].loads
    case = DiscoveryCase("glaze", SUITE["cases"][0]["prompt"], "select")
    outcome = Simulator(workspace[0], workspace, threshold=0.0).decide(case)
    assert outcome.actual == "select", outcome.reason
    # The same rival, visible, does take the prompt: the rivalry is real, only hidden copies sit it out.
    visible = [load_pack(ours), load_pack(loser)]
    assert Simulator(visible[0], visible, threshold=0.0).decide(case).actual == "reject"


def test_a_shadowed_copy_is_evaluated_and_said_to_be_shadowed(make_pack, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first = _pack(make_pack, "a", "kiln-glaze-notes", "Kiln glaze recipes and cone firing notes.", tmp_path)
    second = _pack(make_pack, "b", "kiln-glaze-notes", "Kiln glaze recipes and cone six firing notes.", tmp_path)
    shadowed = _settled([first, second])[1]
    assert shadowed.shadowed_by == first
    run = run_suite(shadowed, read_suite(second / "evals" / "discovery.json", shadowed))
    assert [o.actual for o in run.discovery] == ["select"]
    assert any("shadowed by" in n and str(first) in n for n in run.notes)


def test_cli_workspace_lets_no_hidden_copy_compete_and_notes_the_shadowing(make_pack, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                           capsys) -> None:
    _pack(make_pack, "a", "kiln-glaze-notes", "Kiln glaze recipes and cone firing notes.", tmp_path)
    second = _pack(make_pack, "b", "kiln-glaze-notes", "Kiln glaze recipes and cone six firing notes.", tmp_path)
    main(["eval", str(second), "--suite", "evals/discovery.json", "--workspace", str(tmp_path), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["passed"] == 1, data["results"]
    assert any("shadowed by" in n for n in data["notes"])
