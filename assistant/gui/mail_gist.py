"""Gists of new mail in the background: one message at a time, at the lowest priority, never while a question,
a draft or the reading of files for them runs (that cancels the gist, which starts again once they end)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, QThread, Signal

from assistant.errors import Cancelled
from assistant.gist import LOWEST_NICE, gist_and_keep, lower_thread_priority
from assistant.gui.tasks import Emit, Task, TaskRunner
from assistant.mail.cache import MailCache
from assistant.mail.gists import Gist
from assistant.mail.watch import NewMessage
from assistant.service import ModelStore

FOREGROUND = ("ask", "draft", "context")  # the window's tasks a gist gives way to


class GistQueue(QObject):
    """Computes the gist of each message :meth:`add` is given, on a runner of its own (one thread, lowered
    to the lowest priority), and keeps it in ``cache``. While ``foreground`` runs a task of a key in
    :data:`FOREGROUND` no gist runs: one running then is cancelled and queued again at the front. :attr:`nice`
    is the gist thread's nice value (Linux; the lowest priority by default).

    Signals: ``ready(NewMessage, Gist)``; ``failed(NewMessage, str)`` (the message could not be read or the
    model failed; a message whose attachments could not be read at all is neither ready nor failed).
    """

    ready = Signal(object, object)
    failed = Signal(object, str)

    def __init__(self, foreground: TaskRunner, cache: MailCache, store: Callable[[], ModelStore],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.foreground, self.cache, self.store = foreground, cache, store
        self.runner = TaskRunner(self, max_threads=1)
        self.nice = LOWEST_NICE
        self.waiting: list[NewMessage] = []
        self.current: tuple[Task, NewMessage] | None = None
        foreground.started.connect(self._foreground_started)
        foreground.ended.connect(lambda _task: self._next())

    def add(self, messages: list[NewMessage]) -> None:
        """Queue the messages that have attachments (after those already queued)."""
        self.waiting += [m for m in messages if m.attachments]
        self._next()

    @property
    def busy(self) -> bool:
        """Whether a gist is being computed now."""
        return self.current is not None

    def _blocked(self) -> bool:
        return any(t.key in FOREGROUND for t in self.foreground.running())

    def _next(self) -> None:
        if self.current is not None or not self.waiting or self._blocked():
            return
        new = self.waiting.pop(0)
        store, cache, nice = self.store(), self.cache, self.nice

        def work(emit: Emit, cancel: threading.Event) -> Gist | None:
            if nice > 0:
                lower_thread_priority(nice)
                QThread.currentThread().setPriority(QThread.Priority.LowestPriority)
            return gist_and_keep(store, cache, new.ref, cancel=cancel)

        task = self.runner.start("gist", f"Reading the attachments of \u201c{new.subject}\u201d", work,
                                 lambda gist: self._done(new, gist), on_error=lambda exc: self._failed(new, exc))
        self.current = (task, new)

    def _done(self, new: NewMessage, gist: Gist | None) -> None:
        self.current = None
        if gist is not None:
            self.ready.emit(new, gist)
        self._next()

    def _failed(self, new: NewMessage, exc: BaseException) -> None:
        self.current = None
        if not isinstance(exc, Cancelled):
            self.failed.emit(new, str(exc))
        self._next()

    def _foreground_started(self, task: Task) -> None:
        if task.key not in FOREGROUND or self.current is None:
            return
        running, new = self.current
        self.current = None
        self.waiting.insert(0, new)  # computed again, from the start, once the question is answered
        self.runner.cancel(running.id)

    def stop(self, wait_ms: int = 0) -> None:
        """Cancel the gist being computed and forget the queue (the window is closing)."""
        self.waiting.clear()
        self.current = None
        self.runner.cancel_all()
        if wait_ms:
            self.runner.wait(wait_ms)
