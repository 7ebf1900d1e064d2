"""New mail as it arrives: several folders watched at once, each on its own connection and thread, by IMAP
IDLE (RFC 2177) where the folder asks for it and the server offers it, else by polling.

Each watched folder first syncs (:func:`assistant.mail.sync.sync_folder`), then waits for the server to report
a change (IDLE, re-issued every 10 minutes) or for its poll interval, and syncs again. Messages a sync
fetched are reported once, as :class:`NewMessage` (sender, subject, attachment names and sizes): the cache's
UID state makes every message new exactly once. The first sync of a folder never seen before, and a refetch
after UIDVALIDITY changed, download what is already there: they are not reported as new mail.

A lost connection is re-opened with exponential backoff (1 s doubling up to 5 min); errors only the person can
fix (password, certificate, a folder that does not exist) end that folder's watch and are reported, while the
other folders go on. Drafts kept while the server was unreachable are saved to Drafts after each connection of
the account's first watched folder.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from assistant import netguard
from assistant.accounts import Account
from assistant.config import DEFAULT_POLL_S, WatchedFolder
from assistant.errors import AssistantError, AuthError, Cancelled, FolderError, MailError, TlsError
from assistant.mail.cache import CachedRef, MailCache
from assistant.mail.imap import ImapSource
from assistant.mail.pending import Delivered, PendingDrafts
from assistant.mail.sync import SyncResult, sync_folder
from assistant.records import Event

log = logging.getLogger(__name__)

TICK_S = 1.0  # how often a waiting watcher looks whether it was told to stop
MAX_BACKOFF_S = 300.0  # a lost connection is retried after 1 s, doubling up to this
# IDLE is ended and the folder synced at least this often (RFC 2177 allows up to 29 min): it keeps NAT routers
# from dropping a quiet connection and catches a message whose EXISTS arrived as IDLE began.
IDLE_REFRESH_S = 10 * 60.0


def size_text(n_bytes: int) -> str:
    """``512 bytes``, ``3 KB``, ``1.2 MB`` (powers of 1024)."""
    if n_bytes < 1024:
        return f"{n_bytes} bytes"
    if n_bytes < 1024**2:
        return f"{n_bytes / 1024:.0f} KB"
    return f"{n_bytes / 1024**2:.1f} MB"


@dataclass(frozen=True)
class NewMessage:
    """A message a watched folder received: where it is cached (``ref.id`` is ``ACCOUNT:FOLDER:UID``), its
    sender, subject and date, and its attachments as ``(filename, size in bytes)``."""

    ref: CachedRef
    sender: str
    subject: str
    date: datetime | None
    attachments: tuple[tuple[str, int], ...]

    @property
    def id(self) -> str:
        return self.ref.id

    def attachment_text(self) -> str:
        """``2 attachments: a.pdf (120 KB), b.txt (3 bytes)``, or ``no attachments``."""
        if not self.attachments:
            return "no attachments"
        names = ", ".join(f"{name} ({size_text(size)})" for name, size in self.attachments)
        return f"{len(self.attachments)} attachment{'s' if len(self.attachments) > 1 else ''}: {names}"

    def line(self) -> str:
        """One line for a terminal: ID, date, sender, subject, attachments."""
        date = self.date.strftime("%Y-%m-%d %H:%M") if self.date else "(no date)"
        return f"{self.id}  {date}  {self.sender}  \u201c{self.subject or '(no subject)'}\u201d  " \
               f"{self.attachment_text()}"


def new_messages(cache: MailCache, result: SyncResult) -> list[NewMessage]:
    """The messages ``result`` fetched, read back from ``cache`` (a message evicted meanwhile is left out)."""
    from assistant.documents.mime.parse import parse_message

    found = []
    for uid in result.new_uids:
        ref = CachedRef(result.account, result.folder, result.uidvalidity, uid)
        raw = cache.get(ref)
        if raw is None:
            continue
        m = parse_message(raw)
        found.append(NewMessage(ref, m.sender, m.subject, m.date,
                                tuple((a.filename, a.size) for a in m.attachments)))
    return found


@dataclass(frozen=True)
class FolderWatch:
    """One folder of one account to watch: how (``folder.mode``, ``folder.poll_s``), how to connect, and
    whether this watcher also saves the account's drafts kept while offline."""

    account: str
    folder: WatchedFolder
    connect: Callable[[], ImapSource]
    deliver_pending: bool = False

    @property
    def name(self) -> str:
        return f"{self.account}/{self.folder.folder}"


def plan_watches(accounts: Iterable[Account], watched: Sequence[WatchedFolder],
                 connector: Callable[[Account], Callable[[], ImapSource]], *, folders: Sequence[str] = (),
                 mode: str | None = None, poll_s: float | None = None) -> list[FolderWatch]:
    """The folders to watch: ``folders`` when given (for every account), else the settings' ``watched``
    entries (those naming the account or none), else each account's own folders; ``mode``/``poll_s`` override
    each entry's. The first folder of each account delivers its pending drafts."""
    plan: list[FolderWatch] = []
    for account in accounts:
        if folders:
            entries = [WatchedFolder(f) for f in folders]
        elif watched:
            entries = [w for w in watched if w.account in ("", account.name)]
        else:
            entries = [WatchedFolder(f) for f in account.folders]
        seen: set[str] = set()
        for entry in entries:
            if entry.folder in seen:
                continue
            seen.add(entry.folder)
            entry = WatchedFolder(entry.folder, mode or entry.mode,  # type: ignore[arg-type]
                                  poll_s if poll_s is not None else entry.poll_s, account.name)
            plan.append(FolderWatch(account.name, entry, connector(account), deliver_pending=len(seen) == 1))
    return plan


