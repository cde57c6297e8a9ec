"""Split ``KNOWLEDGE.md`` into frontmatter and body; YAML -> values that remember their line and column.

Parses but does not validate: the checks in ``studio.core.checks`` judge the values. Every problem with
the bytes or the YAML becomes a Diagnostic; nothing here raises on bad input.
"""

from __future__ import annotations

from typing import Any

import yaml

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.frontmatter_fences import find_fences, opens_with_fence
from studio.core.model import Frontmatter, KnowledgeFile, Position
from studio.core.plain_yaml import parse_plain_block

KNOWLEDGE_TOO_LARGE = Code("knowledge-too-large", Severity.WARNING,
                           "KNOWLEDGE.md is over 1 MiB: only the first MiB is read", Behavior.LOAD_WITH_WARNING, "",
                           hint="Keep the guide short and move long material into documents/ or wiki/.")
UTF8_BOM = Code("utf8-bom", Severity.INFO,
                "KNOWLEDGE.md starts with a UTF-8 byte-order mark: some clients miss the frontmatter", Behavior.LOAD,
                "", hint="Save the file as UTF-8 without BOM.")
CRLF_LINE_ENDINGS = Code("crlf-line-endings", Severity.INFO,
                         "KNOWLEDGE.md uses CRLF line endings: the reference CLI only finds LF frontmatter fences",
                         Behavior.LOAD, "", hint="Convert the file to LF line endings.")
INVALID_ENCODING = Code("invalid-encoding", Severity.ERROR,
                        "KNOWLEDGE.md is not valid UTF-8 (the byte offset is given)", Behavior.QUARANTINE, "V04",
                        hint="Re-save the file as UTF-8.")
MISSING_FRONTMATTER = Code("missing-frontmatter", Severity.ERROR,
                           "KNOWLEDGE.md does not start with a '---' frontmatter block", Behavior.QUARANTINE, "V03",
                           hint="Start the file with '---', the YAML fields, and a closing '---' line.")
UNCLOSED_FRONTMATTER = Code("unclosed-frontmatter", Severity.ERROR, "the frontmatter block is never closed with '---'",
                            Behavior.QUARANTINE, "V03",
                            hint="Add a line containing only '---' after the last YAML field.")
INVALID_YAML = Code("invalid-yaml", Severity.ERROR, "the frontmatter is not valid YAML", Behavior.QUARANTINE, "V04",
                    hint="Fix the YAML syntax at this position (quote values that contain ': ' or '#').")
FRONTMATTER_NOT_MAPPING = Code("frontmatter-not-mapping", Severity.ERROR,
                               "the frontmatter parses, but to a list or a scalar rather than key: value pairs",
                               Behavior.QUARANTINE, "V05", hint="Add at least name, description, type and status.")
TAB_INDENTATION = Code("tab-indentation", Severity.ERROR, "the frontmatter is indented with tabs, which YAML forbids",
                       Behavior.QUARANTINE, "V04", hint="Indent with spaces.")
FRONTMATTER_TOO_COMPLEX = Code("frontmatter-too-complex", Severity.ERROR,
                               "the frontmatter is nested too deeply or holds too many values to be metadata",
                               Behavior.QUARANTINE, "V04",
                               hint="Keep frontmatter to the standard's fields; move data into files.")
YAML_ANCHOR_ALIAS = Code("yaml-anchor-alias", Severity.ERROR,
                         "the frontmatter uses YAML anchors or aliases, refused before anything expands (alias bombs)",
                         Behavior.QUARANTINE, "V04",
                         hint="Write the values out in full; anchors can expand into huge documents.")
YAML_COERCION = Code("yaml-coercion", Severity.INFO,
                     "a string field is written so that YAML 1.1 reads another type (date, number, boolean): kept "
                     "as written")
DUPLICATE_KEY = Code("duplicate-key", Severity.ERROR,
                     "a frontmatter key appears twice: YAML readers disagree about which value wins",
                     Behavior.QUARANTINE, "V04",
                     hint="Remove one of the two definitions; YAML loaders disagree on which wins.")
CODES = (KNOWLEDGE_TOO_LARGE, UTF8_BOM, CRLF_LINE_ENDINGS, INVALID_ENCODING, MISSING_FRONTMATTER, UNCLOSED_FRONTMATTER,
         INVALID_YAML, FRONTMATTER_NOT_MAPPING, TAB_INDENTATION, FRONTMATTER_TOO_COMPLEX, YAML_ANCHOR_ALIAS,
         YAML_COERCION, DUPLICATE_KEY)

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
_STR_TAG = "tag:yaml.org,2002:str"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


