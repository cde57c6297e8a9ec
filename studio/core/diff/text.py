"""The diff report as terminal text: grouped by section, one change a line, every pack-derived string escaped
(``studio.core.terminal.printable``), so a name or a line of a pack never drives the terminal."""

from __future__ import annotations

from typing import Any

from studio.core.diff.report import TIERS, PackDiff, ResolverDelta, TierDiff
from studio.core.diff.wording import claim_fields, count, measure, passed, short_json
from studio.core.terminal import printable

MAX_TEXT_DIFF_LINES = 60
"""Lines of each tier's text diff shown in text output (the JSON has up to ``tiers.MAX_DIFF_LINES``)."""


def render_text(report: PackDiff) -> str:
    p = printable
    lines = [f"diff {p(report.pack)}", f"  old: {p(report.old)}", f"  new: {p(report.new)}"]
    if report.identical:
        lines.append("no differences")
    if report.frontmatter:
        lines.append(f"frontmatter: {len(report.frontmatter)} changed")
        lines += [f"  {p(c.key)}: {_value(c.before)} -> {_value(c.after)}" for c in report.frontmatter]
    f = report.files
    if not f.empty:
        lines.append(f"files: {len(f.added)} added, {len(f.removed)} removed, {len(f.changed)} changed, "
                     f"{len(f.renamed)} renamed")
        lines += [f"  + {p(path)}" for path in f.added]
        lines += [f"  - {p(path)}" for path in f.removed]
        lines += [f"  ~ {p(c.path)}  {_tokens(c.tokens_before, c.tokens_after)}"
                  + ("" if c.kind == "text" else f" ({p(c.kind)})") for c in f.changed]
        lines += [f"  > {p(r.before)} -> {p(r.after)} ({r.similarity:.0%} similar; "
                  f"{_tokens(r.tokens_before, r.tokens_after)})" for r in f.renamed]
    c = report.claims
    if not c.empty:
        lines.append(f"claims: {len(c.added)} added, {len(c.removed)} removed, {len(c.changed)} changed")
        lines += [f"  + {p(i)}" for i in c.added]
        lines += [f"  - {p(i)}" for i in c.removed]
        status = {s.id: s for s in c.status_changes}
        lines += [f"  ~ {p(x.id)}: {claim_fields(x, status.get(x.id), p, '->')}" for x in c.changed]
    d = report.findings
    if not d.empty:
        lines.append(f"findings: {len(d.added)} new, {len(d.removed)} resolved")
        lines += [f"  + {x.severity} {p(x.file)}:{x.line} {p(x.code)} {p(x.message)}" for x in d.added]
        lines += [f"  - {x.severity} {p(x.file)}:{x.line} {p(x.code)} {p(x.message)}" for x in d.removed]
    if any(t.changed for t in report.tiers.values()):
        lines.append("tiers (tokens before -> after)")
        for name in TIERS:
            tier = report.tiers.get(name)
            if tier is not None:
                lines += _tier(tier)
    lines += _resolver(report.resolver)
    e = report.evals
    # Each section says when it has nothing to report, so "nothing to compare" never looks like "no change".
    if e.empty:
        lines.append("evals: no case changed" if e.suites else "evals: no eval suite in either version")
    else:
        lines.append(f"evals: {len(e.regressed)} regressed, {len(e.improved)} improved")
    if e.cases or e.suites:
        for case in e.cases:
            lines.append(f"  {case.change:9s} {p(case.suite)} {p(case.id)}: {passed(case.passed_before)} -> "
                         f"{passed(case.passed_after)}" + _actual(case.actual_before, case.actual_after)
                         + _measures(case.recall_before, case.recall_after, "recall")
                         + _measures(case.rr_before, case.rr_after, "RR"))
        for s in e.suites:
            lines.append(f"  suite {p(s.suite)}: passed {count(s.passed_before)}/{count(s.total_before)} -> "
                         f"{count(s.passed_after)}/{count(s.total_after)}" + _measures(s.recall_before, s.recall_after,
                                                                               "recall")
                         + _measures(s.mrr_before, s.mrr_after, "MRR"))
    if report.notes:
        lines.append("notes")
        lines += [f"  {p(n)}" for n in report.notes]
    return "\n".join(lines) + "\n"


def _tier(tier: TierDiff) -> list[str]:
    head = f"  {tier.tier:8s} {_tokens(tier.tokens_before, tier.tokens_after)}"
    if not tier.changed:
        return [head + "  (unchanged)"]
    out = [head]
    out += [f"    {printable(line)}" for line in tier.text_diff[:MAX_TEXT_DIFF_LINES]]
    if tier.truncated or len(tier.text_diff) > MAX_TEXT_DIFF_LINES:
        out.append("    ... (the rest of the diff is in --format json)" if tier.text_diff else
                   "    (too long to compare line by line)")
    return out


def _resolver(deltas: list[ResolverDelta]) -> list[str]:
    if not deltas:
        return ["resolver: no task to compare (no eval suite gives one; add --task TEXT)"]
    changed = [r for r in deltas if r.changed]
    out = [f"resolver: {len(changed)} of {len(deltas)} tasks pick differently (budget {deltas[0].budget})"]
    for r in changed:
        out.append(f"  task {printable(r.task)!s}  ({printable(r.source)}; {r.tokens_before} -> {r.tokens_after} "
                   "tokens)")
        out += [f"    + {printable(k)}" for k in r.added]
        out += [f"    - {printable(k)}" for k in r.removed]
        out += [f"    {printable(x.item)}: {x.before or 'not a candidate'} -> {x.after or 'not a candidate'}"
                for x in r.reasons]
    return out


def _value(value: Any) -> str:
    return "(none)" if value is None else printable(short_json(value))


def _actual(before: str | None, after: str | None) -> str:
    return "" if before is None and after is None else f" ({before or '-'} -> {after or '-'})"


def _tokens(before: int | None, after: int | None) -> str:
    if before is None or after is None:
        return f"{count(before)} -> {count(after)} tokens"
    return f"{before} -> {after} tokens ({after - before:+d})"


def _measures(before: float | None, after: float | None, name: str) -> str:
    if before is None and after is None:
        return ""
    return f", {name} {measure(before)} -> {measure(after)}"



