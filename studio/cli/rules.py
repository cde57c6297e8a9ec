"""``pack-studio rules``: list every validation check with its documentation."""

from __future__ import annotations

import argparse
import sys

from studio.core.checks import CHECK_MODULES, content_check_modules


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help="list the validation rules")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for module in [*CHECK_MODULES, *content_check_modules()]:
        doc = (module.__doc__ or "").strip()
        sys.stdout.write(f"{module.__name__.rsplit('.', 1)[-1]}\n    " + doc.replace("\n", "\n    ") + "\n\n")
    return 0
