"""Faults during mail sync (docs/security.md) against a real Dovecot: after each one the next sync has every message
exactly once, byte-identical to the server's ``BODY.PEEK[]``, with no partial file; the error names the
fault and what to do.

Connection faults go through :class:`faultproxy.FaultProxy` (plain IMAP on loopback, so the proxy sees the
FETCH literals); ``kill -9`` and the file size limit run ``assistant mail sync`` as a child process.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from faultproxy import FaultProxy

from assistant.accounts import Account, add_account
from assistant.errors import ConnectionLost, StorageError
from assistant.mail.cache import MailCache
from assistant.mail.imap import ImapSource
from assistant.mail.pending import PendingDrafts
from assistant.mail.sync import sync_folder

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def message(i: int, size: int) -> bytes:
    """A message of about ``size`` bytes; 8-bit bytes and long lines so a byte-exact copy is checked."""
    line = (f"line {i} caf\u00e9 na\u00efve \u20ac " * 4).encode() + b"\r\n"
    body = line * max(1, size // len(line))
    return (f"From: Bob <bob@example.org>\r\nTo: alice@example.org\r\nSubject: note {i}\r\n"
            f"Message-ID: <f{i}.{uuid.uuid4().hex}@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n"
            "Content-Transfer-Encoding: 8bit\r\n\r\n").encode() + body


def make_folder(client: object, n: int, size: int = 3000, big: dict[int, int] | None = None) -> str:
    folder = f"f-{uuid.uuid4().hex[:8]}"
    client.create_folder(folder)  # type: ignore[attr-defined]
    for i in range(n):
        client.append(folder, message(i, (big or {}).get(i, size)))  # type: ignore[attr-defined]
    return folder


def plain_account(dovecot: object, port: int, folder: str, name: str = "faults") -> Account:
    """A plain-IMAP account (loopback only) through the proxy on ``port``."""
    return Account(name, "127.0.0.1", dovecot.user, port=port, security="plain",  # type: ignore[attr-defined]
                   folders=(folder,))


def assert_complete(cache: MailCache, account: str, folder: str, client: object) -> None:
    """Every server message once, byte-identical; no temporary or stray file anywhere in the cache."""
    client.select_folder(folder, readonly=True)  # type: ignore[attr-defined]
    server = client.fetch(client.search(["ALL"]), [b"BODY.PEEK[]"])  # type: ignore[attr-defined]
    refs = [r for r in cache.refs(account) if r.folder == folder]
    assert [r.uid for r in refs] == sorted(server)
    for ref in refs:
        assert cache.get(ref) == server[ref.uid][b"BODY[]"], f"UID {ref.uid} differs from the server's copy"
    files = [p for p in cache.root.rglob("*") if p.is_file()]
    assert sorted(p.name for p in files if p.suffix == ".eml") == sorted(f"{u}.eml" for u in server)
    assert [p for p in files if p.suffix not in (".eml", ".json")] == []


@pytest.mark.parametrize("fault", ["cut", "truncate", "bye", "stall"])
def test_connection_fault_mid_fetch_then_next_sync_is_complete(fault: str, dovecot: object, server_client: object,
                                                               user_dirs: Path) -> None:
    folder = make_folder(server_client, 12)
    cache = MailCache()
    with FaultProxy(dovecot.imap_port, fault=fault, at_literal=7) as proxy:  # type: ignore[attr-defined]
        account = plain_account(dovecot, proxy.port, folder)
        with pytest.raises(ConnectionLost) as lost:
            with ImapSource(account, dovecot.password, timeout_s=5) as source:  # type: ignore[attr-defined]
                sync_folder(source, cache, folder, batch_size=5)
        assert proxy.fired.is_set()
        text = str(lost.value)
        assert "messages UID 6-10" in text and "run `assistant mail sync` again" in text
        assert {"cut": "dropped", "truncate": "dropped", "stall": "stopped answering for 5 s",
                "bye": "closed the session"}[fault] in text
        assert [r.uid for r in cache.refs("faults")] == [1, 2, 3, 4, 5]  # the first batch is kept
        state = cache.state("faults", folder)
        assert state is not None and state.last_uid == 5
        with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
            again = sync_folder(source, cache, folder, batch_size=5)
    assert again.new_uids == tuple(range(6, 13))
    assert_complete(cache, "faults", folder, server_client)


class FullDiskCache(MailCache):
    """Our cache with a disk that fills up: the ``fail_at``-th write stops half-way with ``error``."""

    def __init__(self, root: Path, fail_at: int, error: int) -> None:
        super().__init__(root)
        self.writes = 0
        self.fail_at = fail_at
        self.error = error

    def _fill(self, f: object, data: bytes) -> None:
        self.writes += 1
        if self.writes == self.fail_at:
            f.write(data[:len(data) // 2])  # type: ignore[attr-defined]
            f.flush()  # type: ignore[attr-defined]
            raise OSError(self.error, os.strerror(self.error))
        super()._fill(f, data)


@pytest.mark.parametrize(("error", "words"), [(errno.ENOSPC, "Disk full: cannot save"),
                                              (errno.EROFS, "is read-only")])
def test_full_or_read_only_disk_is_reported_and_next_sync_completes(error: int, words: str, dovecot: object,
                                                                    server_client: object, user_dirs: Path) -> None:
    folder = make_folder(server_client, 8)
    root = user_dirs / "data" / "mail"
    account = plain_account(dovecot, dovecot.imap_port, folder)  # type: ignore[attr-defined]
    full = FullDiskCache(root, fail_at=6, error=error)  # write 1 is state.json, then messages 1..4, ...
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        with pytest.raises(StorageError) as failed:
            sync_folder(source, full, folder, batch_size=3)
    assert words in str(failed.value) and str(root) in str(failed.value)
    assert "run `assistant mail sync` again" in str(failed.value)
    assert not [p for p in root.rglob("*.tmp")]  # the half-written file is gone
    cache = MailCache(root)
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        sync_folder(source, cache, folder, batch_size=3)
    assert_complete(cache, "faults", folder, server_client)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders; the EROFS case above covers it")
def test_read_only_data_folder_by_permissions(dovecot: object, server_client: object, user_dirs: Path) -> None:
    folder = make_folder(server_client, 3)
    root = user_dirs / "data" / "mail"
    root.mkdir(parents=True)
    root.chmod(0o500)
    account = plain_account(dovecot, dovecot.imap_port, folder)  # type: ignore[attr-defined]
    try:
        with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
            with pytest.raises(StorageError, match="is read-only"):
                sync_folder(source, MailCache(root), folder)
    finally:
        root.chmod(0o700)
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        sync_folder(source, MailCache(root), folder)
    assert_complete(MailCache(root), "faults", folder, server_client)


CHILD = """
import resource, signal, sys
limit = int(sys.argv[1])
if limit:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing us
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
sys.path.insert(0, sys.argv[2])
import keyring, memkeyring
keyring.set_keyring(memkeyring.MemoryKeyring())
from assistant import secrets
secrets.set_password(sys.argv[3], sys.stdin.readline().rstrip("\\n"))
from assistant.cli import main
sys.exit(main(["mail", "sync"]))
"""


def sync_process(account: str, password: str, file_limit: int = 0) -> subprocess.Popen[str]:
    """``assistant mail sync`` in a child process (our in-memory keyring holds the password there)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(file_limit), str(TESTS), account], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None
    proc.stdin.write(password + "\n")
    proc.stdin.close()
    proc.stdin = None  # sent; communicate() must not flush it again
    return proc


