"""Every regular expression in ``studio`` runs in (near) linear time on hostile input of 100,000+ characters.

The patterns are found automatically, so a new one is covered without editing this file:

- every compiled pattern reachable from a module-level name of a ``studio`` module (directly or inside a list,
  tuple, dict or set, e.g. ``plain_yaml._IMPLICIT`` holds PyYAML's resolver patterns, which run on pack text);
- every ``re.<function>("literal", ...)`` call anywhere in ``studio``'s source (patterns compiled in a function);
- patterns built at run time inside a function (``re.compile(f"...{x}...")``) cannot be found that way: the
  source scan fails until such a call site is listed in ``DYNAMIC`` below with representative patterns (those
  built at module level are module-level names, found by the first rule).

A pattern that its module only ever anchors (``match``/``fullmatch`` at a known position, never a search) is
listed in ``ANCHORED_ONLY`` with the reason; it is then run with ``match`` and ``fullmatch`` only.

Each pattern is run (``finditer``, ``match``, ``fullmatch``) against runs of blanks, of ``<``, of ``#``, of
``[source:``, and of every literal piece of the pattern itself (its opening delimiter without its closer),
each 100,000+ characters long, under a time bound enforced with SIGALRM (the regex engine checks for signals).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import studio

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGALRM time bound")

N = 100_000
TIME_BOUND = 2.0
"""Seconds one pattern may take on one adversarial input (linear patterns take milliseconds)."""
SOURCE_ROOT = Path(studio.__file__).resolve().parent
RE_FUNCTIONS = {"compile", "search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"}


# Patterns only ever used anchored; a search over them would be quadratic, their use is linear.
ANCHORED_ONLY = {
    # json_limit matches it once at each string's opening quote and continues after the string
    "studio.core.checks._json_files._STRING_REST",
    # search() matches it at position 0 of each candidate (``_subsequence_pattern(q).match``)
    "studio/core/quick_open/ranking.py:_subsequence_pattern",
    # find_markup_breaks matches it once after each tag name; it either ends the tag (the scan goes on after it)
    # or fails once at the end of the text, and the scan stops there
    "studio.core.render.markup_scan._TAG_REST",
}

# Call sites that build their pattern at run time, with patterns they build from hostile-looking input.
DYNAMIC: dict[str, list[re.Pattern[str]]] = {
    # a frontmatter key the byte-exact edits (review, quick fixes) rewrite, find or rename
    "studio/core/frontmatter_edit.py:find_key": [
        re.compile(rf"^{re.escape(i)}{re.escape(k)}[ \t]*:(?=[ \t]|\r?\n|$)[ \t]*")
        for i in ("", "  ") for k in ("status", "trust", " " * 50)],
    "studio/core/frontmatter_edit.py:key_line": [
        re.compile(rf"^{re.escape(k)}[ \t]*:(?=[ \t]|\r?\n|$)") for k in ("status", " " * 50)],
    "studio/core/frontmatter_edit.py:rename_key": [re.compile(rf"^{re.escape(k)}[ \t]*:") for k in ("name", "<<")],
    # lines of KNOWLEDGE.md that mention a file about to be renamed
    "studio/core/authoring/files.py:_references": [
        re.compile(re.escape(rel) + r"(?![\w.-])") for rel in ("wiki/index.md", "a b", "[[[")],
    # a pattern keyword of the studio's own record schemas (the quick validity check)
    "studio/core/runs/quick_schema.py:_build": [re.compile(r"^\d{4}-\d{2}-\d{2}T")],
    # a search query's highlighter (terms, phrases with gaps, prefixes)
    "studio/core/search/textprep.py:__init__": [],  # filled below (needs parsed queries)
    # the CJK-range patterns of search text, compiled when text that is not ASCII first needs them
    "studio/core/search/textprep.py:_compiled": [],  # filled below (the module's own)
    # Quick open's fuzzy pattern for a typed query
    "studio/core/quick_open/ranking.py:_subsequence_pattern": [
        re.compile("".join(f"[^{re.escape(c)}]*+{re.escape(c)}" for c in q), re.DOTALL)
        for q in ("abc", "   ", "<<<", "a" * 30)],
    # the lenient wrapper-tag finder the render tests use
    "studio/core/render/escape.py:wrapper_tags": [],  # filled below (needs the module's private pieces)
    # the long-blank-run finder of the token counter, one pattern per threshold
    "studio/core/tokens.py:long_blank_runs": [],
    # the word and CJK patterns of the shared tokeniser, compiled on first use (fixed patterns)
    "studio/core/text/terms.py:_patterns": [],  # filled below (the module's own)
}


def _escape_wrapper_patterns() -> list[re.Pattern[str]]:
    from studio.core.render import escape

    return [re.compile(rf"<{escape._GAP}(?:/{escape._GAP})?{escape._spelled(name)}{escape._SKIP}(?=[\s/>])",
                       re.IGNORECASE) for name in escape.PROTECTED_ELEMENTS]


def _highlight_patterns() -> list[re.Pattern[str]]:
    from studio.core.search.textprep import Highlighter, parse_query

    out = []
    for text in ("refund window", '"a phrase" pre*', "语气 口吻", "<< ## [["):
        pattern = Highlighter(parse_query(text)).pattern
        if pattern is not None:
            out.append(pattern)
    return out


def _token_run_patterns() -> list[re.Pattern[str]]:
    from studio.core import tokens

    for length in (2, 100, tokens.LONG_BLANK_RUN):
        tokens.long_blank_runs(" x" * length, length)  # builds and caches the pattern
    return list(tokens._BLANK_RUN_CACHE.values())


# -- discovery -------------------------------------------------------------------------------------------------


def _studio_modules() -> Iterator[Any]:
    for info in pkgutil.walk_packages(studio.__path__, "studio."):
        yield importlib.import_module(info.name)


def _patterns_in(value: Any, depth: int = 0) -> Iterator[re.Pattern[str]]:
    if isinstance(value, re.Pattern):
        if isinstance(value.pattern, str):
            yield value
    elif depth < 3 and isinstance(value, dict):
        for item in value.values():
            yield from _patterns_in(item, depth + 1)
    elif depth < 3 and isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _patterns_in(item, depth + 1)


def module_level_patterns() -> dict[str, re.Pattern[str]]:
    found: dict[str, re.Pattern[str]] = {}
    for module in _studio_modules():
        for name, value in vars(module).items():
            for i, pattern in enumerate(_patterns_in(value)):
                found.setdefault(f"{module.__name__}.{name}[{i}]", pattern)
    return found


class _CallSites(ast.NodeVisitor):
    """``re.<function>(...)`` calls in one source file, with the function they are in."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.scope: list[str] = []
        self.literal: list[tuple[str, str, int]] = []
        self.dynamic: list[str] = []

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr in RE_FUNCTIONS and isinstance(func.value, ast.Name)
                and func.value.id in ("re", "regex") and node.args):
            where = f"{self.rel}:{self.scope[-1] if self.scope else '<module>'}"
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                self.literal.append((where, first.value, _literal_flags(node)))
            else:
                self.dynamic.append(where)
        self.generic_visit(node)


