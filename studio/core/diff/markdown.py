"""The diff report as Markdown for a pull-request comment (GitHub-flavoured: headings, tables, ``<details>``).

Pack text never reaches the Markdown raw: in prose and table cells every character Markdown or HTML could
read as syntax (``|``, backticks, ``<``, ``*``, ``[`` ...) is backslash-escaped, line breaks become spaces and
control characters are dropped; the tiers' text diffs sit in code blocks fenced with more backticks than any
run inside them. So a claim id or a heading in a pack cannot open a table cell, a link, a code span or HTML.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from studio.core.diff.report import TIERS, PackDiff
from studio.core.diff.wording import claim_fields, count, measure, passed, short_json

_SYNTAX = re.compile(r"([\\`*_{}\[\]<>|~&!$@])")
_LINE_START = re.compile(r"^(\s*(?:\d+(?=[.)]))?)([#+\-=.)])")
"""What makes a heading, a list item or a setext underline when a cell's text starts a line."""
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
MAX_ROWS = 200
"""Rows per table; the rest is counted (the JSON output has everything)."""


def md(text: str) -> str:
    """``text`` as inert Markdown inline text on one line."""
    text = _CONTROL.sub("", text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " "))
    return _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), _SYNTAX.sub(r"\\\1", text), count=1)


def render_markdown(report: PackDiff) -> str:
    out = [f"## Pack diff: {md(report.pack)}", "",
           f"**old:** {md(report.old)}  ", f"**new:** {md(report.new)}", ""]
    if report.identical:
        out += ["No differences: the two versions give an agent the same pack.", ""]
    if report.frontmatter:
        out += ["### Frontmatter", ""]
        out += _table(("Key", "Before", "After"),
                      [(md(c.key), _value(c.before), _value(c.after)) for c in report.frontmatter])
    f = report.files
    if not f.empty:
        out += ["### Files", "",
                f"{len(f.added)} added, {len(f.removed)} removed, {len(f.changed)} changed, {len(f.renamed)} renamed",
                ""]
        rows: list[tuple[str, ...]] = [("added", md(p), "", "") for p in f.added]
        rows += [("removed", md(p), "", "") for p in f.removed]
        rows += [("changed" + ("" if c.kind == "text" else f" ({md(c.kind)})"), md(c.path), count(c.tokens_before),
                  count(c.tokens_after)) for c in f.changed]
        rows += [(f"renamed ({r.similarity:.0%} similar)", f"{md(r.before)} → {md(r.after)}", count(r.tokens_before),
                  count(r.tokens_after)) for r in f.renamed]
        out += _table(("Change", "Path", "Tokens before", "Tokens after"), rows)
    c = report.claims
    if not c.empty:
        status = {s.id: s for s in c.status_changes}
        out += ["### Claims (source map)", ""]
        claim_rows: list[tuple[str, ...]] = [("added", md(i), "") for i in c.added]
        claim_rows += [("removed", md(i), "") for i in c.removed]
        claim_rows += [("changed", md(x.id), claim_fields(x, status.get(x.id), md, "→")) for x in c.changed]
        out += _table(("Change", "Claim", "Fields"), claim_rows)
    d = report.findings
    if not d.empty:
        out += ["### Findings", ""]
        finding_rows = [(label, x.severity, f"{md(x.file)}:{x.line}", md(x.code), md(x.message))
                for label, group in (("new", d.added), ("resolved", d.removed)) for x in group]
        out += _table(("", "Severity", "Where", "Code", "Message"), finding_rows)
    if any(t.changed for t in report.tiers.values()):
        out += ["### What an agent sees", ""]
        tiers = [report.tiers[name] for name in TIERS if name in report.tiers]
        out += _table(("Tier", "Tokens before", "Tokens after", "Change"),
                      [(t.tier, count(t.tokens_before), count(t.tokens_after), _delta(t.tokens_before, t.tokens_after)
                        if t.changed else "unchanged") for t in tiers])
        for t in tiers:
            if t.text_diff:
                out += [f"<details><summary>{t.tier} text diff</summary>", "", *_code(t.text_diff, "diff"),
                        "", "</details>", ""]
    changed = [r for r in report.resolver if r.changed]
    if changed:
        out += ["### Resolver picks", "",
                f"{len(changed)} of {len(report.resolver)} tasks pick differently at budget {changed[0].budget}.", ""]
        out += _table(("Task", "Added", "Removed", "Reasons that changed"),
                      [(md(r.task), "<br>".join(md(k) for k in r.added), "<br>".join(md(k) for k in r.removed),
                        "<br>".join(f"{md(x.item)}: {md(x.before or 'not a candidate')} → "
                                    f"{md(x.after or 'not a candidate')}" for x in r.reasons)) for r in changed])
    elif not report.resolver:  # nothing was compared: say so, or it reads as "no pick changed"
        out += ["### Resolver picks", "", "No task to compare: no eval suite gives one (add `--task`).", ""]
    e = report.evals
    if not e.suites:
        out += ["### Evals", "", "No eval suite in either version.", ""]
    if not e.empty:
        out += ["### Evals", "", f"{len(e.regressed)} regressed, {len(e.improved)} improved", ""]
        out += _table(("Suite", "Case", "Change", "Passed", "Recall", "RR"),
                      [(md(x.suite), md(x.id), x.change, _pair(passed(x.passed_before), passed(x.passed_after))
                        + ("" if x.actual_before is None and x.actual_after is None else
                           f" ({_pair(x.actual_before or '-', x.actual_after or '-')})"),
                        _pair(measure(x.recall_before), measure(x.recall_after)),
                        _pair(measure(x.rr_before), measure(x.rr_after))) for x in e.cases])
        out += _table(("Suite", "Passed before", "Passed after", "Recall", "MRR"),
                      [(md(s.suite), f"{count(s.passed_before)}/{count(s.total_before)}",
                        f"{count(s.passed_after)}/{count(s.total_after)}",
                        _pair(measure(s.recall_before), measure(s.recall_after)),
                        _pair(measure(s.mrr_before), measure(s.mrr_after))) for s in e.suites])
    if report.notes:
        out += ["### Notes", ""] + [f"- {md(n)}" for n in report.notes] + [""]
    return "\n".join(out).rstrip("\n") + "\n"


def _table(head: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows[:MAX_ROWS]]
    if len(rows) > MAX_ROWS:
        lines.append(f"| … {len(rows) - MAX_ROWS} more |" + " |" * (len(head) - 1))
    return [*lines, ""]


def _code(lines: tuple[str, ...], info: str) -> list[str]:
    """A fenced block that no line inside can close: the fence is longer than any backtick run in it."""
    body = [_CONTROL.sub("", line) for line in lines]
    longest = max((len(run) for line in body for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + info, *body, fence]


def _value(value: Any) -> str:
    return "*(none)*" if value is None else md(short_json(value))


def _pair(before: str, after: str) -> str:
    return f"{before} → {after}"


def _delta(before: int | None, after: int | None) -> str:
    return "changed" if before is None or after is None else f"{after - before:+d}"



