"""Pack templates: data folders under ``resources/templates/<id>/`` (and a user folder), never code.

A template folder holds ``template.toml`` (title, summary, default type/profile/mode, guide text) and the
files a new pack may start with, written with ``{{placeholder}}`` markers that are replaced by plain text
in one pass (nothing is evaluated, a replaced value is never scanned again). Which files a pack gets
depends on its profile and mode (``new_pack``); a file a template lacks comes from the ``blank`` template.
User templates live in a folder the app passes (Qt's config location) and replace a built-in one with the
same id. Reading is bounded: files over 256 KB, more than 64 files per template or 200 templates are left
out, symlinks are never followed, and a template that cannot be read is reported, not raised.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.model import PROFILES, RUNTIME_MODES, STANDARD_TYPES
from studio.core.resources import templates_dir

MANIFEST = "template.toml"
BLANK = "blank"
MAX_TEMPLATES = 200
MAX_FILES = 64
MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 6
MAX_NESTING = 32
"""Arrays and inline tables inside each other in ``template.toml``: ``tomllib`` parses them by recursion, so a
manifest of a few KB of ``[[[[...`` ended ``new`` (and the New Pack dialog) with a RecursionError. A real
manifest nests two levels."""
_TOML_TOKEN = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]',
                         re.DOTALL)
PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]{1,40})\s*\}\}")
PLACEHOLDERS = frozenset({"name", "title", "description", "type", "profile", "mode", "language", "date",
                          "primary_document", "context_map", "when_to_use", "boundaries"})
"""Every placeholder a template may use; any other ``{{…}}`` makes the template unusable (reported)."""
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")


class TemplateError(ValueError):
    """A template cannot be read or used; the message names the template and the problem."""


@dataclass(frozen=True, slots=True)
class Template:
    """One template, fully read into memory (its files are small text)."""

    id: str
    title: str
    summary: str
    type: str
    profile: str
    mode: str = "data"
    description: str = ""
    """Default description with placeholders (the user's own replaces it)."""
    primary_document: str = "main"
    """Stem of the primary document under documents/."""
    when_to_use: tuple[str, ...] = ()
    not_for: str = ""
    boundaries: tuple[str, ...] = ()
    persona_boundaries: tuple[str, ...] = ()
    context: Mapping[str, str] = field(default_factory=dict)
    """Pack-relative path -> what the context map says to read it for."""
    files: Mapping[str, str] = field(default_factory=dict)
    """Template-relative path -> text with placeholders (``template.toml`` excluded)."""
    order: int = 100
    origin: Path | None = None
    user: bool = False
    """True for a template from the user folder."""


@dataclass(frozen=True, slots=True)
class TemplateSet:
    """The templates found, in menu order, and the ones that could not be read (with why)."""

    templates: tuple[Template, ...]
    problems: tuple[str, ...] = ()

    def get(self, template_id: str) -> Template | None:
        return next((t for t in self.templates if t.id == template_id), None)

    @property
    def blank(self) -> Template | None:
        return self.get(BLANK)

    def for_type(self, pack_type: str) -> Template | None:
        """The template made for ``pack_type``, else the blank one."""
        return next((t for t in self.templates if t.type == pack_type and t.id != BLANK), None) or self.blank


def builtin_templates_dir() -> Path:
    """The bundled templates (``resources/templates``, shipped inside the package)."""
    return templates_dir()


def load_templates(user_dir: Path | None = None, builtin_dir: Path | None = None) -> TemplateSet:
    """Built-in templates, then the user's (a user template replaces a built-in one with the same id)."""
    found: dict[str, Template] = {}
    problems: list[str] = []
    for folder, user in ((builtin_dir or builtin_templates_dir(), False), (user_dir, True)):
        if folder is None:
            continue
        for entry in _template_dirs(folder, problems):
            try:
                template = read_template(entry, user=user)
            except TemplateError as exc:
                problems.append(str(exc))
                continue
            found[template.id] = template
    ordered = sorted(found.values(), key=lambda t: (t.id != BLANK, t.order, t.title.lower()))
    return TemplateSet(tuple(ordered), tuple(problems))


def _template_dirs(folder: Path, problems: list[str]) -> list[Path]:
    try:
        with os.scandir(folder) as it:
            entries = sorted((e for e in it if e.is_dir(follow_symlinks=False) and not e.name.startswith(".")),
                             key=lambda e: e.name)
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        problems.append(f"templates in {folder} cannot be listed: {getattr(exc, 'strerror', None) or exc}")
        return []
    if len(entries) > MAX_TEMPLATES:
        problems.append(f"{folder} holds {len(entries)} templates; only the first {MAX_TEMPLATES} are read")
    return [Path(e.path) for e in entries[:MAX_TEMPLATES]]


def read_template(folder: Path, *, user: bool = False) -> Template:
    """Read one template folder; raises TemplateError naming what is wrong."""
    template_id = folder.name
    if not _ID.fullmatch(template_id):
        raise TemplateError(f"template folder '{template_id}' is not a valid id (a-z, 0-9, '-')")
    files = _read_files(folder, template_id)
    manifest_text = files.pop(MANIFEST, None)
    if manifest_text is None:
        raise TemplateError(f"template '{template_id}' has no {MANIFEST}")
    depth = toml_nesting(manifest_text)
    if depth > MAX_NESTING:
        raise TemplateError(f"template '{template_id}': {MANIFEST} nests values {depth} deep (at most "
                            f"{MAX_NESTING})")
    try:
        data = tomllib.loads(manifest_text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:  # the nesting bound makes the second unreachable
        raise TemplateError(f"template '{template_id}': {MANIFEST} is not valid TOML ({exc})") from exc
    for rel, text in files.items():
        for match in PLACEHOLDER.finditer(text):
            if match.group(1) not in PLACEHOLDERS:
                raise TemplateError(f"template '{template_id}': {rel} uses an unknown placeholder "
                                    f"'{match.group(0)}'")
    return Template(
        id=template_id,
        title=_text(data, "title", template_id, template_id),
        summary=_text(data, "summary", "", template_id),
        type=_choice(data, "type", STANDARD_TYPES, template_id, custom_ok=True),
        profile=_choice(data, "profile", PROFILES, template_id),
        mode=_choice(data, "mode", RUNTIME_MODES, template_id, default="data"),
        description=_text(data, "description", "", template_id),
        primary_document=_stem(data, template_id),
        when_to_use=_lines(data, "when_to_use", template_id),
        not_for=_text(data, "not_for", "", template_id),
        boundaries=_lines(data, "boundaries", template_id),
        persona_boundaries=_lines(data, "persona_boundaries", template_id),
        context=_context(data, template_id),
        files=files,
        order=data.get("order", 100) if isinstance(data.get("order", 100), int) else 100,
        origin=folder,
        user=user,
    )


def _read_files(folder: Path, template_id: str) -> dict[str, str]:
    out: dict[str, str] = {}
    stack: list[tuple[Path, str, int]] = [(folder, "", 0)]
    while stack:
        current, prefix, depth = stack.pop()
        try:
            with os.scandir(current) as it:
                entries = sorted(it, key=lambda e: e.name)
        except (OSError, ValueError) as exc:
            raise TemplateError(f"template '{template_id}' cannot be read: {exc}") from exc
        for entry in entries:
            rel = f"{prefix}{entry.name}"
            if entry.name.startswith("."):
                continue
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISDIR(st.st_mode):
                if depth < MAX_DEPTH:
                    stack.append((Path(entry.path), rel + "/", depth + 1))
                continue
            if not stat.S_ISREG(st.st_mode):
                continue  # symlinks, FIFOs, devices: never read
            if st.st_size > MAX_FILE_BYTES:
                raise TemplateError(f"template '{template_id}': {rel} is over {MAX_FILE_BYTES // 1024} KB")
            if len(out) >= MAX_FILES:
                raise TemplateError(f"template '{template_id}' has more than {MAX_FILES} files")
            try:
                out[rel] = Path(entry.path).read_bytes().decode("utf-8").replace("\r\n", "\n")
            except UnicodeDecodeError as exc:
                raise TemplateError(f"template '{template_id}': {rel} is not UTF-8 text") from exc
            except OSError as exc:
                raise TemplateError(f"template '{template_id}': {rel} cannot be read ({exc.strerror})") from exc
    return out


def toml_nesting(text: str) -> int:
    """How deep arrays and inline tables nest in ``text`` (strings and comments skipped), in one linear pass.

    Table headers (``[a]``, ``[[a]]``) count as one or two levels, which is harmless: the bound is far above
    what they reach."""
    depth = deepest = 0
    for match in _TOML_TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth = max(0, depth - 1)
    return deepest


def _text(data: dict[str, Any], key: str, default: str, template_id: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise TemplateError(f"template '{template_id}': '{key}' must be text")
    return value.strip()


def _lines(data: dict[str, Any], key: str, template_id: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TemplateError(f"template '{template_id}': '{key}' must be a list of text lines")
    return tuple(v.strip() for v in value if v.strip())


def _choice(data: dict[str, Any], key: str, allowed: tuple[str, ...], template_id: str, *,
            default: str | None = None, custom_ok: bool = False) -> str:
    value = data.get(key, default)
    if isinstance(value, str) and (value in allowed or (custom_ok and re.fullmatch(r"custom:[a-z0-9.-]+", value))):
        return value
    raise TemplateError(f"template '{template_id}': '{key}' must be one of {', '.join(allowed)}")


def _stem(data: dict[str, Any], template_id: str) -> str:
    value = data.get("primary_document", "main")
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise TemplateError(f"template '{template_id}': 'primary_document' must be a file stem such as 'main'")
    return value


def _context(data: dict[str, Any], template_id: str) -> dict[str, str]:
    value = data.get("context", {})
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise TemplateError(f"template '{template_id}': 'context' must map paths to text")
    return {k: v.strip() for k, v in value.items()}


def substitute(text: str, values: Mapping[str, str]) -> str:
    """Replace every ``{{placeholder}}`` by its value in one pass; a value is never scanned again."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def user_templates_dir() -> Path:
    """Where a team's own templates live, the same for the CLI and the app.

    ``$XDG_CONFIG_HOME/knowledge-pack-studio/templates`` (``~/.config/...``) on Linux and other Unixes,
    ``~/Library/Application Support/knowledge-pack-studio/templates`` on macOS, ``%APPDATA%\\...`` on Windows.
    """
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "knowledge-pack-studio" / "templates"
