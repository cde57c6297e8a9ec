"""Run records (7.3 context-resolution, step-8 usage) and the reference CLI's dry run (6.8)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from jsonschema import Draft202012Validator
from resolver_packs import knowledge

from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, resolve
from studio.core.resolver.records import context_record, usage_records, write_context_record
from studio.core.resolver.reference import reference_dry_run

SCHEMAS = Path(__file__).resolve().parents[2] / "studio" / "schemas"
NOW = datetime(2026, 11, 22, 3, 4, 5, tzinfo=UTC)


def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8")))


def test_context_record_is_valid_and_has_only_schema_keys(doc_first: Pack, pack_at: Callable[..., Pack]) -> None:
    persona = pack_at("voice-pack", knowledge("voice-pack", mode="persona", status="needs-review"),
                      {"compiled/voice.md": "# Voice\n\nCalm about warranty.\n"})
    result = resolve(ResolveRequest("cite the warranty", [doc_first, persona], budget=3000,
                                    grounding_override="required"))
    record = context_record(result, "context-2026-11-22T03-04-05Z")
    assert list(_validator("context-resolution").iter_errors(record)) == []
    schema = json.loads((SCHEMAS / "context-resolution.schema.json").read_text())
    assert set(record) <= set(schema["properties"])
    item_keys = set(schema["properties"]["activated_packs"]["items"]["properties"])
    for entry in record["activated_packs"]:
        assert set(entry) <= item_keys
    assert record["wrapper_order"] == ["voice-pack", "falcon-kettle"]
    assert record["status"] == "needs-review"
    falcon = record["activated_packs"][1]
    assert falcon["selected_splits"] == [p for p in falcon["selected_files"] if p.startswith("compiled/splits/")]
    assert record["token_estimate"] == result.tokens_used


def test_nothing_selected_is_a_failed_run(pack_at: Callable[..., Pack]) -> None:
    pack = pack_at("gone", knowledge("gone", status="archived"), {"compiled/facts.md": "# F\n\nx\n"})
    record = context_record(resolve(ResolveRequest("x", [pack])), "context-x")
    assert record["status"] == "failed"
    assert list(_validator("context-resolution").iter_errors(record)) == []


def test_two_records_in_the_same_second_get_unique_names(doc_first: Pack) -> None:
    result = resolve(ResolveRequest("warranty", [doc_first], budget=2000))
    first = write_context_record(result, doc_first.root, now=NOW)
    second = write_context_record(result, doc_first.root, now=NOW)
    assert first.name == "context-2026-11-22T03-04-05Z.json"
    assert second.name == "context-2026-11-22T03-04-05Z-2.json"
    data = json.loads(second.read_text())
    assert data["run_id"] == "context-2026-11-22T03-04-05Z-2"
    assert list(_validator("context-resolution").iter_errors(data)) == []
    assert not [p for p in (doc_first.root / "runs").iterdir() if p.name.endswith(".tmp")]


def test_a_runs_file_that_is_not_a_folder_is_named_and_left_alone(doc_first: Pack) -> None:
    import pytest

    runs = doc_first.root / "runs"
    if runs.exists():
        import shutil

        shutil.rmtree(runs)
    runs.write_text("not a folder")
    result = resolve(ResolveRequest("warranty", [doc_first], budget=2000))
    with pytest.raises(NotADirectoryError, match="not a directory"):
        write_context_record(result, doc_first.root, now=NOW)
    assert runs.read_text() == "not a folder"


def test_usage_record_has_the_step8_shape(doc_first: Pack) -> None:
    result = resolve(ResolveRequest("warranty", [doc_first], budget=2000, grounding_override="required"))
    (record,) = usage_records(result, now=NOW)
    assert list(_validator("usage-record").iter_errors(record)) == []
    assert list(record) == ["pack", "status", "profile", "runtime_mode", "selected_files", "grounding",
                            "citation_gaps", "warnings", "timestamp"]
    assert record["timestamp"] == "2026-11-22T03:04:05Z"
    assert record["selected_files"] == [d.path for d in result.packs[0].selected]


def test_reference_dry_run_matches_the_reference_algorithm(pack_at: Callable[..., Pack]) -> None:
    files = {f"compiled/splits/doc/{i:02d}.md": f"split {i}\n" for i in range(7)}
    files |= {"compiled/briefing.md": "brief\n", "compiled/boundaries.md": "bounds\n",
              "documents/doc.md": "# Doc\n\nbody\n", "sources/a.md": "evidence\n"}
    pack = pack_at("ref-pack", knowledge("ref-pack", status="draft", primary="documents/doc.md"), files)
    out = reference_dry_run(pack, "给我来源 please", pack_arg="ref-pack")
    expected_files = ["compiled/briefing.md", "compiled/boundaries.md", "documents/doc.md",
                      *[f"compiled/splits/doc/{i:02d}.md" for i in range(5)]]
    assert list(out) == ["ok", "command", "pack", "dry_run", "query", "selected_files", "warnings",
                         "token_estimate"]
    assert out["selected_files"] == expected_files
    assert out["command"] == "resolve-context" and out["dry_run"] is True and out["pack"] == "ref-pack"
    assert out["warnings"][-1] == "Pack status is draft."
    assert len(out["warnings"]) == 2
    chars = sum(len((pack.root / f).read_text()) for f in expected_files)
    assert out["token_estimate"] == math.ceil(chars / 4)


def test_reference_for_wiki_first_uses_wiki_index(pack_at: Callable[..., Pack]) -> None:
    pack = pack_at("w", knowledge("w", profile="wiki-first"),
                   {"wiki/index.md": "# Index\n", "compiled/facts.md": "f\n", "compiled/splits/x/a.md": "a\n"})
    out = reference_dry_run(pack, "anything")
    assert out["selected_files"] == ["compiled/facts.md", "wiki/index.md"]
    assert out["warnings"] == []


def test_resolve_carries_reference_side_by_side(doc_first: Pack) -> None:
    result = resolve(ResolveRequest("warranty", [doc_first], budget=2000, reference=True))
    assert result.reference is not None and result.reference[0]["command"] == "resolve-context"
