"""The fixers, one per kind of finding, registered by diagnostic code in ``FIXERS``.

Each proposes minimal edits (``frontmatter_edit``), checked against the parser so an edit changes exactly
the value it names; ``fixes.verify`` then validates the result. Near-misses are found with ``rapidfuzz``'s
optimal-string-alignment distance (a swapped pair of letters counts once) on lower-cased text with
punctuation as spaces, so ``needs_review``, ``Ready`` and ``tpye`` all find their value or key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from studio.core.authoring.fix_types import Fix, FixContext, Fixer, FixKind
from studio.core.authoring.formatting import tabs_to_spaces
from studio.core.authoring.names import collision, fold, name_rule_problem, suggest_name
from studio.core.authoring.skeletons import skeleton_for_path
from studio.core.authoring.vocabulary import ENUM_CODES, KEYS, LIST_KEYS, TOP_LEVEL_KEYS
from studio.core.checks.context_map import map_references, missing_reference
from studio.core.checks.status_gate import GATES
from studio.core.diagnostics import Diagnostic
from studio.core.frontmatter_edit import (
    LINE,
    EditError,
    check_data,
    fill_or_insert,
    insert_key,
    remove_line,
    rename_key,
    set_value,
)

FIXERS: dict[str, Fixer] = {}
"""Diagnostic code -> the function proposing its fixes."""
KEY_ORDER = ("name", "description", "type", "profile", "status")
"""Where inserted required keys go: after the nearest of these before them, else before the next."""
PLACEHOLDERS = {
    "description": "Say what this pack holds and when an agent should use it.",
    "type": "domain-reference",
    "status": "draft",
}
MAX_CHOICES = 3


def fixer(*codes: str) -> Callable[[Fixer], Fixer]:
    """Register the decorated function as the fixer for ``codes``."""
    def register(func: Fixer) -> Fixer:
        for code in codes:
            FIXERS[code] = func
        return func
    return register


def closest(value: str, choices: tuple[str, ...]) -> list[tuple[str, float]]:
    """Up to three ``choices`` near ``value``, nearest first: (choice, distance).

    A choice that starts with the value (``wiki`` -> ``wiki-first``) counts as one edit away. The cut-off
    grows with the length: one edit for up to four characters, two up to ten, three beyond.
    """
    from rapidfuzz import process, utils  # on first use: the editor imports the registry at start-up
    from rapidfuzz.distance import OSA

    query = utils.default_process(value)
    if not query:
        return []
    cutoff = 1 if len(query) <= 4 else 2 if len(query) <= 10 else 3
    found = {c: float(d) for c, d, _ in process.extract(query, choices, scorer=OSA.distance,
                                                         processor=utils.default_process, score_cutoff=cutoff,
                                                         limit=MAX_CHOICES)}
    if len(query) >= 3:
        for choice in choices:
            if utils.default_process(choice).startswith(query) and choice not in found:
                found[choice] = 1.0
    return sorted(found.items(), key=lambda item: (item[1], item[0]))[:MAX_CHOICES]


def _unambiguous(ranked: list[tuple[str, float]], index: int) -> bool:
    return index == 0 and (len(ranked) == 1 or ranked[1][1] > ranked[0][1])


def _setter(path: tuple[str, ...], value: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def expect(data: dict[str, Any]) -> dict[str, Any]:
        if len(path) == 2:
            data[path[0]] = {**data[path[0]], path[1]: value}
        else:
            data[path[0]] = value
        return data
    return expect


def _edit(ctx: FixContext, d: Diagnostic, title: str, new_text: str,
          expect: Callable[[dict[str, Any]], dict[str, Any]], *, cli: bool, body: bool = False,
          note: str = "") -> Fix:
    check_data(ctx.text, new_text, expect, what="fix it", body_may_change=body)
    return Fix(d.code, title, FixKind.EDIT, ctx.text, new_text, d.line, cli=cli, note="" if cli else note)


def _tie(ranked: list[tuple[str, float]]) -> str:
    near = [c for c, dist in ranked if dist == ranked[0][1]]
    return f"{' and '.join(repr(c) for c in near)} are equally close; choose one in the app (Ctrl+.)"


@fixer("name-directory-mismatch")
def _name_mismatch(ctx: FixContext, d: Diagnostic) -> list[Fix]:
    folder = ctx.root.name
    current = ctx.pack.field("name")
    out: list[Fix] = []
    if name_rule_problem(folder) is None:
        new = set_value(ctx.text, "name", folder)
        out.append(_edit(ctx, d, f"Set name to '{folder}', the folder's name", new, _setter(("name",), folder),
                         cli=True))
    if (isinstance(current, str) and name_rule_problem(current) is None
            and collision(current, ctx.root.parent, exclude=ctx.root) is None):
        out.append(Fix(d.code, f"Rename the folder to '{current}'", FixKind.RENAME_FOLDER, ctx.text, ctx.text,
                       d.line, path=current))
    return out


@fixer("invalid-name")
def _invalid_name(ctx: FixContext, d: Diagnostic) -> list[Fix]:
    current = ctx.pack.field("name")
    if not isinstance(current, str):
        return []
    choices = [c for c in dict.fromkeys((ctx.root.name, suggest_name(current)))
               if c and name_rule_problem(c) is None]
    choices.sort(key=lambda c: c != ctx.root.name or fold(c) != fold(suggest_name(current)))
    return [_edit(ctx, d, f"Set name to '{c}'", set_value(ctx.text, "name", c), _setter(("name",), c), cli=False,
                  note="a new name is a choice; pick one in the app (Ctrl+.)") for c in choices]


@fixer(*ENUM_CODES)
def _enum_value(ctx: FixContext, d: Diagnostic) -> list[Fix]:
    path = ENUM_CODES[d.code]
    value = ctx.pack.field(*path)
    if not isinstance(value, str):
        return []
    ranked = closest(value, KEYS[path].values)
    parent, key = (path[0], path[1]) if len(path) == 2 else (None, path[0])
    dotted = ".".join(path)
    out = []
    for index, (choice, _distance) in enumerate(ranked):
        new = set_value(ctx.text, key, choice, parent=parent)
        fix = _edit(ctx, d, f"Change {dotted} to '{choice}'", new, _setter(path, choice),
                    cli=_unambiguous(ranked, index), note=_tie(ranked))
        if path == ("status",) and choice in GATES:  # a status brings its own loading gate (status-draft ...)
            fix = replace(fix, expected=(GATES[choice][0].code,))
        out.append(fix)
    return out


@fixer("unknown-key")
def _unknown_key(ctx: FixContext, d: Diagnostic) -> list[Fix]:
    fm = ctx.pack.frontmatter
    if fm is None:
        return []
    key = next((p[0] for p, pos in fm.positions.items() if len(p) == 1 and pos.line == d.line), None)
    if key is None:
        return []
    present = set(fm.data)
    ranked = [(c, dist) for c, dist in closest(key, TOP_LEVEL_KEYS) if c not in present]
    out = []
    for index, (choice, _distance) in enumerate(ranked):
        # A one-line value under a key the standard defines as a list becomes that list's only item.
        as_list = (choice,) in LIST_KEYS and isinstance(fm.data.get(key), str)

        def expect(data: dict[str, Any], old: str = key, new: str = choice, wrap: bool = as_list) -> dict[str, Any]:
            value = data.pop(old)
            data[new] = [value] if wrap else value
            return data
        title = f"Rename '{key}' to '{choice}'" + (" as a list" if as_list else "")
        out.append(_edit(ctx, d, title, rename_key(ctx.text, key, choice, as_list=as_list), expect,
                         cli=_unambiguous(ranked, index), note=_tie(ranked)))
    return out


@fixer("tab-indentation")
def _tabs(ctx: FixContext, d: Diagnostic) -> list[Fix]:
    new = tabs_to_spaces(ctx.text)
    return [Fix(d.code, "Indent the frontmatter with spaces instead of tabs", FixKind.EDIT, ctx.text, new, d.line,
                cli=True)]


@fixer("missing-profile")
def _missing_profile(ctx: FixContext, d: Diagnostic) -> list[Fix]:
    new, _index = insert_key(ctx.text, "profile", "wiki-first", after=("type", "description", "name"),
                             before=("status",))
    return [_edit(ctx, d, "Declare 'profile: wiki-first' (what the pack is treated as now)", new,
                  _setter(("profile",), "wiki-first"), cli=True)]


@fixer("context-map-missing-file")
def _context_map(ctx: FixContext, d: Diagnostic) -> list[Fix]:
    knowledge = ctx.pack.knowledge
    if knowledge is None:
        return []
    refs = [r for r in map_references(knowledge.body) if knowledge.body_start_line + r.line == d.line]
    ref = next((r for r in refs if r.column + 1 == d.column), None)
    if ref is None:
        return []
    out: list[Fix] = []
    bare = ref.path.split("#", 1)[0].removeprefix("./")
    if bare.endswith("/"):
        out.append(Fix(d.code, f"Create the folder {bare}", FixKind.CREATE_FILE, ctx.text, ctx.text, d.line,
                       path=bare))
    elif (skeleton := skeleton_for_path(bare)) is not None:
        out.append(Fix(d.code, f"Create {bare} from a skeleton", FixKind.CREATE_FILE, ctx.text, ctx.text, d.line,
                       path=bare, file_text=skeleton))
    lines = LINE.findall(ctx.text)
    if 0 < d.line <= len(lines):
        others = [r for r in refs if r is not ref and not missing_reference(str(ctx.root), r.path)]
        new = remove_line(ctx.text, d.line - 1)
        # Never automatic (fix --write): the line is the author's guidance, and removing it is a choice.
        create = "create it with fix --create, or " if out else ""
        why = ("the line names other files too; edit it in the app (Ctrl+.)" if others else
               f"removing a guide line is a choice: {create}edit the line in the app (Ctrl+.)")
        out.append(_edit(ctx, d, f"Remove the line naming {ref.path}", new, lambda data: data, cli=False,
                         body=True, note=why))
    return out


@fixer("missing-name", "missing-description", "missing-type", "missing-status")
def _required(ctx: FixContext, d: Diagnostic) -> list[Fix]:
    key = d.code.removeprefix("missing-")
    expected: tuple[str, ...] = ()
    if key == "name":
        folder = ctx.root.name
        value = folder if name_rule_problem(folder) is None else (suggest_name(folder) or "my-pack")
        if value != folder:
            expected = ("name-directory-mismatch",)
    else:
        value = PLACEHOLDERS[key]
        expected = ("status-draft",) if key == "status" else ()
    at = KEY_ORDER.index(key)
    try:
        new, index = fill_or_insert(ctx.text, key, value, after=tuple(reversed(KEY_ORDER[:at])),
                                    before=KEY_ORDER[at + 1:])
    except EditError:
        return []
    check_data(ctx.text, new, _setter((key,), value), what="add it")
    start = sum(len(line) for line in LINE.findall(new)[:index]) + len(f"{key}: ")
    return [Fix(d.code, f"Add '{key}' with a placeholder to type over", FixKind.PLACEHOLDER, ctx.text, new,
                d.line, select=(start, start + len(value)), expected=expected)]
