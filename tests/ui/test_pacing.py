"""The pacing primitive: slices sized from the last one's time, a rest after each, and a stop once the work is gone."""

from __future__ import annotations

import time
from collections.abc import Iterator

from PySide6.QtCore import QObject, QTimer
from shiboken6 import Shiboken

from studio.ui.pacing import Pace, Paced


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


class _Log:
    """What a handler saw: the items of each slice, and when each slice began and ended."""

    def __init__(self, per_item_s: float = 0.0, take_first: bool = True) -> None:
        self.slices: list[list[int]] = []
        self.times: list[tuple[float, float]] = []
        self.per_item_s = per_item_s
        self.take_first = take_first

    def handle(self, items: Iterator[int]) -> None:
        began = time.perf_counter()
        taken: list[int] = []
        if self.take_first:  # everything first, then the work: the slice cannot end early
            taken = list(items)
            _busy(self.per_item_s * len(taken))
        else:  # one item at a time, as a view updating row by row
            for item in items:
                _busy(self.per_item_s)
                taken.append(item)
        self.slices.append(taken)
        self.times.append((began, time.perf_counter()))

    @property
    def handled(self) -> list[int]:
        return [item for chunk in self.slices for item in chunk]


def test_nothing_runs_in_the_turn_that_feeds_and_every_item_is_handled_once_in_order(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    log = _Log()
    queue: Paced[int] = Paced(owner, Pace.fixed(3), log.handle)
    queue.feed(range(5))
    assert log.slices == [] and queue.running and queue.pending == 5
    with qtbot.waitSignal(queue.finished, timeout=3000):
        queue.feed([5, 6])  # more while the first items wait: queued after them
    assert log.slices == [[0, 1, 2], [3, 4, 5], [6]]
    assert not queue.running and queue.pending == 0


def test_a_slice_is_sized_from_the_time_the_last_one_took(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    slow = _Log(per_item_s=0.001)  # 1 ms an item, 5 ms a slice: 20 items took four times too long
    queue: Paced[int] = Paced(owner, Pace(budget_s=0.005, first=20, low=1, high=1000), slow.handle)
    with qtbot.waitSignal(queue.finished, timeout=5000):
        queue.feed(range(40))
    assert len(slow.slices[0]) == 20
    assert 1 <= len(slow.slices[1]) <= 6  # about 5 (fewer when the machine was busy), never 20 again

    quick = _Log()  # items that cost nothing: each slice doubles, up to the ceiling
    queue = Paced(owner, Pace(budget_s=1.0, first=4, low=1, high=20), quick.handle)
    with qtbot.waitSignal(queue.finished, timeout=5000):
        queue.feed(range(100))
    assert [len(s) for s in quick.slices] == [4, 8, 16, 20, 20, 20, 12]


def test_a_slice_ends_once_its_budget_is_spent_and_the_rest_waits(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    log = _Log(per_item_s=0.003, take_first=False)  # 3 ms an item against a 5 ms budget
    queue: Paced[int] = Paced(owner, Pace(budget_s=0.005, first=50, low=1, high=50), log.handle)
    with qtbot.waitSignal(queue.finished, timeout=5000):
        queue.feed(range(10))
    assert 1 <= len(log.slices[0]) <= 2  # not the 50 it was allowed
    assert log.handled == list(range(10))


def test_after_a_slice_the_queue_rests_as_long_as_it_ran_and_timers_run_meanwhile(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    log = _Log(per_item_s=0.015)  # 15 ms a slice
    ticks: list[float] = []
    ticker = QTimer()
    ticker.setInterval(2)
    ticker.timeout.connect(lambda: ticks.append(time.perf_counter()))
    ticker.start()
    queue: Paced[int] = Paced(owner, Pace.fixed(1), log.handle)
    with qtbot.waitSignal(queue.finished, timeout=5000):
        queue.feed(range(4))
    ticker.stop()
    for (began, ended), (following, _) in zip(log.times, log.times[1:], strict=False):
        assert following - ended >= (ended - began) - 0.002  # the rest: as long as the slice (timer's ms rounding)
        assert any(ended < tick < following for tick in ticks)  # and other timers ran during it


def test_a_pace_with_a_shorter_rest_rests_that_share_of_the_slice_and_timers_still_run(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    log = _Log(per_item_s=0.020)  # 20 ms a slice: a quarter of it is a 5 ms rest
    ticks: list[float] = []
    ticker = QTimer()
    ticker.setInterval(1)
    ticker.timeout.connect(lambda: ticks.append(time.perf_counter()))
    ticker.start()
    fixed = Pace.fixed(1)
    queue: Paced[int] = Paced(owner, Pace(fixed.budget_s, 1, 1, 1, rest=0.25), log.handle)
    with qtbot.waitSignal(queue.finished, timeout=5000):
        queue.feed(range(4))
    ticker.stop()
    rests = [following - ended for (_, ended), (following, _) in zip(log.times, log.times[1:], strict=False)]
    assert all(rest >= 0.005 - 0.002 for rest in rests)  # a quarter of the slice (timer's ms rounding)
    assert min(rests) < 0.015  # not as long as the slice: a busy machine may stretch one rest, not every one
    for (_, ended), (following, _) in zip(log.times, log.times[1:], strict=False):
        assert any(ended < tick < following for tick in ticks)  # other timers run during each rest


def test_nothing_runs_after_cancel_not_even_the_rest_of_the_slice_under_way(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    seen: list[int] = []
    finished: list[bool] = []

    def handle(items: Iterator[int]) -> None:
        for item in items:
            seen.append(item)
            if item == 6:
                queue.cancel()  # the work is gone (a new scan started while a slice ran)

    queue: Paced[int] = Paced(owner, Pace.fixed(5), handle)
    queue.finished.connect(lambda: finished.append(True))
    queue.feed(range(20))
    qtbot.waitUntil(lambda: len(seen) >= 7, timeout=3000)
    qtbot.wait(100)
    assert seen == [0, 1, 2, 3, 4, 5, 6]  # the slice under way stopped after the item that cancelled
    assert not queue.running and finished == []

    queue.feed([100, 101])
    queue.cancel()  # before its first slice
    qtbot.wait(50)
    assert seen == [0, 1, 2, 3, 4, 5, 6]


def test_replace_drops_what_waits_and_starts_over(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    log = _Log()
    queue: Paced[int] = Paced(owner, Pace.fixed(2), log.handle)
    queue.feed(range(10))
    with qtbot.waitSignal(queue.finished, timeout=3000):
        queue.replace([7, 8, 9])
    assert log.handled == [7, 8, 9]


def test_the_work_stops_when_its_owner_is_deleted(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    log = _Log()
    queue: Paced[int] = Paced(owner, Pace.fixed(1), log.handle)
    queue.feed(range(1000))
    qtbot.waitUntil(lambda: len(log.slices) >= 2, timeout=3000)
    Shiboken.delete(owner)  # a view or a watcher that goes away with work still queued
    handled = len(log.slices)
    qtbot.wait(100)
    assert len(log.slices) == handled


def test_a_handler_that_takes_nothing_ends_the_work(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    calls: list[int] = []
    queue: Paced[int] = Paced(owner, Pace.fixed(2), lambda items: calls.append(1))  # its target is gone
    queue.feed(range(10))
    qtbot.waitUntil(lambda: bool(calls), timeout=3000)
    qtbot.wait(50)
    assert calls == [1] and not queue.running


def test_a_queue_of_its_own_deletes_itself_once_done(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    log = _Log()
    queue = Paced.once(owner, Pace.fixed(2), log.handle, range(5))
    gone: list[bool] = []
    queue.destroyed.connect(lambda: gone.append(True))
    qtbot.waitUntil(lambda: bool(gone), timeout=3000)
    assert log.handled == [0, 1, 2, 3, 4]
    assert Paced.once(owner, Pace.fixed(2), log.handle, []) is not None  # nothing to do: gone as well
    qtbot.waitUntil(lambda: not owner.findChildren(Paced), timeout=3000)


def test_a_queue_of_its_own_is_deleted_when_its_work_is_cancelled(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    queue = Paced.once(owner, Pace.fixed(2), lambda items: None, range(5))  # takes nothing: the work is gone
    with qtbot.waitSignal(queue.destroyed, timeout=3000):
        pass
    assert not owner.findChildren(Paced)


def test_a_queue_held_open_waits_for_its_feeder_and_finishes_once_closed_and_dry(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    log = _Log()
    finished: list[bool] = []
    queue: Paced[int] = Paced(owner, Pace.fixed(2), log.handle)
    queue.finished.connect(lambda: finished.append(True))
    queue.keep_open()  # a scan still runs: running dry is a pause
    queue.feed(range(3))
    qtbot.waitUntil(lambda: log.handled == [0, 1, 2], timeout=3000)
    qtbot.wait(30)
    assert finished == [] and queue.open
    queue.feed([3])  # the feeder brings more later
    qtbot.waitUntil(lambda: log.handled == [0, 1, 2, 3], timeout=3000)
    assert finished == []
    with qtbot.waitSignal(queue.finished, timeout=3000):
        queue.close()  # dry already: finished on a later turn
    assert finished == [True] and not queue.open

    closing: Paced[int] = Paced(owner, Pace.fixed(2), log.handle)
    closing.keep_open()
    with qtbot.waitSignal(closing.finished, timeout=3000):
        closing.feed(range(10, 15))
        closing.close()  # items still wait: they are all handled first
    assert log.handled[-5:] == [10, 11, 12, 13, 14]


def test_a_slice_that_takes_nothing_waits_for_a_later_turn_while_held_open(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    calls: list[int] = []
    taken: list[int] = []
    busy = [True]  # e.g. another view was updated in this turn

    def handle(items: Iterator[int]) -> None:
        calls.append(1)
        if not busy[0]:
            taken.extend(items)

    queue: Paced[int] = Paced(owner, Pace.fixed(5), handle)
    queue.keep_open()
    queue.feed(range(5))
    qtbot.waitUntil(lambda: len(calls) >= 3, timeout=3000)  # tried again and again, the items still wait
    assert queue.pending == 5 and taken == []
    busy[0] = False
    with qtbot.waitSignal(queue.finished, timeout=3000):
        queue.close()
    assert taken == [0, 1, 2, 3, 4]


def test_slices_of_a_queue_held_open_keep_their_gap_unless_the_work_piles_up_and_not_once_closed(qtbot) -> None:  # type: ignore[no-untyped-def]
    owner = QObject()
    log = _Log()
    queue: Paced[int] = Paced(owner, Pace(budget_s=1.0, first=2, low=2, high=2, gap_s=0.15), log.handle)
    queue.keep_open()
    queue.feed(range(3))  # less than twice a slice: the second slice keeps the gap
    qtbot.waitUntil(lambda: len(log.slices) == 2, timeout=3000)
    assert log.times[1][0] - log.times[0][1] >= 0.14

    log.slices.clear()
    log.times.clear()
    queue.feed(range(10, 20))  # five slices' worth piles up: no gap until fewer than two slices wait
    qtbot.waitUntil(lambda: len(log.slices) == 4, timeout=3000)
    assert log.times[3][0] - log.times[0][1] < 0.14
    with qtbot.waitSignal(queue.finished, timeout=3000):
        queue.close()  # the feeder is done: what waits follows without the gap
    assert log.times[-1][0] - log.times[-2][1] < 0.14
    assert log.handled == [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
