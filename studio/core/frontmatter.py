"""Split ``KNOWLEDGE.md`` into frontmatter and body; YAML -> values that remember their line and column.

Parses but does not validate: the checks in ``studio.core.checks`` judge the values. Every problem with
the bytes or the YAML becomes a Diagnostic; nothing here raises on bad input.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from studio.core.diagnostics import Behavior, Diagnostic, Severity
from studio.core.model import Frontmatter, KnowledgeFile, Position
from studio.core.plain_yaml import parse_plain_block

try:  # the C loader is several times faster; fall back silently when libyaml is absent
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_KNOWLEDGE_BYTES = 1024 * 1024
"""Bytes of ``KNOWLEDGE.md`` the studio reads; a guide beyond this is truncated and reported."""
MAX_YAML_NODES = 5000
"""Frontmatter is metadata: thousands of nodes means something is wrong, so stop walking."""
MAX_YAML_DEPTH = 32

# Fields whose values are strings by the standard even when YAML 1.1 would read them otherwise.
STRING_FIELDS = frozenset(
    {"name", "description", "type", "status", "version", "language", "license", "scope", "trust",
     "updated", "grounding", "profile", "compatibility"}
)
_FENCE = re.compile(r"---[ \t]*")
_CLOSING_FENCE = re.compile(r"\n---[ \t]*(?=\n|\Z)")
_STR_TAG = "tag:yaml.org,2002:str"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


def read_knowledge_bytes(data: bytes, *, size: int | None = None) -> tuple[KnowledgeFile, list[Diagnostic]]:
    """Decode and split a ``KNOWLEDGE.md`` given as bytes (already bounded by the caller)."""
    diags: list[Diagnostic] = []
    size = len(data) if size is None else size
    truncated = size > MAX_KNOWLEDGE_BYTES
    if truncated:
        data = data[:MAX_KNOWLEDGE_BYTES]
        diags.append(_diag(
            "knowledge-too-large", Severity.WARNING,
            f"KNOWLEDGE.md is {size:,} bytes; only the first {MAX_KNOWLEDGE_BYTES:,} were read",
            hint="Keep the guide short and move long material into documents/ or wiki/.",
            behavior=Behavior.LOAD_WITH_WARNING,
        ))
    has_bom = data.startswith(b"\xef\xbb\xbf")
    if has_bom:
        data = data[3:]
        diags.append(_diag(
            "utf8-bom", Severity.INFO,
            "File starts with a UTF-8 byte-order mark; some clients will not find the frontmatter",
            hint="Save the file as UTF-8 without BOM.",
        ))
    text = _decode(data, truncated, diags)
    crlf = "\r\n" in text
    if crlf:
        diags.append(_diag(
            "crlf-line-endings", Severity.INFO,
            "File uses CRLF line endings; the reference CLI only recognises LF frontmatter fences",
            hint="Convert the file to LF line endings.",
        ))
        text = text.replace("\r\n", "\n")
    text = text.replace("\r", "\n")
    kf = KnowledgeFile(frontmatter=None, body=text, body_start_line=1, text=text,
                       has_bom=has_bom, crlf=crlf, truncated=truncated, size=size)
    fm, fm_diags = split_and_parse(text, kf)
    kf.frontmatter = fm
    diags.extend(fm_diags)
    return kf, diags


def _decode(data: bytes, truncated: bool, diags: list[Diagnostic]) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if truncated and exc.start >= len(data) - 3 and exc.reason == "unexpected end of data":
            return data[: exc.start].decode("utf-8", errors="replace")  # cut mid-character by the bound
        prefix = data[: exc.start].decode("utf-8", errors="replace")
        line = prefix.count("\n") + 1
        column = len(prefix) - (prefix.rfind("\n") + 1) + 1
        diags.append(_diag(
            "invalid-encoding", Severity.ERROR,
            f"KNOWLEDGE.md is not valid UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}",
            line=line, column=column, rule="V04",
            hint="Re-save the file as UTF-8.",
            behavior=Behavior.QUARANTINE,
        ))
        return data.decode("utf-8", errors="replace")


def split_and_parse(text: str, kf: KnowledgeFile) -> tuple[Frontmatter | None, list[Diagnostic]]:
    """Find the ``---`` fences in LF text, parse the YAML between them and set the body on ``kf``."""
    first_break = text.find("\n")
    if not _FENCE.fullmatch(text if first_break < 0 else text[:first_break]):
        return None, [_diag(
            "missing-frontmatter", Severity.ERROR,
            "KNOWLEDGE.md does not start with a '---' frontmatter block",
            rule="V03", behavior=Behavior.QUARANTINE,
            hint="Start the file with '---', the YAML fields, and a closing '---' line.",
        )]
    closing = _CLOSING_FENCE.search(text, first_break) if first_break >= 0 else None
    if closing is None:
        return None, [_diag(
            "unclosed-frontmatter", Severity.ERROR,
            "The frontmatter block opened on line 1 is never closed with '---'",
            rule="V03", behavior=Behavior.QUARANTINE,
            hint="Add a line containing only '---' after the last YAML field.",
        )]
    end = text.count("\n", 0, closing.start() + 1)  # 0-based line of the closing fence
    raw = text[first_break + 1:closing.start()]
    kf.body = text[closing.end() + 1:]
    kf.body_start_line = end + 2
    data, positions, diags = parse_yaml_block(raw, first_line=2)
    if data is None:
        return None, diags
    return Frontmatter(data=data, positions=positions, start_line=1, end_line=end + 1, raw=raw), diags


def parse_yaml_block(
    raw: str, *, first_line: int
) -> tuple[dict[str, Any] | None, dict[tuple[str, ...], Position], list[Diagnostic]]:
    """Parse a YAML mapping safely; ``first_line`` is the file line of ``raw``'s first line."""
    diags = list(_tab_diagnostics(raw, first_line))
    if diags:
        return None, {}, diags
    plain = _parse_plain(raw, first_line)
    if plain is not None:
        return plain
    return parse_with_loader(raw, first_line=first_line)


