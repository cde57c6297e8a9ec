"""The text of an ATX heading, as CommonMark reads it: what the resolver's sections and the search rows both show."""

from __future__ import annotations


def heading_text(rest: str) -> str:
    """Heading text (what follows the opening ``#`` run) without its blanks and its optional closing ``#`` run.

    A closing run counts only after a blank, or when the heading is nothing else (``## ##`` is empty). String
    methods, not a regex: a pattern such as ``[ \\t]+#+[ \\t]*$`` tried at every blank of a heading with 100,000
    spaces in it takes quadratic time; this is linear.
    """
    content = rest.strip(" \t")
    body = content.rstrip("#")
    if body != content and (not body or body[-1] in " \t"):
        content = body
    return content.strip(" \t")
