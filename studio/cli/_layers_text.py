"""Text printer for the three-layer simulation (``pack-studio resolve --layers``)."""

from __future__ import annotations

from studio.core.diagnostics import counted
from studio.core.search.layers import LayersResult
from studio.core.terminal import printable as p

MAX_L0_LINES = 12


def render_layers(result: LayersResult) -> str:
    """A readable L0 -> L1 -> L2 trace with tokens per layer, then the resolver's picks for comparison.

    Every string from a pack or the command line goes through ``printable`` (``p``), as in ``search``'s results:
    a title or snippet holding a line break or an escape shows it, and cannot start a line of its own.
    """
    lines = [f"layers: {p(result.task)}", f"  words: {p(', '.join(result.terms)) or '(none)'}"]
    index = result.index
    lines.append(f"L0  index {index.bytes / 1024:.1f} KB, {result.l0_tokens} tok, "
                 f"{counted(len(index.entries), 'line')}; {counted(len(result.matches), 'match', 'matches')}")
    for m in result.matches[:MAX_L0_LINES]:
        found = ", ".join(m.matched) + (f" (partly: {', '.join(m.fuzzy)})" if m.fuzzy else "")
        lines.append(f"    {'=' if m.exact else '~'} {p(m.entry.pack)}/{p(m.entry.path)}  {p(m.entry.title)}  "
                     f"[{p(found)}]")
    if len(result.matches) > MAX_L0_LINES:
        lines.append(f"    ... {len(result.matches) - MAX_L0_LINES} more")
    lines.append(f"  -> {result.decision}: {p(result.reason)}")
    if result.l1 is not None:
        lines.append(f"L1  full-text search ({result.l1.matched} words), {result.l1_tokens} tok")
        for rank, hit in enumerate(result.l1.hits, 1):
            lines.append(f"    {rank:>2}. {p(hit.pack)}/{p(hit.path)}:{hit.line}  relevance {hit.relevance:.0%}  "
                         f"{p(hit.snippet)}")
        if not result.l1.hits:
            lines.append("    (no hits)")
    if result.l2:
        lines.append(f"L2  whole files, {result.l2_tokens} tok")
        for f in result.l2:
            tok = "?" if f.tokens is None else str(f.tokens)
            lines.append(f"    {'+' if f.fetched else '-'} {p(f.pack)}/{p(f.path)}  {tok} tok  {p(f.reason)}")
    lines.append(f"total {result.total_tokens} / {result.budget} tok "
                 f"(L0 {result.l0_tokens} + L1 {result.l1_tokens} + L2 {result.l2_tokens})")
    if result.gaps:
        lines.append(f"gaps (no file mentions them): {p(', '.join(result.gaps))}")
    if result.unindexed:
        lines.append(f"not in the index, only in the text: {p(', '.join(result.unindexed))}")
    lines.append(f"resolver  {result.resolver_tokens} / {result.budget} tok, {counted(len(result.resolver), 'item')}")
    for pick in result.resolver:
        section = f" § {p(pick.section)}" if pick.section else ""
        lines.append(f"    + {p(pick.pack)}/{p(pick.path)}{section}  "
                     f"{pick.tokens if pick.tokens is not None else '?'} tok")
    lines.extend(f"note: {p(n)}" for n in result.notes)
    return "\n".join(lines) + "\n"
