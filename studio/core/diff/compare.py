"""``diff_packs``: two versions of a pack in, one ``PackDiff`` out (the CLI and the app both call this).

Both versions are loaded by ``load_pack`` with the content checks, exactly as ``validate`` loads a pack; each
gets its own resolver session (``shared_session.RememberingSession``), shared by its eval suites and its resolver
tasks, so a suite prompt resolved as an eval case is not resolved again as a task; the claims are compared from
the source map that session read. Nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.core.diff import claims, eval_delta, files, findings, frontmatter_delta, picks, tiers
from studio.core.diff.report import TIERS, PackDiff
from studio.core.diff.shared_session import RememberingSession
from studio.core.diff.snapshot import Snapshot
from studio.core.diff.trouble import DiffTrouble
from studio.core.evals.model import EvalConfig
from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.core.pack_fs import is_text_name
from studio.core.tokens import DEFAULT_ENCODING, get_tokenizer

MAX_TASKS = 100
"""Resolver tasks compared (``--task`` values first, then the prompts of the pack's context suites)."""


@dataclass(frozen=True, slots=True)
class DiffOptions:
    tasks: tuple[str, ...] = ()
    """Resolver tasks to compare, besides the prompts of the pack's own context suites."""
    budget: int = 4000
    """Token budget of every resolve and eval case (a case's own budget wins, as in ``eval``)."""
    encoding: str = DEFAULT_ENCODING
    suite_tasks: bool = True
    """Also compare the picks for each prompt of the pack's own context suites."""
    renamed: bool = False
    """Compare even when the two versions' pack names differ (otherwise they are unrelated packs: trouble)."""


def diff_packs(old: Snapshot, new: Snapshot, options: DiffOptions | None = None) -> PackDiff:
    """What changed from ``old`` to ``new`` and what it changes for an agent; ``DiffTrouble`` when the two
    cannot be compared (either is not a pack, or they are different packs)."""
    options = options or DiffOptions()
    tokenizer = get_tokenizer(options.encoding)
    pack_a, pack_b = _load(old), _load(new)
    if pack_a.name != pack_b.name and not options.renamed:
        raise DiffTrouble(f"{old.label} holds the pack {pack_a.name!r} and {new.label} the pack {pack_b.name!r}: "
                          "unrelated packs (pass --renamed if the pack was renamed)")
    report = PackDiff(old.label, new.label, pack_b.name, notes=[*old.notes, *new.notes])
    if not tokenizer.available:
        report.notes.append(f"token counts unavailable ({tokenizer.name}): {tokenizer.unavailable_reason}")
    report.frontmatter = frontmatter_delta.diff_frontmatter(pack_a, pack_b)
    listing_a = files.list_files(old.root)
    listing_b = files.list_files(new.root)
    report.notes = list(dict.fromkeys([*report.notes, *listing_a.notes, *listing_b.notes]))
    report.files = files.diff_files(listing_a, listing_b, tokenizer)
    report.findings = findings.diff_findings(findings.findings_of(pack_a), findings.findings_of(pack_b))
    texts_a = tiers.tier_texts(pack_a, new.display_root, listing_a.regular)
    texts_b = tiers.tier_texts(pack_b, new.display_root, listing_b.regular)
    report.tiers = {t: tiers.diff_tier(t, texts_a[t], texts_b[t], tokenizer) for t in TIERS}

    config = EvalConfig(budget=options.budget, encoding=options.encoding)
    session_a, session_b = RememberingSession(), RememberingSession()  # the suites' prompts are tasks too
    suites = list(dict.fromkeys([*eval_delta.suite_names(pack_b), *eval_delta.suite_names(pack_a)]))
    # Measured with ir-measures, whose C core crashes the process on a file name that is not UTF-8 (a lone
    # surrogate in a ranked path; ``pack-studio eval`` has the same problem): such a pack's suites are not run.
    odd = next((p for p in (*listing_a.entries, *listing_b.entries) if not is_text_name(p)), None)
    if odd is not None and suites:
        report.notes.append(f"eval suites not run: the file name {odd.encode('utf-8', 'backslashreplace').decode()} "
                            "is not UTF-8, which the ranking measures cannot take")
    runs_a = eval_delta.run_suites(pack_a, suites, config, session_a, run=odd is None)
    runs_b = eval_delta.run_suites(pack_b, suites, config, session_b, run=odd is None)
    report.evals = eval_delta.diff_evals(runs_a, runs_b)

    wanted = [(t, "--task") for t in options.tasks]
    if options.suite_tasks:
        wanted += runs_b.context_prompts() + runs_a.context_prompts()
    for task, source in picks.unique_tasks(wanted, MAX_TASKS):
        before = picks.picks(pack_a, session_a, task, options.budget, options.encoding)
        after = picks.picks(pack_b, session_b, task, options.budget, options.encoding)
        report.resolver.append(picks.delta(task, options.budget, before, after, source))
    # Last: the map each session's resolves read is the one compared (not read a third time).
    report.claims = claims.diff_claims(claims.claims_of(session_a.source_map(pack_a.root)),
                                       claims.claims_of(session_b.source_map(pack_b.root)))
    return report


def _load(snapshot: Snapshot) -> Pack:
    pack = load_pack(snapshot.root, content=True)
    if pack.knowledge is None:
        why = next((d.message for d in pack.diagnostics), "no readable KNOWLEDGE.md")
        raise DiffTrouble(f"{snapshot.label} is not a pack: {why}")
    return pack
