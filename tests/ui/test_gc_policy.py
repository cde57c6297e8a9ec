"""Cycle collection happens on the GUI thread only (see studio.ui.gc_policy)."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject

from studio.ui.gc_policy import collect_due, collect_on_gui_thread


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cycle collector frees it


def test_the_app_collects_cycles_from_a_timer_on_the_gui_thread(qtbot) -> None:  # type: ignore[no-untyped-def]
    freed_in: list[str] = []

    class Tracked(_Node):
        def __del__(self) -> None:
            freed_in.append(threading.current_thread().name)

    owner = QObject()
    was_enabled = gc.isenabled()
    # The app's own thresholds, whatever an earlier test in this process left (a command run in-process
    # tunes the collector for a batch: a young collection only every 50,000 allocations).
    was_threshold = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    timer = collect_on_gui_thread(owner)
    try:
        assert not gc.isenabled()  # no automatic collection in whatever thread allocates
        Tracked()
        # Allocations in a worker thread never start a collection there any more.
        worker = threading.Thread(target=lambda: [_Node() for _ in range(20_000)], name="worker")
        worker.start()
        worker.join()
        assert "worker" not in freed_in
        qtbot.waitUntil(lambda: bool(freed_in), timeout=5000)  # the timer collected it
        assert set(freed_in) == {threading.main_thread().name}
    finally:
        timer.stop()
        gc.set_threshold(*was_threshold)
        if was_enabled:
            gc.enable()


def test_collect_due_collects_only_when_a_generation_is_past_its_threshold() -> None:
    gc.collect()
    assert collect_due() == 0  # nothing allocated since: nothing due


def test_no_full_collection_while_a_workspace_loads() -> None:
    """A full pass while a scan is loading would walk every pack loaded so far (they are frozen once it settles)."""
    from studio.ui import gc_policy

    was_threshold, was_enabled = gc.get_threshold(), gc.isenabled()
    gc.disable()
    gc.set_threshold(700, 10, 1)
    try:
        gc.collect()
        gc.collect(1)
        gc.collect(1)  # two generation-1 collections since the last full one: generation 2 is due
        gc_policy._last_full[0] = 0.0  # and the last full pass was long ago
        before = gc.get_stats()[2]["collections"]
        gc_policy.hold_full_collections(True)
        gc_policy.collect_due()
        assert gc.get_stats()[2]["collections"] == before  # held: the youngest generation only
        gc_policy.hold_full_collections(False)
        gc_policy.collect_due()
        assert gc.get_stats()[2]["collections"] == before + 1  # the scan settled: the full pass runs
    finally:
        gc_policy.hold_full_collections(False)
        gc.set_threshold(*was_threshold)
        if was_enabled:
            gc.enable()


def test_the_heap_is_trimmed_once_a_workspace_s_worth_has_been_let_go(qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from studio.ui import gc_policy
    from studio.ui.let_go import held, let_go

    trims: list[bool] = []
    monkeypatch.setattr(gc_policy, "trim_heap", lambda: trims.append(True) or True)
    monkeypatch.setattr(gc_policy, "_released", [0])
    qtbot.waitUntil(lambda: held() == 0, timeout=5000)
    let_go([object() for _ in range(gc_policy.TRIM_AFTER // 2)])
    qtbot.waitUntil(lambda: held() == 0, timeout=5000)
    assert trims == []  # half a workspace: its pages may well be reused by the next
    let_go([object() for _ in range(gc_policy.TRIM_AFTER // 2)])
    qtbot.waitUntil(lambda: held() == 0, timeout=5000)
    assert trims == [True]


def test_packs_decoded_while_a_workspace_loads_are_set_aside_without_a_walk() -> None:
    """The cached packs of a warm opening, unpickled in a burst, are not walked by the next young collection."""
    from studio.ui import gc_policy

    gc_policy.hold_full_collections(False)
    frozen = gc.get_freeze_count()
    kept = [_Node() for _ in range(1000)]
    gc_policy.packs_decoded()  # no workspace loading: the collector keeps its young objects
    assert gc.get_freeze_count() == frozen
    gc_policy.hold_full_collections(True)
    try:
        kept += [_Node() for _ in range(1000)]
        gc_policy.packs_decoded()
        assert gc.get_freeze_count() >= frozen + 2000 and gc.get_count()[0] == 0
    finally:
        gc_policy.hold_full_collections(False)
        gc.unfreeze()  # hand this test's objects back, so that the next collection frees them
        del kept
