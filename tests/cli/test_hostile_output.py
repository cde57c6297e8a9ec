"""Hostile pack text never drives the terminal and never breaks JSON (issue #12, causes 9 and 12).

Every text-printing command runs on a pack whose folder name forges a summary line and whose name, description,
body, compiled files, sources, run records and source map carry ESC sequences (colours, a window title, clear
screen), C1 controls, bidi controls and stray carriage returns. Every JSON-printing command's output is parsed by a
strict reader (no NaN/Infinity) from its UTF-8 bytes, including with a non-UTF-8 folder name and argument.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from studio.cli import main
from studio.core.jsonwrite import dumps
from studio.core.terminal import printable, printable_block

ESC_TITLE = "\x1b]0;owned\x07"
CLEAR = "\x1b[2J\x1b[H"
C1_CSI = "\x9b31m"
BIDI = "\u202eevil\u202c"
HOSTILE = f"{ESC_TITLE}{CLEAR}{C1_CSI}{BIDI}\rforged"
FORGED_SUMMARY = "\n7 packs (7 load): 0 errors, 0 warnings, 0 info\n"
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]|\r(?!\n)")
SUMMARY = re.compile(r"\d+ packs? \(\d+ load\): \d+ errors?, \d+ warnings?, \d+ info")


def _yaml(text: str) -> str:
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


@pytest.fixture
def hostile(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    knowledge = (f"---\nname: {_yaml('hostile' + HOSTILE)}\ndescription: {_yaml('Hostile ' + HOSTILE)}\n"
                 "type: domain-reference\nstatus: ready\nprofile: wiki-first\n---\n"
                 f"# Guide {HOSTILE}\n\nRead compiled/facts.md {HOSTILE}\n")
    claim = {"claim_id": "c1" + HOSTILE, "text": "Claim " + HOSTILE, "status": "disputed",
             "source": {"path": "sources/notes.md", "anchor": "#L2"}, "compiled_into": ["compiled/facts.md"]}
    return make_pack("pack" + FORGED_SUMMARY.replace("\n", "\n") + "\x1b[31mred", knowledge, {
        "compiled/facts.md": f"# Facts\n\nThe widget {HOSTILE} weighs 2 kg. [source: sources/notes.md#L2]\n",
        "sources/notes.md": f"# Notes\nLine two {HOSTILE}\n",
        "indexes/source-map.json": json.dumps({"claims": [claim]}),
        "runs/compile-2026-05-01T10-00-00Z.json": json.dumps({"status": "passed" + HOSTILE,
                                                               "run_id": "r" + HOSTILE, "note" + HOSTILE: 1}),
        "runs/log" + "\x1b[2J" + ".md": f"# Log {HOSTILE}\nstatus: passed\n",
        "runs/context-2026-05-01T10-00-00Z.json": json.dumps({"record": "context", "query": "widget " + HOSTILE,
                                                              "selected": ["compiled/facts.md"]}),
        "evals/answer-quality.json": json.dumps({"pack_name": "hostile", "evals": [
            {"id": "case" + HOSTILE + FORGED_SUMMARY, "prompt": "How heavy is the widget " + HOSTILE,
             "required_context": ["compiled/facts.md" + HOSTILE]}]}),
        "documents/odd" + HOSTILE.replace("\r", "") + "#x.md": f"# Odd {HOSTILE}\n",
    }, parent=tmp_path / ("ws" + "\x1b]0;t\x07"))


def _tool_ids(pack: Path) -> list[str]:
    """The ids ``guide --as-tool`` lists for the pack (its odd file names included)."""
    from studio.core.pack import load_pack
    from studio.core.render.tool_form import build_tool_form

    return [f.id for f in build_tool_form(load_pack(pack)).files]


TEXT_COMMANDS: list[Callable[[Path], list[str]]] = [
    lambda p: ["validate", str(p.parent)],
    lambda p: ["validate", "--content", str(p)],
    lambda p: ["catalog", str(p.parent)],
    lambda p: ["guide", str(p)],
    lambda p: ["fence", str(p), "--files", "compiled/facts.md", "no\x1b[2Jsuch.md"],
    lambda p: ["resolve", str(p), "--task", "widget " + HOSTILE],
    lambda p: ["resolve", str(p), "--task", "widget", "--format", "fenced"],
    lambda p: ["resolve", str(p.parent), "--task", "widget odd facts " + HOSTILE + FORGED_SUMMARY, "--layers"],
    lambda p: ["runs", str(p)],
    lambda p: ["evidence", str(p)],
    lambda p: ["evidence", str(p), "--claim", "c1" + HOSTILE],
    lambda p: ["evidence", str(p), "--claim", "nope" + HOSTILE],
    lambda p: ["review", str(p), "--decision", "confirm", "--reason", "ok" + HOSTILE, "--reviewer", "r" + HOSTILE,
               "--set-status", "disputed", "--dry-run"],
    lambda p: ["rules", "no-such" + HOSTILE],
    lambda p: ["eval", str(p), "--suite", str(p / "evals" / "answer-quality.json")],
    lambda p: ["feedback", str(p), "--file", "compiled/facts.md" + HOSTILE, "--outcome", "helpful",
               "--task", "t" + HOSTILE, "--dry-run"],
    lambda p: ["feedback", str(p), "--file", "compiled/facts.md", "--outcome", "helpful",
               "--task", "t" + HOSTILE, "--reviewer", "r" + HOSTILE, "--dry-run"],
    lambda p: ["guide", str(p), "--as-tool"],
    lambda p: ["read-files", str(p), "--ids", "no" + HOSTILE, *_tool_ids(p)],
    lambda p: ["coverage", str(p)],
    lambda p: ["gap", str(p), "--task", "widget colour " + HOSTILE],
    lambda p: ["diff", str(p), str(p)],
    lambda p: ["search", "widget", str(p.parent), "--cache-dir", str(p.parent.parent / "search-cache")],
    lambda p: ["index", "--project", str(p.parent)],
    lambda p: ["visibility", str(p)],
    lambda p: ["format", str(p)],
    lambda p: ["fix", str(p)],
    lambda p: ["new", "x" + HOSTILE, "--dry-run", "--into", str(p.parent.parent / "new")],
    lambda p: ["cache", "--info"],
    lambda p: ["to-catalog", str(p)],
    lambda p: ["validate-run", str(p / "runs" / "compile-2026-05-01T10-00-00Z.json")],
    lambda p: ["resolve-context", str(p), "--query", "widget " + HOSTILE],
    lambda p: ["dispute", "list", str(p)],
    lambda p: ["dispute", "open", str(p), "--claim", "c1" + HOSTILE, "--reason", "no" + HOSTILE + FORGED_SUMMARY,
               "--author", "a" + HOSTILE],
    lambda p: ["dispute", "list", str(p)],
    lambda p: ["dispute", "open", str(p), "--claim", "nope" + HOSTILE, "--reason", "r"],
]


TEXT_IDS = ["validate", "validate-content", "catalog", "guide", "fence", "resolve", "resolve-fenced",
            "resolve-layers", "runs",
            "evidence", "evidence-claim", "evidence-no-claim", "review", "rules", "eval", "feedback-file",
            "feedback-task", "guide-as-tool", "read-files", "coverage", "gap", "diff", "search", "index",
            "visibility", "format", "fix", "new", "cache", "to-catalog", "validate-run",
            "resolve-context", "dispute-list", "dispute-open", "dispute-list-after", "dispute-unknown"]
ARTEFACTS = ("catalog", "guide", "fence", "read-files")
"""Commands whose output is a thing an agent receives: exact when redirected, escaped only on a terminal."""
NOT_TEXT = {"open": "opens the window; no text output",
            "read-properties": "prints JSON only (in the JSON test below)"}


def test_every_command_is_tried_on_hostile_text(hostile: Path) -> None:
    """A command added later is covered here too, or the reason it is not is written down."""
    from studio.cli import command_names

    tried = {argv(hostile)[0] for argv in TEXT_COMMANDS}
    assert tried | set(NOT_TEXT) == set(command_names())


@pytest.mark.parametrize("argv", TEXT_COMMANDS, ids=TEXT_IDS)
def test_text_output_never_carries_a_control_sequence(hostile: Path, argv: Callable[[Path], list[str]],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    args = argv(hostile)
    code = main(args)
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    artefact = args[0] in ARTEFACTS or "fenced" in args
    checked = err if artefact else out + err  # an artefact redirected to a file is kept byte for byte
    found = UNSAFE.search(checked)
    near = checked[max(0, found.start() - 40):found.end()] if found else ""
    assert found is None, f"{args[0]} printed {found.group()!r} near {near!r}"
    assert "Traceback" not in out + err


@pytest.mark.parametrize("argv", [TEXT_COMMANDS[TEXT_IDS.index(name)] for name in ("resolve-layers", "search")],
                         ids=["resolve-layers", "search"])
def test_pack_text_cannot_start_a_line_of_its_own(hostile: Path, argv: Callable[[Path], list[str]],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # The folder name, the task and the pack's texts carry a line break and a forged summary line.
    assert main(argv(hostile)) in (0, 1)
    out = capsys.readouterr().out
    assert out.strip()
    assert not [line for line in out.splitlines() if SUMMARY.fullmatch(line.strip())], out


def test_a_folder_name_cannot_forge_validates_summary(hostile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["validate", str(hostile.parent)])
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if SUMMARY.fullmatch(line)] == [out.splitlines()[-1]]
    assert "\\n7 packs (7 load)" in out  # shown, escaped, inside the finding's path


@pytest.mark.parametrize("artefact", [["guide"], ["guide", "--as-tool"], ["read-files"]],
                         ids=["guide", "guide-as-tool", "read-files"])
def test_an_artefact_is_exact_in_a_file_and_inert_on_a_terminal(hostile: Path, artefact: list[str]) -> None:
    """Redirected, an artefact carries the C1 control as it is in the pack; on a terminal (a real pty) it is
    escaped, bidi overrides included."""
    extra = ["--ids", *_tool_ids(hostile)] if artefact == ["read-files"] else artefact[1:]
    command = [sys.executable, "-m", "studio", artefact[0], str(hostile), *extra]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    piped = subprocess.run(command, capture_output=True, env=env, timeout=120)
    assert "\x9b".encode() in piped.stdout
    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen(command, stdout=follower, stderr=subprocess.DEVNULL, env=env)
        os.close(follower)
        chunks = []
        while True:
            ready, _, _ = select.select([leader], [], [], 120)
            if not ready:
                break
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            chunks.append(chunk)
        proc.wait(timeout=120)
    finally:
        os.close(leader)
    shown = b"".join(chunks).decode("utf-8")
    assert "\x9b" not in shown and "\\x9b31m" in shown and "\u202e" not in shown and "\x1b" not in shown
    assert "\\u202e" in shown


JSON_COMMANDS: list[Callable[[Path], list[str]]] = [
    lambda p: ["validate", "--content", "--format", "json", str(p.parent)],
    lambda p: ["catalog", "--format", "json", str(p.parent)],
    lambda p: ["resolve", str(p), "--task", "widget", "--format", "json"],
    lambda p: ["resolve-context", str(p), "--query", "widget"],
    lambda p: ["runs", str(p), "--format", "json"],
    lambda p: ["evidence", str(p), "--format", "json"],
    lambda p: ["validate-run", str(p / "runs" / "compile-2026-05-01T10-00-00Z.json")],
    lambda p: ["read-properties", str(p)],
    lambda p: ["to-catalog", str(p)],
    lambda p: ["review", str(p), "--decision", "confirm", "--reason", "ok", "--dry-run", "--format", "json"],
]


def _strict(raw: bytes) -> object:
    def refuse(name: str) -> object:
        raise ValueError(f"{name} is not JSON")

    return json.loads(raw.decode("utf-8"), parse_constant=refuse)


def _run(args: list[str | bytes], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable.encode(), b"-m", b"studio", *(a if isinstance(a, bytes) else
                                                                          a.encode() for a in args)],
                          capture_output=True, env=env, timeout=300, cwd=cwd)


@pytest.mark.slow
def test_json_output_is_strict_utf8_even_for_non_utf8_names(make_pack: Callable[..., Path], tmp_path: Path) -> None:
    """A non-UTF-8 folder name and argument, NaN, !!binary and a 5,000-digit integer: every JSON output still
    parses strictly from its bytes (a real process: what a tool reading the pipe gets)."""
    big = "9" * 5000
    knowledge = ("---\nname: odd\ndescription: d\ntype: domain-reference\nstatus: ready\nmetadata:\n"
                 f"  blob: !!binary AAEC\n  nan: .nan\n  inf: -.inf\n  big: {big}\n  when: 2026-01-01\n"
                 "---\nBody \x9b\n")
    root = make_pack("odd", knowledge, {"runs/r.json": '{"status": "passed", "score": NaN, "x": "\\u009b"}'})
    odd = os.fsencode(tmp_path) + b"/ws-caf\xe9"
    os.mkdir(odd)
    os.rename(root, odd + b"/odd")
    pack = odd + b"/odd"
    for argv in JSON_COMMANDS:
        args: list[str | bytes] = [os.fsencode(a) if isinstance(a, str) else a
                                   for a in argv(Path(os.fsdecode(pack)))]
        result = _run(args, tmp_path)
        assert b"Traceback" not in result.stderr, (args[0], result.stderr[-600:])
        doc = _strict(result.stdout)
        assert doc is not None
        assert b"\xc2\x9b" not in result.stdout  # C1 controls are \u escapes, inert on a terminal
    result = _run(["to-catalog", pack], tmp_path)
    meta = _strict(result.stdout)["metadata"]  # type: ignore[index]
    assert meta["blob"] == "AAEC" and meta["nan"] == ".nan" and meta["inf"] == "-.inf"
    assert b"binary data" in result.stderr


def _json_values() -> st.SearchStrategy[object]:
    huge = st.integers(0, 9).map(lambda d: 10 ** 5000 + d)
    leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.binary(max_size=8),
                       st.text(alphabet=st.characters(codec=None), max_size=12), huge, st.dates())
    return st.recursive(leaves, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.text(max_size=5), st.integers()), inner,
                                                     max_size=4)), max_leaves=12)


@given(_json_values())
@example({"\x7f": 0})  # DEL is ASCII: the writer's all-ASCII fast path once let it through, in a key or a value
@example(["\x7f", {"k": "a\x7f"}])
@example("\x7f")
def test_the_writer_always_gives_strict_utf8(value: object) -> None:
    text = dumps(value)
    assert _strict(text.encode("utf-8")) is not None or text == "null"
    assert UNSAFE.search(text.replace("\n", "")) is None


@given(st.text(alphabet=st.characters(codec=None)))
def test_printable_is_one_inert_line(text: str) -> None:
    shown = printable(text)
    assert "\n" not in shown and UNSAFE.search(shown) is None
    shown.encode("utf-8")  # no lone surrogate survives
    block = printable_block(text)
    assert block.count("\n") == text.count("\n") and UNSAFE.search(block) is None
    plain = not any(0xD800 <= ord(c) <= 0xDFFF or c in "\n\t" for c in text)
    if UNSAFE.search(text) is None and plain:
        assert shown == text  # ordinary text is untouched


def test_surrogates_show_the_byte_they_stand_for() -> None:
    assert printable(os.fsdecode(b"caf\xe9")) == "caf\\xe9"
    assert printable("a\x1b[2Jb\nc\u202e") == "a\\x1b[2Jb\\nc\\u202e"
    assert dumps(os.fsdecode(b"caf\xe9")) == '"caf\ufffd"'
