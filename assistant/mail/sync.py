"""Incremental sync by UID with UIDVALIDITY tracking (RFC 3501 §2.3.1.1). Watching folders for new mail
(the app and ``mail sync --watch``) is :mod:`assistant.mail.watch`.

A folder's cache is valid only for one UIDVALIDITY: when the server reports another, the folder's
cache is dropped and every message is fetched again (nothing duplicated, nothing lost). Otherwise
only UIDs above the highest synced one are fetched, in batches, and the state is saved after each
batch so an interrupted sync resumes where it stopped. Progress goes out as :class:`Progress` events.

The cache follows the server: messages deleted or moved away since the last sync are removed from it (and
so from the message list) before new ones are fetched. Where QRESYNC is enabled (RFC 7162) the folder is
opened with the last sync's HIGHESTMODSEQ and the server names the vanished UIDs itself (``VANISHED
(EARLIER)``, §3.2.5); otherwise the server's UIDs (``UID SEARCH``) are compared with the cached ones, as
they are when the counts show that a server's VANISHED left something out. A message moved to another
watched folder gets a new UID there and is fetched with that folder. Nothing is written to the server:
EXAMINE only, flags untouched.

Faults (``tests/test_mail_faults.py``): a connection that drops, stalls past the timeout, is
closed with ``* BYE`` or truncates a literal in the middle of a FETCH raises
:class:`~assistant.errors.ConnectionLost` naming the UIDs being fetched; a killed sync leaves only whole
files (atomic writes) and its temporary files are swept at the next sync; a full or read-only data folder
raises :class:`~assistant.errors.StorageError`. Messages of an unfinished batch are fetched again by the
next sync and overwrite their own file, so every message ends up in the cache exactly once.

One folder syncs once at a time in a process: the app's sync and its watcher's first sync of a folder just
added would otherwise both find no state, and the second's fresh start would remove what the first had fetched
(and the gist being saved beside it). The second waits for the first, then finds nothing new.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant import netguard
from assistant.errors import Cancelled
from assistant.mail.cache import CachedRef, FolderState, MailCache
from assistant.mail.imap import ImapSource
from assistant.records import Event, Progress
from assistant.text.plural import count_of

log = logging.getLogger(__name__)

DEFAULT_BATCH = 50
DEFAULT_BATCH_BYTES = 16 * 1024**2  # bounds memory: one batch of bodies is held at a time
STAGE = "mail_sync"
LOCK_POLL_S = 0.2  # how often a sync waiting for the folder's other sync looks at its cancel event

_folder_locks: dict[tuple[str, str, str], threading.Lock] = {}
_folder_locks_guard = threading.Lock()


RESYNC_QRESYNC = "qresync"  # the server named the vanished UIDs (RFC 7162 §3.2.5)
RESYNC_UIDS = "uid-compare"  # the server's UID set was compared with the cache's
RESYNC_NONE = ""  # first sync of the folder, or UIDVALIDITY changed: nothing cached to check
#: Said after a sync in offline mode: only a server on this computer (loopback) can have been reached, and a
#: bare "Synced: 0 new messages." read as if the mail server had been asked.
OFFLINE_REACHED = "offline mode: only this computer's server was reached"


@dataclass(frozen=True)
class SyncResult:
    """What one folder's sync did: the UIDs fetched, whether UIDVALIDITY changed (cache rebuilt), the UIDs
    removed because they left the server (deleted or moved away), and how that was found (``resync``:
    :data:`RESYNC_QRESYNC`, :data:`RESYNC_UIDS` or :data:`RESYNC_NONE`)."""

    account: str
    folder: str
    uidvalidity: int
    new_uids: tuple[int, ...]
    reset: bool
    fetched_bytes: int
    removed_uids: tuple[int, ...] = ()
    resync: str = RESYNC_NONE


def synced_text(results: Sequence[SyncResult], *, delivered: int = 0) -> str:
    """The one line a sync ends with: ``Synced: 3 new messages.``, in offline mode with
    :data:`OFFLINE_REACHED`, and the drafts kept while offline that went to Drafts."""
    new = sum(len(r.new_uids) for r in results)
    offline = f" ({OFFLINE_REACHED})" if netguard.is_offline() else ""
    saved = f"; {count_of(delivered, 'waiting draft')} saved to Drafts" if delivered else ""
    return f"Synced: {count_of(new, 'new message')}{offline}{saved}."


def sync_folder(source: ImapSource, cache: MailCache, folder: str, *,
                emit: Callable[[Event], None] = lambda e: None, batch_size: int = DEFAULT_BATCH,
                batch_bytes: int = DEFAULT_BATCH_BYTES, cancel: threading.Event | None = None) -> SyncResult:
    """Remove from ``cache`` the folder's messages gone from the server, then fetch those not yet in it
    (read-only; flags untouched).

    Raises:
        FolderError: the folder does not exist.
        MailError: the connection failed (the state saved so far is kept); ConnectionLost when it failed
            during a FETCH.
        StorageError: the data folder is full or read-only (the state saved so far is kept).
        Cancelled: ``cancel`` was set (between batches, or while waiting for another sync of the folder).
    """
    with _FolderLock(cache, source.account.name, folder, cancel):
        return _sync_folder(source, cache, folder, emit, batch_size, batch_bytes, cancel)


class _FolderLock:
    """Held while one folder of one cache syncs; waiting for it ends with Cancelled when ``cancel`` is set."""

    def __init__(self, cache: MailCache, account: str, folder: str, cancel: threading.Event | None) -> None:
        key = (str(cache.root.resolve()), account, folder)
        with _folder_locks_guard:
            self.lock = _folder_locks.setdefault(key, threading.Lock())
        self.cancel = cancel

    def __enter__(self) -> None:
        while not self.lock.acquire(timeout=LOCK_POLL_S):
            if self.cancel is not None and self.cancel.is_set():
                raise Cancelled()

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


def _sync_folder(source: ImapSource, cache: MailCache, folder: str, emit: Callable[[Event], None],
                 batch_size: int, batch_bytes: int, cancel: threading.Event | None) -> SyncResult:
    account = source.account.name
    cache.sweep(account, folder)  # temporary files of a sync that was killed mid-write
    state = cache.state(account, folder)
    known = (state.uidvalidity, state.highestmodseq, state.last_uid) if state is not None else None
    status = source.select(folder, readonly=True, known=known)
    reset = state is not None and state.uidvalidity != status.uidvalidity
    if reset or state is None:
        if reset:
            log.info("%s/%s: UIDVALIDITY changed; fetching the folder again", account, folder)
        cache.drop_folder(account, folder)
        state = FolderState(status.uidvalidity, 0)
    start = state.last_uid
    removed: list[int] = []
    resync = RESYNC_NONE
    uids: list[int] | None = None
    cached = cache.uids(account, folder)  # may hold UIDs above last_uid from a batch cut short
    if cached:
        gone: list[int] | None = None
        if status.vanished is not None:  # QRESYNC: the server listed what vanished since our HIGHESTMODSEQ
            vanished = status.vanished
            uids = source.uids_from(start + 1)
            above = set(uids)
            gone = [u for u in cached if u in vanished or (u > start and u not in above)]
            # Guard against a server that leaves UIDs out of VANISHED: it holds EXISTS - len(uids) messages up
            # to last_uid, and the cache (which may have evicted some) never holds more of them than that.
            if sum(1 for u in cached if u <= start and u not in vanished) > status.exists - len(uids):
                log.warning("%s/%s: QRESYNC reported too few vanished messages; comparing UID sets", account,
                            folder)
                gone = None
            else:
                resync = RESYNC_QRESYNC
        if gone is None:  # compare UID sets; the same answer gives the new UIDs
            resync = RESYNC_UIDS
            on_server = source.uids_from(1)
            present = set(on_server)
            gone = [u for u in cached if u not in present]
            uids = [u for u in on_server if u > start]
        removed = cache.remove(account, folder, gone)
        if removed:
            log.info("%s/%s: %d messages gone from the server removed from the cache", account, folder,
                     len(removed))
    # The cache now matches the server as of the EXAMINE, so its HIGHESTMODSEQ is the next sync's base.
    modseq = status.highestmodseq
    cache.set_state(account, folder, FolderState(status.uidvalidity, start, start, modseq))
    if uids is None:
        uids = source.uids_from(start + 1)
    emit(Progress(STAGE, 0, len(uids), "messages"))
    fetched: list[int] = []
    n_bytes = done = 0
    for batch in plan_batches(uids, source.sizes(uids) if uids else {}, batch_size, batch_bytes):
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        for message in source.fetch(batch):
            cache.put(CachedRef(account, folder, status.uidvalidity, message.uid), message.raw)
            fetched.append(message.uid)
            n_bytes += len(message.raw)
        cache.set_state(account, folder, FolderState(status.uidvalidity, batch[-1], start, modseq))
        done += len(batch)
        emit(Progress(STAGE, done, len(uids), "messages"))
    cache.enforce_limit()
    return SyncResult(account, folder, status.uidvalidity, tuple(fetched), reset, n_bytes, tuple(removed), resync)


def plan_batches(uids: Sequence[int], sizes: dict[int, int], max_count: int,
                 max_bytes: int) -> list[list[int]]:
    """Split ``uids`` (ascending) into batches of at most ``max_count`` messages and ``max_bytes`` bytes
    (a single larger message gets a batch of its own)."""
    batches: list[list[int]] = []
    current: list[int] = []
    total = 0
    for uid in uids:
        size = sizes.get(uid, 0)
        if current and (len(current) >= max_count or total + size > max_bytes):
            batches.append(current)
            current, total = [], 0
        current.append(uid)
        total += size
    if current:
        batches.append(current)
    return batches


def sync_account(source: ImapSource, cache: MailCache, *, folders: Sequence[str] | None = None,
                 emit: Callable[[Event], None] = lambda e: None,
                 cancel: threading.Event | None = None) -> list[SyncResult]:
    """Sync every folder the account watches (or ``folders``), in order."""
    return [sync_folder(source, cache, folder, emit=emit, cancel=cancel)
            for folder in (folders or source.account.folders)]

