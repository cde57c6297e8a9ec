"""``pack-studio resolve`` and ``pack-studio resolve-context`` called through ``main``."""

from __future__ import annotations

import json

import pytest

from studio.cli import main
from studio.core.model import Pack
from studio.core.tokens import get_tokenizer


def test_resolve_json_explains_every_item(doc_first: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["resolve", str(doc_first.root), "--task", "warranty", "--budget", "600", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["tokens_used"] <= out["budget"] == 600
    assert out["tokens_used"] == get_tokenizer().count(out["fenced_text"])
    pack = out["packs"][0]
    for item in pack["selected"] + pack["skipped"]:
        assert {"path", "section", "lines", "tokens", "reason", "score"} <= set(item)
    assert "citation_gaps" in out and "warnings" in out


def test_resolve_fenced_prints_only_the_fence(doc_first: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", str(doc_first.root), "--task", "warranty", "--format", "fenced"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<knowledge_pack ") and out.rstrip().endswith("</knowledge_pack>")


def test_resolve_text_names_reasons(doc_first: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", str(doc_first.root), "--task", "warranty", "--reference"]) == 0
    out = capsys.readouterr().out
    assert "superseded-by-split" in out and "index-candidate-only" in out and "reference:" in out


def test_resolve_write_run_writes_a_record(doc_first: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", str(doc_first.root), "--task", "warranty", "--write-run", "--format", "json",
                 "--usage"]) == 0
    out = json.loads(capsys.readouterr().out)
    written = [p for p in (doc_first.root / "runs").glob("context-*.json")]
    assert len(written) == 1 and out["written"] == [str(written[0])]
    assert out["usage_records"][0]["pack"] == "falcon-kettle"


def test_resolve_disputed_needs_confirm(pack_at, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    from resolver_packs import knowledge

    pack = pack_at("hot", knowledge("hot", status="disputed"), {"compiled/facts.md": "# F\n\nwarranty\n"})
    assert main(["resolve", str(pack.root), "--task", "warranty"]) == 1
    assert main(["resolve", str(pack.root), "--task", "warranty", "--confirm", "hot"]) == 0


def test_resolve_unknown_encoding_exits_2(doc_first: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", str(doc_first.root), "--task", "x", "--encoding", "nope"]) == 2
    assert "unknown encoding 'nope'" in capsys.readouterr().err  # refused before any work, the known ones listed


def test_resolve_context_prints_reference_json(doc_first: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve-context", str(doc_first.root), "--query", "cite sources", "--dry-run"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["command"] == "resolve-context" and out["dry_run"] is True
    assert out["selected_files"][:3] == ["compiled/briefing.md", "compiled/facts.md", "compiled/boundaries.md"]
    assert out["warnings"]


def test_resolve_context_on_a_non_pack(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert main(["resolve-context", str(tmp_path), "--query", "x"]) == 2
    assert json.loads(capsys.readouterr().out)["ok"] is False


def test_resolve_marks_untokenized_items_and_count_all_counts_them(
        doc_first: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    """A tight budget leaves items the word count alone rules out; the text says so, --count-all counts them."""
    args = ["resolve", str(doc_first.root), "--task", "warranty", "--budget", "150"]
    main([*args, "--format", "json"])
    quick = json.loads(capsys.readouterr().out)
    uncounted = [i for i in quick["packs"][0]["skipped"] if i["tokens"] is None and i["tokens_at_least"]]
    assert uncounted and quick["uncounted"] >= len(uncounted)
    main(args)
    text = capsys.readouterr().out
    first = uncounted[0]
    assert f"{first['path']}  >={first['tokens_at_least']} tok (not tokenized)  over-budget" in text
    main([*args, "--count-all", "--format", "json"])
    exact = json.loads(capsys.readouterr().out)
    assert exact["uncounted"] == 0
    counted = {(i["path"], i["section"]): i["tokens"] for i in exact["packs"][0]["skipped"]}
    for item in uncounted:
        assert counted[(item["path"], item["section"])] >= item["tokens_at_least"]
    assert [i["path"] for i in exact["packs"][0]["selected"]] == [i["path"] for i in quick["packs"][0]["selected"]]


def test_budget_bounds_come_from_core(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from studio.core.resolver.budget import MAX_BUDGET

    assert main(["resolve", str(tmp_path), "--task", "x", "--budget", str(MAX_BUDGET + 1)]) == 2
    assert f"at most {MAX_BUDGET:,}" in capsys.readouterr().err
    assert main(["resolve", str(tmp_path), "--task", "x", "--budget", "-1"]) == 2
