"""V63 ``prompt-injection-text`` and ``fence-breaking-text``: text in the pack that talks to the model.

Packs are data, and the runtime fence keeps them so, but a curator should still see where content
addresses the model ("ignore previous instructions", "you are now ...", "忽略之前的指令", chat-template
tokens) or would close the fence around it (``</knowledge_pack>``, ``<![CDATA[``, ``]]>``, ``<!--``).
Both are warnings: the pack still loads, its content is still fenced and neutralised, never obeyed.

Scanned: the whole ``KNOWLEDGE.md`` (the frontmatter too, since ``description`` reaches the catalog)
and text files (Markdown, plain text, subtitles, CSV) under ``compiled/``, ``documents/``, ``wiki/``
and ``sources/``. Bounded: files over 2 MB are skipped, at most 400 files and 16 MB are read, at
most 20 findings are reported per file; symlinks are never followed out of the pack, and symlinked
directories are not entered. When a limit stops the scan, an ``injection-scan-limited`` info says so.
A file with a NUL byte is binary to the studio (the resolver and ``fence`` leave it out), so it is not
scanned; an ``injection-scan-binary`` info names it, and names a file that is not valid UTF-8 (it is
scanned as the resolver and the fence decode it, with replacement characters).
Quoting hostile text on purpose (a security pack, a test case) will be flagged too; that is the point:
a human decides.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.paths import is_inside, read_bounded
from studio.core.render.escape import find_fence_breaks, strip_forbidden
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
                           "pack text that would open or close a wrapper tag if it were not neutralised",
                           Behavior.LOAD, "V63", hint="Remove or reword it; if the pack documents the wrapper format "
                           "on purpose, it may stay.")
CODES = (PROMPT_INJECTION_TEXT, FENCE_BREAKING_TEXT, INJECTION_SCAN_BINARY, INJECTION_SCAN_LIMITED)
_BY_CODE = {c.code: c for c in CODES}

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_FILES = 400
MAX_TOTAL_BYTES = 16 * 1024 * 1024
"""Bytes read per pack: the scan costs about a second per MB on a slow machine, so it stops here."""
MAX_FINDINGS_PER_FILE = 20
SCANNED_DIRS = ("compiled", "documents", "wiki", "sources")
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
# One alternation, one pass over the text: a 2 MB file is scanned once, not once per pattern.
_INSTRUCTION_RE = re.compile(
    "|".join(f"(?P<p{i}>{pattern})" for i, (_, pattern) in enumerate(_INSTRUCTION_PATTERNS)), re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class TextFinding:
    """One suspicious span in a text, before it becomes a diagnostic."""

    code: str
    offset: int
    length: int
    label: str


def find_injection_text(text: str) -> list[TextFinding]:
    """Instruction-like and fence-breaking spans in ``text``, ordered by position."""
    found = [
        TextFinding(PROMPT_INJECTION_TEXT.code, m.start(), len(m.group(0)),
                    _INSTRUCTION_PATTERNS[int((m.lastgroup or "p0")[1:])][0])
        for m in _INSTRUCTION_RE.finditer(text)
    ]
    found += [
        TextFinding(FENCE_BREAKING_TEXT.code, b.offset, len(b.text), "would open or close the runtime fence")
        for b in find_fence_breaks(text)
    ]
    return sorted(found, key=lambda f: (f.offset, f.code))


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    pack = ctx.pack
    if pack.knowledge is not None:
        yield from _diagnose(ctx, "KNOWLEDGE.md", pack.knowledge.text)
    files, limited = _text_files(pack.root)
    budget = MAX_TOTAL_BYTES
    for rel in files:
        if budget <= 0:
            limited = True
            break
        data, size, problem = read_bounded(pack.root / rel, MAX_FILE_BYTES + 1, root=pack.root)
        if problem is not None or data is None:
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
        yield from _diagnose(ctx, rel, text)
    if limited:
        yield INJECTION_SCAN_LIMITED(f"The injection scan skipped files over {MAX_FILE_BYTES // (1024 * 1024)} MB or "
                                     f"stopped after {MAX_FILES} files or {MAX_TOTAL_BYTES // (1024 * 1024)} MB",
                                     "KNOWLEDGE.md")


def _diagnose(ctx: CheckContext, rel: str, text: str) -> Iterator[Diagnostic]:
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    for finding in find_injection_text(text)[:MAX_FINDINGS_PER_FILE]:
        index = bisect.bisect_right(line_starts, finding.offset) - 1
        column = finding.offset - line_starts[index] + 1
        snippet = _snippet(text[finding.offset:finding.offset + finding.length])
        if finding.code == FENCE_BREAKING_TEXT.code:
            message = f'"{snippet}" {finding.label}; the studio neutralises it, other clients may not'
        else:
            message = f'Instruction-like text "{snippet}" ({finding.label}); it stays fenced as data, never obeyed'
        yield _BY_CODE[finding.code](message, rel, index + 1, column)


def _snippet(text: str) -> str:
    text = " ".join(strip_forbidden(text).split())
    return text if len(text) <= 60 else text[:57] + "..."


def _text_files(root: Path) -> tuple[list[str], bool]:
    """Pack-relative text files under the scanned directories, and whether MAX_FILES cut the list."""
    out: list[str] = []
    stack = [d for d in reversed(SCANNED_DIRS) if not os.path.islink(root / d)]
    while stack:
        rel_dir = stack.pop()
        try:
            with os.scandir(root / rel_dir) as it:
                entries = sorted(it, key=lambda e: e.name)
        except (OSError, ValueError):  # ValueError: a path the file system cannot encode
            continue
        subdirs: list[str] = []
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}"
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not entry.name.startswith("."):
                        subdirs.append(rel)
                    continue
                if Path(entry.name).suffix.lower() not in TEXT_SUFFIXES or not entry.is_file():
                    continue
                if entry.is_symlink() and not is_inside(root, Path(entry.path)):
                    continue
            except OSError:
                continue
            if len(out) >= MAX_FILES:
                return out, True
            out.append(rel)
        stack.extend(reversed(subdirs))
    return out, False