def read_knowledge_bytes(data: bytes, *, size: int | None = None) -> tuple[KnowledgeFile, list[Diagnostic]]:
    """Decode and split a ``KNOWLEDGE.md`` given as bytes (already bounded by the caller)."""
    diags: list[Diagnostic] = []
    size = len(data) if size is None else size
    truncated = size > MAX_KNOWLEDGE_BYTES
    if truncated:
        data = data[:MAX_KNOWLEDGE_BYTES]
        diags.append(KNOWLEDGE_TOO_LARGE(f"KNOWLEDGE.md is {size:,} bytes; only the first {MAX_KNOWLEDGE_BYTES:,} "
                                         "were read"))
    has_bom = data.startswith(b"\xef\xbb\xbf")
    if has_bom:
        data = data[3:]
        diags.append(UTF8_BOM("File starts with a UTF-8 byte-order mark; some clients will not find the frontmatter"))
    text = _decode(data, truncated, diags)
    crlf = "\r\n" in text
    if crlf:
        diags.append(CRLF_LINE_ENDINGS("File uses CRLF line endings; the reference CLI only recognises LF "
                                       "frontmatter fences"))
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
        diags.append(INVALID_ENCODING(f"KNOWLEDGE.md is not valid UTF-8: byte 0x{data[exc.start]:02x} at offset "
                                      f"{exc.start}", line=line, column=column))
        return data.decode("utf-8", errors="replace")


def split_and_parse(text: str, kf: KnowledgeFile) -> tuple[Frontmatter | None, list[Diagnostic]]:
    """Find the ``---`` fences in LF text, parse the YAML between them and set the body on ``kf``."""
    if not opens_with_fence(text):
        return None, [MISSING_FRONTMATTER("KNOWLEDGE.md does not start with a '---' frontmatter block")]
    span = find_fences(text)
    if span is None:
        return None, [UNCLOSED_FRONTMATTER("The frontmatter block opened on line 1 is never closed with '---'")]
    end = span.closing_line
    raw = text[span.yaml_start:span.closing_start - 1]
    kf.body = text[span.closing_end + 1:]
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
        return None, {}, [INVALID_YAML(f"Frontmatter is not valid YAML: {problem}", line=line, column=column)]
    except yaml.YAMLError as exc:
        return None, {}, [INVALID_YAML(f"Frontmatter is not valid YAML: {exc}", line=first_line,
                                       hint="Fix the YAML syntax.")]
    if node is None:
        return None, {}, [FRONTMATTER_NOT_MAPPING("Frontmatter is empty", line=first_line)]
    if not isinstance(node, yaml.MappingNode):
        kind = "a list" if isinstance(node, yaml.SequenceNode) else "a single value"
        return None, {}, [FRONTMATTER_NOT_MAPPING(f"Frontmatter is {kind}, not a mapping of fields",
                                                  line=node.start_mark.line + first_line,
                                                  column=node.start_mark.column + 1,
                                                  hint="Write the frontmatter as 'key: value' lines.")]
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
            out.append(TAB_INDENTATION("YAML does not allow tabs for indentation", line=first_line + i,
                                       column=len(line) - len(stripped) + 1))
    return out


_DEPTH_CHECK_FROM = 2000


def _too_deep(raw: str, first_line: int) -> Diagnostic | None:
    """A diagnostic when collections nest deeper than ``MAX_YAML_DEPTH``; linear, nothing is built."""
    try:
        return _depth_walk(raw, first_line, _Loader)
    except yaml.YAMLError:
        pass
    # libyaml's scanner has its own nesting limit and may refuse the text before the parser hands out a single
    # collection event (PyYAML 6.0.4 does, on deep flow brackets). The pure-Python parser hands events out as it
    # scans, so it reaches our limit first; it is slower, hence only here, and it stops at the first deep event.
    try:
        return _depth_walk(raw, first_line, yaml.SafeLoader)
    except yaml.YAMLError:
        return None  # the composer reports the syntax error with its position


def _depth_walk(raw: str, first_line: int, loader: Any) -> Diagnostic | None:
    depth = 0
    for event in yaml.parse(raw, Loader=loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                mark = event.start_mark
                line, column = (mark.line + first_line, mark.column + 1) if mark else (first_line, 1)
                return FRONTMATTER_TOO_COMPLEX(f"Frontmatter nests more than {MAX_YAML_DEPTH} levels deep; it is "
                                               "not read", line=line, column=column)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
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
                line, column = (mark.line + first_line, mark.column + 1) if mark else (first_line, 1)
                return YAML_ANCHOR_ALIAS(f"Frontmatter uses YAML anchors/aliases ('{anchor}'); the studio refuses them",
                                         line=line, column=column)
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
        diagnostics.append(YAML_COERCION(f"'{path[0]}: {written}' is read by YAML 1.1 as {type(value).__name__} "
                                         f"{value!r}; the studio keeps the text '{written}'", line=line,
                                         column=column, hint=f"Quote the value: {path[0]}: \"{written}\""))
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
                self.diagnostics.append(FRONTMATTER_TOO_COMPLEX("Frontmatter is too large or too deeply nested to be "
                                                                "metadata", line=line, column=col))
            return None
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            return [self.value(item, path, depth + 1) for item in node.value]
        assert isinstance(node, yaml.ScalarNode)  # the composer makes only these three kinds
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
                self.diagnostics.append(DUPLICATE_KEY(f"Key '{'.'.join(key_path)}' is defined twice (first on line "
                                                      f"{first.line})", line=line, column=col))
                continue
            self.positions[key_path] = Position(line, col, vline, vcol)
            out[key] = self.value(value_node, key_path, depth + 1)
        return out

    def scalar(self, node: yaml.ScalarNode, path: tuple[str, ...]) -> Any:
        if node.tag == _STR_TAG:
            return node.value  # most values: no constructor round trip needed
        line, col = self._pos(node)
        return _typed_scalar(node, path, line, col, self._constructor, self.diagnostics)

