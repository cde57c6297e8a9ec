"""Escaping for everything the studio puts in front of a model: XML text, attributes and fenced bodies.

Three tools, for three places:

- ``xml_text`` / ``xml_attr``: full XML escaping for catalog element text, ``<file>`` paths, warnings
  and attribute values. The result always parses as XML.
- ``neutralise``: for Markdown bodies inside guides and fences. Every ``<`` becomes ``&lt;``, every ``&``
  becomes ``&amp;`` and the ``>`` of ``]]>`` becomes ``&gt;``; nothing else changes, so the text stays
  readable (a human or a model reads ``&lt;script>`` and understands it) while no parser, HTML or XML, can
  see a tag, a comment, a CDATA section, a raw-text element (``<script>``, ``<plaintext>`` ...) or an
  attribute quote in it: each wrapper holds exactly one pack for Python's ``html.parser``, html5lib and lxml
  alike, and an HTML parser gives back exactly the author's text (``tests/render/test_fence_parsers.py``).
- ``unneutralise``: the documented inverse. For every string ``t``,
  ``unneutralise(neutralise(t)) == strip_forbidden(t)``.

Why every ``<`` and not only the dangerous ones: what is dangerous depends on the parser (an HTML parser
enters a ``<textarea>`` or an unclosed ``<a title="`` and swallows the next pack; an XML parser refuses a bare
``<`` or ``&``), and a list of dangerous constructs is one construct short. Escaping every ``<`` and ``&`` is
the one scheme every parser reads the same way. Characters XML 1.0 forbids (C0 controls other than tab, LF
and CR, U+FFFE, U+FFFF, lone surrogates) are dropped first: they have no legitimate use in a knowledge pack
and some parsers stop at them.

``unneutralise`` replaces ``&lt;``, ``&gt;`` and ``&amp;`` (lower case only, the only spelling we
emit) in one left-to-right pass. Every other character passes through both functions untouched.

``find_fence_breaks`` is the lint's side: where raw text would change a fence if a client pasted it unescaped
(wrapper tags in any spelling, CDATA, and what ``markup_scan`` finds), so curators see it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studio.core.fastre import compile_re2
from studio.core.render.markup_scan import find_markup_breaks

PROTECTED_ELEMENTS: tuple[str, ...] = (
    "knowledge_pack",  # also covers knowledge_pack_guide by prefix
    "knowledge_pack_guide",
    "knowledge_resources",
    "available_knowledge_packs",
    "selected_files",
    "warnings",
)
"""Wrapper elements no pack content may open or close."""

# Characters a lenient reader might skip between "<", "/" and a name: whitespace, every Unicode format
# character (category Cf: soft hyphen, Mongolian vowel separator, zero-width and bidi controls,
# invisible operators, tags, ...) and the other default-ignorable code points (variation selectors,
# Hangul fillers, combining grapheme joiner), all of which hide a tag from the eye. Listed (as of
# Unicode 15) so importing costs nothing; a test checks the list against ``unicodedata``'s Cf.
INVISIBLE = (
    "\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u115f-\u1160\u17b4-\u17b5"
    "\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
"""Character-class body (for ``[...]``) of the invisible characters ``neutralise`` looks through."""
# Possessive (``*+``): the gap characters never overlap with ``/`` or a name, so giving nothing back
# changes no match but keeps a "<" followed by megabytes of blanks linear instead of cubic.
_GAP = rf"[\s{INVISIBLE}]*+"
_SKIP = rf"[{INVISIBLE}]*+"


def _spelled(name: str) -> str:
    """A pattern for ``name`` that also matches it with invisible characters between its letters."""
    return _SKIP.join(re.escape(ch) for ch in name)


_NAMES = "|".join(_spelled(n) for n in sorted(set(PROTECTED_ELEMENTS), key=len, reverse=True))

_UNNEUTRALISE_RE = re.compile(r"&(lt|gt|amp);")
_UNENTITY = {"lt": "<", "gt": ">", "amp": "&"}

# XML 1.0 Char production, inverted; surrogates cover lone halves left by surrogateescape decoding.
_FORBIDDEN_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")

_FENCE_BREAK_RE = re.compile(
    rf"<{_GAP}(?:/{_GAP})?(?:{_NAMES})|<!\[CDATA\[|\]\]>",
    re.IGNORECASE,
)
FENCE_BREAK_PATTERN = _FENCE_BREAK_RE.pattern
"""Wrapper tags in every spelling, ``<![CDATA[`` and ``]]>`` (case-insensitive), for scans that combine it."""
_FENCE_BREAK_RE2 = compile_re2(FENCE_BREAK_PATTERN, ignore_case=True)
"""The same pattern run by RE2: the lint runs it over every text file of every pack (3x faster, no backtracking)."""


def strip_forbidden(text: str) -> str:
    """Drop the characters XML 1.0 does not allow anywhere in a document."""
    return _FORBIDDEN_RE.sub("", text)


def xml_text(value: str) -> str:
    """Escape element text: ``&``, ``<``, ``>``; forbidden characters dropped."""
    value = strip_forbidden(value)
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xml_attr(value: str) -> str:
    """Escape an attribute value for use inside double quotes.

    Tab, LF and CR become character references because a parser would otherwise normalise them to
    spaces and the value would not survive a round trip.
    """
    return (
        xml_text(value)
        .replace('"', "&quot;")
        .replace("\t", "&#9;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
    )


def neutralise(text: str) -> str:
    """Make ``text`` safe to place raw inside a guide or fence; see the module docstring."""
    return strip_forbidden(text).replace("&", "&amp;").replace("<", "&lt;").replace("]]>", "]]&gt;")


def unneutralise(text: str) -> str:
    """The inverse of ``neutralise``: what the pack author wrote (minus forbidden characters)."""
    return _UNNEUTRALISE_RE.sub(lambda m: _UNENTITY[m.group(1)], text)


@dataclass(frozen=True, slots=True)
class FenceBreak:
    """A place in raw text that would change a fence around it if a client pasted the text unescaped."""

    offset: int
    """0-based character offset in the text."""
    text: str
    """The matched characters, e.g. ``</knowledge_pack``, ``]]>`` or ``<!--``."""
    why: str = "would open or close the runtime fence"


def find_fence_breaks(text: str) -> list[FenceBreak]:
    """Wrapper tags, CDATA and what ``markup_scan`` finds, in order (used by the injection lint)."""
    found = [FenceBreak(m.start(), m.group(0)) for m in _FENCE_BREAK_RE2.finditer(text)]
    found += [FenceBreak(b.offset, b.text, b.why) for b in find_markup_breaks(text)]
    return sorted(found, key=lambda b: b.offset)


def wrapper_tags(text: str, name: str) -> list[str]:
    """Every opening or closing tag of element ``name`` a lenient reader would see in ``text``.

    Lenient on purpose (any case, whitespace after ``<`` or ``</``), so tests can assert that a
    rendered artefact holds exactly one wrapper per pack.
    """
    pattern = re.compile(rf"<{_GAP}(?:/{_GAP})?{_spelled(name)}{_SKIP}(?=[\s/>])", re.IGNORECASE)
    return [m.group(0) for m in pattern.finditer(text)]
