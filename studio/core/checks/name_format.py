"""V09 ``invalid-name``: names are 1-64 characters of a-z, 0-9 and hyphens.

Leading, trailing or doubled hyphens are not forbidden by the standard; the studio reports them as info
(``name-hyphens``) because Agent Skills forbids them and packs often sit beside Skills.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

INVALID_NAME = Code("invalid-name", Severity.ERROR,
                    "'name' is over 64 characters or uses characters other than a-z, 0-9 and '-'",
                    Behavior.LOAD_WITH_WARNING, "V09")
NAME_HYPHENS = Code("name-hyphens", Severity.INFO,
                    "'name' starts or ends with a hyphen or has two in a row (Agent Skills forbids these forms)",
                    Behavior.LOAD, "", hint="Agent Skills forbids these forms; prefer single inner hyphens.")
CODES = (INVALID_NAME, NAME_HYPHENS)

NAME_RE = re.compile(r"[a-z0-9-]{1,64}")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    value = ctx.value("name")
    if not isinstance(value, str) or not value.strip():
        return
    if not NAME_RE.fullmatch(value):
        bad = sorted({c for c in value if not re.fullmatch(r"[a-z0-9-]", c)})
        why = f"{len(value)} characters (max 64)" if len(value) > 64 else \
            "contains " + ", ".join(repr(c) for c in bad[:5])
        suggestion = re.sub(r"-+", "-", re.sub(r"[^a-z0-9-]", "-", value.lower())).strip("-")[:64]
        yield ctx.at(INVALID_NAME, f"'name' {why}; only a-z, 0-9 and '-' are allowed", "name",
                     hint=f"Use a lowercase, hyphenated name such as '{suggestion or 'my-pack'}'.")
    elif value.startswith("-") or value.endswith("-") or "--" in value:
        yield ctx.at(NAME_HYPHENS, "'name' starts or ends with a hyphen or has two in a row", "name")
