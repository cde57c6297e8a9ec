"""``pack-studio catalog [PATH ...]``: the tier-1 catalog exactly as a client would show it to a model.

stdout holds only the artefact (the behaviour instruction, a blank line, then the XML; or the XML
alone with ``--no-instruction``; or JSON with ``--format json``), so it can be diffed byte for byte.
Token counts go to stderr in the text formats and into the document in JSON.
An empty catalog prints nothing (the standard omits the catalog when no pack is available); the exit
status is 2 when that is because a named PATH could not be scanned.
"""

from __future__ import annotations

import argparse
import sys

from studio.cli._output import add_format_option
from studio.cli._scope import add_scope_arguments, options_from_args
from studio.core.diagnostics import Severity
from studio.core.model import Pack
from studio.core.render.catalog import catalog_instruction, render_catalog, render_catalog_json
from studio.core.render.costs import CatalogCost, catalog_cost
from studio.core.terminal import printable, write_artefact
from studio.core.workspace import open_workspace


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("catalog", help="print the tier-1 catalog a model would see",
                       description="Print the <available_knowledge_packs> catalog for the discovered packs. "
                       "Archived, quarantined, skipped and shadowed packs are left out.")
    add_scope_arguments(p)
    p.add_argument("--include-archived", action="store_true", help="list archived packs too")
    add_format_option(p, ("xml", "json"))
    p.add_argument("--no-instruction", action="store_true",
                   help="print the XML alone, without the behaviour instruction")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    workspace = open_workspace(options_from_args(args))
    problems = [d for d in workspace.diagnostics if d.severity is Severity.ERROR]
    for d in problems:  # e.g. a PATH that does not exist: say so rather than print an empty catalog
        sys.stderr.write(d.format() + "\n")
    packs = workspace.packs
    for pack in packs:  # a curator should see why a pack is missing from what the model gets
        reason = _left_out(pack, args.include_archived)
        if reason:
            sys.stderr.write(f"left out: {printable(pack.name)} ({printable(str(pack.root))}): {printable(reason)}\n")
    cost = catalog_cost(packs, include_archived=args.include_archived)
    if args.format == "json":
        sys.stdout.write(render_catalog_json(packs, include_archived=args.include_archived,
                                             extra={"tokens": cost.to_dict()}))
        return 2 if problems and not packs else 0
    xml = render_catalog(packs, include_archived=args.include_archived)
    if not xml:
        sys.stderr.write("No pack is available: the catalog is empty and a client would not show it.\n")
        return 2 if problems else 0
    write_artefact(sys.stdout, xml if args.no_instruction else f"{catalog_instruction()}\n{xml}")
    sys.stderr.write(format_cost(cost, with_instruction=not args.no_instruction))
    return 0


def _left_out(pack: Pack, include_archived: bool) -> str:
    """Why ``pack`` is not in the catalog, or "" when it is listed."""
    if pack.in_catalog or (include_archived and pack.loads and pack.status == "archived"):
        return ""
    if pack.shadowed_by is not None:
        return f"shadowed by {pack.shadowed_by}"
    worst = next((d for d in pack.findings if d.behavior is pack.behavior), None)
    why = f" ({worst.code} at {worst.file}:{worst.line})" if worst else ""
    return f"{pack.behavior.value}{why}"


def format_cost(cost: CatalogCost, *, with_instruction: bool) -> str:
    lines = [f"  {printable(name)}: {printable(count.describe())}" for name, count in cost.per_pack.items()]
    whole = cost.total if with_instruction else cost.catalog
    label = "catalog + instruction" if with_instruction else "catalog"
    assert whole is not None
    return "tokens per pack:\n" + "\n".join(lines) + f"\ntokens, {label}: {printable(whole.describe())}\n"
