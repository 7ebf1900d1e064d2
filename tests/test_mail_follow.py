"""The cache follows the server (docs/mail.md), against a real Dovecot: messages deleted or moved away on
the server leave the cache and ``assistant mail list`` at the next sync, found with QRESYNC (RFC 7162
§3.2.5, ``VANISHED (EARLIER)``) when the server offers it and by comparing UID sets otherwise. Our sync
never changes the server: flags and messages stay as the other mail client left them.

The "other mail client" is the ``server_client`` fixture: a second, separate IMAP connection that deletes
(``STORE +FLAGS \\Deleted`` + ``EXPUNGE``), moves (``MOVE``, RFC 6851) and flags messages.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import uuid
from email.message import EmailMessage
from pathlib import Path

import pytest

from assistant.accounts import Account
from assistant.cli import main
from assistant.mail.cache import MailCache
from assistant.mail.imap import ImapSource, UidSet, _vanished_text
from assistant.mail.pending import PendingDrafts
from assistant.mail.sync import RESYNC_NONE, RESYNC_QRESYNC, RESYNC_UIDS, sync_account, sync_folder

MODES = pytest.mark.parametrize("qresync", [True, False], ids=["qresync", "uid-compare"])


def message(i: int) -> bytes:
    return (f"From: Bob <bob@example.org>\r\nTo: alice@example.org\r\nSubject: follow {i}\r\n"
            f"Message-ID: <w{i}.{uuid.uuid4().hex}@example.org>\r\n\r\nbody {i}\r\n").encode()


def new_folder(client: object, n: int) -> str:
    name = f"w-{uuid.uuid4().hex[:8]}"
    client.create_folder(name)  # type: ignore[attr-defined]
    for i in range(n):
        client.append(name, message(i))  # type: ignore[attr-defined]
    return name


def expunge(client: object, folder: str, uids: list[int]) -> None:
    """Delete ``uids`` as another mail client would: ``\\Deleted``, then EXPUNGE (RFC 3501 §6.4.3)."""
    client.select_folder(folder)  # type: ignore[attr-defined]
    client.delete_messages(uids)  # type: ignore[attr-defined]
    client.expunge()  # type: ignore[attr-defined]


def lasting_flags(client: object, folder: str) -> dict[int, set[bytes]]:
    """Every message's flags without \\Recent (which belongs to one session, RFC 3501 §2.3.2)."""
    client.select_folder(folder, readonly=True)  # type: ignore[attr-defined]
    rows = client.get_flags(client.search(["ALL"]))  # type: ignore[attr-defined]
    return {u: set(f) - {b"\\Recent"} for u, f in rows.items()}


def expected_resync(qresync: bool) -> str:
    return RESYNC_QRESYNC if qresync else RESYNC_UIDS


