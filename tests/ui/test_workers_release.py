"""A finished background job keeps nothing alive: not what its function closed over, not its signal carrier."""

from __future__ import annotations

import gc
import weakref

from studio.ui import workers


class _Workspace:
    """Stands for what a job's closure may hold (a 10,000-pack list)."""


def _carrier_of(request_id: int) -> workers.JobSignals:
    return next(s for s, job in workers._keep_alive.items() if job.request_id == request_id)


def test_a_delivered_job_lets_go_of_its_function_and_signal_carrier(qtbot) -> None:
    held: list[weakref.ref[_Workspace]] = []
    carriers: list[weakref.ref[workers.JobSignals]] = []
    results: list[int] = []
    for n in range(20):
        workspace = _Workspace()
        held.append(weakref.ref(workspace))
        rid = workers.submit(lambda w=workspace, n=n: n if w else -1, on_done=lambda _rid, value: results.append(value))
        carriers.append(weakref.ref(_carrier_of(rid)))
        del workspace
    qtbot.waitUntil(lambda: len(results) == 20, timeout=5000)
    qtbot.waitUntil(lambda: all(ref() is None for ref in carriers), timeout=2000)  # dropped a turn later
    gc.collect()
    assert sorted(results) == list(range(20))
    assert [ref for ref in held if ref() is not None] == []  # no closure kept its workspace


def test_a_failed_job_lets_go_too(qtbot) -> None:
    workspace = _Workspace()
    ref = weakref.ref(workspace)
    errors: list[str] = []

    def boom(w: _Workspace = workspace) -> None:
        raise ValueError(f"bad input {type(w).__name__}")

    carrier = weakref.ref(_carrier_of(workers.submit(boom, on_error=lambda _rid, text: errors.append(text))))
    del workspace, boom
    qtbot.waitUntil(lambda: bool(errors) and carrier() is None, timeout=5000)
    gc.collect()
    assert "bad input _Workspace" in errors[0]
    assert ref() is None
