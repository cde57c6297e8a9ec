"""``pack-studio fence PACK [--files PATH ...] [--variant V]``: the tier-3 runtime fence for one pack.

Without ``--files`` the fence holds the pack's runtime resources (``kind="runtime"`` in the guide).
Files are read from inside the pack only (at most 2 MB each); a file that cannot be read, or that holds
a NUL byte (binary, such as UTF-16 text, which the resolver drops too), is named on stderr, left out, and the
exit status is 1. A pack whose status is not ``ready`` gets the warning the
reference CLI uses. stdout holds only the fence; its token count goes to stderr. PACK is a pack directory or a
pack name found in the scopes (``_scope.pack_argument``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli._scope import add_scope_options, pack_argument
from studio.cli.guide import report_problems
from studio.core.diagnostics import Severity
from studio.core.model import Pack
from studio.core.paths import read_bounded, resolve_inside
from studio.core.render.costs import fence_cost
from studio.core.render.fence import FenceItem, FencePack, FenceVariant, render_fence
from studio.core.render.resources import ResourceKind, classify_resources
from studio.core.terminal import printable, write_artefact
from studio.core.textfiles import is_binary

MAX_FILE_BYTES = 2 * 1024 * 1024


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("fence", help="print the tier-3 runtime fence for a pack",
                       description="Print the <knowledge_pack> wrapper a client puts around selected context.")
    p.add_argument("pack", type=Path, metavar="PACK", help="pack directory, or the name of a pack in the scopes")
    p.add_argument("--files", nargs="+", default=None, metavar="PATH",
                   help="pack-relative files to include (default: the pack's runtime resources)")
    p.add_argument("--variant", choices=[v.value for v in FenceVariant], default=FenceVariant.SUPERSET.value,
                   help="attribute set of the wrapper (default: superset)")
    add_scope_options(p, for_names=True)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pack = pack_argument(args.pack, args)
    if pack.knowledge is None:
        report_problems(pack, Severity.ERROR)
        return 2
    paths = args.files if args.files is not None else [
        r.path for r in classify_resources(pack) if r.kind is ResourceKind.RUNTIME
    ]
    items, failed = read_items(pack, paths)
    warnings = [] if pack.status == "ready" else [f"Pack status is {pack.status or 'missing'}."]
    fp = FencePack(pack, items, warnings)
    variant = FenceVariant(args.variant)
    write_artefact(sys.stdout, render_fence([fp], variant))
    sys.stderr.write(f"tokens: {printable(fence_cost([fp], variant).describe())}\n")
    return 1 if failed else 0


def read_items(pack: Pack, paths: list[str]) -> tuple[list[FenceItem], bool]:
    """Read each pack-relative path; unreadable or escaping paths are reported on stderr."""
    items: list[FenceItem] = []
    failed = False
    for rel in paths:
        target = resolve_inside(pack.root, rel)
        shown = printable(rel)
        if target is None:
            sys.stderr.write(f"{shown}: not a path inside the pack; left out\n")
            failed = True
            continue
        data, size, problem = read_bounded(target, MAX_FILE_BYTES + 1, root=pack.root)
        if problem is not None or data is None:
            sys.stderr.write(f"{shown}: {printable(problem.message) if problem else 'cannot be read'}; left out\n")
            failed = True
            continue
        if size > MAX_FILE_BYTES:
            sys.stderr.write(f"{shown}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; left out\n")
            failed = True
            continue
        if is_binary(data):  # the resolver and the injection lint treat it the same way (reason binary-file)
            sys.stderr.write(f"{shown}: contains NUL bytes, so it is binary, not text; left out\n")
            failed = True
            continue
        items.append(FenceItem(rel.replace("\\", "/"), data.decode("utf-8", errors="replace")))
    return items, failed
