"""Eval results as ``runs/`` records, written atomically on request and read back for comparisons.

Names are the standard's (digest 7.1): a discovery run is ``runs/eval-discovery-<UTC>.json``; a context run is
an eval iteration folder ``runs/eval-<UTC>/answer-results.json``. Both carry the standard's discovery-result
keys (``suite``, ``pack_name``, ``results[{id, expected, actual, passed}]``, ``summary``) or the answer-result
keys, plus the studio's per-case detail, and match ``studio/schemas/discovery-eval-result.schema.json`` and
``context-eval-result.schema.json``. ``run_from_record`` turns a record back into an ``EvalRun`` so that the
working tree can be compared with the last recorded run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.core.atomic import FolderState, add_record, folder_state, numbered, record_tool, remove_empty_folder
from studio.core.evals.metrics import context_summary, discovery_summary
from studio.core.evals.model import ContextOutcome, DiscoveryOutcome, EvalConfig, EvalRun, SelectedItem
from studio.core.resolver.budget import DEFAULT_BUDGET

MAX_NAME_ATTEMPTS = 1000


def summary_of(run: EvalRun) -> dict[str, Any]:
    return discovery_summary(run.discovery) if run.kind == "discovery" else context_summary(run.context)


def eval_record(run: EvalRun) -> dict[str, Any]:
    """The record for ``run`` (the standard's result keys first, then the studio's detail)."""
    results: list[dict[str, Any]]
    if run.kind == "discovery":
        results = [o.to_json() for o in run.discovery]
    else:
        results = [{**o.to_json(), "selected_files": list(dict.fromkeys(s.path for s in o.selected))}
                   for o in run.context]
    return {
        "suite": run.suite,
        "pack_name": run.pack,
        "kind": run.kind,
        "timestamp": run.timestamp,
        "tool": record_tool(),
        "configuration": run.config.to_json(),
        "results": results,
        "summary": summary_of(run),
    }


def write_eval_record(run: EvalRun, pack_root: Path, now: datetime | None = None) -> Path:
    """Write the record into ``pack_root/runs`` atomically; never overwrites. Returns the path written.

    By descriptor from the pack root (``atomic.write_new``): a ``runs/`` or iteration folder that is, or is
    swapped for, a symlink never takes the record.
    """
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H-%M-%SZ")
    data = json.dumps(eval_record(run), ensure_ascii=False, indent=2) + "\n"

    tried: list[str] = []

    def names() -> Iterator[tuple[str, str]]:
        if run.kind == "discovery":
            yield from ((rel, data) for rel in numbered(f"runs/eval-discovery-{stamp}", MAX_NAME_ATTEMPTS))
            return
        for folder in numbered(f"runs/eval-{stamp}", MAX_NAME_ATTEMPTS, suffix=""):
            if folder_state(pack_root, folder) is FolderState.OK:  # a symlinked iteration folder: next name
                tried.append(folder)
                yield f"{folder}/answer-results.json", data

    try:
        return add_record(pack_root, names())
    except OSError:
        # The iteration folder is made before the record is written into it: a record that could not be
        # written (a full disk, a refused write) must not leave an empty folder behind.
        for folder in tried:
            remove_empty_folder(pack_root, folder)
        raise


def run_from_record(data: Any, path: str = "") -> EvalRun | None:
    """The ``EvalRun`` a record describes, or None when it is not a studio eval record of a known kind.

    Tolerant of other tools' records: missing per-case detail reads as empty or None.
    """
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        return None
    kind = data.get("kind")
    results = [r for r in data["results"] if isinstance(r, dict) and "id" in r]
    if kind not in ("discovery", "context"):
        kind = "context" if any("context_recall" in r for r in results) else (
            "discovery" if any("actual" in r for r in results) else None)
    if kind is None:
        return None
    conf: dict[str, Any] = data["configuration"] if isinstance(data.get("configuration"), dict) else {}
    config = EvalConfig(budget=_int(conf.get("budget"), DEFAULT_BUDGET), profile=_str(conf.get("profile")),
                        encoding=_str(conf.get("encoding")) or "cl100k_base",
                        ranking=_str(conf.get("ranking")) or "bm25f", threshold=_float(conf.get("threshold")))
    run = EvalRun(str(data.get("pack_name", "")), str(data.get("suite", "")), "context" if kind == "context" else
                  "discovery", config,
                  timestamp=str(data.get("timestamp", "")), source=path)
    if kind == "discovery":
        run.discovery = [DiscoveryOutcome(str(r["id"]), str(r.get("prompt", "")), str(r.get("expected", "")),
                                          str(r.get("actual", "")), _float(r.get("score")) or 0.0,
                                          str(r.get("reason", ""))) for r in results]
    else:
        run.context = [_context_outcome(r, config) for r in results]
    return run


def _context_outcome(r: dict[str, Any], config: EvalConfig) -> ContextOutcome:
    selected = tuple(SelectedItem(str(s.get("path", "")), _str(s.get("section")), _int(s.get("tokens"), None),
                                  bool(s.get("required")), _str(s.get("slug")))
                     for s in r.get("selected", []) if isinstance(s, dict))
    required = tuple(str(x) for x in r.get("required_context", []) if isinstance(x, str))
    missed = tuple(str(x) for x in r.get("missed", []) if isinstance(x, str))
    return ContextOutcome(str(r["id"]), str(r.get("prompt", "")), selected, required, missed,
                          _float(r.get("context_recall")), _float(r.get("reciprocal_rank")),
                          _float(r.get("ndcg_at_10")), _float(r.get("recall_at_5")), _int(r.get("tokens_used"), 0),
                          _int(r.get("budget"), config.budget),
                          tuple(str(x) for x in r.get("ranking", []) if isinstance(x, str)), (),
                          _str(r.get("profile")),
                          tuple(str(x) for x in r.get("policy_loaded", []) if isinstance(x, str)))


def _int(value: Any, default: int | None) -> Any:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None
