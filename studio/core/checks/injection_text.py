"""V63 ``prompt-injection-text`` and ``fence-breaking-text``: text in the pack that talks to the model.

Packs are data, and the runtime fence keeps them so, but a curator should still see where content
addresses the model ("ignore previous instructions", "you are now ...", "忽略之前的指令", chat-template
tokens) or would change how a parser reads a fence around it if a client pasted it unescaped: a wrapper tag
(``</knowledge_pack>``) in any spelling, ``<![CDATA[`` or ``]]>``, a comment, ``<script>``-like element or tag
that is never closed, a ``<plaintext>``, a ``<file>`` or ``<warning>`` tag (``render.markup_scan``). A balanced
comment such as ``<!-- split 1/3 of documents/x.md -->`` changes nothing and is not flagged. Both are
warnings: the pack still loads, its content is still fenced and escaped, never obeyed.

Scanned: the whole ``KNOWLEDGE.md`` (the frontmatter too, since ``description`` reaches the catalog)
and text files (Markdown, plain text, subtitles, CSV) under ``compiled/``, ``documents/``, ``wiki/``
and ``sources/``, as the shared walk of the pack lists them. Bounded: files over 2 MB are skipped, at most
400 files and 16 MB are read, at most 20 findings are reported per file; symlinks are never followed out of
the pack, and symlinked directories are not entered. When a limit stops the scan, an
``injection-scan-limited`` info says so. A file with a NUL byte is binary to the studio (the resolver and
``fence`` leave it out), so it is not scanned; an ``injection-scan-binary`` info names it, and names a file
that is not valid UTF-8 (it is scanned as the resolver and the fence decode it, with replacement characters).
The phrases are matched by RE2 (linear time, no backtracking) in one pass over each file's bytes.
Quoting hostile text on purpose (a security pack, a test case) will be flagged too; that is the point:
a human decides.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.fastre import compile_re2
from studio.core.pack_fs import LinkState, Status
from studio.core.render.escape import FENCE_BREAK_PATTERN, strip_forbidden
from studio.core.render.markup_scan import find_markup_breaks
from studio.core.textfiles import is_binary

INJECTION_SCAN_BINARY = Code("injection-scan-binary", Severity.INFO,
                             "a pack text file is binary or not UTF-8: not scanned as written", Behavior.LOAD, "V63",
                             hint="Save it as UTF-8 text if it is meant to be read.")
INJECTION_SCAN_LIMITED = Code(
    "injection-scan-limited", Severity.INFO,
    "the injection scan skipped very large files or stopped at its file or byte limit",
    Behavior.LOAD, "V63", hint="Review very large files by hand, or split them.")
PROMPT_INJECTION_TEXT = Code("prompt-injection-text", Severity.WARNING,
                             "instruction-like text in pack content (it stays fenced as data, never obeyed)",
                             Behavior.LOAD, "V63",
                             hint="Remove it, or quote it clearly as an example if the pack documents such text.")
FENCE_BREAKING_TEXT = Code("fence-breaking-text", Severity.WARNING,
                           "pack text that would change how a parser reads a fence if it were not escaped (a "
                           "wrapper tag, CDATA, an unclosed comment, tag or raw-text element)",
                           Behavior.LOAD, "V63", hint="Remove or reword it; if the pack documents the wrapper format "
                           "on purpose, it may stay.")
CODES = (PROMPT_INJECTION_TEXT, FENCE_BREAKING_TEXT, INJECTION_SCAN_BINARY, INJECTION_SCAN_LIMITED)

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_FILES = 400
MAX_TOTAL_BYTES = 16 * 1024 * 1024
"""Bytes read per pack: the scan costs about a second per MB on a slow machine, so it stops here."""
MAX_FINDINGS_PER_FILE = 20
SCANNED_DIRS = ("compiled", "documents", "wiki", "sources")
_SCANNED_PREFIXES = tuple(f"{d}/" for d in SCANNED_DIRS)
TEXT_SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".txt", ".text", ".rst", ".vtt", ".srt", ".csv"})

_EN_TARGET = r"(?:instructions?|prompts?|rules?|directions?|directives?|guidelines?|messages?|context)"
_INSTRUCTION_PATTERNS: tuple[tuple[str, str], ...] = (
    ("asks the model to drop its instructions",
     r"\b(?:ignore|disregard|forget|override|bypass|skip)\s++(?:all\s++|any\s++)?(?:of\s++)?"
     r"(?:the\s++|your\s++|my\s++|these\s++|those\s++)?"
     r"(?:previous|prior|above|earlier|preceding|foregoing|original|system|existing)\s++" + _EN_TARGET + r"\b"),
    ("asks the model to drop its instructions",
     r"\bdisregard\s++(?:everything\s++|all\s++)?(?:that\s++is\s++|the\s++)?above\b"),
    ("tries to give the model a new identity", r"\byou\s++are\s++now\b"),
    ("addresses the system prompt",
     r"\b(?:reveal|print|show|repeat|output|leak|ignore|override|replace|new|updated)\s++"
     r"(?:me\s++)?(?:the\s++|your\s++)?system\s++prompt\b|\bsystem\s++prompt\s*:"),
    ("announces new instructions", r"\bnew\s++instructions?\s*:"),
    ("asks for an unrestricted mode", r"\b(?:developer|god|jailbreak|dan)\s++mode\b"),
    ("contains a chat-template control token", r"<\|(?:im_start|im_end|endoftext|system)\|>|\[/?INST\]|<</?SYS>>"),
    ("asks the model to drop its instructions (Chinese)",
     r"(?:忽略|无视|忽视|忘记|忘掉|不要理会|不要遵守)[^\n。！？]{0,8}?(?:指令|指示|提示词|规则|设定|命令)"),
    ("tries to give the model a new identity (Chinese)", r"你现在(?:是|扮演|的身份是)"),
    ("addresses the system prompt (Chinese)",
     r"系统提示词|(?:显示|输出|泄露|透露|重复|忽略)[^\n。]{0,4}?系统提示"),
    ("announces new instructions (Chinese)", r"新的?指令\s*[:：]"),
)
# One alternation, one pass over the bytes, in RE2 (``fastre``): no backtracking at all, at C speed (the
# content checks run in every ``validate``, over every text file; Python's ``re`` ran this at 1.4 MB/s).
# The wrapper-tag and CDATA pattern rides in the same pass as the last group: one DFA over each file.
_SCAN_RE = compile_re2("|".join(f"({pattern})" for pattern in [p for _, p in _INSTRUCTION_PATTERNS]
                                + [FENCE_BREAK_PATTERN]), ignore_case=True, as_bytes=True)
_FENCE_GROUP = len(_INSTRUCTION_PATTERNS) + 1
_FENCE_BREAK_BYTES = compile_re2(FENCE_BREAK_PATTERN, ignore_case=True, as_bytes=True)


@dataclass(frozen=True, slots=True)
class TextFinding:
    """One suspicious span in a text, before it becomes a diagnostic."""

    code: str
    offset: int
    length: int
    label: str


def find_injection_text(text: str) -> list[TextFinding]:
    """Instruction-like and fence-breaking spans in ``text``, ordered by (character) position."""
    return _scan(text.encode("utf-8", errors="surrogatepass"), text)


def _scan(data: bytes, text: str) -> list[TextFinding]:
    """Every finding in one text: ``data`` is ``text`` as UTF-8 (RE2 reads bytes; positions are characters).

    One RE2 pass finds the phrases and the wrapper tags; the markup scan (``markup_scan``) runs only when the
    text has a ``<`` at all. Same findings as ``find_fence_breaks`` plus the phrases, in one pass less.
    """
    phrases: list[tuple[int, int, str]] = []
    breaks: list[tuple[int, int, str]] = []
    for match in _SCAN_RE.finditer(data):
        start, end = match.span()
        if match.lastindex == _FENCE_GROUP:
            breaks.append((start, end, "would open or close the runtime fence"))
            continue
        phrases.append((start, end, _INSTRUCTION_PATTERNS[(match.lastindex or 1) - 1][0]))
        if b"<" in data[start:end] or b"]]>" in data[start:end]:  # a wrapper tag inside a phrase's span
            breaks += [(start + m.start(), start + m.end(), "would open or close the runtime fence")
                       for m in _FENCE_BREAK_BYTES.finditer(data[start:end])]
    found = [TextFinding(PROMPT_INJECTION_TEXT.code, _chars(data, a), _chars(data, b) - _chars(data, a), label)
             for a, b, label in phrases[:MAX_FINDINGS_PER_FILE]]
    if breaks:
        found += [TextFinding(FENCE_BREAKING_TEXT.code, _chars(data, a), _chars(data, b) - _chars(data, a), label)
                  for a, b, label in sorted(breaks)[:MAX_FINDINGS_PER_FILE]]
    if b"<" in data:
        found += [TextFinding(FENCE_BREAKING_TEXT.code, b.offset, len(b.text), b.why)
                  for b in find_markup_breaks(text)[:MAX_FINDINGS_PER_FILE]]
    if len(found) > 1:
        found.sort(key=lambda f: (f.offset, f.code))
    return found


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    yield from check_knowledge(ctx)
    yield from check_files(ctx)


def check_knowledge(ctx: CheckContext) -> Iterator[Diagnostic]:
    """The scan of ``KNOWLEDGE.md`` as loaded (the editor's buffer, when it validates one)."""
    if ctx.pack.knowledge is not None:
        text = ctx.pack.knowledge.text
        yield from _diagnose("KNOWLEDGE.md", text.encode("utf-8", errors="surrogatepass"), text)


def check_files(ctx: CheckContext) -> Iterator[Diagnostic]:
    """The scan of the pack's text files on disk (everything but ``KNOWLEDGE.md``)."""
    files, limited = _text_files(ctx)
    budget = MAX_TOTAL_BYTES
    for rel in files:
        if budget <= 0:
            limited = True
            break
        result = ctx.fs.read(rel, MAX_FILE_BYTES + 1)
        data, size = result.data, result.size
        if result.status is not Status.OK or data is None:
            continue  # unreadable files are reported by the checks that own them
        if size > MAX_FILE_BYTES:
            limited = True
            continue
        budget -= len(data)
        if is_binary(data):  # binary despite its suffix; the resolver and ``fence`` leave it out too
            yield INJECTION_SCAN_BINARY(f"{rel} contains NUL bytes, so it is binary, not text (UTF-16, perhaps): "
                                        "not scanned, and never sent to a model", rel)
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield INJECTION_SCAN_BINARY(f"{rel} is not valid UTF-8 (byte offset {exc.start}); scanned as the resolver "
                                        "and fence read it, with replacement characters", rel,
                                        hint="Save it as UTF-8 text.")
            text = data.decode("utf-8", errors="replace")
            data = text.encode("utf-8")
        yield from _diagnose(rel, data, text)
    if limited:
        yield INJECTION_SCAN_LIMITED(f"The injection scan skipped files over {MAX_FILE_BYTES // (1024 * 1024)} MB or "
                                     f"stopped after {MAX_FILES} files or {MAX_TOTAL_BYTES // (1024 * 1024)} MB",
                                     "KNOWLEDGE.md")


def _diagnose(rel: str, data: bytes, text: str) -> Iterator[Diagnostic]:
    """Findings for one file: ``data`` is ``text`` encoded as UTF-8 (RE2 reads bytes, positions are characters)."""
    for finding in _scan(data, text)[:MAX_FINDINGS_PER_FILE]:
        offset = finding.offset
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        snippet = _snippet(text[offset:offset + finding.length])
        if finding.code == FENCE_BREAKING_TEXT.code:
            yield FENCE_BREAKING_TEXT(f'"{snippet}" {finding.label}; the studio escapes it, other clients may not',
                                      rel, line, column)
        else:
            yield PROMPT_INJECTION_TEXT(f'Instruction-like text "{snippet}" ({finding.label}); it stays fenced as '
                                        "data, never obeyed", rel, line, column)


def _chars(data: bytes, offset: int) -> int:
    """The character offset of byte ``offset`` in UTF-8 ``data`` (only for the few spans reported)."""
    return len(data[:offset].decode("utf-8", errors="surrogatepass"))


def _snippet(text: str) -> str:
    text = " ".join(strip_forbidden(text).split())
    return text if len(text) <= 60 else text[:57] + "..."


def _text_files(ctx: CheckContext) -> tuple[list[str], bool]:
    """Pack-relative text files under the scanned directories (from the shared walk), and whether MAX_FILES cut
    the list. Symlinked files are scanned when they stay inside the pack; symlinked folders are never entered."""
    out: list[str] = []
    links = {link.rel: link for link in ctx.tree.links}
    for entry in ctx.tree.files:
        rel = entry.rel
        if not rel.startswith(_SCANNED_PREFIXES):
            continue
        name = rel[rel.rfind("/") + 1:]
        dot = name.rfind(".")
        if dot <= 0 or name[dot:].lower() not in TEXT_SUFFIXES:  # as os.path.splitext: ".md" alone has none
            continue
        if not entry.is_regular:
            link = links.get(rel)
            if link is None or link.state is not LinkState.FILE:
                continue
        if len(out) >= MAX_FILES:
            return out, True
        out.append(rel)
    return out, False
