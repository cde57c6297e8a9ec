"""``gap``: a draft case appended without reformatting the suite, a draft page, a dry run that writes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main
from studio.core.coverage import apply_draft, compute_coverage, draft_gap
from studio.core.evals.json_append import append_to_array
from studio.core.pack import load_pack

TASK = "How do I refinance a zebra mortgage on Jupiter?"


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _errors(root: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str, str]]:
    main(["validate", "--content", str(root), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    return sorted((d["code"], d["file"], d["message"]) for p in data["packs"] for d in p["diagnostics"]
                  if d["severity"] == "error")


def test_dry_run_prints_the_diff_and_writes_nothing(planted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _tree(planted)
    assert main(["gap", str(planted), "--task", TASK]) == 0
    out = capsys.readouterr().out
    assert "+++ b/wiki/how-do-i-refinance-a-zebra-mortgage-on-jupiter.md" in out
    assert "+++ b/evals/answer-quality.json" in out and '+      "prompt": "How do I refinance' in out
    assert "dry run" in out
    assert _tree(planted) == before


def test_write_keeps_the_suite_bytes_adds_a_draft_page_and_no_new_validate_error(
        planted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = planted / "evals" / "answer-quality.json"
    old = suite.read_text(encoding="utf-8")
    errors_before = _errors(planted, capsys)
    assert main(["gap", str(planted), "--task", TASK, "--write"]) == 0
    capsys.readouterr()
    new = suite.read_text(encoding="utf-8")
    last_case_end = old.rindex("}", 0, old.rindex("]")) + 1
    assert new.startswith(old[:last_case_end]) and new.endswith(old[last_case_end:])  # the author's bytes kept
    cases = json.loads(new)["evals"]
    assert cases[:-1] == json.loads(old)["evals"]
    page = planted / "wiki" / "how-do-i-refinance-a-zebra-mortgage-on-jupiter.md"
    assert cases[-1]["required_context"] == ["wiki/how-do-i-refinance-a-zebra-mortgage-on-jupiter.md"]
    text = page.read_text(encoding="utf-8")
    assert "status: draft" in text and f'answers: "{TASK}"' in text
    assert _errors(planted, capsys) == errors_before
    task = next(t for t in compute_coverage([load_pack(planted)])[0].tasks if t.id.endswith(cases[-1]["id"]))
    assert not task.answered and "draft" in task.why  # a draft does not close its gap until it is finished


def test_document_first_packs_draft_into_documents_and_cjk_tasks_get_a_name(examples_copy: Path) -> None:
    pack = load_pack(examples_copy / "northwind-espresso")
    draft = draft_gap(pack, "Northwind Pro 2 的除垢周期是多久？")
    assert draft.page.path.startswith("documents/northwind-pro-2-") and draft.page.path.endswith(".md")
    assert draft_gap(pack, "Northwind Pro 2 的保修期是多久？").page.path != draft.page.path
    apply_draft(pack, draft)
    assert (pack.root / draft.page.path).is_file()
    assert json.loads((pack.root / "evals/answer-quality.json").read_text(encoding="utf-8"))["evals"][-1][
        "prompt"] == "Northwind Pro 2 的除垢周期是多久？"


@pytest.mark.parametrize("text", [
    '{"pack_name": "x", "evals": [{"id": "a", "prompt": "p"}]}',
    '{\n\t"evals": [\n\t\t{"id": "a"},\n\t\t{"id": "b \\" ] x"}\n\t],\n\t"pack_name": "x"\n}\n',
    '{"evals": [], "note": "[not this one]"}',
    '{"x": {"evals": [1]}, "evals": [\n  {"id": "a"}\n]}\n',
])
def test_append_keeps_every_existing_byte(text: str) -> None:
    new = append_to_array(text, "evals", {"id": "new"})
    data: dict[str, Any] = json.loads(new)
    assert data["evals"][-1] == {"id": "new"} and data["evals"][:-1] == json.loads(text)["evals"]
    removed = new
    start = new.rfind('{\n', 0, new.rfind('"new"'))
    removed = new[:start] + new[new.index("}", start) + 1:]
    kept = [ch for ch in removed if not ch.isspace() and ch != ","]
    assert kept == [ch for ch in text if not ch.isspace() and ch != ","]


def test_a_suite_that_is_not_json_is_refused_and_left_alone(planted: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    suite = planted / "evals" / "answer-quality.json"
    suite.write_text('{"evals": [', encoding="utf-8")
    assert main(["gap", str(planted), "--task", TASK, "--write"]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert suite.read_text(encoding="utf-8") == '{"evals": ['
    assert not (planted / "wiki" / "how-do-i-refinance-a-zebra-mortgage-on-jupiter.md").exists()


def test_the_suite_is_not_replaced_when_it_changed_since_the_plan(planted: Path) -> None:
    pack = load_pack(planted)
    draft = draft_gap(pack, TASK)
    suite = planted / "evals" / "answer-quality.json"
    suite.write_text(suite.read_text(encoding="utf-8") + " ", encoding="utf-8")
    with pytest.raises(OSError):
        apply_draft(pack, draft)
    assert suite.read_text(encoding="utf-8").endswith(" ")


@pytest.mark.parametrize(("page", "draft"), [
    ("---\ntitle: Zebra mortgages\ndraft: true\n---\n# Zebra mortgages\n", True),
    ("---\r\ntitle: Zebra mortgages\r\ndraft: true\r\n---\r\nbody\r\n", True),
    ("---\ndraft: false\n---\nbody\n", False),
    ("----\ndraft: true\n---\nbody\n", False),  # no frontmatter to the loader: no draft either
    ("---\ndraft: true\n---- not a fence\n", False),
    ("# Zebra mortgages\n\ndraft: true\n", False),
])
def test_a_page_is_a_draft_only_when_its_frontmatter_says_so(tmp_path: Path, page: str, draft: bool) -> None:
    from studio.core.coverage.drafts import DraftPages

    (tmp_path / "wiki").mkdir()
    (tmp_path / "wiki" / "zebra.md").write_bytes(page.encode("utf-8"))
    assert DraftPages(tmp_path).is_draft("wiki/zebra.md") is draft
