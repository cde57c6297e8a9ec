"""The Clients and Sweep tabs of Resolve mode: work that runs only while its tab is in front, off the GUI thread.

Both repeat the resolve on screen many times (five clients; twenty-five budgets), so each runs in a worker of its
own pool (fresh resolver sessions: the panel's session belongs to the panel's worker) when its tab is shown and
the result on screen is newer than the one it last showed. An answer for an older result is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QTabWidget

from studio.core.clients import compare
from studio.core.clients.run import ClientRequest
from studio.core.resolver import ResolveRequest, ResolveResult
from studio.core.resolver.budget import MIN_BUDGET
from studio.ui.panels.clients_view import ClientsView
from studio.ui.panels.sweep_view import SweepView, load_plotting
from studio.ui.workers import failure_line, next_request_id, serial_pool, submit

SWEEP_POINTS = 25
"""Budgets per sweep: from the smallest budget offered to twice the one on screen."""


def sweep_range(budget: int) -> range:
    """``SWEEP_POINTS`` budgets from ``MIN_BUDGET`` to twice ``budget``, on round steps of 50."""
    high = max(budget * 2, MIN_BUDGET + 50 * SWEEP_POINTS)
    step = max(50, round((high - MIN_BUDGET) / (SWEEP_POINTS - 1) / 50) * 50)
    return range(MIN_BUDGET, high + 1, step)


def _sweep(request: ResolveRequest, budgets: range) -> Any:
    from studio.core.clients.sweep import sweep

    return sweep(request.packs, request.task, budgets, request.encoding)


class ResolveExtras(QObject):
    """Adds the Clients and Sweep tabs to ``tabs`` and keeps them up to date with the panel's result."""

    def __init__(self, tabs: QTabWidget, request: Callable[[], ResolveRequest], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tabs = tabs
        self._request = request
        self.clients = ClientsView()
        self.sweep = SweepView()
        tabs.addTab(self.clients, "Clients")
        tabs.addTab(self.sweep, "Budget sweep")
        self.pool = serial_pool(self)
        self.result: ResolveResult | None = None
        self._shown: dict[str, object] = {}
        self._latest: dict[str, int] = {}
        self._loading_plot = False
        self.clients.allow_custom.toggled.connect(lambda *_: self.refresh(force=True))
        tabs.currentChanged.connect(lambda _i: self.refresh())

    def show_result(self, result: ResolveResult) -> None:
        self.result = result
        self.refresh()

    def refresh(self, *, force: bool = False) -> None:
        current = self.tabs.currentWidget()
        if self.result is None or not self.result.task.strip():
            return
        if current is self.clients and (force or self._shown.get("clients") is not self.result):
            self._shown["clients"] = self.result
            self._run_clients()
        elif current is self.sweep:
            if not self.sweep.ready and not self._loading_plot:
                self._loading_plot = True
                submit(load_plotting, on_done=self._plotting_loaded, on_error=self._plot_failed, pool=self.pool)
            if force or self._shown.get("sweep") is not self.result:
                self._shown["sweep"] = self.result
                self._run_sweep()

    def _run_clients(self) -> None:
        request = self._request()
        client_request = ClientRequest(request.task, request.packs, budget=request.budget, encoding=request.encoding,
                                       custom_types_allowed=self.clients.allow_custom.isChecked())
        self.clients.show_waiting()
        self._latest["clients"] = rid = next_request_id()
        submit(compare, client_request, on_done=self._clients_done, on_error=self._failed, request_id=rid,
               pool=self.pool)

    def _run_sweep(self) -> None:
        request = self._request()
        budgets = sweep_range(request.budget)
        self.sweep.show_waiting(f"Sweeping {len(budgets)} budgets ...")
        self._latest["sweep"] = rid = next_request_id()
        submit(_sweep, request, budgets, on_done=self._sweep_done, on_error=self._failed, request_id=rid,
               pool=self.pool)

    def _clients_done(self, request_id: int, comparison: object) -> None:
        if request_id == self._latest.get("clients"):
            self.clients.show_comparison(comparison)  # type: ignore[arg-type]  # compare() returns a Comparison

    def _sweep_done(self, request_id: int, sweep: object) -> None:
        if request_id == self._latest.get("sweep"):
            self.sweep.show_sweep(sweep)  # type: ignore[arg-type]  # _sweep returns a Sweep

    def _plotting_loaded(self, _request_id: int, module: object) -> None:
        self.sweep.set_plotting(module)  # type: ignore[arg-type]  # load_plotting returns the module

    def _plot_failed(self, _request_id: int, trace: str) -> None:
        self.sweep.show_waiting(f"The plot cannot be drawn: {failure_line(trace)}")

    def _failed(self, _request_id: int, trace: str) -> None:
        self.clients.summary.setText(f"Failed: {failure_line(trace)}")
