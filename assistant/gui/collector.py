"""Python's cyclic garbage collector, run on the GUI thread only.

A Qt object has to be destroyed on the thread that owns it. CPython runs its cyclic collector on whichever
thread happens to allocate past the generation-0 threshold; when that is a worker (a task of
:class:`assistant.gui.tasks.TaskRunner`, the mail sync, the gist) and the garbage holds the Python wrapper of a
closed dialog or window in a reference cycle, the widget is deleted off the GUI thread and the process dies
("Fatal Python error: Segmentation fault ... Garbage-collecting", seen in a mail sync reading its accounts
file while the windows of earlier tests waited for collection).

:func:`collect_on_gui_thread` turns automatic collection off once per process and collects from a timer on
the GUI thread instead, with the interpreter's own thresholds per generation: the collections happen as
often as before, only never on a worker. Reference counting, which frees nearly everything, is untouched.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QObject, QTimer

INTERVAL_MS = 500  # between checks of the collector's counts; a check with nothing due costs ~1 us

_collector: GuiThreadCollector | None = None


class GuiThreadCollector(QObject):
    """A timer on the GUI thread that runs the generations of the cyclic collector that are due."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()  # (700, 10, 10) unless the process set its own
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.collect_due)
        self._timer.start(INTERVAL_MS)

    def collect_due(self) -> int:
        """Collect each generation whose count is past its threshold, youngest first, as CPython's own
        trigger does (Modules/gcmodule.c). Returns the number of unreachable objects found."""
        counts = gc.get_count()
        found = 0
        for generation in range(3):
            if counts[generation] <= self.thresholds[generation]:
                break
            found += gc.collect(generation)
        return found


def collect_on_gui_thread() -> GuiThreadCollector | None:
    """Move cyclic garbage collection to the GUI thread (once per process; the collector lives as long as the
    ``QCoreApplication``). Returns the collector, or None when there is no application yet."""
    global _collector
    app = QCoreApplication.instance()
    if _collector is not None or app is None:
        return _collector
    _collector = GuiThreadCollector(app)
    return _collector


def collector() -> GuiThreadCollector | None:
    """The process's collector, if :func:`collect_on_gui_thread` has installed one."""
    return _collector
