"""IMAP against a real Dovecot: TLS modes, refused certificate, wrong password, folders, append."""

from __future__ import annotations

import dataclasses
import uuid

import pytest

from assistant.accounts import Account
from assistant.errors import AuthError, FolderError, ServerUnreachable, TlsError
from assistant.mail.imap import ImapSource


def new_folder(client: object) -> str:
    name = f"t-{uuid.uuid4().hex[:8]}"
    client.create_folder(name)  # type: ignore[attr-defined]
    return name


def test_imaps_login_with_trusted_certificate(mail_account: Account, dovecot: object) -> None:
    with ImapSource(mail_account, dovecot.password) as source:  # type: ignore[attr-defined]
        names = {f.name for f in source.folders()}
        assert {"INBOX", "Drafts"} <= names
        assert source.drafts_folder() == "Drafts"
        assert source.has_idle()


def test_starttls_login(mail_account: Account, dovecot: object) -> None:
    account = dataclasses.replace(mail_account, security="starttls", port=dovecot.imap_port)  # type: ignore
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        assert source.select("INBOX").uidvalidity > 0


def test_plain_to_loopback(mail_account: Account, dovecot: object) -> None:
    account = dataclasses.replace(mail_account, security="plain", port=dovecot.imap_port,  # type: ignore
                                  ca_file=None)
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        assert source.select("INBOX").uidvalidity > 0


@pytest.mark.parametrize("security", ["ssl", "starttls"])
def test_untrusted_certificate_is_refused(mail_account: Account, dovecot: object, security: str) -> None:
    port = dovecot.imaps_port if security == "ssl" else dovecot.imap_port  # type: ignore[attr-defined]
    account = dataclasses.replace(mail_account, ca_file=None, security=security, port=port)
    with pytest.raises(TlsError, match="certificate.*refused.*--ca-file"):
        ImapSource(account, dovecot.password).connect()  # type: ignore[attr-defined]


def test_wrong_password(mail_account: Account) -> None:
    secret = "Wrong-Pa55word-xyz"
    with pytest.raises(AuthError, match="wrong user name or password") as info:
        ImapSource(mail_account, secret).connect()
    assert secret not in str(info.value)
    assert secret not in repr(info.value.__cause__)


def test_unreachable_port(mail_account: Account) -> None:
    from dovecot import free_port

    account = dataclasses.replace(mail_account, port=free_port())
    with pytest.raises(ServerUnreachable, match="refused the connection"):
        ImapSource(account, "x").connect()


def test_unresolvable_host() -> None:
    account = Account("nohost", "no-such-host.invalid", "u")
    with pytest.raises(ServerUnreachable, match="cannot be resolved"):
        ImapSource(account, "x").connect()


def test_missing_folder(mail_account: Account, dovecot: object) -> None:
    with ImapSource(mail_account, dovecot.password) as source:  # type: ignore[attr-defined]
        with pytest.raises(FolderError, match="No-Such-Folder"):
            source.select("No-Such-Folder")


def test_uids_from_past_the_end_is_empty(mail_account: Account, dovecot: object, server_client: object) -> None:
    folder = new_folder(server_client)
    for i in range(3):
        server_client.append(folder, f"Subject: m{i}\r\n\r\nbody {i}\r\n".encode())  # type: ignore
    with ImapSource(mail_account, dovecot.password) as source:  # type: ignore[attr-defined]
        source.select(folder)
        assert source.uids_from(1) == [1, 2, 3]
        assert source.uids_from(3) == [3]
        assert source.uids_from(4) == []  # the server answers [3] here
        fetched = list(source.fetch([2]))
        assert fetched[0].raw == b"Subject: m1\r\n\r\nbody 1\r\n"
        assert fetched[0].size == len(fetched[0].raw)
        assert "\\Seen" not in fetched[0].flags
