"""Resolver simulator: which files and sections a client would load for a task, within a token budget, and why.

Pipeline, bottom to top: ``sections`` (Markdown heading sections) and ``candidates`` (walk a pack) ->
``rank`` (BM25) and ``source_map`` -> ``tiers`` (profile and mode rules) -> ``select`` (greedy fill, exact
fit) -> ``report`` (warnings, citation gaps) -> ``session`` (caches and ``resolve``); ``selection`` makes the same
choices without the explanation (``ResolverSession.select``, for callers resolving many tasks). ``reference``
reproduces the reference CLI's dry run; ``records`` writes run and usage records.
"""

from __future__ import annotations

# What the faces use; the other result types (PackResolution, RankedItem, ResolveWarning) are in ``explain``.
from studio.core.resolver.explain import Decision, ResolveRequest, ResolveResult
from studio.core.resolver.session import ResolverSession, resolve

__all__ = ["Decision", "ResolveRequest", "ResolveResult", "ResolverSession", "resolve"]