def _literal_flags(node: ast.Call) -> int:
    flags = 0
    candidates = list(node.args[1:]) + [k.value for k in node.keywords if k.arg == "flags"]
    for arg in candidates:
        for sub in ast.walk(arg):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "re":
                flag = getattr(re, sub.attr, None)
                if isinstance(flag, re.RegexFlag):
                    flags |= flag
    return flags


def source_call_sites() -> tuple[dict[str, re.Pattern[str]], list[str]]:
    literal: dict[str, re.Pattern[str]] = {}
    dynamic: list[str] = []
    for path in sorted(SOURCE_ROOT.rglob("*.py")):
        rel = path.relative_to(SOURCE_ROOT.parent).as_posix()
        visitor = _CallSites(rel)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        for i, (where, text, flags) in enumerate(visitor.literal):
            try:
                literal[f"{where}#{i}"] = re.compile(text, flags)
            except re.error:  # the call sits in a re.split/sub with a string that is data, not a pattern
                continue
        dynamic.extend(visitor.dynamic)
    return literal, dynamic


def all_patterns() -> dict[str, re.Pattern[str]]:
    from studio.core.search import textprep
    from studio.core.text import terms

    found = module_level_patterns()
    seen = {(p.pattern, p.flags) for p in found.values()}
    literal, _ = source_call_sites()
    found.update((k, p) for k, p in literal.items() if (p.pattern, p.flags) not in seen)
    DYNAMIC["studio/core/render/escape.py:wrapper_tags"] = _escape_wrapper_patterns()
    DYNAMIC["studio/core/tokens.py:long_blank_runs"] = _token_run_patterns()
    DYNAMIC["studio/core/search/textprep.py:__init__"] = _highlight_patterns()
    DYNAMIC["studio/core/search/textprep.py:_compiled"] = [
        textprep._compiled(source) for source in (textprep._TOKEN, textprep._CJK_RUN, textprep._PUNCT)]
    DYNAMIC["studio/core/text/terms.py:_patterns"] = list(terms._patterns())
    for where, patterns in DYNAMIC.items():
        for i, pattern in enumerate(patterns):
            found[f"{where}[{i}]"] = pattern
    return found


# -- adversarial inputs --------------------------------------------------------------------------------------

BASE_INPUTS = [" ", "\t", "\n", "<", "#", "[source:", " \n", "a ", "- ", "\\", '"', "*", "`", "&lt;", "<!--"]


