"""Work split with next_turn leaves room for timers between its slices (a zero-delay chain does not)."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer

from studio.ui.turns import next_turn


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_a_timer_runs_between_slices(qtbot) -> None:
    log: list[str] = []
    owner = QObject()
    ticker = QTimer()
    ticker.setInterval(5)
    ticker.timeout.connect(lambda: log.append("tick"))
    ticker.start()

    def slice_(left: int) -> None:
        _busy(0.02)
        log.append("slice")
        if left:
            next_turn(owner, lambda: slice_(left - 1))

    next_turn(owner, lambda: slice_(3))
    qtbot.waitUntil(lambda: log.count("slice") == 4, timeout=5000)
    ticker.stop()
    slices = [i for i, what in enumerate(log) if what == "slice"]
    # Every slice after the first comes after a tick that came after the slice before it.
    assert all("tick" in log[a + 1:b] for a, b in zip(slices, slices[1:], strict=False))


def test_what_is_let_go_is_released_over_later_turns_however_it_arrives(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.let_go import held, let_go
    from studio.ui.pacing import RELEASE

    before = held()
    let_go([object() for _ in range(RELEASE.high * 3)])
    assert held() == before + RELEASE.high * 3, "nothing is released in the turn that lets go"
    let_go([object()])  # more while the release is under way
    qtbot.waitUntil(lambda: held() == 0, timeout=5000)
    let_go([object()])  # and again once it has stopped
    qtbot.waitUntil(lambda: held() == 0, timeout=5000)


def test_the_next_slice_is_sized_to_the_budget_from_the_last_ones_pace() -> None:
    from studio.ui.pacing import Pace

    pace = Pace(budget_s=0.010, first=100, low=25, high=2000)
    assert pace.next_size(100, 0.020) == 50  # twice the budget: half as many
    assert pace.next_size(100, 0.001) == 200  # ten times faster: no more than double
    assert pace.next_size(100, 0.0) == 200  # too fast to time: double
    assert pace.next_size(10, 1.0) == 25  # never under the floor
    assert pace.next_size(1500, 0.001) == 2000  # nor over the ceiling
    assert Pace.fixed(7).next_size(1, 10.0) == Pace.fixed(7).next_size(7, 0.0) == 7  # a fixed pace stays put
