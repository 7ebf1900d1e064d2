"""Sync against a real Dovecot: first and incremental sync, flags untouched, UIDVALIDITY, IDLE, watch and reconnect."""

from __future__ import annotations

import dataclasses
import threading
import time
import uuid
from pathlib import Path

import pytest

from assistant.accounts import Account
from assistant.config import WatchedFolder
from assistant.errors import Cancelled, ServerUnreachable
from assistant.mail import sync
from assistant.mail.cache import CachedRef, MailCache
from assistant.mail.imap import ImapSource
from assistant.mail.sync import SyncResult, sync_account, sync_folder
from assistant.mail.watch import FolderWatch, watch_folder
from assistant.records import Progress


def message(i: int, size: int = 0) -> bytes:
    return (f"From: Bob <bob@example.org>\r\nTo: alice@example.org\r\nSubject: note {i}\r\n"
            f"Message-ID: <n{i}.{uuid.uuid4().hex}@example.org>\r\n\r\nbody {i}\r\n" + "x" * size).encode()


def folder_account(account: Account, client: object, n: int = 0) -> Account:
    name = f"s-{uuid.uuid4().hex[:8]}"
    client.create_folder(name)  # type: ignore[attr-defined]
    for i in range(n):
        client.append(name, message(i))  # type: ignore[attr-defined]
    return dataclasses.replace(account, folders=(name,))


def test_first_then_incremental_sync(mail_account: Account, dovecot: object, server_client: object,
                                     user_dirs: Path) -> None:
    account = folder_account(mail_account, server_client, 5)
    folder = account.folders[0]
    cache = MailCache()
    events: list[Progress] = []
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        first = sync_folder(source, cache, folder, emit=events.append, batch_size=2)
        assert first.new_uids == (1, 2, 3, 4, 5) and not first.reset
        assert [e.done for e in events] == [0, 2, 4, 5] and events[-1].total == 5
        assert sync_folder(source, cache, folder).new_uids == ()  # UID 6:* would answer UID 5
        server_client.append(folder, message(99))  # type: ignore[attr-defined]
        server_client.append(folder, message(100))  # type: ignore[attr-defined]
        again = sync_account(source, cache)
    assert again[0].new_uids == (6, 7)
    refs = list(cache.refs("test"))
    assert [r.uid for r in refs] == [1, 2, 3, 4, 5, 6, 7]
    server_client.select_folder(folder, readonly=True)  # type: ignore[attr-defined]
    original = server_client.fetch([3], [b"BODY.PEEK[]"])[3][b"BODY[]"]  # type: ignore[attr-defined]
    assert cache.get(refs[2]) == original  # the exact bytes
    state = cache.state("test", folder)
    assert state is not None and state.last_uid == 7 and state.previous_uid == 5


def lasting_flags(client: object, uids: list[int]) -> dict[int, set[bytes]]:
    """Flags without \\Recent (which belongs to one session, RFC 3501 §2.3.2)."""
    rows = client.get_flags(uids)  # type: ignore[attr-defined]
    return {u: set(f) - {b"\\Recent"} for u, f in rows.items()}


def test_seen_flags_unchanged(mail_account: Account, dovecot: object, server_client: object,
                              user_dirs: Path) -> None:
    account = folder_account(mail_account, server_client, 3)
    folder = account.folders[0]
    server_client.select_folder(folder)  # type: ignore[attr-defined]
    server_client.add_flags([2], [b"\\Seen"])  # type: ignore[attr-defined]
    before = lasting_flags(server_client, [1, 2, 3])
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        sync_account(source, MailCache())
    server_client.select_folder(folder, readonly=True)  # type: ignore[attr-defined]
    after = lasting_flags(server_client, [1, 2, 3])
    assert after == before
    assert b"\\Seen" not in after[1] and b"\\Seen" in after[2]


