"""Each selection rule of digest 6.3 and 6.4, on a small pack built for it."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from resolver_packs import DOC_FIRST_FILES, knowledge

from studio.core.model import Pack
from studio.core.resolver import Decision, ResolveRequest, ResolveResult, resolve

Build = Callable[..., Pack]


def _run(packs: list[Pack], task: str, budget: int = 4000, **kw: object) -> ResolveResult:
    return resolve(ResolveRequest(task, packs, budget=budget, **kw))  # type: ignore[arg-type]


def _find(result: ResolveResult, path: str, section: str | None = None, pack: int = 0) -> Decision:
    res = result.packs[pack]
    for d in res.selected + res.skipped:
        if d.path == path and (section is None or d.section == section):
            return d
    raise AssertionError(f"{path} not decided")


def _selected(result: ResolveResult, pack: int = 0) -> list[str]:
    return [d.path for d in result.packs[pack].selected]


# -- 6.3 step 2: document-first prefers splits, falls back to the primary document's sections --------------


def test_document_first_prefers_splits_and_supersedes_covered_sections(doc_first: Pack) -> None:
    result = _run([doc_first], "warranty")
    assert _find(result, "compiled/splits/brief/warranty.md").reason == "relevant"
    section = _find(result, "documents/brief.md", "Warranty")
    assert section.reason == "superseded-by-split"
    assert section.lines == (7, 9)


def test_document_first_without_splits_reads_primary_sections(pack_at: Build) -> None:
    files = {k: v for k, v in DOC_FIRST_FILES.items() if not k.startswith("compiled/splits/")}
    pack = pack_at("no-splits", knowledge("no-splits", primary="documents/brief.md"), files)
    result = _run([pack], "warranty")
    section = _find(result, "documents/brief.md", "Warranty")
    assert section in result.packs[0].selected
    assert section.reason == "fallback-section"
    assert "Two years of warranty cover the heating element and the lid hinge." in result.fenced_text
    assert "[file: documents/brief.md | section: Warranty | lines 7-9]" in result.fenced_text


# -- 6.3 step 3/4: wiki-first prefers compiled views, then related wiki pages -----------------------------


def test_wiki_first_prefers_compiled_then_relevant_wiki_pages(pack_at: Build) -> None:
    files = {
        "compiled/briefing.md": "# Briefing\n\nHarbor support handles refunds and shipping.\n",
        "wiki/refunds.md": "# Refunds\n\nRefunds are issued within 14 days of a return.\n",
        "wiki/shipping.md": "# Shipping\n\nParcels leave the warehouse daily.\n",
        "documents/export.md": "# Export\n\n## Refunds\n\nOld refund export.\n",
    }
    pack = pack_at("harbor", knowledge("harbor", profile="wiki-first"), files)
    result = _run([pack], "how are refunds issued")
    assert _selected(result)[:2] == ["KNOWLEDGE.md", "compiled/briefing.md"]
    assert _find(result, "wiki/refunds.md").reason == "relevant"
    assert _find(result, "wiki/shipping.md").reason == "low-relevance"
    assert _find(result, "documents/export.md").reason == "secondary-document"


def test_wiki_first_reads_documents_named_in_the_context_map(pack_at: Build) -> None:
    body = "# Guide\n\nFor refund history read `documents/export.md`.\n"
    pack = pack_at("harbor", knowledge("harbor", profile="wiki-first", body=body),
                   {"documents/export.md": "# Export\n\n## Refunds\n\nOld refund export.\n"})
    assert _find(_run([pack], "refund history"), "documents/export.md").reason == "fallback-section"


def test_hybrid_ranks_primary_sections_with_splits(pack_at: Build) -> None:
    files = {"documents/policy.md": "# Policy\n\n## Loan limits\n\nLoans are capped at 50000.\n",
             "wiki/rates.md": "# Rates\n\nRates change quarterly.\n"}
    pack = pack_at("atlas", knowledge("atlas", profile="hybrid", primary="documents/policy.md"), files)
    result = _run([pack], "loan limits")
    assert _find(result, "documents/policy.md", "Loan limits").reason == "fallback-section"
    assert _find(result, "wiki/rates.md").reason == "low-relevance"


# -- 6.3 step 5/6: sources only for evidence, indexes never -----------------------------------------------


@pytest.mark.parametrize("task", ["cite the source for the warranty", "请引用 warranty 条款的来源",
                                  "verify the warranty claim"])
def test_sources_load_for_evidence_tasks(doc_first: Pack, task: str) -> None:
    result = _run([doc_first], task)
    assert _find(result, "sources/spec-sheet.md").reason == "evidence-for-citation"


def test_sources_are_held_back_otherwise(doc_first: Pack) -> None:
    result = _run([doc_first], "warranty length")
    assert _find(result, "sources/spec-sheet.md").reason == "sources-only-for-citation"
    assert "24 months" not in result.fenced_text


def test_non_runtime_folders_are_never_context(doc_first: Pack) -> None:
    result = _run([doc_first], "source-map claims runs schema eval")
    assert _find(result, "indexes/source-map.json").reason == "index-candidate-only"
    for path in ("runs/", "schemas/", "evals/"):  # one decision per folder: its files are not even examined
        assert _find(result, path).reason == "not-a-runtime-surface"
    assert '"claim_id"' not in result.fenced_text


def test_source_map_hits_give_anchors_and_stale_warnings(doc_first: Pack) -> None:
    result = _run([doc_first], "pricing warranty")
    assert "sources/spec-sheet.md#L2" in result.packs[0].source_anchors
    assert any("stale claim" in w.message and w.path == "compiled/splits/brief/pricing.md" for w in result.warnings)


# -- safety: symlinks, huge files ---------------------------------------------------------------------------


def test_symlink_leaving_the_pack_is_never_read(pack_at: Build, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("# Warranty\n\nTOP SECRET warranty text\n")
    pack = pack_at("leaky", knowledge("leaky"), {"compiled/facts.md": "# Facts\n\nWarranty is two years.\n"})
    os.symlink(secret, pack.root / "compiled" / "warranty.md")
    os.symlink(tmp_path, pack.root / "wiki")
    result = _run([pack], "warranty")
    assert _find(result, "compiled/warranty.md").reason == "symlink-escape"
    assert _find(result, "wiki").reason == "symlink-escape"
    assert "TOP SECRET" not in result.fenced_text


def test_a_link_inside_the_pack_is_read_and_a_fifo_is_refused_without_blocking(pack_at: Build) -> None:
    pack = pack_at("links", knowledge("links"), {"compiled/facts.md": "# Facts\n\nWarranty is two years.\n"})
    os.symlink(pack.root / "compiled" / "facts.md", pack.root / "compiled" / "warranty.md")
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    os.mkfifo(pack.root / "compiled" / "pipe.md")  # opening it for reading would wait for a writer forever
    result = _run([pack], "warranty")
    assert "compiled/warranty.md" in _selected(result), "a link that stays inside the pack is an ordinary file"
    assert _find(result, "compiled/pipe.md").reason == "unreadable"
    assert "not a regular file" in _find(result, "compiled/pipe.md").detail


def test_huge_files_are_skipped_with_a_reason(pack_at: Build) -> None:
    pack = pack_at("huge", knowledge("huge"), {"compiled/facts.md": "warranty " * 150_000})
    assert _find(_run([pack], "warranty"), "compiled/facts.md").reason == "too-large"


# -- relevance: English and Chinese ----------------------------------------------------------------------


def test_chinese_task_picks_chinese_sections(pack_at: Build) -> None:
    files = {
        "compiled/splits/handbook/001_profile.md": "# Profile\n\nLin Yue grew up in Hangzhou and studied design.\n",
        "compiled/splits/handbook/002_tea.md": "# 茶文化\n\n林悦喜欢龙井茶，常在直播里介绍泡茶的水温和器具。\n",
        "compiled/splits/handbook/003_travel.md": "# 旅行\n\n林悦每年去一次云南，记录当地的手工艺。\n",
    }
    pack = pack_at("lin-yue", knowledge("lin-yue", primary=None), files)
    result = _run([pack], "龙井茶怎么泡")
    assert _find(result, "compiled/splits/handbook/002_tea.md").reason == "relevant"
    assert _find(result, "compiled/splits/handbook/001_profile.md").reason == "low-relevance"
    assert _find(result, "compiled/splits/handbook/003_travel.md").reason == "low-relevance"


# -- runtime mode: persona first --------------------------------------------------------------------------


def test_persona_mode_puts_boundaries_and_voice_before_facts(pack_at: Build) -> None:
    files = {
        "compiled/facts.md": "# Facts\n\nBorn 1994.\n",
        "compiled/splits/h/001_voice.md": "# Voice\n\nWarm, short sentences.\n",
        "compiled/splits/h/002_taboos.md": "# Taboos\n\nNever discuss politics.\n",
        "compiled/splits/h/003_stories.md": "# Stories\n\nA trip to Yunnan.\n",
    }
    pack = pack_at("lin", knowledge("lin", mode="persona"), files)
    result = _run([pack], "write a post about Yunnan")
    order = _selected(result)
    assert order.index("compiled/splits/h/002_taboos.md") < order.index("compiled/splits/h/001_voice.md")
    assert order.index("compiled/splits/h/001_voice.md") < order.index("compiled/facts.md")
    assert _find(result, "compiled/splits/h/001_voice.md").reason == "persona-core"
    # Under pressure the taboos survive and the story goes first.
    tight = _run([pack], "write a post about Yunnan", budget=260)
    assert "compiled/splits/h/002_taboos.md" in _selected(tight)
    assert "compiled/splits/h/003_stories.md" not in _selected(tight)


def test_mode_override_turns_a_data_pack_into_persona(doc_first: Pack) -> None:
    result = _run([doc_first], "warranty", mode_override="persona")
    assert 'mode="persona"' in result.fenced_text
    assert result.packs[0].runtime_mode == "persona"


def test_profile_override_changes_the_plan(doc_first: Pack) -> None:
    result = _run([doc_first], "warranty", profile_override="wiki-first")
    assert _find(result, "documents/brief.md", "Warranty").reason == "superseded-by-split"
    assert 'profile="wiki-first"' in result.fenced_text


# -- 6.4 multi-pack ---------------------------------------------------------------------------------------


def test_one_wrapper_per_pack_and_persona_first(pack_at: Build, doc_first: Pack) -> None:
    persona = pack_at("zz-voice", knowledge("zz-voice", mode="persona"),
                      {"compiled/voice.md": "# Voice\n\nFriendly and brief about the kettle warranty.\n"})
    result = _run([doc_first, persona], "kettle warranty")
    text = result.fenced_text
    assert text.count("<knowledge_pack ") == 2 and text.count("</knowledge_pack>") == 2
    assert text.index('name="zz-voice"') < text.index('name="falcon-kettle"')
    assert result.wrapper_order == ["zz-voice", "falcon-kettle"]


def test_data_packs_order_by_activation_then_status(pack_at: Build) -> None:
    files = {"compiled/facts.md": "# Facts\n\nKettle warranty is two years.\n"}
    a = pack_at("aa-implicit", knowledge("aa-implicit"), files)
    b = pack_at("bb-explicit", knowledge("bb-explicit"), files)
    c = pack_at("cc-draft", knowledge("cc-draft", status="draft"), files)
    d = pack_at("ab-ready", knowledge("ab-ready"), files)
    activation = {"aa-implicit": "implicit", "bb-explicit": "explicit", "cc-draft": "explicit",
                  "ab-ready": "explicit"}
    result = _run([a, b, c, d], "kettle warranty", activation=activation)
    assert result.wrapper_order == ["ab-ready", "bb-explicit", "cc-draft", "aa-implicit"]
    assert any(w.message == "Pack status is draft." and w.pack == "cc-draft" for w in result.warnings)


def test_disputed_needs_confirmation_and_archived_is_excluded(pack_at: Build) -> None:
    files = {"compiled/facts.md": "# Facts\n\nKettle warranty is two years.\n"}
    disputed = pack_at("disputed-pack", knowledge("disputed-pack", status="disputed"), files)
    archived = pack_at("archived-pack", knowledge("archived-pack", status="archived"), files)
    result = _run([disputed, archived], "kettle warranty")
    assert result.fenced_text == ""
    assert {d.reason for p in result.packs for d in p.skipped if d.path == "compiled/facts.md"} == {"status-gated"}
    assert any("--confirm disputed-pack" in w.message for w in result.warnings)
    confirmed = _run([disputed, archived], "kettle warranty", confirmed={"disputed-pack"})
    assert confirmed.wrapper_order == ["disputed-pack"]
    assert any("disputed" in w.message and w.severity == "warning" for w in confirmed.warnings)


def test_unreviewed_trust_is_warned(pack_at: Build) -> None:
    pack = pack_at("fresh", knowledge("fresh", trust="unreviewed"), {"compiled/facts.md": "# Facts\n\nA fact.\n"})
    assert any("unreviewed" in w.message for w in _run([pack], "fact").warnings)


# -- 6.6 grounding ----------------------------------------------------------------------------------------


def test_required_grounding_reports_citation_gaps_and_missing_facts(doc_first: Pack) -> None:
    result = _run([doc_first], "warranty for the espresso grinder", grounding_override="required")
    gaps = result.citation_gaps
    assert {"path": "compiled/facts.md", "reason": "no source-map anchor backs this item"} in gaps
    assert all(g.get("path") != "compiled/splits/brief/warranty.md" for g in gaps)
    missing = [g for g in gaps if "missing" in g]
    assert missing and missing[0]["recommendation"] == "ask_user_or_mark_unknown"
    assert any("espresso" in m for m in missing[0]["missing"])
    assert result.missing == missing[0]["missing"]


def test_no_grounding_means_no_gaps(doc_first: Pack) -> None:
    assert _run([doc_first], "warranty for the espresso grinder", grounding_override="none").citation_gaps == []


# -- 6.7 compile runs, non-packs --------------------------------------------------------------------------


def test_views_from_a_needs_review_compile_run_are_flagged(pack_at: Build) -> None:
    run = ('{"run_id": "c2", "trigger": "manual", "status": "needs-review", "inputs": [], '
           '"outputs": [{"path": "compiled/facts.md", "operation": "updated"}]}')
    pack = pack_at("review", knowledge("review"), {"compiled/facts.md": "# Facts\n\nKettle holds 0.9 L.\n",
                                                   "compiled/briefing.md": "# Briefing\n\nKettle.\n",
                                                   "runs/compile-2026-02-01T00-00-00Z.json": run})
    warnings = _run([pack], "kettle").warnings
    flagged = [w for w in warnings if "needs-review" in w.message]
    assert [w.path for w in flagged] == ["compiled/facts.md"]


def test_a_directory_that_is_not_a_pack_is_reported_not_walked(tmp_path: Path) -> None:
    from studio.core.pack import load_pack

    (tmp_path / "notes.md").write_text("# Notes\n")
    result = _run([load_pack(tmp_path)], "notes")
    assert result.fenced_text == "" and result.packs[0].skipped == []
    assert any(w.severity == "error" and "not loadable" in w.message for w in result.warnings)


def test_plural_and_singular_forms_match(pack_at: Build) -> None:
    files = {"compiled/splits/d/warranty.md": "# Cover\n\nThe warranty covers boilers.\n",
             "compiled/splits/d/colour.md": "# Colour\n\nMatte black finish.\n"}
    pack = pack_at("plural", knowledge("plural"), files)
    result = _run([pack], "which warranties cover the boiler")
    assert _find(result, "compiled/splits/d/warranty.md").reason == "relevant"
    assert _find(result, "compiled/splits/d/colour.md").reason == "low-relevance"