def _literal_pieces(pattern: re.Pattern[str]) -> set[str]:
    """Every run of literal characters in ``pattern`` (its delimiters), found by the stdlib's parser."""
    try:
        from re import _parser as sre_parse  # type: ignore[attr-defined]
        from re._constants import LITERAL  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - Python < 3.11
        import sre_parse  # type: ignore[no-redef]
        from sre_constants import LITERAL  # type: ignore[no-redef]
    pieces: set[str] = set()

    def walk(items: Any) -> None:
        run = ""
        for op, arg in items:
            if op is LITERAL:
                run += chr(arg)
                continue
            if run:
                pieces.add(run)
                run = ""
            for sub in arg if isinstance(arg, list | tuple) else ():
                if isinstance(sub, sre_parse.SubPattern):
                    walk(sub)
                elif isinstance(sub, list | tuple):
                    for inner in sub:
                        if isinstance(inner, sre_parse.SubPattern):
                            walk(inner)
        if run:
            pieces.add(run)

    walk(sre_parse.parse(pattern.pattern, pattern.flags))
    return {p for p in pieces if p.strip() or p in (" ", "\t")}


def adversarial_inputs(pattern: re.Pattern[str]) -> list[str]:
    units = list(dict.fromkeys(BASE_INPUTS + sorted(_literal_pieces(pattern), key=len)[:24]))
    out: list[str] = []
    for unit in units:
        unit = unit[:40]
        body = unit * (N // len(unit) + 1)
        out += [body, f"a{body}b", f"key: a{' ' * N}{unit}"]
    return out


class _TooSlow(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _TooSlow


def _run(pattern: re.Pattern[str], text: str, anchored: bool) -> None:
    if not anchored:
        for _ in pattern.finditer(text):
            pass
    pattern.match(text)
    pattern.fullmatch(text)


PATTERNS = all_patterns()


def test_patterns_are_discovered() -> None:
    """The discovery finds the patterns this issue was about (a broken discovery would test nothing)."""
    names = " ".join(PATTERNS)
    for expected in ("studio.core.plain_yaml._LINE", "studio.core.evidence.citations._CITATION",
                     "studio.core.plain_yaml._IMPLICIT", "studio/core/checks/name_format.py:check"):
        assert expected in names
    assert len(PATTERNS) > 60


def test_every_runtime_built_pattern_is_registered() -> None:
    """A pattern built at run time cannot be found by reading the source: list its call site in DYNAMIC."""
    _, dynamic = source_call_sites()
    unregistered = sorted({d for d in dynamic if not d.endswith(":<module>")} - set(DYNAMIC))
    assert not unregistered, f"add these call sites to DYNAMIC with representative patterns: {unregistered}"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_pattern_is_linear_on_hostile_input(name: str) -> None:
    pattern = PATTERNS[name]
    anchored = any(name.startswith(prefix) for prefix in ANCHORED_ONLY)
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for text in adversarial_inputs(pattern):
            started = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, TIME_BOUND)
            try:
                _run(pattern, text, anchored)
            except _TooSlow:
                pytest.fail(f"{name} ({pattern.pattern[:80]!r}) took over {TIME_BOUND} s on "
                            f"{text[:30]!r}... ({len(text):,} characters)")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            assert time.perf_counter() - started < TIME_BOUND
    finally:
        signal.signal(signal.SIGALRM, previous)


# -- the two hangs the review found, end to end -----------------------------------------------------------------


@pytest.mark.timeout(30)
def test_a_blank_run_inside_a_plain_value_loads_quickly(make_pack) -> None:
    """``description: a<1 MB of blanks>b`` took about an hour to validate (16 s at 64k blanks)."""
    from studio.core.pack import load_pack

    root = make_pack("blank-value", "---\nname: blank-value\ndescription: a" + " " * 1_000_000
                     + "b\ntype: domain-reference\nstatus: ready\n---\nBody.\n")
    pack = load_pack(root)
    assert pack.description == "a" + " " * 1_000_000 + "b"
    assert "description-too-long" in {d.code for d in pack.diagnostics}


@pytest.mark.timeout(30)
def test_a_line_of_unclosed_citations_is_read_quickly(make_pack) -> None:
    """A 400 KB line of ``[source:`` openers without a closer took minutes to scan for citations."""
    from studio.core.evidence import build_evidence

    root = make_pack("citations", "---\nname: citations\ndescription: d\ntype: domain-reference\nstatus: ready\n"
                     "---\n", {"compiled/x.md": "[source:" * 50_000 + " [source: sources/a.md#L1]\n"})
    report = build_evidence(root)
    assert [c.citation.ref for c in report.citations] == ["sources/a.md#L1"]
