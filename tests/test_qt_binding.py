"""The Qt binding and Python's reference counts: the app emits a signal per streamed piece and progress
event from worker threads, thousands in a session; PySide6 6.12.0 loses a reference to ``True`` on every emit,
which aborts the process ("Fatal Python error: bool_dealloc") unless the guard of
:mod:`assistant.gui.refcounts` is in place."""

from __future__ import annotations

import sys
import threading

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
