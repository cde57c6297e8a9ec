"""``pack-studio search``, ``pack-studio index`` and ``pack-studio resolve --layers`` through ``main([...])``."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.search import store as store_module
from studio.core.search.store import INDEX_FILE

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture(autouse=True)
def private_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Every command's default cache folder is the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "knowledge-pack-studio"


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_search_json_has_the_documented_shape(capsys: pytest.CaptureFixture[str], private_cache: Path) -> None:
    code, data = _json(capsys, ["search", "refund window", str(EXAMPLES), "--format", "json", "--limit", "5"])
    assert code == 0
    assert data["query"] == "refund window" and data["matched"] == "all"
    assert len(data["results"]) == 5
    first = data["results"][0]
    assert set(first) >= {"pack", "path", "line", "heading", "score", "snippet"}
    assert first["pack"] == "harbor-support-playbook" and first["line"] >= 1
    assert data["index"]["path"] == str(private_cache / INDEX_FILE) and data["index"]["files"] > 50
    assert (private_cache / INDEX_FILE).is_file()


def test_search_finds_chinese_and_groups_by_pack_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "语气", str(EXAMPLES)]) == 0
    out = capsys.readouterr().out
    assert "lin-yue-persona  (" in out
    assert "compiled/splits/persona-handbook/002_voice.md:1  § 林悦：声音与语气" in out
    assert "«语气»" in out


def test_the_summary_counts_the_packs_holding_a_hit_apart_from_those_searched(
        capsys: pytest.CaptureFixture[str], private_cache: Path) -> None:
    assert main(["search", "warranty", str(EXAMPLES), "--limit", "50"]) == 0
    out = capsys.readouterr().out
    holding = {line.split("  (")[0] for line in out.splitlines()[1:] if not line.startswith(" ") and "  (" in line}
    searched = len([p for p in EXAMPLES.iterdir() if (p / "KNOWLEDGE.md").is_file()])
    assert len(holding) < searched  # the query is one some packs do not answer
    assert f"in {len(holding)} pack{'s' if len(holding) > 1 else ''} ({searched} packs searched)" in out.splitlines()[0]


def test_search_filters_and_exit_status(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, data = _json(capsys, ["search", "boundaries", str(EXAMPLES), "--pack", "northwind-espresso",
                                "--kind", "split", "--format", "json", "--cache-dir", str(tmp_path / "c")])
    assert code == 0 and {(r["pack"], r["kind"]) for r in data["results"]} == {("northwind-espresso", "split")}
    assert (tmp_path / "c" / INDEX_FILE).is_file()
    assert main(["search", "zyxwvutsrq", str(EXAMPLES)]) == 1
    assert main(["search", "x", str(EXAMPLES), "--limit", "0"]) == 2


def test_search_output_never_carries_terminal_escapes(capsys: pytest.CaptureFixture[str],
                                                      make_pack: Callable[..., Path]) -> None:
    root = make_pack("escapes", "---\nname: escapes\ndescription: x\ntype: domain-reference\nstatus: ready\n---\n",
                     {"wiki/a.md": "# Page\n\nbefore \x1b]0;pwned\x07 gremlin \x1b[2J after\n"})
    assert main(["search", "gremlin", str(root)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "«gremlin»" in out



def test_search_text_escapes_every_string_it_prints(capsys: pytest.CaptureFixture[str],
                                                    make_pack: Callable[..., Path]) -> None:
    """File name, pack folder and the query echoed back: each shows its control characters as escapes."""
    hostile = "---\nname: \"red\\x1b[31mpack\"\ndescription: x\ntype: domain-reference\nstatus: ready\n---\n"
    root = make_pack("hostile\x1b[35m", hostile, {"compiled/\x1b[33mname.md": "# Head \x1b[1mbold\n\ngremlin text\n"})
    assert main(["search", "\x1b[31m gremlin", str(root)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out, out
    assert "\\x1b[31m gremlin: 1 result" in out
    assert "  compiled/\\x1b[33mname.md:" in out and "hostile\\x1b[35m)" in out
    assert main(["search", "\x1b[31mnothing-here", str(root)]) == 1
    captured = capsys.readouterr()
    assert "\x1b" not in captured.out + captured.err and "\\x1b[31mnothing-here: 0 results" in captured.out


@pytest.mark.parametrize("query", ["", "   ", "?!"])
def test_an_empty_query_is_a_usage_error(query: str, capsys: pytest.CaptureFixture[str], private_cache: Path) -> None:
    assert main(["search", query, str(EXAMPLES)]) == 2
    err = capsys.readouterr().err
    assert "nothing to search for" in err and "Traceback" not in err
    assert not (private_cache / INDEX_FILE).exists()  # refused before any indexing

def test_index_prints_the_l0_lines_and_reports_its_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(EXAMPLES)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("<knowledge_index") and lines[-1] == "</knowledge_index>"
    assert "harbor-support-playbook|wiki/concepts/refund-workflow.md|wiki|Refund workflow|" in captured.out
    assert "KB" in captured.err and "% of the content, target under 5%" in captured.err


def test_index_json_and_the_alarm(capsys: pytest.CaptureFixture[str], make_pack: Callable[..., Path]) -> None:
    code, data = _json(capsys, ["index", str(EXAMPLES), "--format", "json"])
    assert code == 0
    assert set(data) >= {"entries", "bytes", "tokens", "content_bytes", "ratio", "warnings"}
    assert data["bytes"] < 20 * 1024 and not any(w["code"] == "knowledge-index-over-alarm" for w in data["warnings"])
    pages = {f"wiki/p{n:03d}.md": f"# A page with a title long enough to count {n}\n\nx\n" for n in range(300)}
    big = make_pack("big", "---\nname: big\ndescription: x\ntype: domain-reference\nstatus: ready\n---\n", pages)
    code, data = _json(capsys, ["index", str(big), "--format", "json"])
    assert [w["code"] for w in data["warnings"]] == ["knowledge-index-over-alarm", "knowledge-index-over-share",
                                                     "knowledge-index-pack-over-entries"]
    code, data = _json(capsys, ["index", str(EXAMPLES), "--pack", "orbit-launch-notes", "--format", "json"])
    assert {e["pack"] for e in data["entries"]} == {"orbit-launch-notes"}


def test_resolve_layers_beside_the_resolver(capsys: pytest.CaptureFixture[str]) -> None:
    pack = str(EXAMPLES / "harbor-support-playbook")
    code, data = _json(capsys, ["resolve", pack, "--task", "refund window for annual plans", "--layers",
                                "--format", "json"])
    assert code == 0
    layers = data["layers"]
    assert layers["decision"] == "search" and layers["l1"]["results"]
    assert layers["tokens"]["total"] == layers["tokens"]["l0"] + layers["tokens"]["l1"] + layers["tokens"]["l2"]
    assert layers["resolver"]["tokens"] == data["tokens_used"]
    assert main(["resolve", pack, "--task", "quantum teleportation", "--layers"]) in (0, 1)
    out = capsys.readouterr().out
    assert "-> gap" in out and "gaps (no file mentions them): quantum, teleportation" in out


def test_index_keeps_token_counts_in_the_cache_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cache = tmp_path / "counts"
    code, first = _json(capsys, ["index", str(EXAMPLES), "--cache-dir", str(cache), "--format", "json"])
    assert code == 0 and (cache / INDEX_FILE).is_file()
    code, exact = _json(capsys, ["index", str(EXAMPLES), "--exact-tokens", "--format", "json"])
    assert first["tokens_estimated"] == exact["tokens_estimated"] == 0
    assert [e["tokens"] for e in first["entries"]] == [e["tokens"] for e in exact["entries"]]


def _indexed_examples_and_a_new_pack(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> tuple[Path, Path]:
    """A cache whose index holds the examples, and a pack it has not seen yet (so the next search must write)."""
    cache = tmp_path / "cache"
    assert main(["search", "refund", str(EXAMPLES), "--cache-dir", str(cache)]) == 0
    capsys.readouterr()
    extra = tmp_path / "extra"
    (extra / "wiki").mkdir(parents=True)
    (extra / "KNOWLEDGE.md").write_text("---\nname: extra\ndescription: x\ntype: domain-reference\n"
                                        "status: ready\n---\n# Extra\n\nMarmalade.\n", encoding="utf-8")
    return cache, extra


def test_search_while_another_process_holds_the_index(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    cache, extra = _indexed_examples_and_a_new_pack(capsys, tmp_path)
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_S", 0.2)
    holder = sqlite3.connect(cache / INDEX_FILE, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # what a studio building the index from nothing does for seconds
    try:
        code = main(["search", "refund", str(EXAMPLES), str(extra), "--cache-dir", str(cache)])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    captured = capsys.readouterr()
    assert code == 0 and "refund" in captured.out.lower()  # what the index held is still searched
    assert "could not be brought up to date" in captured.err and "Traceback" not in captured.err


@pytest.mark.parametrize("by_name", [False, True])
def test_a_scan_stopped_at_its_limit_says_so(by_name: bool, capsys: pytest.CaptureFixture[str],
                                             make_pack: Callable[..., Path], tmp_path: Path,
                                             private_cache: Path) -> None:
    """A search over part of the workspace must not look like a search over all of it."""
    for i in range(6):
        make_pack(f"p{i}", f"---\nname: p{i}\ndescription: kettle pack {i}\ntype: domain-reference\n"
                  "status: ready\n---\n# Guide\n\nKettle facts.\n", parent=tmp_path / "ws" / f"group{i}")
    argv = ["search", "kettle", str(tmp_path / "ws"), "--max-dirs", "3"] + (["--pack", "p0"] if by_name else [])
    main(argv)
    err = capsys.readouterr().err
    assert "search: warning:" in err and "not scanned" in err


@pytest.mark.slow
def test_a_warm_search_sees_a_pack_made_since_and_no_cache_stores_no_scan(capsys: pytest.CaptureFixture[str],
                                                                        make_pack: Callable[..., Path],
                                                                        tmp_path: Path, private_cache: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    guide = "---\nname: {0}\ndescription: kettle pack\ntype: domain-reference\nstatus: ready\n---\n# Guide\n\nKettle.\n"
    make_pack("p0", guide.format("p0"), parent=tmp_path / "ws" / "a")
    time.sleep(2.1)  # older than the result cache's racy margin: this scan is stored
    assert main(["search", "kettle", str(tmp_path / "ws")]) == 0
    capsys.readouterr()
    with sqlite3.connect(private_cache / "results.sqlite3") as conn:
        assert conn.execute("SELECT count(*) FROM scans").fetchone()[0] == 1
    make_pack("p1", guide.format("p1"), parent=tmp_path / "ws" / "b")  # a new folder of packs since
    code, data = _json(capsys, ["search", "kettle", str(tmp_path / "ws"), "--format", "json"])
    assert code == 0 and sorted({r["pack"] for r in data["results"]}) == ["p0", "p1"]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other"))
    assert main(["search", "kettle", str(tmp_path / "ws"), "--no-cache"]) == 0
    assert not (tmp_path / "other" / "knowledge-pack-studio" / "results.sqlite3").exists()


def test_an_engine_that_cannot_write_still_searches_what_it_holds(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # A full disk or a process out of descriptors makes the engine's writer fail: a sentence, never a traceback.
    from studio.core.search import engine as engine_module

    cache, extra = _indexed_examples_and_a_new_pack(capsys, tmp_path)

    def cannot_write(self: object, *, fresh: bool = False) -> object:
        raise engine_module.EngineUnavailable("No space left on device")

    monkeypatch.setattr(engine_module.Engine, "writer", cannot_write)
    code = main(["search", "refund", str(EXAMPLES), str(extra), "--cache-dir", str(cache)])
    captured = capsys.readouterr()
    assert code == 0 and "refund" in captured.out.lower()
    assert "could not be brought up to date" in captured.err and "No space left" in captured.err
