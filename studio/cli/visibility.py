"""``pack-studio visibility NAME [PATH ...] [scope options] [--policy standard|user-first]``: who sees a pack.

Scans the scope roots the options name (as ``validate`` does; with no PATH the project is the current directory,
the user scope your home, plus the built-in packs) and reports every copy of NAME, the winner inside each scope
root, and what a client with this context, or without one of its scopes, would load under the standard
precedence and under a user-first policy, marking where the two differ (``studio.core.visibility``).
Exit status: 0 a copy loads in the given context, 1 no copy of NAME can load there, 2 usage error.
"""

from __future__ import annotations

import argparse
import sys

from studio.cli._output import add_format_option, write_json
from studio.cli._scope import add_scope_arguments, options_from_args
from studio.core.diagnostics import counted
from studio.core.visibility import ContextView, PackCopy, Policy, VisibilityReport, open_visibility


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("visibility", help="show which copy of a pack each scope and client context loads",
                       description="Every scope root holding a pack named NAME, which copy wins in each, and what a "
                       "client with a given context would load, under the standard precedence or user-first.")
    p.add_argument("name", metavar="NAME", help="the pack name")
    add_scope_arguments(p)
    p.add_argument("--policy", choices=[x.value for x in Policy], default=Policy.STANDARD.value,
                   help="precedence shown first (default: standard; the other is shown beside it)")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report = open_visibility(options_from_args(args), args.name, Policy(args.policy))
    if args.format == "json":
        write_json(report.to_dict())
    else:
        sys.stdout.write(render_text(report))
    if not report.copies:
        sys.stderr.write(f"pack-studio visibility: no pack named '{_safe(args.name)}' in any scanned root\n")
    return 0 if report.winner() is not None else 1


def render_text(report: VisibilityReport) -> str:
    other = Policy.USER_FIRST if report.policy is Policy.STANDARD else Policy.STANDARD
    lines = [f"{_safe(report.name)}: {counted(len(report.copies), 'copy', 'copies')}; policy {report.policy.value} "
             f"({report.policy.describe})", "", "Scope roots:"]
    for root in report.roots:
        state = "" if root.exists else "  (does not exist)"
        lines.append(f"  {root.scope.value:<12} {_safe(str(root.path))}{state}")
        for c in root.copies:
            mark = "*" if c is root.winner else " "
            lines.append(f"    {mark} {_safe(str(c.root))}  {_facts(c)}")
    lines += ["", f"What a client loads ({report.policy.value}; {other.value} beside it):"]
    for ctx in report.contexts:
        lines.extend(_context_lines(ctx, report.policy, other))
    return "\n".join(lines) + "\n"


def _context_lines(ctx: ContextView, policy: Policy, other: Policy) -> list[str]:
    main, alt = ctx.outcomes[policy], ctx.outcomes[other]
    lines = [f"  {ctx.label}: {_winner(main.winner)}", f"      why: {_safe(main.reason)}"]
    if main.lower_trust is not None and main.winner is not None:
        lines.append(f"      warning: trust {main.winner.trust or 'unreviewed'} shadows a more trusted copy "
                     f"(trust {main.lower_trust.trust}) at {_safe(str(main.lower_trust.root))}")
    if ctx.differs:
        lines.append(f"      {other.value} would load instead: {_winner(alt.winner)} ({_safe(alt.reason)})")
    return lines


def _winner(copy: PackCopy | None) -> str:
    return "nothing" if copy is None else f"the {copy.scope.value} copy at {_safe(str(copy.root))}"


def _facts(c: PackCopy) -> str:
    facts = [f"status {c.status or '-'}", f"trust {c.trust or '-'}"]
    if c.version:
        facts.append(f"version {c.version}")
    if not c.competes:
        facts.append(f"does not load ({c.why_not})")
    return _safe(", ".join(facts))


def _safe(text: str) -> str:
    """Pack-controlled text on one line, without terminal control characters."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)
