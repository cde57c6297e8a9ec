"""``pack-studio resolve PATH ... --task TEXT``: simulate context resolution and explain every decision.

Output formats: ``text`` (a readable trace: selected and skipped items with reasons, warnings, gaps),
``json`` (per pack ``selected`` and ``skipped`` lists of ``{path, section, lines, tokens, reason, score}``,
warnings, citation gaps, ``tokens_used``, ``budget`` and the fenced text) and ``fenced`` (only the fence).
``--write-run`` writes a ``runs/context-<UTC>.json`` record into each resolved pack (the only write).
``--use-feedback`` folds recorded usage feedback into the ranking (off by default) and says, for every item,
how feedback moved it (``feedback`` in JSON, an indented line in text).
``--client NAME`` answers for one client profile instead of the studio's trace, ``--clients all`` (or a comma list)
for several side by side: ``{clients: [{client, selected, tokens, warnings}], divergences: [{path, loaded_by,
not_loaded_by}]}`` (``studio.core.clients``); ``--allow-custom-types`` lets every client load packs of a custom type.
``--sweep MIN:MAX:STEP`` resolves at every budget of the range: ``{sweep: [{budget, selected, tokens, recall}],
first_budget: {path: budget}}``, recall where the pack's answer-quality suite has the task as a prompt.
``--layers`` adds the three-layer simulation (L0 index -> L1 search -> L2 files, ``studio.core.search.layers``)
for the same task and budget: a ``layers`` object in JSON, a trace after the resolver's in text.
Exit status: 0 when something was selected, 1 when nothing was, 2 for usage errors (an unknown pack name among
them) or an unavailable tokenizer. Each PATH is a pack directory or a pack name found in the scopes
(``_scope.pack_arguments``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from studio.cli._budget import add_budget_option, refused_budget
from studio.cli._output import add_encoding_option, add_format_option, write_json
from studio.cli._readonly import refuse_builtin
from studio.cli._scope import add_scope_options, pack_arguments
from studio.core.clients import CLIENT_NAMES, Comparison, compare
from studio.core.clients.run import ClientRequest
from studio.core.model import GROUNDING_POLICIES, PROFILES, RUNTIME_MODES, Pack
from studio.core.render.fence import FenceVariant
from studio.core.resolver import ResolveRequest, ResolveResult, resolve
from studio.core.resolver.records import usage_records, write_context_record
from studio.core.terminal import printable, write_artefact

if TYPE_CHECKING:
    from studio.core.clients.sweep import Sweep


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("resolve", help="simulate which files a client would load for a task, and why",
                       description="Simulate a client's context resolution over one or more packs.")
    p.add_argument("paths", nargs="+", type=Path, metavar="PACK",
                   help="pack directories, or names of packs in the scopes")
    p.add_argument("--task", required=True, help="the user request to resolve context for")
    add_budget_option(p, "token budget for the whole fenced output")
    p.add_argument("--profile", choices=PROFILES, default=None, help="override every pack's profile")
    p.add_argument("--mode", choices=RUNTIME_MODES, default=None, help="override every pack's runtime mode")
    p.add_argument("--grounding", choices=GROUNDING_POLICIES, default=None, help="override the grounding policy")
    add_encoding_option(p, "tokenizer encoding")
    p.add_argument("--variant", choices=[v.value for v in FenceVariant], default=FenceVariant.SUPERSET.value,
                   help="fence attribute set (default: superset)")
    p.add_argument("--reference", action="store_true", help="also show the reference CLI's dry run per pack")
    p.add_argument("--write-run", action="store_true", help="write runs/context-<UTC>.json into each pack")
    p.add_argument("--usage", action="store_true", help="include step-8 usage records in JSON output")
    p.add_argument("--confirm", nargs="+", default=[], metavar="NAME", help="load these disputed packs anyway")
    p.add_argument("--count-all", action="store_true",
                   help="tokenize every candidate, also those whose word count alone rules them out "
                        "(exact counts everywhere; about twice the time on a large pack)")
    p.add_argument("--use-feedback", action="store_true",
                   help="rank with the helpful/harmful feedback recorded in runs/ (off: the standard simulation)")
    p.add_argument("--layers", action="store_true",
                   help="also simulate the three-layer strategy (L0 index, L1 search, L2 files) for the same task")
    p.add_argument("--client", choices=CLIENT_NAMES, default=None,
                   help="what this client would load (" + ", ".join(CLIENT_NAMES) + ")")
    p.add_argument("--clients", default=None, metavar="all|NAME,NAME",
                   help="several clients side by side, with the paths they disagree on")
    p.add_argument("--allow-custom-types", action="store_true",
                   help="the clients load packs of a type outside the standard list (explicitly allowed)")
    p.add_argument("--sweep", default=None, metavar="MIN:MAX:STEP",
                   help="resolve at every budget of the range and say when each file first gets in")
    add_format_option(p, ("text", "json", "fenced"))
    add_scope_options(p, for_names=True)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if refused_budget("resolve", args.budget):
        return 2
    names = _client_names(args)
    if isinstance(names, str):
        sys.stderr.write(f"resolve: {names}\n")
        return 2
    sweep_range = None
    if args.sweep is not None:  # the sweep reads answer-quality suites: the evals are imported only when asked for
        from studio.core.clients.sweep import parse_range

        sweep_range = parse_range(args.sweep)
    if isinstance(sweep_range, str):
        sys.stderr.write(f"resolve: {sweep_range}\n")
        return 2
    packs = pack_arguments(args.paths, args)
    if names:
        return _run_clients(args, packs, names)
    if sweep_range is not None:
        return _run_sweep(args, packs, sweep_range)
    if args.write_run:
        for pack in packs:
            refuse_builtin(pack.root, "--write-run", pack.scope)
    request = ResolveRequest(
        task=args.task, packs=packs, profile_override=args.profile, mode_override=args.mode,
        grounding_override=args.grounding, budget=args.budget, encoding=args.encoding,
        confirmed=set(args.confirm), variant=args.variant, reference=args.reference, use_feedback=args.use_feedback,
        # A record written into the pack is evidence for later review: every count in it is exact.
        count_all=args.count_all or args.write_run,
    )
    result = resolve(request)
    layers = None
    if args.layers:  # the search stack is imported only when asked for: most calls never need it
        from studio.core.search.layers import simulate_with_cache

        layers = simulate_with_cache(args.task, packs, budget=args.budget, resolved=result)
    written: list[str] = []
    write_failed = False
    if args.write_run and result.tokenizer_available:
        for res in result.packs:
            if res.pack.knowledge is None:
                continue
            try:
                written.append(str(write_context_record(result, res.pack.root)))
            except OSError as exc:
                write_failed = True
                sys.stderr.write(f"{printable(str(res.pack.root))}: could not write the run record: "
                                 f"{printable(str(exc))}\n")
    if args.format == "json":
        data = result.to_json()
        if args.usage:
            data["usage_records"] = usage_records(result)
        if written:
            data["written"] = written
        if layers is not None:
            data["layers"] = layers.to_json()
        write_json(data)
    elif args.format == "fenced":
        write_artefact(sys.stdout, result.fenced_text)
    else:
        sys.stdout.write(render_text(result))
        for path in written:
            sys.stdout.write(f"run record written: {printable(path)}\n")
        if layers is not None:
            from studio.cli._layers_text import render_layers

            sys.stdout.write("\n" + render_layers(layers))
    if not result.tokenizer_available:
        reason = result.tokenizer_reason or ""
        sys.stderr.write(printable(reason if reason.startswith("cannot count") else f"tokenizer unavailable: {reason}")
                         + "\n")
        return 2
    if write_failed:
        return 1  # the user asked for a record and did not get one
    return 0 if any(p.selected for p in result.packs) else 1


def _client_names(args: argparse.Namespace) -> list[str] | str:
    """The clients asked for (empty: the studio's own trace), or why the request is wrong."""
    if args.client and args.clients:
        return "give --client or --clients, not both"
    if args.client:
        return [args.client]
    if not args.clients:
        return []
    if args.clients.strip() == "all":
        return list(CLIENT_NAMES)
    names = [n.strip() for n in args.clients.split(",") if n.strip()]
    unknown = [n for n in names if n not in CLIENT_NAMES]
    if unknown or not names:
        return f"unknown client {', '.join(unknown) or '(none)'}; known: {', '.join(CLIENT_NAMES)}"
    return list(dict.fromkeys(names))


def _run_clients(args: argparse.Namespace, packs: list[Pack], names: list[str]) -> int:
    request = ClientRequest(args.task, packs, budget=args.budget, encoding=args.encoding,
                            custom_types_allowed=args.allow_custom_types)
    comparison = compare(request, names)
    if args.format == "json":
        write_json(comparison.to_json() | {"task": args.task, "budget": args.budget})
    else:
        sys.stdout.write(render_clients(comparison, args.task, args.budget))
    return 0 if any(r.selected for r in comparison.runs) else 1


def render_clients(comparison: Comparison, task: str, budget: int) -> str:
    p_ = printable
    lines = [f"task: {p_(task)}", f"budget: {budget:,} tokens", ""]
    for run in comparison.runs:
        method = "" if run.token_method == "tokenizer" else f" ({run.token_method})"
        lines.append(f"{run.client}: {len(run.selected)} file(s), {run.tokens:,} tokens{method}")
        lines.extend(f"  + {p_(path)}" for path in run.selected)
        lines.extend(f"  ! {p_(w)}" for w in run.warnings)
        lines.append("")
    if comparison.divergences:
        lines.append("divergences:")
        for d in comparison.divergences:
            lines.append(f"  {p_(d.path)}: loaded by {', '.join(d.loaded_by)}; not by {', '.join(d.not_loaded_by)}")
    else:
        lines.append("divergences: none, every client loads the same files")
    return "\n".join(lines).rstrip("\n") + "\n"


def _run_sweep(args: argparse.Namespace, packs: list[Pack], bounds: tuple[int, int, int]) -> int:
    from studio.core.clients.sweep import sweep

    low, high, step = bounds
    result = sweep(packs, args.task, range(low, high + 1, step), args.encoding)
    if args.format == "json":
        write_json(result.to_json())
    else:
        sys.stdout.write(render_sweep(result))
    return 0 if any(p.selected for p in result.points) else 1


def render_sweep(result: Sweep) -> str:
    p_ = printable
    lines = [f"task: {p_(result.task)}", "budget  tokens  files" + ("  recall" if result.required else "")]
    for point in result.points:
        recall = f"  {point.recall:.2f}" if point.recall is not None else ""
        lines.append(f"{point.budget:>6}  {point.tokens:>6}  {len(point.selected):>5}{recall}")
    lines.append("")
    lines.append("first budget at which each file is loaded:")
    required = set(result.required or ())
    for path, budget in sorted(result.first_budget.items(), key=lambda kv: (kv[1], kv[0])):
        mark = "  (required)" if path in required else ""
        lines.append(f"  {budget:>6}  {p_(path)}{mark}")
    missing = [r for r in result.required or () if r.partition("#")[0] not in result.first_budget]
    lines.extend(f"  never   {p_(r)}  (required)" for r in missing)
    return "\n".join(lines) + "\n"


SHOWN_DETAILS = frozenset({"over-budget", "duplicate"})
"""Skips whose one-sentence detail the text trace prints under the row: the reason code alone does not say what
to change (how many tokens were short; which loaded item carries the same content)."""


def render_text(result: ResolveResult) -> str:
    """A human-readable trace of the resolution (pack-derived text escaped: one field, one line)."""
    p_ = printable
    lines = [f"task: {p_(result.task)}",
             f"tokens: {result.tokens_used} / {result.budget} ({result.tokenizer_name})", ""]
    for p in result.packs:
        lines.append(f"pack {p_(p.name)}  profile={p_(p.profile)} mode={p_(p.runtime_mode)} "
                     f"status={p_(p.pack.status or '-')} grounding={p_(p.grounding or '-')}")
        for d in p.selected:
            lines.append(f"  + {_label(d.path, d.section, d.lines)}  {d.tokens} tok  {d.reason}{_score(d.score)}")
            lines.extend([f"      {d.feedback}"] if d.feedback else [])
        for d in p.skipped:
            tok = f"  {d.tokens} tok" if d.tokens is not None else (
                f"  >={d.tokens_at_least} tok (not tokenized)" if d.tokens_at_least is not None else "")
            lines.append(f"  - {_label(d.path, d.section, d.lines)}{tok}  {d.reason}{_score(d.score)}")
            if d.reason in SHOWN_DETAILS and d.detail:  # the arithmetic, or which loaded item carries it
                lines.append(f"      {p_(d.detail)}")
            lines.extend([f"      {d.feedback}"] if d.feedback else [])
        lines.append("")
    for w in result.warnings:
        where = f" [{p_(w.pack)}{': ' + p_(w.path) if w.path else ''}]" if w.pack else ""
        lines.append(f"{w.severity}: {p_(w.message)}{where}")
    for gap in result.citation_gaps:
        if "missing" in gap:
            lines.append(f"missing: {p_('; '.join(gap['missing']))} -> {p_(str(gap['recommendation']))}")
        else:
            lines.append(f"citation gap: {p_(str(gap['path']))}: {p_(str(gap['reason']))}")
    if result.reference is not None:
        for ref in result.reference:
            lines.append(f"reference: {p_(str(ref['selected_files']))} ~{ref['token_estimate']} tokens (chars/4)")
    return "\n".join(lines).rstrip("\n") + "\n"


def _label(path: str, section: str | None, span: tuple[int, int] | None) -> str:
    out = printable(path)
    if section:
        out += f" § {printable(section)}"
    if span:
        out += f" (lines {span[0]}-{span[1]})"
    return out


def _score(score: float | None) -> str:
    return f" (score {score:.2f})" if score else ""
