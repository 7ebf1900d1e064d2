"""The Qt binding and Python's reference counts: the app emits a signal per streamed piece and progress
event from worker threads, thousands in a session; PySide6 6.12.0 loses a reference to ``True`` on every emit,
which aborts the process ("Fatal Python error: bool_dealloc") unless the guard of
:mod:`assistant.gui.refcounts` is in place; and a widget's garbage collected on a worker thread crashes Qt
unless :mod:`assistant.gui.collector` keeps the cyclic collector on the GUI thread."""

from __future__ import annotations

import gc
import sys
import threading
import time

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QCoreApplication, QObject, Signal  # noqa: E402

from assistant.gui import refcounts  # noqa: E402

EMITS = 1000


class _Bridge(QObject):
    sent = Signal(int, object)


@pytest.mark.parametrize("where", ["worker thread", "GUI thread"])
def test_many_emits_leave_the_singletons_alive(qapp: QCoreApplication, where: str) -> None:
    """After the app's start-up guard, thousands of emits leave True, False and None with references to
    spare, whatever the binding loses (on 6.12.0 True's count falls by one per emit: without the guard it
    is a few thousand, and these emits would bring it near zero)."""
    refcounts.guard_singletons()
    bridge = _Bridge()
    got: list[object] = []
    bridge.sent.connect(lambda i, value: got.append(value))

    def work() -> None:
        for i in range(EMITS):
            bridge.sent.emit(i, None if i % 2 else "piece")

    if where == "worker thread":
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
    else:
        work()
    qapp.processEvents()
    got.clear()
    spare = min(sys.getrefcount(True), sys.getrefcount(False), sys.getrefcount(None))
    lost = refcounts.references_lost_per_emit()
    assert lost < 0.5 or spare > refcounts.HEADROOM // 2, (lost, spare)


def test_the_task_runner_and_the_window_put_the_guard_in_place() -> None:
    """Every background task's signals go through a TaskRunner, which every window makes: both guard."""
    from assistant.gui.tasks import TaskRunner
    from assistant.gui.window import MainWindow

    for init in (TaskRunner.__init__, MainWindow.__init__):
        assert "guard_singletons" in init.__code__.co_names
        assert "collect_on_gui_thread" in init.__code__.co_names  # and move the collector (below)


class _InACycle:
    """Garbage only the cyclic collector frees (it refers to itself), holding a Qt object as a closed
    window's wrapper does; records on which thread it was freed."""

    def __init__(self, freed_on: list[str]) -> None:
        self.widget = QObject()
        self.me = self
        self.freed_on = freed_on

    def __del__(self) -> None:
        self.freed_on.append(threading.current_thread().name)


def test_cyclic_garbage_a_worker_piles_up_is_collected_on_the_gui_thread(qapp: QCoreApplication) -> None:
    """A worker that allocates past the collector's threshold does not collect a cycle holding a Qt
    object (CPython would, on the worker, and a widget deleted there crashes Qt); the GUI thread's timer
    does, within a few of its intervals."""
    from assistant.gui import collector

    collector.collect_on_gui_thread()
    assert not gc.isenabled() and collector.collector() is not None
    freed_on: list[str] = []
    _InACycle(freed_on)

    kept: list[list[int]] = []

    def churn() -> None:  # 10x the generation-0 threshold of new containers, kept (the collector counts net)
        kept.extend([] for _ in range(10 * gc.get_threshold()[0]))

    worker = threading.Thread(target=churn, name="worker")
    worker.start()
    worker.join()
    assert freed_on == []  # the worker collected nothing
    deadline = time.monotonic() + 10 * collector.INTERVAL_MS / 1000
    while not freed_on and time.monotonic() < deadline:
        qapp.processEvents()
        time.sleep(0.01)
    assert freed_on == [threading.main_thread().name]

