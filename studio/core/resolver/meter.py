"""Each candidate's cost inside the fence, counted exactly only when the fill needs the number.

Counting every candidate of a large pack costs as much as tokenizing the whole pack, yet a budget reaches only
a handful of items. The fill therefore asks for an item's exact cost only when the item could still fit; for
the rest, ``Tokenizer.at_least`` (one token per word at least) proves that it cannot, and the item is reported
with that lower bound and marked as not counted. Costs are remembered for the session, and ``count_pending``
counts the rest when there is time (a GUI after showing a result, a CLI before printing), so later runs report
an exact count for every item. The selection never depends on whether an item was counted: a skip decided by the
bound is a skip the exact count would also decide.
"""

from __future__ import annotations

from collections.abc import Sequence

from studio.core.render.escape import xml_attr, xml_text
from studio.core.render.fence import FenceItem, marker_line
from studio.core.resolver.candidates import Candidate
from studio.core.tokens import Tokenizer


def framing_text(c: Candidate) -> str:
    """What the fence renderer adds around an item's text: its marker line, blank lines, its ``<file>`` entry.

    An item's estimated cost is ``count(text) + count(framing_text)``: the text is counted raw (its count is
    shared with every other use of the same text) and neutralisation rarely changes it; ``fit_exactly``
    settles any difference on the final text.
    """
    item = FenceItem(c.path, "", c.section, c.lines)
    attrs = f' section="{xml_attr(c.section)}"' if c.section else ""
    if c.lines:
        attrs += f' lines="{c.lines[0]}-{c.lines[1]}"'
    return f"{marker_line(item)}\n\n\n  <file{attrs}>{xml_text(c.path)}</file>\n"


class Meter:
    """Costs of one pack's candidates (in candidate order) for one available tokenizer."""

    def __init__(self, tokenizer: Tokenizer, candidates: Sequence[Candidate]) -> None:
        self.tokenizer = tokenizer
        self._candidates = candidates
        self._costs: list[int | None] = [None] * len(candidates)

    def known(self, i: int) -> int | None:
        """The exact cost of candidate ``i`` if it has been counted, else None."""
        return self._costs[i]

    def exact(self, i: int) -> int:
        """The exact cost of candidate ``i``, counted now if need be."""
        cost = self._costs[i]
        if cost is None:
            c = self._candidates[i]
            cost = self.tokenizer.count(c.text) + self.tokenizer.count(framing_text(c))
            self._costs[i] = cost
        return cost

    def at_least(self, i: int) -> int:
        """A lower bound on the cost of candidate ``i`` (its exact cost when already counted)."""
        cost = self._costs[i]
        if cost is not None:
            return cost
        c = self._candidates[i]
        return self.tokenizer.at_least(c.text) + self.tokenizer.at_least(framing_text(c))

    def count_all(self) -> None:
        """Count every candidate now (``ResolveRequest.count_all``)."""
        for i in range(len(self._costs)):
            self.exact(i)

    def pending(self) -> int:
        """How many candidates have not been counted yet."""
        return self._costs.count(None)

    def __len__(self) -> int:
        return len(self._costs)