def test_kill_9_during_sync_then_next_sync_is_complete(dovecot: object, server_client: object,
                                                       user_dirs: Path) -> None:
    folder = make_folder(server_client, 120, size=20_000)
    cache = MailCache(user_dirs / "data" / "mail")
    # The proxy slows the server's replies so the sync is surely still running when it is killed.
    with FaultProxy(dovecot.imap_port, throttle_s=0.01) as proxy:  # type: ignore[attr-defined]
        account = plain_account(dovecot, proxy.port, folder)
        add_account(account)
        proc = sync_process(account.name, dovecot.password)  # type: ignore[attr-defined]
        try:
            deadline = time.monotonic() + 120
            while len(list(cache.root.rglob("*.eml"))) < 5 and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            assert proc.poll() is None, f"the sync ended before it could be killed: {proc.stderr.read()}"  # type: ignore
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        saved = list(cache.refs(account.name))
        assert 5 <= len(saved) < 120
        server_client.select_folder(folder, readonly=True)  # type: ignore[attr-defined]
        server = server_client.fetch([r.uid for r in saved], [b"BODY.PEEK[]"])  # type: ignore[attr-defined]
        assert all(cache.get(r) == server[r.uid][b"BODY[]"] for r in saved)  # whole files only
        with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
            sync_folder(source, cache, folder)
    assert_complete(cache, account.name, folder, server_client)


