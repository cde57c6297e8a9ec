"""``pack-studio resolve PATH ... --task TEXT``: simulate context resolution and explain every decision.

Output formats: ``text`` (a readable trace: selected and skipped items with reasons, warnings, gaps),
``json`` (per pack ``selected`` and ``skipped`` lists of ``{path, section, lines, tokens, reason, score}``,
warnings, citation gaps, ``tokens_used``, ``budget`` and the fenced text) and ``fenced`` (only the fence).
``--write-run`` writes a ``runs/context-<UTC>.json`` record into each resolved pack (the only write).
``--use-feedback`` folds recorded usage feedback into the ranking (off by default) and says, for every item,
how feedback moved it (``feedback`` in JSON, an indented line in text).
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

from studio.cli._budget import add_budget_option, refused_budget
from studio.cli._output import write_json
from studio.cli._readonly import refuse_builtin
from studio.cli._scope import add_scope_options, pack_arguments
from studio.core.model import GROUNDING_POLICIES, PROFILES, RUNTIME_MODES
from studio.core.render.fence import FenceVariant
from studio.core.resolver import ResolveRequest, ResolveResult, resolve
from studio.core.resolver.records import usage_records, write_context_record
from studio.core.terminal import printable, write_artefact
from studio.core.tokens import DEFAULT_ENCODING, known_encodings


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
    p.add_argument("--encoding", default=DEFAULT_ENCODING,
                   help=f"tokenizer encoding ({', '.join(known_encodings())}; default {DEFAULT_ENCODING})")
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
    p.add_argument("--format", choices=("text", "json", "fenced"), default="text", help="output format")
    add_scope_options(p, for_names=True)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if refused_budget("resolve", args.budget):
        return 2
    packs = pack_arguments(args.paths, args)
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