@MODES
def test_deleted_on_server_leaves_cache_and_list(qresync: bool, mail_account: Account, dovecot: object,
                                                 server_client: object, user_dirs: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = new_folder(server_client, 4)
    account = dataclasses.replace(mail_account, folders=(folder,))
    cache = MailCache()
    with ImapSource(account, dovecot.password, qresync=qresync) as source:  # type: ignore[attr-defined]
        assert source.qresync is qresync  # Dovecot offers QRESYNC; it is used unless turned off
        first = sync_folder(source, cache, folder)
    assert first.new_uids == (1, 2, 3, 4) and first.removed_uids == () and first.resync == RESYNC_NONE
    state = cache.state("test", folder)
    assert state is not None
    if qresync:
        assert state.highestmodseq > 0
    expunge(server_client, folder, [2, 4])
    with ImapSource(account, dovecot.password, qresync=qresync) as source:  # type: ignore[attr-defined]
        again = sync_folder(source, cache, folder)
    assert again.resync == expected_resync(qresync)
    assert again.removed_uids == (2, 4) and again.new_uids == ()
    assert cache.uids("test", folder) == [1, 3]
    assert main(["mail", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["subject"]) for r in rows] == [(f"test:{folder}:1", "follow 0"),
                                                       (f"test:{folder}:3", "follow 2")]
    server_client.append(folder, message(9))  # type: ignore[attr-defined]
    with ImapSource(account, dovecot.password, qresync=qresync) as source:  # type: ignore[attr-defined]
        third = sync_folder(source, cache, folder)
    assert third.resync == expected_resync(qresync)
    assert third.removed_uids == () and third.new_uids == (5,)
    assert cache.uids("test", folder) == [1, 3, 5]


@MODES
def test_moved_between_watched_folders(qresync: bool, mail_account: Account, dovecot: object,
                                       server_client: object, user_dirs: Path) -> None:
    source_folder, target_folder = new_folder(server_client, 3), new_folder(server_client, 1)
    account = dataclasses.replace(mail_account, folders=(source_folder, target_folder))
    cache = MailCache()
    with ImapSource(account, dovecot.password, qresync=qresync) as source:  # type: ignore[attr-defined]
        first = sync_account(source, cache)
        assert [r.new_uids for r in first] == [(1, 2, 3), (1,)]
        server_client.select_folder(source_folder)  # type: ignore[attr-defined]
        original = server_client.fetch([2], [b"BODY.PEEK[]"])[2][b"BODY[]"]  # type: ignore[attr-defined]
        server_client.move([2], target_folder)  # type: ignore[attr-defined]
        second = sync_account(source, cache)  # the same connection, as watch mode does
    moved_from, moved_to = second
    assert moved_from.removed_uids == (2,) and moved_from.new_uids == ()
    assert moved_from.resync == expected_resync(qresync)
    assert moved_to.new_uids == (2,) and moved_to.removed_uids == ()  # MOVE gives it a new UID there
    assert cache.uids("test", source_folder) == [1, 3]
    assert cache.uids("test", target_folder) == [1, 2]
    ref = cache.find("test", target_folder, 2)
    assert ref is not None and cache.get(ref) == original  # the same bytes, now under the other folder


@MODES
def test_sync_leaves_server_flags_and_messages_alone(qresync: bool, mail_account: Account, dovecot: object,
                                                     server_client: object, user_dirs: Path) -> None:
    folder = new_folder(server_client, 4)
    account = dataclasses.replace(mail_account, folders=(folder,))
    server_client.select_folder(folder)  # type: ignore[attr-defined]
    server_client.add_flags([1], [b"\\Seen"])  # type: ignore[attr-defined]
    server_client.add_flags([3], [b"\\Flagged"])  # type: ignore[attr-defined]
    cache = MailCache()
    with ImapSource(account, dovecot.password, qresync=qresync) as source:  # type: ignore[attr-defined]
        sync_folder(source, cache, folder)
    expunge(server_client, folder, [2])
    # a flag change the QRESYNC EXAMINE reports as an untagged FETCH
    server_client.add_flags([4], [b"\\Answered"])  # type: ignore[attr-defined]
    before = lasting_flags(server_client, folder)
    with ImapSource(account, dovecot.password, qresync=qresync) as source:  # type: ignore[attr-defined]
        again = sync_folder(source, cache, folder)
    assert again.removed_uids == (2,) and again.resync == expected_resync(qresync)
    after = lasting_flags(server_client, folder)
    assert after == before and sorted(after) == [1, 3, 4]  # nothing flagged, unflagged or expunged by us
    assert b"\\Seen" not in after[3] and b"\\Seen" not in after[4] and b"\\Seen" in after[1]


def test_state_without_modseq_compares_uids_once_then_uses_qresync(mail_account: Account, dovecot: object,
                                                                   server_client: object, user_dirs: Path) -> None:
    folder = new_folder(server_client, 3)
    account = dataclasses.replace(mail_account, folders=(folder,))
    cache = MailCache()
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        sync_folder(source, cache, folder)
        state = cache.state("test", folder)
        assert state is not None
        # a cache written before HIGHESTMODSEQ was kept
        cache.set_state("test", folder, dataclasses.replace(state, highestmodseq=0))
        expunge(server_client, folder, [1])
        first = sync_folder(source, cache, folder)
        expunge(server_client, folder, [3])
        second = sync_folder(source, cache, folder)
    assert (first.resync, first.removed_uids) == (RESYNC_UIDS, (1,))
    assert (second.resync, second.removed_uids) == (RESYNC_QRESYNC, (3,))
    assert cache.uids("test", folder) == [2]


def test_vanished_left_out_is_caught_by_the_counts(mail_account: Account, dovecot: object, server_client: object,
                                                   user_dirs: Path) -> None:
    folder = new_folder(server_client, 3)
    account = dataclasses.replace(mail_account, folders=(folder,))
    cache = MailCache()
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        sync_folder(source, cache, folder)
    expunge(server_client, folder, [2])
    # A state claiming the cache already matched the server after that expunge, so QRESYNC reports nothing
    # vanished (as a server that skips VANISHED would): the message counts give it away.
    now = server_client.select_folder(folder, readonly=True)[b"HIGHESTMODSEQ"]  # type: ignore[attr-defined]
    state = cache.state("test", folder)
    assert state is not None and now > state.highestmodseq
    cache.set_state("test", folder, dataclasses.replace(state, highestmodseq=now))
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        result = sync_folder(source, cache, folder)
    assert (result.resync, result.removed_uids) == (RESYNC_UIDS, (2,))
    assert cache.uids("test", folder) == [1, 3]


def test_pending_draft_is_never_removed(mail_account: Account, dovecot: object, server_client: object,
                                        user_dirs: Path) -> None:
    folder = new_folder(server_client, 2)
    account = dataclasses.replace(mail_account, folders=(folder,))
    cache = MailCache()
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        sync_folder(source, cache, folder)
    draft = EmailMessage()
    draft["From"], draft["To"], draft["Subject"] = "alice@example.org", "bob@example.org", "Re: follow 0"
    draft["Message-ID"] = f"<d.{uuid.uuid4().hex}@example.org>"
    draft.set_content("Kept while offline.")
    pending = PendingDrafts()
    kept = pending.keep("test", draft)
    saved = kept.path.read_bytes()
    expunge(server_client, folder, [1, 2])
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        result = sync_folder(source, cache, folder)
    assert result.removed_uids == (1, 2) and cache.uids("test", folder) == []
    assert [d.path for d in pending.waiting("test")] == [kept.path]
    assert kept.path.read_bytes() == saved


def test_idle_reports_an_expunge_as_vanished(mail_account: Account, dovecot: object,
                                             server_client: object) -> None:
    folder = new_folder(server_client, 2)
    account = dataclasses.replace(mail_account, folders=(folder,))
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        assert source.qresync  # so the server reports the expunge as VANISHED (RFC 7162 §3.2.10)
        # The other client opens the folder first and so holds \Recent (RFC 3501 §2.3.2): our session then
        # hears of the expunge only through VANISHED, with no RECENT or EXPUNGE beside it.
        server_client.select_folder(folder)  # type: ignore[attr-defined]
        source.select(folder)
        timer = threading.Timer(0.3, lambda: expunge(server_client, folder, [1]))
        timer.start()
        try:
            assert source.idle_until(threading.Event(), 20) is True
        finally:
            timer.join()


def test_uid_set_parse_and_membership() -> None:
    uids = UidSet.parse(["1:3,7", "12:10", "4"])
    assert uids.ranges == ((1, 4), (7, 7), (10, 12))
    assert [u for u in range(15) if u in uids] == [1, 2, 3, 4, 7, 10, 11, 12]
    huge = UidSet.parse(["5:4000000000"])
    assert 3_999_999_999 in huge and 4 not in huge and 4_000_000_001 not in huge
    assert not UidSet.parse([]) and 1 not in UidSet.parse([])
    assert _vanished_text(b"(EARLIER) 1:3,5") == "1:3,5" and _vanished_text(b"8") == "8"
    for bad in ("1:*", "", "a"):
        with pytest.raises(ValueError):
            UidSet.parse([bad])
