"""Evals: does a client activate the right pack (discovery), and does the resolver pick the right context?

Pipeline, bottom to top: ``model`` (suites, cases, outcomes) -> ``suites`` (read a suite file, positioned
findings) -> ``discovery`` (catalog-only activation) and ``context`` (resolver runs) with ``metrics``
(summaries; ranking measures through ir-measures, imported lazily) -> ``runner`` (one suite, one
configuration) -> ``records`` (``runs/`` records, read back) and ``compare`` (two result sets, per case) ->
``authoring`` (add a case, check suite text). Nothing here imports Qt; only ``records`` and ``authoring`` write.
"""
