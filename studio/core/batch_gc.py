"""Garbage-collector settings for a batch of work that builds many objects and frees few reference cycles.

Loading 10,000 packs allocates millions of small objects (frontmatter dicts, diagnostics, paths); with the
default thresholds (a young collection every 700 allocations, a full one every 100 of those) the collector
re-examines everything already loaded over and over. It found no cycle worth its time there: it cost a tenth of a
10,000-pack ``validate --fast``, and as much again when the parent unpickles the workers' packs.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 50_000
"""Allocations between young collections (CPython's default is 700); cycles are still collected, less often."""


def tune_for_batch() -> None:
    """Move what is alive now (imported modules, parsers) out of the collector's sight, and collect less often.

    Call it once the imports are done, in a process that is about to load a workspace: a command-line run, or the
    app's scan process. Forked workers inherit the setting.

    No collection first: what the imports left for the collector is a few cycles (freezing them keeps some KiB),
    and collecting everything they built cost 3-4 ms, a tenth of what a warm ``search`` may spend over ``--version``.
    """
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 20, 100)
    gc.enable()  # the launcher keeps it off while a command's modules are imported
