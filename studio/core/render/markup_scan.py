"""Where raw pack text would change how an HTML or XML parser reads a fence around it (the injection lint).

The studio escapes every ``<`` and ``&`` of pack text (``escape.neutralise``), so nothing here can break its own
fences. Another client may paste text raw; this finds what would then change the fence's structure for a
lenient (HTML) parser, and nothing else, so that normal Markdown is not flagged:

- a comment ``<!--`` that is never closed by ``-->`` (it swallows the rest, closing tags included); a balanced
  comment, such as ``<!-- split 1/3 of documents/x.md -->`` in compiled splits, is fine;
- a ``<script>``, ``<style>``, ``<textarea>``, ``<title>``, ``<xmp>``, ``<iframe>``, ``<noembed>``,
  ``<noframes>`` or ``<noscript>`` element that is never closed (its content is raw text to the end), and any
  ``<plaintext>`` (it never ends);
- a tag that never ends: an unclosed attribute quote (``<a title="``) or no ``>`` before the end of the text;
  the tag would run on into the next pack's wrapper;
- a ``<file>`` or ``<warning>`` tag, which would read as one of the fence's own elements.

Wrapper tags, ``<![CDATA[`` and ``]]>`` are found by ``escape.find_fence_breaks`` itself.

The scan is one pass that follows the HTML tokenizer's states closely enough for the above: text, tags (with
quoted attribute values), comments, raw-text elements. It stops at the first construct that runs to the end
of the text (everything after it is swallowed anyway), so it is linear in the length of the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RAW_TEXT_ELEMENTS = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
                               "noscript"})
"""Elements whose content an HTML parser reads as text up to their own closing tag."""
FENCE_ELEMENTS = frozenset({"file", "warning"})
"""Elements of the fence itself that pack text must not imitate."""

_MARKUP = re.compile(r"<[!?/A-Za-z]")
_NAME = re.compile(r"/?([A-Za-z][^\t\n\f\r />]*+)")
# What follows a tag name up to its ">": attribute text, and after "=" a quoted value that must close. An
# unclosed quote or a missing ">" makes the match fail (the tag would run on to the end of the text).
_TAG_REST = re.compile(r"""(?:[^>="']++|=[\t\n\f\r ]*+(?:"[^"]*+"|'[^']*+'|(?!["']))|["'])*+>""")
_CLOSERS = {name: re.compile(rf"</{name}(?=[\t\n\f\r />]|$)", re.IGNORECASE) for name in RAW_TEXT_ELEMENTS}


@dataclass(frozen=True, slots=True)
class MarkupBreak:
    """A place in raw text that would change how a lenient parser reads the fence around it."""

    offset: int
    text: str
    """The characters that start the construct (``<!--``, ``<script``, ``<a title="``...)."""
    why: str
    """What a parser would do, for the message."""


def find_markup_breaks(text: str) -> list[MarkupBreak]:
    """Every construct listed in the module docstring, in order; linear in ``len(text)``."""
    found: list[MarkupBreak] = []
    pos = 0
    while (match := _MARKUP.search(text, pos)) is not None:
        start = match.start()
        second = text[start + 1]
        if second == "!":
            if text.startswith("<!--", start):
                pos = _after_comment(text, start)
                if pos < 0:
                    found.append(MarkupBreak(start, "<!--", "opens a comment that is never closed: it would hide "
                                             "everything after it, closing tags included"))
                    break
                continue
            if text.startswith("<![CDATA[", start):
                pos = start + 9  # reported by escape.find_fence_breaks; an HTML parser ends it at the next ">"
                continue
        if second in "!?":
            end = text.find(">", start + 2)
            if end < 0:
                found.append(MarkupBreak(start, text[start:start + 2], "opens a markup declaration that is never "
                                         "closed with '>': it would run on into what follows"))
                break
            pos = end + 1
            continue
        name_match = _NAME.match(text, start + 1)
        if name_match is None:  # "</" followed by something else: text to a parser
            pos = start + 1
            continue
        name = name_match.group(1).lower()
        rest = _TAG_REST.match(text, name_match.end())
        if rest is None:
            found.append(MarkupBreak(start, _excerpt(text, start), "starts a tag that never ends (an unclosed "
                                     "quote or no '>'): it would run on into the next wrapper"))
            break
        pos = rest.end()
        closing = second == "/"
        if name in FENCE_ELEMENTS:
            found.append(MarkupBreak(start, text[start:pos] if pos - start <= 40 else _excerpt(text, start),
                                     f"would read as one of the fence's own <{name}> elements"))
            continue
        if closing:
            continue
        if name == "plaintext":
            found.append(MarkupBreak(start, text[start:start + 10], "opens <plaintext>, which never ends: everything "
                                     "after it would be text, closing tags included"))
            break
        if name in RAW_TEXT_ELEMENTS:
            closer = _CLOSERS[name].search(text, pos)
            if closer is None:
                found.append(MarkupBreak(start, f"<{name_match.group(1)}", f"opens a <{name}> element that is never "
                                         "closed: everything after it would be read as its text"))
                break
            pos = closer.end()
    return found


def _after_comment(text: str, start: int) -> int:
    """Where scanning goes on after the comment at ``start``; -1 when it is never closed."""
    body = start + 4
    if text.startswith(">", body):  # "<!-->": an empty comment to an HTML parser
        return body + 1
    if text.startswith("->", body):  # "<!--->"
        return body + 2
    end = text.find("-->", body)
    return -1 if end < 0 else end + 3


def _excerpt(text: str, start: int) -> str:
    line_end = text.find("\n", start, start + 60)
    return text[start:line_end if line_end >= 0 else start + 40]
