"""Gists of mail in the background: one message at a time, at the lowest priority, never while a question,
a draft or the reading of files for them runs (that cancels the gist, which starts again once they end).

New mail the watch reports comes first, in the order it arrived; then what a sync fetched (the first sync of
an account, F5, a watched folder's first sync), newest first, each message with attachments whose gist is
not kept yet. :meth:`GistQueue.stop_reading` drops what waits and stops the gist under way."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, QThread, Signal

from assistant.errors import Cancelled
from assistant.gist import LOWEST_NICE, gist_and_keep, lower_thread_priority
from assistant.gui.tasks import Emit, Task, TaskRunner
from assistant.mail.cache import MailCache
from assistant.mail.gists import Gist, load_gist
from assistant.mail.sync import SyncResult
from assistant.mail.watch import NewMessage, new_messages
from assistant.service import ModelStore

FOREGROUND = ("ask", "draft", "context")  # the window's tasks a gist gives way to


def without_gist(cache: MailCache, results: Sequence[SyncResult]) -> list[NewMessage]:
    """The messages ``results`` fetched that have attachments and no gist kept yet, newest first (by date, then
    UID). Reads the cache: runs off the GUI thread."""
    found = [m for r in results for m in new_messages(cache, r) if m.attachments and load_gist(cache, m.ref) is None]
    found.sort(key=lambda m: (m.date.timestamp() if m.date else 0.0, m.ref.uid), reverse=True)
    return found


class GistQueue(QObject):
    """Computes the gist of each message :meth:`add` is given (new mail), then of those :meth:`add_synced`
    finds (newest first), on a runner of its own (one thread, lowered to the lowest priority), and keeps it in
    ``cache``; a message is read once. While ``foreground`` runs a task of a key in :data:`FOREGROUND` no gist
    runs: one running then is cancelled and queued again at the front. :attr:`nice` is the gist thread's nice
    value (Linux; the lowest priority by default).

    Signals: ``ready(NewMessage, Gist)``; ``failed(NewMessage, str)`` (the message could not be read or the
    model failed; a message whose attachments could not be read at all is neither ready nor failed);
    ``pending(int)``: how many messages wait or are being read, each time that changes.
    """

    ready = Signal(object, object)
    failed = Signal(object, str)
    pending = Signal(int)

    def __init__(self, foreground: TaskRunner, cache: MailCache, store: Callable[[], ModelStore],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.foreground, self.cache, self.store = foreground, cache, store
        self.runner = TaskRunner(self, max_threads=1)
        self.nice = LOWEST_NICE
        self.waiting: list[NewMessage] = []  # new mail, first come first served
        self.backlog: list[NewMessage] = []  # what syncs fetched, newest first
        self.current: tuple[Task, NewMessage] | None = None
        self.read: set[str] = set()  # ids whose gist was computed (or found kept): never read twice
        self._scans = itertools.count(1)
        self._shown = 0
        foreground.started.connect(self._foreground_started)
        foreground.ended.connect(lambda _task: self._next())

    def add(self, messages: list[NewMessage]) -> None:
        """Queue the messages that have attachments (after those already queued, before the synced ones)."""
        self.waiting += [m for m in messages if m.attachments and m.id not in self.read]
        self._next()

    def add_synced(self, results: Sequence[SyncResult]) -> None:
        """Queue the messages ``results`` fetched that have attachments and no gist yet, newest first among those
        waiting from earlier syncs (found in the background: the cache is read for them)."""
        if not any(r.new_uids for r in results):
            return
        cache, results = self.cache, list(results)
        self.runner.start(f"gist-scan-{next(self._scans)}", "Finding mail with attachments",
                          lambda emit, cancel: without_gist(cache, results), self._found)

    def _found(self, messages: list[NewMessage]) -> None:
        known = {m.id for m in self.backlog}
        merged = self.backlog + [m for m in messages if m.id not in known and m.id not in self.read]
        merged.sort(key=lambda m: (m.date.timestamp() if m.date else 0.0, m.ref.uid), reverse=True)
        self.backlog = merged
        self._next()

    @property
    def busy(self) -> bool:
        """Whether a gist is being computed now."""
        return self.current is not None

    @property
    def left(self) -> int:
        """Messages waiting for their gist or being read now."""
        return len(self.waiting) + len(self.backlog) + (self.current is not None)

    def _tell(self) -> None:
        if self.left != self._shown:
            self._shown = self.left
            self.pending.emit(self._shown)

    def _take(self) -> NewMessage | None:
        for queue in (self.waiting, self.backlog):
            while queue:
                new = queue.pop(0)
                if new.id not in self.read:
                    return new
        return None

    def _blocked(self) -> bool:
        return any(t.key in FOREGROUND for t in self.foreground.running())

    def _next(self) -> None:
        if self.current is None and not self._blocked():
            new = self._take()
            if new is not None:
                self._start(new)
        self._tell()

    def _start(self, new: NewMessage) -> None:
        store, cache, nice = self.store(), self.cache, self.nice

        def work(emit: Emit, cancel: threading.Event) -> Gist | None:
            if nice > 0:
                lower_thread_priority(nice)
                QThread.currentThread().setPriority(QThread.Priority.LowestPriority)
            kept = load_gist(cache, new.ref)  # computed meanwhile (by `mail sync --watch`, say)
            return kept if kept is not None else gist_and_keep(store, cache, new.ref, cancel=cancel)

        task = self.runner.start("gist", f"Reading the attachments of \u201c{new.subject}\u201d", work,
                                 lambda gist: self._done(task, new, gist),
                                 on_error=lambda exc: self._failed(task, new, exc))
        self.current = (task, new)

    def _ended(self, task: Task) -> None:
        """``task`` ended: it is no longer the gist under way, unless another already took its place (a task
        cancelled for a question ends after the one that reads its message again has started)."""
        if self.current is not None and self.current[0] is task:
            self.current = None

    def _done(self, task: Task, new: NewMessage, gist: Gist | None) -> None:
        self._ended(task)
        if gist is not None and new.id not in self.read:
            self.ready.emit(new, gist)
        self.read.add(new.id)
        self._next()

    def _failed(self, task: Task, new: NewMessage, exc: BaseException) -> None:
        self._ended(task)
        if not isinstance(exc, Cancelled):
            self.read.add(new.id)  # not tried again in this session (it may be tried after a restart)
            self.failed.emit(new, str(exc))
        self._next()

    def _foreground_started(self, task: Task) -> None:
        if task.key not in FOREGROUND or self.current is None:
            return
        running, new = self.current
        self.current = None
        self.waiting.insert(0, new)  # computed again, from the start, once the question is answered
        self.runner.cancel(running.id)

    def stop_reading(self) -> None:
        """Stop the gist being computed and drop every message waiting for one (the person asked; new mail
        that arrives later is read again)."""
        self.waiting.clear()
        self.backlog.clear()
        self.current = None
        self.runner.cancel_all()
        self._tell()

    def stop(self, wait_ms: int = 0) -> None:
        """Cancel the gist being computed and forget the queue (the window is closing)."""
        self.stop_reading()
        if wait_ms:
            self.runner.wait(wait_ms)