def parse_with_loader(
    raw: str, *, first_line: int
) -> tuple[dict[str, Any] | None, dict[tuple[str, ...], Position], list[Diagnostic]]:
    """The full path: libyaml composes nodes (after the alias and depth guards), the builder walks them."""
    # The event walk is only needed when an anchor or alias could be present at all.
    alias = _find_anchor_or_alias(raw, first_line) if ("&" in raw or "*" in raw) else None
    if isinstance(alias, Diagnostic):
        return None, {}, [alias]
    # The composer recurses once per nesting level (in C, on the thread's stack): refuse deep nesting first.
    # Text shorter than the limit cannot nest deeper than it, so short frontmatter skips the extra walk.
    deep = _too_deep(raw, first_line) if len(raw) > _DEPTH_CHECK_FROM else None
    if deep is not None:
        return None, {}, [deep]
    try:
        node = yaml.compose(raw, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + first_line) if mark else first_line
        column = (mark.column + 1) if mark else 1
        problem = exc.problem or exc.context or "syntax error"
        return None, {}, [_diag(
            "invalid-yaml", Severity.ERROR, f"Frontmatter is not valid YAML: {problem}",
            line=line, column=column, rule="V04", behavior=Behavior.QUARANTINE,
            hint="Fix the YAML syntax at this position (quote values that contain ': ' or '#').",
        )]
    except yaml.YAMLError as exc:
        return None, {}, [_diag(
            "invalid-yaml", Severity.ERROR, f"Frontmatter is not valid YAML: {exc}",
            line=first_line, rule="V04", behavior=Behavior.QUARANTINE,
            hint="Fix the YAML syntax.",
        )]
    if node is None:
        return None, {}, [_diag(
            "frontmatter-not-mapping", Severity.ERROR, "Frontmatter is empty",
            line=first_line, rule="V05", behavior=Behavior.QUARANTINE,
            hint="Add at least name, description, type and status.",
        )]
    if not isinstance(node, yaml.MappingNode):
        kind = "a list" if isinstance(node, yaml.SequenceNode) else "a single value"
        return None, {}, [_diag(
            "frontmatter-not-mapping", Severity.ERROR, f"Frontmatter is {kind}, not a mapping of fields",
            line=node.start_mark.line + first_line, column=node.start_mark.column + 1,
            rule="V05", behavior=Behavior.QUARANTINE,
            hint="Write the frontmatter as 'key: value' lines.",
        )]
    builder = _Builder(first_line)
    data = builder.mapping(node, ())
    return data, builder.positions, builder.diagnostics


