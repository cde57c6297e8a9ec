"""Client profiles: one golden test per profile of its documented behaviour, and the side-by-side comparison."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from resolver_packs import DOC_FIRST_FILES, knowledge

from studio.cli import main
from studio.core.clients import CLIENT_NAMES, compare, simulate
from studio.core.clients.lime import CHARACTER_BUDGET
from studio.core.clients.run import ClientRequest
from studio.core.model import Pack

GUIDE = """# Falcon kettle

## Context map

- Warranty questions: `compiled/splits/brief/warranty.md`.
- Before any claim: `compiled/boundaries.md`.
"""


@pytest.fixture
def kettle(pack_at: Callable[..., Pack]) -> Pack:
    return pack_at("falcon-kettle", knowledge("falcon-kettle", primary="documents/brief.md", body=GUIDE),
                   DOC_FIRST_FILES)


def _run(name: str, pack: Pack, task: str = "warranty", budget: int = 4000) -> list[str]:
    return simulate(name, ClientRequest(task, [pack], budget=budget)).selected


def test_studio_is_the_resolver(kettle: Pack) -> None:
    picked = _run("studio", kettle)
    assert picked[0] == "KNOWLEDGE.md"
    assert "compiled/splits/brief/warranty.md" in picked
    assert not any(p.startswith("sources/") for p in picked)  # sources only for citation tasks


def test_ref_cli_takes_core_views_primary_document_and_first_splits(kettle: Pack) -> None:
    run = simulate("ref-cli-0.7.2", ClientRequest("anything at all", [kettle], budget=10))
    assert run.selected == ["compiled/briefing.md", "compiled/facts.md", "compiled/boundaries.md",
                            "documents/brief.md", "compiled/splits/brief/boundaries.md",
                            "compiled/splits/brief/pricing.md", "compiled/splits/brief/warranty.md"]
    assert run.token_method == "chars/4"
    assert any("no budget" in w for w in run.warnings)  # 10 tokens: its estimate is over, and it says so


def test_lime_is_task_blind_and_has_its_own_character_budget(kettle: Pack) -> None:
    a = simulate("lime-1.31", ClientRequest("warranty", [kettle], budget=100))
    b = simulate("lime-1.31", ClientRequest("Was kostet der Kessel?", [kettle], budget=100_000))
    assert a.selected == b.selected  # same selection for any task and any budget
    assert a.selected[:4] == ["KNOWLEDGE.md", "compiled/briefing.md", "compiled/facts.md", "compiled/boundaries.md"]
    assert a.selected[4:] == ["compiled/splits/brief/boundaries.md", "compiled/splits/brief/pricing.md",
                              "compiled/splits/brief/warranty.md"]
    assert any("ignores the task and the token budget" in w for w in a.warnings)


def test_lime_leaves_out_what_does_not_fit_24000_characters(pack_at: Callable[..., Pack]) -> None:
    big = "# Big\n\n" + "word " * (CHARACTER_BUDGET // 4)
    files: dict[str, str | bytes] = {"compiled/splits/brief/001_big.md": big,
                                     "compiled/splits/brief/002_small.md": "# Small\n\nshort\n"}
    pack = pack_at("big", knowledge("big"), files)
    run = simulate("lime-1.31", ClientRequest("x", [pack]))
    assert "compiled/splits/brief/001_big.md" not in run.selected
    assert "compiled/splits/brief/002_small.md" in run.selected


def test_lime_puts_persona_packs_first(pack_at: Callable[..., Pack], kettle: Pack) -> None:
    persona = pack_at("lin", knowledge("lin", mode="persona"), {"compiled/voice.md": "# Voice\n\nWarm and short.\n"})
    run = simulate("lime-1.31", ClientRequest("x", [kettle, persona]))
    assert run.selected[0] == "lin/KNOWLEDGE.md" and run.selected[1] == "lin/compiled/voice.md"


def test_file_read_follows_the_guide_task_lines_first(kettle: Pack) -> None:
    assert _run("file-read", kettle) == ["KNOWLEDGE.md", "compiled/splits/brief/warranty.md", "compiled/boundaries.md"]
    # A task the guide does not mention: the named files in the guide's order.
    assert _run("file-read", kettle, "capacity") == ["KNOWLEDGE.md", "compiled/splits/brief/warranty.md",
                                                    "compiled/boundaries.md"]


def test_read_files_tool_reads_only_what_the_model_asks_for(kettle: Pack) -> None:
    picked = _run("read-files-tool", kettle)
    assert picked[0] == "KNOWLEDGE.md"
    assert "compiled/splits/brief/warranty.md" in picked  # its name matches the task
    assert "compiled/boundaries.md" in picked  # boundaries are always asked for
    assert "compiled/facts.md" not in picked  # relevant content, but nothing in its name says so


def test_custom_types_need_the_switch(pack_at: Callable[..., Pack]) -> None:
    text = knowledge("odd", body=GUIDE).replace("type: brand-product", "type: recipe-book")
    pack = pack_at("odd", text, {"compiled/boundaries.md": "# Boundaries\n\nNo claims.\n"})
    for name in ("studio", "lime-1.31", "file-read", "read-files-tool"):
        run = simulate(name, ClientRequest("claims", [pack]))
        assert run.selected == [] and any("--allow-custom-types" in w for w in run.warnings), name
    for name in ("lime-1.31", "file-read", "read-files-tool"):
        assert simulate(name, ClientRequest("claims", [pack], custom_types_allowed=True)).selected, name
    # The studio's resolver still honours validation, which quarantines an un-namespaced unknown type (V13).
    allowed = simulate("studio", ClientRequest("claims", [pack], custom_types_allowed=True))
    assert not allowed.selected and any("not loadable" in w for w in allowed.warnings)
    assert simulate("ref-cli-0.7.2", ClientRequest("claims", [pack])).selected  # it checks no type
    namespaced = pack_at("ns", knowledge("ns").replace("type: brand-product", "type: custom:acme-recipes"),
                         {"compiled/boundaries.md": "# Boundaries\n\nNo claims.\n"})
    assert simulate("studio", ClientRequest("claims", [namespaced])).selected  # V12: namespaced loads
    assert not simulate("lime-1.31", ClientRequest("claims", [namespaced])).selected  # Lime wants the switch


def test_compare_lists_every_divergence(kettle: Pack) -> None:
    comparison = compare(ClientRequest("warranty", [kettle], budget=4000))
    assert [r.client for r in comparison.runs] == list(CLIENT_NAMES)
    by_path = {d.path: d for d in comparison.divergences}
    assert by_path["KNOWLEDGE.md"].not_loaded_by == ("ref-cli-0.7.2",)
    for d in comparison.divergences:
        assert set(d.loaded_by) | set(d.not_loaded_by) == set(CLIENT_NAMES) and d.loaded_by and d.not_loaded_by
    everywhere = set.intersection(*(set(r.selected) for r in comparison.runs))
    assert not everywhere & set(by_path)


def test_cli_clients_all_json(kettle: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["resolve", str(kettle.root), "--task", "warranty", "--clients", "all", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [c["client"] for c in out["clients"]] == list(CLIENT_NAMES)
    assert {"client", "selected", "tokens", "warnings"} <= set(out["clients"][0])
    assert all({"path", "loaded_by", "not_loaded_by"} == set(d) for d in out["divergences"])


def test_cli_one_client_text_and_bad_names(kettle: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", str(kettle.root), "--task", "warranty", "--client", "lime-1.31"]) == 0
    assert "lime-1.31: 7 file(s)" in capsys.readouterr().out
    assert main(["resolve", str(kettle.root), "--task", "warranty", "--clients", "studio,netscape"]) == 2
    assert "unknown client netscape" in capsys.readouterr().err