def test_uidvalidity_change_refetches_the_folder(mail_account: Account, dovecot: object, server_client: object,
                                                 user_dirs: Path) -> None:
    account = folder_account(mail_account, server_client, 3)
    folder = account.folders[0]
    cache = MailCache()
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        first = sync_folder(source, cache, folder)
    server_client.delete_folder(folder)  # type: ignore[attr-defined]
    time.sleep(1.1)  # Dovecot derives UIDVALIDITY from the clock (seconds)
    server_client.create_folder(folder)  # type: ignore[attr-defined]
    for i in (10, 11):
        server_client.append(folder, message(i))  # type: ignore[attr-defined]
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        second = sync_folder(source, cache, folder)
    assert second.reset and second.uidvalidity != first.uidvalidity
    assert second.new_uids == (1, 2)
    refs = list(cache.refs("test"))
    assert [(r.uidvalidity, r.uid) for r in refs] == [(second.uidvalidity, 1), (second.uidvalidity, 2)]
    assert b"body 10" in (cache.get(refs[0]) or b"")
    assert not (cache.root / "test" / folder / str(first.uidvalidity)).exists()


def test_idle_sees_a_message_from_another_connection(mail_account: Account, dovecot: object,
                                                     server_client: object) -> None:
    account = folder_account(mail_account, server_client, 1)
    folder = account.folders[0]
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        source.select(folder)
        timer = threading.Timer(0.3, lambda: server_client.append(folder, message(7)))  # type: ignore
        timer.start()
        t0 = time.monotonic()
        assert source.idle_until(threading.Event(), 20) is True
        assert time.monotonic() - t0 < 10
        timer.join()
        assert source.idle_until(threading.Event(), 0.2, tick_s=0.2) is False


def test_idle_sees_a_message_that_arrives_between_its_noop_and_idle(mail_account: Account, dovecot: object,
                                                                   server_client: object) -> None:
    # The race a new-mail test in CI lost: the message lands after the NOOP before IDLE, Dovecot sends
    # "+ idling" and "* 2 EXISTS" together, and one read takes both; polling the socket then never wakes.
    account = folder_account(mail_account, server_client, 1)
    folder = account.folders[0]
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        source.select(folder)
        client = source.client
        real_noop = client.noop

        def noop_then_new_mail() -> object:
            answer = real_noop()
            server_client.append(folder, message(8))  # type: ignore[attr-defined]
            time.sleep(0.3)  # the server has it before IDLE begins
            return answer

        client.noop = noop_then_new_mail  # type: ignore[method-assign]
        t0 = time.monotonic()
        assert source.idle_until(threading.Event(), 30, tick_s=1.0) is True
        assert time.monotonic() - t0 < 15  # woken by the message, not by the 30 s timeout


def test_watch_syncs_new_mail_and_reconnects(mail_account: Account, dovecot: object, server_client: object,
                                             user_dirs: Path) -> None:
    account = folder_account(mail_account, server_client, 2)
    folder = account.folders[0]
    attempts: list[int] = []

    def connect() -> ImapSource:
        attempts.append(1)
        if len(attempts) == 1:
            raise ServerUnreachable("test", "first attempt fails on purpose")
        return ImapSource(account, dovecot.password)  # type: ignore[attr-defined]

    results: list[SyncResult] = []
    stop = threading.Event()
    watched = FolderWatch(account.name, WatchedFolder(folder), connect)
    worker = threading.Thread(target=watch_folder, args=(watched, MailCache()),
                              kwargs={"stop": stop, "on_sync": results.append})
    worker.start()
    try:
        deadline = time.monotonic() + 15
        while not any(r.new_uids for r in results) and time.monotonic() < deadline:
            time.sleep(0.05)
        server_client.append(folder, message(3))  # type: ignore[attr-defined]
        while not any(3 in r.new_uids for r in results) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        worker.join(10)
    assert not worker.is_alive()
    assert len(attempts) >= 2
    assert [r.new_uids for r in results if r.new_uids][:2] == [(1, 2), (3,)]


