"""Mail sync as a background task (every account, then the drafts kept while offline; off the GUI thread), and
the watch for new mail (:class:`MailWatch`), whose folder threads hand what they find to the GUI thread."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Signal

from assistant import netguard
from assistant.accounts import load_accounts
from assistant.config import WatchedFolder
from assistant.errors import AssistantError, ServerUnreachable
from assistant.gui.tasks import Emit
from assistant.mail.cache import MailCache
from assistant.mail.connect import connector
from assistant.mail.pending import Delivered, PendingDrafts
from assistant.mail.sync import SyncResult, sync_account
from assistant.mail.watch import FolderWatch, NewMessage, Watcher, plan_watches
from assistant.records import Progress


@dataclass
class SyncOutcome:
    """What a sync run did: results, accounts that could not be reached, other errors."""

    results: list[SyncResult] = field(default_factory=list)
    unreachable: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    delivered: list[Delivered] = field(default_factory=list)


def sync_all(cache: MailCache, emit: Emit, cancel: threading.Event,
             pending: PendingDrafts | None = None) -> SyncOutcome:
    """Sync every account, then save its drafts kept while offline (``pending``) to Drafts, each once; an
    unreachable server is noted and the others still sync. Runs off the GUI thread."""
    outcome = SyncOutcome()
    for account in load_accounts().values():
        emit(Progress("sync", 0, 0))
        try:
            with netguard.purpose("mail sync"), connector(account)() as source:
                outcome.results.extend(sync_account(source, cache, emit=emit, cancel=cancel))
                if pending is not None:
                    outcome.delivered.extend(pending.deliver(source))
        except ServerUnreachable as exc:
            outcome.unreachable.append(account.name)
            outcome.errors.append(str(exc))
        except AssistantError as exc:
            if cancel.is_set():
                raise
            outcome.errors.append(str(exc))
    return outcome


class MailWatch(QObject):
    """Watches folders for new mail (:mod:`assistant.mail.watch`: each folder on its own connection and thread).

    The folder threads never touch a widget: they emit :attr:`synced` (the
    :class:`~assistant.mail.sync.SyncResult` of each sync of a folder, its first included, whose messages are
    not new mail), :attr:`arrived` (a list of :class:`~assistant.mail.watch.NewMessage`), :attr:`problem` (the
    message, and whether that folder's watch ended) and :attr:`delivered`; this object lives on the GUI thread,
    so Qt queues those to it.
    """

    synced = Signal(object)  # SyncResult
    arrived = Signal(object)  # list[NewMessage]
    problem = Signal(str, bool)  # what went wrong, whether the folder is no longer watched
    delivered = Signal(object)  # list[Delivered]

    def __init__(self, cache: MailCache, pending: PendingDrafts | None = None, parent: QObject | None = None,
                 **options: object) -> None:
        super().__init__(parent)
        self.cache, self.pending, self.options = cache, pending, options
        self.watcher: Watcher | None = None

    @property
    def watching(self) -> list[str]:
        """``ACCOUNT/FOLDER`` of each folder watched now."""
        w = self.watcher
        return [fw.name for fw, t in zip(w.watches, w.threads, strict=True) if t.is_alive()] if w else []

    def start(self, watched: tuple[WatchedFolder, ...] = (), watches: list[FolderWatch] | None = None) -> int:
        """(Re)start watching: ``watches``, else every account's folders as ``watched`` (the settings) says;
        returns how many folders are watched."""
        self.stop()
        if watches is None:
            try:
                accounts = list(load_accounts().values())
            except AssistantError as exc:
                self.problem.emit(str(exc), True)
                return 0
            watches = plan_watches(accounts, watched, connector)
        if not watches:
            return 0
        self.watcher = Watcher(watches, self.cache, on_new=self._new, on_sync=self._synced, on_problem=self._problem,
                               pending=self.pending, on_delivered=self._delivered, **self.options).start()
        return len(watches)

    def stop(self, wait_s: float = 0.0) -> None:
        """Stop every folder's watch (their threads end within about a second; ``wait_s`` waits for them)."""
        watcher, self.watcher = self.watcher, None
        if watcher is not None:
            watcher.stop()
            if wait_s:
                watcher.join(wait_s)

    def _send(self, signal: object, *args: object) -> None:
        try:
            signal.emit(*args)  # type: ignore[attr-defined]
        except RuntimeError:  # the window closed while a folder thread was reporting
            pass

    def _synced(self, result: SyncResult) -> None:
        self._send(self.synced, result)

    def _new(self, messages: list[NewMessage]) -> None:
        self._send(self.arrived, messages)

    def _problem(self, watch: FolderWatch, exc: AssistantError, permanent: bool) -> None:
        what = "no longer watched" if permanent else "reconnecting"
        self._send(self.problem, f"{watch.name}: {exc} ({what})", permanent)

    def _delivered(self, delivered: list[Delivered]) -> None:
        if delivered:
            self._send(self.delivered, delivered)
