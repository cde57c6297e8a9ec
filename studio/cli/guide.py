"""``pack-studio guide PACK [--as-tool [--format text|json]]``: the tier-2 activation guide of one pack.

stdout holds only the guide; its token count goes to stderr. ``--as-tool`` prints the guide's resource list as an
``# Input Files`` block with stable ids and the ``read_files`` tool instead (``render.tool_form``); with
``--format json`` as ``{pack, tool, files}``, each file with its token count. A pack that a client would not load
(quarantined or skipped) is still rendered for inspection, with exit status 1 and its diagnostics
on stderr; a directory without a readable ``KNOWLEDGE.md`` gives exit status 2. PACK is a pack directory or a
pack name found in the scopes (``_scope.pack_argument``); an unknown name is exit status 2 with the names found.
"""

from __future__ import annotations

import argparse
import sys

from studio.cli._output import add_encoding_option, add_format_option, write_json
from studio.cli._pack import guide_pack, say_how_a_client_takes
from studio.cli._scope import add_pack_options
from studio.core.model import Pack
from studio.core.render.costs import guide_cost
from studio.core.render.guide import EMPTY_BODY, render_guide
from studio.core.render.tool_form import build_tool_form, render_tool_form
from studio.core.terminal import printable, write_artefact
from studio.core.tokens import get_tokenizer


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("guide", help="print the tier-2 activation guide of a pack",
                       description="Print the <knowledge_pack_guide> a client returns when PACK is activated.")
    add_pack_options(p)
    p.add_argument("--as-tool", action="store_true",
                   help="print the resource list as an '# Input Files' block with stable ids and a read_files tool")
    add_format_option(p, help="with --as-tool: text (what the agent sees) or json ({pack, tool, files})")
    add_encoding_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pack = guide_pack(args)
    if pack is None:
        return 2
    if args.format == "json" and not args.as_tool:
        sys.stderr.write("pack-studio guide: --format json needs --as-tool\n")
        return 2
    if args.as_tool:
        _write_tool_form(pack, args.format, args.encoding)
    else:
        write_artefact(sys.stdout, render_guide(pack))
        sys.stderr.write(f"tokens: {printable(guide_cost(pack, get_tokenizer(args.encoding)).describe())}\n")
        if not pack.body.strip():
            sys.stderr.write(f"{EMPTY_BODY}: KNOWLEDGE.md has no text after its frontmatter\n")
    return 0 if say_how_a_client_takes(pack) else 1


def _write_tool_form(pack: Pack, fmt: str, encoding: str) -> None:
    tokenizer = get_tokenizer(encoding)
    form = build_tool_form(pack, tokenizer=tokenizer if fmt == "json" else None)
    if fmt == "json":
        write_json(form.to_dict())
        if not tokenizer.available:
            sys.stderr.write(f"token counts unavailable ({tokenizer.name}): {tokenizer.unavailable_reason}\n")
        return
    text = render_tool_form(form)
    write_artefact(sys.stdout, text)
    if tokenizer.available:
        sys.stderr.write(f"tokens: {tokenizer.count(text)} tokens ({tokenizer.name})\n")