def _tab_diagnostics(raw: str, first_line: int) -> list[Diagnostic]:
    if "\t" not in raw:
        return []
    out = []
    for i, line in enumerate(raw.split("\n")):
        stripped = line.lstrip(" ")
        if stripped.startswith("\t"):
            out.append(_diag(
                "tab-indentation", Severity.ERROR, "YAML does not allow tabs for indentation",
                line=first_line + i, column=len(line) - len(stripped) + 1,
                rule="V04", behavior=Behavior.QUARANTINE, hint="Indent with spaces.",
            ))
    return out


_DEPTH_CHECK_FROM = 2000


def _too_deep(raw: str, first_line: int) -> Diagnostic | None:
    """A diagnostic when collections nest deeper than ``MAX_YAML_DEPTH``; linear, nothing is built."""
    depth = 0
    try:
        for event in yaml.parse(raw, Loader=_Loader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    mark = event.start_mark
                    return _diag(
                        "frontmatter-too-complex", Severity.ERROR,
                        f"Frontmatter nests more than {MAX_YAML_DEPTH} levels deep; it is not read",
                        line=mark.line + first_line, column=mark.column + 1, rule="V04",
                        behavior=Behavior.QUARANTINE,
                        hint="Keep frontmatter to the standard's fields; move data into files.",
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return None  # the composer reports the syntax error with its position
    return None


def _find_anchor_or_alias(raw: str, first_line: int) -> Diagnostic | None:
    """Refuse anchors and aliases before anything builds the data (alias bombs expand exponentially).

    Walks parser events, which is linear in the input: an alias is never expanded here.
    """
    try:
        for event in yaml.parse(raw, Loader=_Loader):
            anchor = getattr(event, "anchor", None)
            if isinstance(event, yaml.AliasEvent) or anchor:
                mark = event.start_mark
                return _diag(
                    "yaml-anchor-alias", Severity.ERROR,
                    f"Frontmatter uses YAML anchors/aliases ('{anchor}'); the studio refuses them",
                    line=mark.line + first_line, column=mark.column + 1,
                    rule="V04", behavior=Behavior.QUARANTINE,
                    hint="Write the values out in full; anchors can expand into huge documents.",
                )
    except yaml.YAMLError:
        return None  # the composer reports the syntax error with its position
    return None


def _parse_plain(
    raw: str, first_line: int
) -> tuple[dict[str, Any], dict[tuple[str, ...], Position], list[Diagnostic]] | None:
    """The line reader for plain block YAML (most frontmatter); None sends the text to the full loader."""
    diagnostics: list[Diagnostic] = []

    def on_scalar(tag: str, text: str, path: tuple[str, ...], line: int, column: int) -> Any:
        # A fresh constructor each time: it caches every node it built, and it is cheap to make.
        return _typed_scalar(yaml.ScalarNode(tag, text), path, line, column,
                             yaml.constructor.SafeConstructor(), diagnostics)

    parsed = parse_plain_block(raw, first_line, on_scalar, max_nodes=MAX_YAML_NODES, max_depth=MAX_YAML_DEPTH)
    if parsed is None:
        return None
    return parsed[0], parsed[1], diagnostics


def _typed_scalar(node: yaml.ScalarNode, path: tuple[str, ...], line: int, column: int,
                  constructor: yaml.constructor.SafeConstructor, diagnostics: list[Diagnostic]) -> Any:
    """The value of a scalar whose tag is not ``str``, as the standard wants it.

    Dates stay as written (they are strings to the standard); a YAML-1.1 coercion of a top-level
    string field (``version: 1.10``, ``language: no``) keeps the written text and gets an info.
    """
    if node.tag == _TIMESTAMP_TAG:
        return node.value  # valid or not, a date stays as written (the updated_date check judges it)
    try:
        value = constructor.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError):
        value = node.value
    top_string_field = len(path) == 1 and path[0] in STRING_FIELDS
    if top_string_field and not isinstance(value, str) and value is not None:
        written = node.value
        diagnostics.append(_diag(
            "yaml-coercion", Severity.INFO,
            f"'{path[0]}: {written}' is read by YAML 1.1 as {type(value).__name__} {value!r}; "
            f"the studio keeps the text '{written}'",
            line=line, column=column,
            hint=f"Quote the value: {path[0]}: \"{written}\"",
        ))
        value = written
    return value


class _Builder:
    """Turns composed YAML nodes into plain values while recording positions and problems."""

    def __init__(self, first_line: int) -> None:
        self.first_line = first_line
        self.positions: dict[tuple[str, ...], Position] = {}
        self.diagnostics: list[Diagnostic] = []
        self.nodes = 0
        self._constructor = yaml.constructor.SafeConstructor()

    def _pos(self, node: yaml.Node) -> tuple[int, int]:
        return node.start_mark.line + self.first_line, node.start_mark.column + 1

    def value(self, node: yaml.Node, path: tuple[str, ...], depth: int = 0) -> Any:
        self.nodes += 1
        if self.nodes > MAX_YAML_NODES or depth > MAX_YAML_DEPTH:
            if self.nodes == MAX_YAML_NODES + 1 or depth == MAX_YAML_DEPTH + 1:
                line, col = self._pos(node)
                self.diagnostics.append(_diag(
                    "frontmatter-too-complex", Severity.ERROR,
                    "Frontmatter is too large or too deeply nested to be metadata",
                    line=line, column=col, rule="V04", behavior=Behavior.QUARANTINE,
                    hint="Keep frontmatter to the standard's fields; move data into files.",
                ))
            return None
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            return [self.value(item, path, depth + 1) for item in node.value]
        return self.scalar(node, path)

    def mapping(self, node: yaml.MappingNode, path: tuple[str, ...], depth: int = 0) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            # A complex key (``? [a, b]``) has no text of its own: show where it is instead of a node repr.
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else (
                f"<complex key at line {key_node.start_mark.line + self.first_line}>")
            key_path = (*path, key)
            line, col = self._pos(key_node)
            vline, vcol = self._pos(value_node)
            if key in out:
                first = self.positions[key_path]
                self.diagnostics.append(_diag(
                    "duplicate-key", Severity.ERROR,
                    f"Key '{'.'.join(key_path)}' is defined twice (first on line {first.line})",
                    line=line, column=col, rule="V04", behavior=Behavior.QUARANTINE,
                    hint="Remove one of the two definitions; YAML loaders disagree on which wins.",
                ))
                continue
            self.positions[key_path] = Position(line, col, vline, vcol)
            out[key] = self.value(value_node, key_path, depth + 1)
        return out

    def scalar(self, node: yaml.Node, path: tuple[str, ...]) -> Any:
        if node.tag == _STR_TAG:
            return node.value  # most values: no constructor round trip needed
        line, col = self._pos(node)
        return _typed_scalar(node, path, line, col, self._constructor, self.diagnostics)


def _diag(code: str, severity: Severity, message: str, *, line: int = 1, column: int = 1,
          rule: str = "", hint: str = "", behavior: Behavior = Behavior.LOAD) -> Diagnostic:
    return Diagnostic(code=code, severity=severity, message=message, file="KNOWLEDGE.md", line=line,
                      column=column, hint=hint, behavior=behavior, rule=rule)
