"""Markdown preview: pack Markdown to an HTML fragment a QTextBrowser can show without fetching anything.

- Raw HTML in the Markdown is not interpreted (markdown-it's ``html`` option is off): it shows as text.
- Images are never fetched. A remote image (any URL with a scheme, or ``//host``) becomes a
  placeholder showing its alt text and URL. A local image becomes an ``<img>`` with a ``file:`` URL
  only when ``base`` is given and the path stays inside it (symlinks included) and exists; otherwise
  it is a placeholder too.
- Links: only pack-relative links (and ``#anchors``) stay clickable. Anything else (``http:``,
  ``mailto:``, absolute paths, ``..`` escapes) is rendered as a span whose title holds the target.
- Fenced code with a known language is highlighted by Pygments with inline styles (QTextBrowser does
  not load style sheets for classes); very large blocks are left plain to keep the preview quick.
"""

from __future__ import annotations

import contextlib
import html
import re
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pygments import highlight  # type: ignore[import-untyped]
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
from pygments.lexers import get_lexer_by_name  # type: ignore[import-untyped]
from pygments.util import ClassNotFound  # type: ignore[import-untyped]

from studio.core.pack_fs import PackFS, Status
from studio.core.paths import is_unsafe_pointer, pointer_status, resolve_inside

MAX_PREVIEW_CHARS = 2_000_000
MAX_HIGHLIGHT_CHARS = 200_000
_SCHEME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_FORMATTER = HtmlFormatter(nowrap=True, noclasses=True)


def render_markdown_html(text: str, *, base: Path | None) -> str:
    """Render ``text`` to an HTML fragment; ``base`` is the directory relative paths resolve from
    (the pack root, or the folder of the file being previewed, kept inside the pack by the caller).
    """
    notice = ""
    if len(text) > MAX_PREVIEW_CHARS:
        text = text[:MAX_PREVIEW_CHARS]
        notice = '<p class="preview-truncated">(Preview truncated: the file is too large to show whole.)</p>\n'
    md = _parser()
    tokens = md.parse(text)
    # Images are looked at through ``base``'s descriptors (``pack_fs``): one linked out of it is not shown.
    with contextlib.ExitStack() as stack:
        fs = stack.enter_context(PackFS(base)) if base is not None else None
        for token in tokens:
            if token.type == "inline" and token.children:
                token.children = _rewrite_inline(token.children, base, fs)
    rendered: str = md.renderer.render(tokens, md.options, {})
    return rendered + notice


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "highlight": _highlight})
    return md.enable(["table", "strikethrough"])


def _highlight(code: str, lang: str, _attrs: str) -> str:
    if not lang or len(code) > MAX_HIGHLIGHT_CHARS:
        return ""  # markdown-it then escapes the code itself
    try:
        lexer = get_lexer_by_name(lang)
    except ClassNotFound:
        return ""
    body = str(highlight(code, lexer, _FORMATTER))
    return f'<pre class="code"><code class="language-{html.escape(lang)}">{body}</code></pre>'


def _is_remote(target: str) -> bool:
    return bool(_SCHEME_RE.match(target)) or target.startswith("//")


def _local_target(target: str, base: Path | None) -> Path | None:
    """The file a pack-relative target names, or None when it is remote, unsafe or outside ``base``."""
    if _is_remote(target) or is_unsafe_pointer(target):
        return None
    if base is None:
        return Path(target)
    try:
        return resolve_inside(base, target)
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return None


def _rewrite_inline(children: list[Token], base: Path | None, fs: PackFS | None) -> list[Token]:
    out: list[Token] = []
    open_links: list[bool] = []  # for each open link: was it turned into a span?
    for tok in children:
        if tok.type == "image":
            out.append(_image_token(tok, base, fs))
        elif tok.type == "link_open":
            href = str(tok.attrGet("href") or "")
            keep = href.startswith("#") or _local_target(href, base) is not None
            open_links.append(not keep)
            if not keep:
                tok.tag = "span"
                tok.attrs = {"class": "external-link", "title": href}
            out.append(tok)
        elif tok.type == "link_close":
            if open_links and open_links.pop():
                tok.tag = "span"
            out.append(tok)
        else:
            out.append(tok)
    return out


def _image_token(tok: Token, base: Path | None, fs: PackFS | None) -> Token:
    src = str(tok.attrGet("src") or "")
    alt = "".join(c.content for c in (tok.children or []))
    target = _local_target(src, base) if base is not None else None
    if target is not None and fs is not None and pointer_status(fs, src) is Status.OK:
        markup = f'<img src="{html.escape(target.resolve().as_uri())}" alt="{html.escape(alt)}" />'
    else:
        why = "" if _is_remote(src) else " (not shown: not a file inside the pack)"
        markup = (
            f'<span class="image-placeholder">[image: {html.escape(alt or "no description")} '
            f"&#8212; {html.escape(src)}{why}]</span>"
        )
    return Token("html_inline", "", 0, content=markup)