def test_cache_size_bound_and_clear(tmp_path: Path) -> None:
    cache = MailCache(tmp_path / "mail", max_bytes=250)
    from assistant.mail.cache import FolderState

    cache.set_state("a", "INBOX/Sub.x", FolderState(7, 3))
    for uid in (1, 2, 3):
        cache.put(CachedRef("a", "INBOX/Sub.x", 7, uid), bytes([uid]) * 100)
        time.sleep(0.01)
    assert cache.enforce_limit() == 1
    assert [r.uid for r in cache.refs()] == [2, 3]
    assert [r.folder for r in cache.refs()] == ["INBOX/Sub.x"] * 2
    assert cache.size() == 200
    private = [p for p in cache.root.rglob("*") if p.stat().st_mode & 0o077]
    assert private == [] and cache.root.stat().st_mode & 0o077 == 0
    cache.clear()
    assert list(cache.refs()) == [] and cache.size() == 0


def test_batches_bounded_by_count_and_bytes() -> None:
    from assistant.mail.sync import plan_batches

    sizes = {1: 10, 2: 10, 3: 100, 4: 10, 5: 10, 6: 10}
    assert plan_batches([1, 2, 3, 4, 5, 6], sizes, 3, 50) == [[1, 2], [3], [4, 5, 6]]
    assert plan_batches([1, 2, 3], {}, 2, 50) == [[1, 2], [3]]
    assert plan_batches([], {}, 2, 50) == []


def test_a_sync_in_offline_mode_says_that_only_this_computer_was_reached() -> None:
    from assistant import netguard
    from assistant.mail.sync import SyncResult, synced_text

    results = [SyncResult("local", "INBOX", 1, (), False, 0), SyncResult("local", "Work", 1, (4, 5), False, 900)]
    assert synced_text(results) == "Synced: 2 new messages."
    previous = netguard.set_offline(True)
    try:
        assert synced_text(results[:1], delivered=1) == (
            "Synced: 0 new messages (offline mode: only this computer's server was reached); 1 waiting draft "
            "saved to Drafts.")
    finally:
        netguard.set_offline(previous)


def test_two_syncs_of_one_new_folder_run_one_after_the_other(mail_account: Account, dovecot: object,
                                                             server_client: object, user_dirs: Path) -> None:
    """The app's first sync of an account just added and its watcher's first sync: the second waits, then finds
    nothing new, and keeps what the first fetched (and what was saved beside it)."""
    account = folder_account(mail_account, server_client, 3)
    folder = account.folders[0]
    cache = MailCache()
    fetched, release = threading.Event(), threading.Event()
    outcome: dict[str, SyncResult] = {}

    def first_emit(event: object) -> None:
        if isinstance(event, Progress) and event.done == event.total > 0:  # every message is in the cache
            fetched.set()
            release.wait(10)

    def run(name: str, emit: object) -> None:
        with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
            outcome[name] = sync_folder(source, cache, folder, emit=emit)  # type: ignore[arg-type]

    first = threading.Thread(target=run, args=("first", first_emit))
    first.start()
    assert fetched.wait(10)
    state = cache.state("test", folder)
    assert state is not None
    ref = CachedRef("test", folder, state.uidvalidity, 1)
    assert cache.put_sidecar(ref, "gist", b"{}") is not None  # the gist saved while the first sync ends
    second = threading.Thread(target=run, args=("second", lambda e: None))
    second.start()
    second.join(1.0)
    assert second.is_alive()  # it waits for the first
    release.set()
    first.join(10)
    second.join(10)
    assert outcome["first"].new_uids == (1, 2, 3) and outcome["second"].new_uids == ()
    assert [r.uid for r in cache.refs("test")] == [1, 2, 3]
    assert cache.get_sidecar(ref, "gist") == b"{}"


def test_a_sync_waiting_for_its_folder_is_cancelled(mail_account: Account, dovecot: object,
                                                  server_client: object, user_dirs: Path) -> None:
    account = folder_account(mail_account, server_client, 1)
    cache = MailCache()
    with sync._FolderLock(cache, "test", account.folders[0], None):  # another sync of the folder runs
        cancel = threading.Event()
        cancel.set()
        with ImapSource(account, dovecot.password) as source, pytest.raises(Cancelled):  # type: ignore[attr-defined]
            sync_folder(source, cache, account.folders[0], cancel=cancel)
    assert cache.state("test", account.folders[0]) is None  # it never started
