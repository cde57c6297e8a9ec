"""Client profiles: one golden test per profile of its documented behaviour, and the side-by-side comparison."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from resolver_packs import BRIEF, DOC_FIRST_FILES, knowledge

from studio.cli import main
from studio.core.clients import CLIENT_NAMES, compare, simulate
from studio.core.clients.lime import CHARACTER_BUDGET, CUT_MARK
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


def _chars4(*texts: str) -> int:
    return sum(-(-len(t) // 4) for t in texts)


def test_lime_is_task_blind_and_reads_the_splits_not_the_guide(kettle: Pack) -> None:
    a = simulate("lime-1.31", ClientRequest("warranty", [kettle], budget=10))
    b = simulate("lime-1.31", ClientRequest("Was kostet der Kessel?", [kettle], budget=100_000))
    splits = ["compiled/splits/brief/boundaries.md", "compiled/splits/brief/pricing.md",
              "compiled/splits/brief/warranty.md"]
    assert a.selected == b.selected == splits  # every split in path order, for any task and any budget
    # With splits present Lime reads neither the guide nor the core views nor the primary document.
    assert a.token_method == "chars/4"
    assert a.tokens == _chars4(*(DOC_FIRST_FILES[p] for p in splits))  # its own estimate, per file
    assert any("ignores the task and the token budget" in w for w in a.warnings)


def test_lime_cuts_the_file_that_overflows_24000_characters_and_stops(pack_at: Callable[..., Pack]) -> None:
    big = "# Big\n\n" + "word " * (CHARACTER_BUDGET // 4)
    files: dict[str, str | bytes] = {"compiled/splits/brief/001_big.md": big,
                                     "compiled/splits/brief/002_small.md": "# Small\n\nshort\n"}
    pack = pack_at("big", knowledge("big"), files)
    run = simulate("lime-1.31", ClientRequest("x", [pack]))
    assert run.selected == ["compiled/splits/brief/001_big.md"]  # cut, not skipped; nothing after it
    assert run.tokens == _chars4("x" * CHARACTER_BUDGET + CUT_MARK)
    assert any(f"cut to {CHARACTER_BUDGET:,} of its {len(big):,} characters" in w for w in run.warnings)


def test_lime_without_splits_takes_the_brief_then_the_primary_document_then_the_guide(
        pack_at: Callable[..., Pack]) -> None:
    brief = pack_at("legacy", knowledge("legacy", primary="documents/brief.md"),
                    {"compiled/brief.md": "# Brief\n", "documents/brief.md": BRIEF, "compiled/facts.md": "# F\n"})
    run = simulate("lime-1.31", ClientRequest("x", [brief]))
    assert run.selected == ["compiled/brief.md"] and any("legacy compiled brief" in w for w in run.warnings)
    document = pack_at("doc", knowledge("doc", primary="documents/brief.md"),
                       {"documents/brief.md": BRIEF, "compiled/facts.md": "# F\n"})
    assert simulate("lime-1.31", ClientRequest("x", [document])).selected == ["documents/brief.md"]
    # Only a document under documents/ counts; otherwise documents/<name>.md, then KNOWLEDGE.md, frontmatter and all.
    elsewhere = pack_at("wiki", knowledge("wiki", primary="wiki/brief.md"), {"wiki/brief.md": BRIEF})
    run = simulate("lime-1.31", ClientRequest("x", [elsewhere]))
    assert run.selected == ["KNOWLEDGE.md"]
    assert run.tokens == _chars4((elsewhere.root / "KNOWLEDGE.md").read_text(encoding="utf-8"))
    named = pack_at("named", knowledge("named"), {"documents/named.md": BRIEF})
    assert simulate("lime-1.31", ClientRequest("x", [named])).selected == ["documents/named.md"]


def _index(mode: str, titles: dict[str, str]) -> str:
    entries = [{"id": f"split-{i:03d}", "title": title, "relativePath": path, "sourceDocument": "documents/a.md",
                "charCount": 10, "tokenEstimate": 3, "sourceAnchors": [], "sha256": "0"}
               for i, (path, title) in enumerate(titles.items())]
    return json.dumps({"profile": "document-first", "runtimeMode": mode, "primaryDocument": "documents/a.md",
                       "generatedAt": "2026-05-08T00:00:00Z", "splits": entries})


def test_lime_follows_the_split_index_and_ranks_persona_splits_by_title(pack_at: Callable[..., Pack]) -> None:
    titles = {"compiled/splits/a/000_background.md": "背景", "compiled/splits/a/001_quotes.md": "金句",
              "compiled/splits/a/002_guide.md": "智能体应用指南", "compiled/splits/a/003_gone.md": "话术"}
    files: dict[str, str | bytes] = {p: f"# {t}\n\ntext\n" for p, t in list(titles.items())[:3]}
    files["compiled/splits/a/004_unlisted.md"] = "# Unlisted\n"
    index = _index("persona", titles)
    persona = pack_at("lin", knowledge("lin", mode="persona"), {**files, "compiled/index.json": index})
    assert simulate("lime-1.31", ClientRequest("x", [persona])).selected == [
        "compiled/splits/a/002_guide.md", "compiled/splits/a/001_quotes.md", "compiled/splits/a/000_background.md"]
    data = pack_at("facts", knowledge("facts"), {**files, "compiled/index.json": index})
    assert simulate("lime-1.31", ClientRequest("x", [data])).selected == [  # runtime.mode data wins: path order
        "compiled/splits/a/000_background.md", "compiled/splits/a/001_quotes.md", "compiled/splits/a/002_guide.md"]
    not_lime = pack_at("odd", knowledge("odd"), {**files, "compiled/index.json": '{"splits": []}'})
    assert simulate("lime-1.31", ClientRequest("x", [not_lime])).selected == sorted(files)  # every split file


def test_lime_puts_persona_packs_first_and_gives_each_family_half(pack_at: Callable[..., Pack], kettle: Pack) -> None:
    long_voice = "# Voice\n\n" + "warm " * 4_000  # 20,009 characters
    persona = pack_at("lin", knowledge("lin", mode="persona"), {"compiled/splits/v/001_voice.md": long_voice})
    run = simulate("lime-1.31", ClientRequest("x", [kettle, persona]))
    assert run.selected[0] == "lin/compiled/splits/v/001_voice.md"
    assert any("cut to 12,000 of its 20,009 characters" in w for w in run.warnings)  # 50% of 24,000 for personas
    assert run.selected[1:] == ["falcon-kettle/compiled/splits/brief/boundaries.md",
                                "falcon-kettle/compiled/splits/brief/pricing.md",
                                "falcon-kettle/compiled/splits/brief/warranty.md"]
    zeta = pack_at("zeta", knowledge("zeta"), {"compiled/splits/z/a.md": "# Z\n"})
    alpha = pack_at("alpha", knowledge("alpha"), {"compiled/splits/a/a.md": "# A\n"})
    assert simulate("lime-1.31", ClientRequest("x", [zeta, alpha])).selected == [  # data packs: as given
        "zeta/compiled/splits/z/a.md", "alpha/compiled/splits/a/a.md"]


def test_lime_loads_any_status_but_stops_at_a_pack_it_cannot_read(pack_at: Callable[..., Pack],
                                                                   kettle: Pack) -> None:
    draft = pack_at("draft", knowledge("draft", status="archived"), {"compiled/splits/a/a.md": "# A\n"})
    run = simulate("lime-1.31", ClientRequest("x", [draft]))
    assert run.selected == ["compiled/splits/a/a.md"] and any("archived" in w for w in run.warnings)
    bad_name = pack_at("Falcon_Kettle", knowledge("Falcon_Kettle"), {"compiled/splits/a/a.md": "# A\n"})
    run = simulate("lime-1.31", ClientRequest("x", [kettle, bad_name]))
    assert run.selected == [] and run.tokens == 0  # one unreadable pack and the turn has no knowledge
    assert any("Falcon_Kettle" in w and "no knowledge" in w for w in run.warnings)
    latin1 = pack_at("latin", knowledge("latin"), {"compiled/splits/a/a.md": "caf\xe9".encode("latin-1")})
    run = simulate("lime-1.31", ClientRequest("x", [latin1]))
    assert run.selected == [] and any("not UTF-8" in w for w in run.warnings)
    bad_index = pack_at("indexed", knowledge("indexed"), {"compiled/splits/a/a.md": "# A\n",
                                                          "compiled/index.json": b"\xff{}"})
    run = simulate("lime-1.31", ClientRequest("x", [bad_index]))  # unreadable text stops; bad JSON falls back
    assert run.selected == [] and any("index.json is not UTF-8" in w for w in run.warnings)


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
    for name in ("studio", "file-read", "read-files-tool"):
        run = simulate(name, ClientRequest("claims", [pack]))
        assert run.selected == [] and any("--allow-custom-types" in w for w in run.warnings), name
    for name in ("file-read", "read-files-tool"):
        assert simulate(name, ClientRequest("claims", [pack], custom_types_allowed=True)).selected, name
    # The studio's resolver still honours validation, which quarantines an un-namespaced unknown type (V13).
    allowed = simulate("studio", ClientRequest("claims", [pack], custom_types_allowed=True))
    assert not allowed.selected and any("not loadable" in w for w in allowed.warnings)
    for name in ("ref-cli-0.7.2", "lime-1.31"):  # they check no type: the switch changes nothing
        assert simulate(name, ClientRequest("claims", [pack])).selected == simulate(
            name, ClientRequest("claims", [pack], custom_types_allowed=True)).selected != [], name
    namespaced = pack_at("ns", knowledge("ns").replace("type: brand-product", "type: custom:acme-recipes"),
                         {"compiled/boundaries.md": "# Boundaries\n\nNo claims.\n"})
    assert simulate("studio", ClientRequest("claims", [namespaced])).selected  # V12: namespaced loads
    assert simulate("lime-1.31", ClientRequest("claims", [namespaced])).selected == ["KNOWLEDGE.md"]


def test_compare_lists_every_divergence(kettle: Pack) -> None:
    comparison = compare(ClientRequest("warranty", [kettle], budget=4000))
    assert [r.client for r in comparison.runs] == list(CLIENT_NAMES)
    by_path = {d.path: d for d in comparison.divergences}
    assert by_path["KNOWLEDGE.md"].not_loaded_by == ("ref-cli-0.7.2", "lime-1.31")  # both read splits instead
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
    assert "lime-1.31: 3 file(s)" in capsys.readouterr().out
    assert main(["resolve", str(kettle.root), "--task", "warranty", "--clients", "studio,netscape"]) == 2
    assert "unknown client netscape" in capsys.readouterr().err
