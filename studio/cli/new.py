"""``pack-studio new NAME --type TYPE --profile PROFILE``: create a pack from a template, all at once or not at all.

The pack is built in a hidden folder beside the target, validated, then renamed into place; nothing is ever
overwritten. Exit status: 0 created (or previewed with ``--dry-run``), 2 a bad name, type, profile or
folder, an existing target (including one differing only by case or Unicode form), a folder inside another
pack or a read-only one: nothing is written then.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli._output import add_format_option, write_json
from studio.core.authoring.create import create_pack
from studio.core.authoring.new_pack import NewPackError, NewPackRequest, default_pack_folder, plan_new_pack
from studio.core.authoring.templates import TemplateSet, load_templates, user_templates_dir
from studio.core.model import PROFILES, RUNTIME_MODES
from studio.core.terminal import printable, printable_block


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("new", help="create a new pack from a template",
                       description="Create a pack that validates cleanly: KNOWLEDGE.md with the standard's fields "
                       "and a guide skeleton, and the folders its profile expects. Nothing is overwritten. "
                       "Exit status: 0 created, 2 usage error or the target exists (nothing written).")
    p.add_argument("name", nargs="?", metavar="NAME", help="pack name: 1-64 characters of a-z, 0-9 and '-'")
    p.add_argument("--type", metavar="TYPE", help="a standard type or custom:<namespace> (default: the template's)")
    p.add_argument("--profile", choices=PROFILES, help="where the facts live (default: the template's)")
    p.add_argument("--mode", choices=RUNTIME_MODES, help="runtime.mode (default: the template's, usually data)")
    p.add_argument("--language", metavar="LANG", help="language tag such as en or zh-CN (default: en)")
    p.add_argument("--description", metavar="TEXT", help="what the pack holds and when to use it")
    p.add_argument("--into", type=Path, metavar="DIR", default=None,
                   help="folder to create the pack in (default: the project's .agents/knowledge)")
    p.add_argument("--project", type=Path, metavar="DIR",
                   help="project whose .agents/knowledge gets the pack (default: the current folder)")
    p.add_argument("--template", metavar="ID", help="template id (default: the one made for --type)")
    p.add_argument("--templates-dir", type=Path, metavar="DIR",
                   help=f"your own templates (default: {user_templates_dir()})")
    p.add_argument("--list-templates", action="store_true", help="list the templates and exit")
    p.add_argument("--dry-run", action="store_true", help="print the file tree and KNOWLEDGE.md; write nothing")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    templates = load_templates(args.templates_dir or user_templates_dir())
    for problem in templates.problems:
        print(f"pack-studio new: template skipped: {printable(problem)}", file=sys.stderr)
    if args.list_templates:
        return _list(templates, args.format)
    if not args.name:
        return _usage("give the new pack's NAME")
    if args.template:
        template = templates.get(args.template)
        if template is None:
            known = ", ".join(t.id for t in templates.templates)
            return _usage(f"no template '{printable_block(args.template)}' (known: {known})")
    elif args.type and args.profile:
        template = templates.for_type(args.type)
    else:
        return _usage("give --type and --profile (or --template)")
    if template is None:
        return _usage("no templates found")
    into = args.into if args.into is not None else default_pack_folder(args.project or Path.cwd()).folder
    request = NewPackRequest(args.name, into, template,
                             type=args.type, profile=args.profile, mode=args.mode, language=args.language,
                             description=args.description)
    try:
        plan = plan_new_pack(request, templates)
        created = None if args.dry_run else create_pack(plan)
    except NewPackError as exc:
        return _usage(str(exc))
    if args.format == "json":
        write_json({"name": plan.name, "path": str(plan.target), "template": plan.template_id, "type": plan.type,
                    "profile": plan.profile, "mode": plan.mode, "dry_run": args.dry_run,
                    "files": list(plan.files), "folders": list(plan.folders),
                    "diagnostics": [d.to_dict() for d in created.diagnostics] if created else []})
        return 0
    out = sys.stdout
    out.write(printable_block(plan.tree()) + "\n")
    if args.dry_run:
        out.write("\n" + printable_block(plan.knowledge) + "\nDry run: nothing written.\n")
        return 0
    assert created is not None
    out.write(f"Created {printable_block(str(created.root))} from the '{plan.template_id}' template.\n")
    for d in created.diagnostics:
        out.write(printable_block(d.format(str(created.root))) + "\n")
    return 0


def _list(templates: TemplateSet, fmt: str) -> int:
    if fmt == "json":
        write_json([{"id": t.id, "title": t.title, "summary": t.summary, "type": t.type, "profile": t.profile,
                     "mode": t.mode, "user": t.user} for t in templates.templates])
        return 0
    for t in templates.templates:
        mark = " (yours)" if t.user else ""
        sys.stdout.write(printable_block(f"{t.id:28} {t.type:26} {t.profile:15} {t.title}{mark}") + "\n")
    return 0


def _usage(message: str) -> int:
    print(f"pack-studio new: {printable(message)}", file=sys.stderr)
    return 2