def test_file_size_limit_in_a_sync_process_reports_and_recovers(dovecot: object, server_client: object,
                                                                user_dirs: Path) -> None:
    folder = make_folder(server_client, 6, big={3: 300_000})  # UID 4 is larger than the child may write
    account = plain_account(dovecot, dovecot.imap_port, folder, name="limited")  # type: ignore[attr-defined]
    add_account(account)
    proc = sync_process(account.name, dovecot.password, file_limit=100_000)  # type: ignore[attr-defined]
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert "error:" in err and "Disk full:" in err and "4.eml" in err and "Traceback" not in err
    cache = MailCache(user_dirs / "data" / "mail")
    assert not list(cache.root.rglob("*.tmp"))
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        sync_folder(source, cache, folder)
    assert_complete(cache, account.name, folder, server_client)


def test_pending_draft_write_is_atomic_and_reports_a_full_disk(user_dirs: Path) -> None:
    from email.message import EmailMessage

    draft = EmailMessage()
    draft["Message-ID"], draft["Subject"], draft["To"] = "<d1@example.org>", "Re: x", "bob@example.org"
    draft.set_content("Yes.")
    pending = PendingDrafts(user_dirs / "pending")
    kept = pending.keep("a", draft)
    assert kept.path.read_bytes() == draft.as_bytes() and not list(pending.root.rglob("*.tmp"))
    (pending.root / "a").chmod(0o500)
    try:
        if os.geteuid() != 0:
            with pytest.raises(StorageError, match="read-only"):
                pending.keep("a", draft)
    finally:
        (pending.root / "a").chmod(0o700)


def test_stale_temporary_files_are_swept(user_dirs: Path) -> None:
    cache = MailCache(user_dirs / "mail")
    from assistant.mail.cache import CachedRef, FolderState, atomic_write

    cache.set_state("a", "INBOX", FolderState(7, 1))
    cache.put(CachedRef("a", "INBOX", 7, 1), b"whole message")
    stale = cache.root / "a" / "INBOX" / "7" / ".2.eml.x1y2.tmp"
    stale.write_bytes(b"half a mess")
    assert [r.uid for r in cache.refs()] == [1]
    assert cache.sweep("a", "INBOX") == 1 and not stale.exists()
    # a write under way in this process (a gist saved beside its message while a sync of the folder starts)
    swept: list[int] = []

    def fill(f: object, data: bytes) -> None:
        f.write(data)  # type: ignore[attr-defined]
        swept.append(cache.sweep("a", "INBOX"))

    atomic_write(cache.root / "a" / "INBOX" / "7" / "1.gist.json", b"{}", fill=fill)
    assert swept == [0] and (cache.root / "a" / "INBOX" / "7" / "1.gist.json").read_bytes() == b"{}"
    assert dataclasses.asdict(cache.state("a", "INBOX")) == {"uidvalidity": 7, "last_uid": 1,  # type: ignore
                                                             "previous_uid": 0, "highestmodseq": 0}