def _permanent(exc: AssistantError) -> bool:
    """Errors that retrying cannot fix: the person must act (password, certificate, folder name, disk)."""
    return not isinstance(exc, MailError) or isinstance(exc, AuthError | TlsError | FolderError)


def watch_folder(watch: FolderWatch, cache: MailCache, *, stop: threading.Event,
                 on_new: Callable[[list[NewMessage]], None] = lambda m: None,
                 on_sync: Callable[[SyncResult], None] = lambda r: None,
                 on_problem: Callable[[FolderWatch, AssistantError, bool], None] = lambda w, e, p: None,
                 emit: Callable[[Event], None] = lambda e: None, pending: PendingDrafts | None = None,
                 on_delivered: Callable[[list[Delivered]], None] = lambda d: None, tick_s: float = TICK_S,
                 max_backoff_s: float = MAX_BACKOFF_S) -> None:
    """Sync ``watch``'s folder, then wait for new mail and sync again, until ``stop`` is set.

    Each sync's new messages go to ``on_new`` (the first sync of a folder never synced before, and a refetch
    after a UIDVALIDITY change, only to ``on_sync``). ``on_problem(watch, error, permanent)`` hears every
    failure; a permanent one (password, certificate, missing folder, full disk) ends this watch, the others
    are retried with backoff. Callbacks run on this (the watcher's) thread.
    """
    folder = watch.folder.folder
    backoff = 1.0

    def sync(source: ImapSource) -> None:
        baseline = cache.state(watch.account, folder) is None
        result = sync_folder(source, cache, folder, emit=emit, cancel=stop)
        on_sync(result)
        if result.new_uids and not (baseline or result.reset):
            on_new(new_messages(cache, result))

    while not stop.is_set():
        try:
            with netguard.purpose("watching for new mail"), watch.connect() as source:
                if watch.deliver_pending and pending is not None:
                    on_delivered(pending.deliver(source))  # before the sync, which leaves this folder selected
                sync(source)
                backoff = 1.0
                use_idle = watch.folder.mode == "idle" and source.has_idle()
                if watch.folder.mode == "idle" and not use_idle:
                    log.info("%s: the server does not offer IDLE; polling every %.0f s", watch.name,
                             watch.folder.poll_s)
                while not stop.is_set():
                    if use_idle:
                        source.idle_until(stop, IDLE_REFRESH_S, tick_s=tick_s)  # a timeout syncs too
                    elif stop.wait(watch.folder.poll_s):
                        break
                    if stop.is_set():
                        break
                    sync(source)
        except Cancelled:
            return
        except AssistantError as exc:
            if stop.is_set():
                return
            permanent = _permanent(exc)
            on_problem(watch, exc, permanent)
            if permanent:
                return
            log.info("%s: %s; reconnecting in %.0f s", watch.name, exc, backoff)
            if stop.wait(backoff):
                return
            backoff = min(backoff * 2, max_backoff_s)


class Watcher:
    """Runs :func:`watch_folder` for each of ``watches`` on a thread of its own (daemon threads: a watcher
    never keeps the process alive). Keyword arguments go to :func:`watch_folder`."""

    def __init__(self, watches: Sequence[FolderWatch], cache: MailCache, **options: object) -> None:
        self.watches = list(watches)
        self.stop_event = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(w, cache, options), name=f"watch {w.name}",
                                         daemon=True) for w in self.watches]

    def _run(self, watch: FolderWatch, cache: MailCache, options: dict[str, object]) -> None:
        try:
            watch_folder(watch, cache, stop=self.stop_event, **options)  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001  (a bug must not vanish with its thread)
            log.exception("%s: the watch stopped", watch.name)
            report = options.get("on_problem")
            if callable(report):
                report(watch, AssistantError(f"watching {watch.name} stopped ({exc})"), True)

    def start(self) -> Watcher:
        for t in self.threads:
            t.start()
        return self

    def stop(self) -> None:
        """Tell every folder's watch to end (each notices within about ``tick_s`` seconds)."""
        self.stop_event.set()

    def join(self, timeout_s: float | None = None) -> bool:
        """Wait for the watches to end (at most ``timeout_s`` seconds in all); whether they all did."""
        import time

        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        for t in self.threads:
            t.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return not self.alive

    @property
    def alive(self) -> bool:
        """Whether any folder is still watched."""
        return any(t.is_alive() for t in self.threads)


__all__ = ["DEFAULT_POLL_S", "FolderWatch", "NewMessage", "Watcher", "new_messages", "plan_watches",
           "watch_folder"]
