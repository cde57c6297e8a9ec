"""A thread as text lines, for the CLI and the app alike: every pack or user text through the terminal escaping.

Escape sequences, line breaks inside a field and bidi controls show as visible escapes (``\\x1b``, ``\\u202e``), so
a hostile position can neither drive a terminal nor reorder what a reviewer reads; excerpts keep their lines.
"""

from __future__ import annotations

from studio.core.disputes.threads import Thread
from studio.core.terminal import printable, printable_block

MAX_EXCERPT_LINES = 10


def thread_text(thread: Thread, files: list[str]) -> str:
    """One thread: a heading line, each position with its evidence excerpts indented, the files carrying it."""
    state = thread.state if thread.is_open else f"decided: {thread.decision} ({thread.decided})"
    lines = [f"{printable(thread.claim)}: {state}, opened {thread.opened}"]
    if thread.old_text:
        lines.append(f"  claim: {printable(thread.old_text)}")
    if thread.new_text:
        lines.append(f"  new text: {printable(thread.new_text)}")
    for step in thread.steps:
        label = f"{step.step} {step.decision}" if step.decision else step.step
        lines.append(f"  [{printable(step.timestamp)}] {printable(step.author)} ({label}): {printable(step.text)}")
        for ev in step.evidence:
            where = f"{ev.path}:{ev.line}" if ev.line else ev.path
            lines.append(f"      evidence {printable(where)}")
            lines.extend(f"        | {line}"
                         for line in printable_block(ev.excerpt).splitlines()[:MAX_EXCERPT_LINES])
    if files:
        lines.append(f"  compiled into: {', '.join(printable(f) for f in files)}")
    return "\n".join(lines)


__all__ = ["thread_text"]
