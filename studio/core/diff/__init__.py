"""Pack diff: what changed between two versions of a pack, and what that changes for an agent (issue #30).

Bottom to top: ``trouble`` (the one-line error) -> ``git_tree`` (a ref's folder through the ``git`` command)
-> ``snapshot`` (a folder, or a ref written to a private temporary folder) -> one module per section of the
report (``frontmatter_delta``, ``files``, ``claims``, ``findings``, ``tiers``, ``picks``, ``eval_delta``), all
returning the dataclasses of ``report`` -> ``compare`` (``diff_packs``) -> ``text`` and ``markdown`` (renderers).

    with folder_snapshot(old) as a, ref_snapshot(pack, "v1.2") as b:
        report = diff_packs(a, b, DiffOptions(tasks=("...",)))
"""
