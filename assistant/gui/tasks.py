"""Background runner: slow work runs on a thread pool; events, result and error return through queued signals.

A task is a callable ``work(emit, cancel)``: it reports :mod:`assistant.records` events through ``emit``
and checks the ``threading.Event`` ``cancel``. It never touches a widget. Each task has a key (``"ask"``,
``"sync"``...); starting a task cancels the running one of the same key, and whatever a cancelled or
replaced task delivers afterwards is dropped (its id is no longer current), so no late result is shown.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from assistant.errors import Cancelled
from assistant.gui.collector import collect_on_gui_thread
from assistant.gui.refcounts import guard_singletons

Emit = Callable[[Any], None]
Work = Callable[[Emit, threading.Event], Any]


class _Bridge(QObject):
    """Lives in the GUI thread; signals emitted from a worker thread are therefore queued."""

    sent = Signal(int, object)
    done = Signal(int, object)
    failed = Signal(int, object)


class _Job(QRunnable):
    def __init__(self, task_id: int, work: Work, cancel: threading.Event, bridge: _Bridge) -> None:
        super().__init__()
        self.task_id, self.work, self.cancel, self.bridge = task_id, work, cancel, bridge
        self.setAutoDelete(True)

    def _send(self, signal: Any, value: object) -> None:
        try:
            signal.emit(self.task_id, value)
        except RuntimeError:  # the window (and its bridge) was closed while the work ran
            pass

    def run(self) -> None:
        try:
            result = self.work(lambda e: self._send(self.bridge.sent, e), self.cancel)
        except BaseException as exc:  # noqa: BLE001  (every failure is handed to the GUI thread)
            self._send(self.bridge.failed, exc)
            return
        self._send(self.bridge.done, result)


def _ignore(value: object) -> None:
    pass


@dataclass
class Task:
    """One submitted piece of work; ``cancel`` is the event the work checks; ``started_at`` is the
    ``time.perf_counter()`` of its submission (the one start every elapsed figure counts from)."""

    id: int
    key: str
    label: str
    cancel: threading.Event = field(default_factory=threading.Event)
    started_at: float = field(default_factory=time.perf_counter)
    on_done: Callable[[Any], None] = _ignore
    on_event: Callable[[Any], None] = _ignore
    on_error: Callable[[BaseException], None] = _ignore


class TaskRunner(QObject):
    """Runs tasks on its own thread pool and delivers what they send on the GUI thread.

    Signals (for the progress widget): ``started(Task)``, ``progressed(Task, event)``, ``ended(Task)``
    (done, failed or cancelled).
    """

    started = Signal(object)
    progressed = Signal(object, object)
    ended = Signal(object)

    def __init__(self, parent: QObject | None = None, *, max_threads: int = 4) -> None:
        super().__init__(parent)
        guard_singletons()  # its workers emit thousands of signals (see assistant.gui.refcounts)
        collect_on_gui_thread()  # its workers must never collect a widget's garbage (assistant.gui.collector)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._bridge = _Bridge(self)
        self._bridge.sent.connect(self._on_event)
        self._bridge.done.connect(self._on_done)
        self._bridge.failed.connect(self._on_failed)
        self._ids = itertools.count(1)
        self._tasks: dict[int, Task] = {}
        self._current: dict[str, int] = {}

    def start(self, key: str, label: str, work: Work, on_done: Callable[[Any], None], *,
              on_event: Callable[[Any], None] = _ignore,
              on_error: Callable[[BaseException], None] = _ignore) -> Task:
        """Run ``work`` in the background, cancelling the running task of the same ``key``."""
        if key in self._current:
            self.cancel(self._current[key])
        task = Task(next(self._ids), key, label, on_done=on_done, on_event=on_event, on_error=on_error)
        self._tasks[task.id] = task
        self._current[key] = task.id
        self.started.emit(task)
        self._pool.start(_Job(task.id, work, task.cancel, self._bridge))
        return task

    def cancel(self, task_id: int) -> None:
        """Ask the task to stop; from now on nothing it delivers is shown."""
        task = self._tasks.get(task_id)
        if task is None:
            return
        task.cancel.set()
        self._finish(task)

    def cancel_all(self) -> None:
        for task_id in list(self._tasks):
            self.cancel(task_id)

    def running(self, key: str | None = None) -> list[Task]:
        """Tasks whose results are still wanted (of one key, or all)."""
        return [t for t in self._tasks.values() if key is None or t.key == key]

    def wait(self, msecs: int = -1) -> bool:
        """Block until every worker returned (used at shutdown and in tests)."""
        return bool(self._pool.waitForDone(msecs))

    def _finish(self, task: Task) -> None:
        self._tasks.pop(task.id, None)
        if self._current.get(task.key) == task.id:
            del self._current[task.key]
        self.ended.emit(task)

    @Slot(int, object)
    def _on_event(self, task_id: int, event: object) -> None:
        task = self._tasks.get(task_id)
        if task is None:  # stale: cancelled or replaced
            return
        task.on_event(event)
        self.progressed.emit(task, event)

    @Slot(int, object)
    def _on_done(self, task_id: int, result: object) -> None:
        task = self._tasks.get(task_id)
        if task is None:
            return
        self._finish(task)
        task.on_done(result)

    @Slot(int, object)
    def _on_failed(self, task_id: int, exc: BaseException) -> None:
        task = self._tasks.get(task_id)
        if task is None:
            return
        self._finish(task)
        if not isinstance(exc, Cancelled):
            task.on_error(exc)
