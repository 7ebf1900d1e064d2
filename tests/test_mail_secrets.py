"""Keyring access and account settings: passwords only in the keyring, errors translated."""

from __future__ import annotations

import logging
from pathlib import Path

import keyring
import pytest
from keyring.backends.fail import Keyring as FailKeyring
from memkeyring import LockedKeyring, MemoryKeyring

from assistant import secrets
from assistant.accounts import Account, accounts_path, add_account, get_account, load_accounts, remove_account
from assistant.errors import ConfigError, SecretStoreError

PASSWORD = "pw-Zq8!unique-never-print"


def test_set_get_delete_in_our_service(memory_keyring: MemoryKeyring) -> None:
    secrets.set_password("work", PASSWORD)
    assert memory_keyring.store == {("assistant", "work"): PASSWORD}
    assert secrets.get_password("work") == PASSWORD
    assert secrets.delete_password("work") is True
    assert secrets.get_password("work") is None
    assert secrets.delete_password("work") is False


def test_no_keyring_says_what_to_do_and_hides_password() -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(FailKeyring())
    try:
        with pytest.raises(SecretStoreError) as info:
            secrets.set_password("work", PASSWORD)
        assert "keyring" in str(info.value) and "gnome-keyring-daemon" in str(info.value)
        assert PASSWORD not in str(info.value) and PASSWORD not in repr(info.value.__cause__)
        with pytest.raises(SecretStoreError):
            secrets.get_password("work")
    finally:
        keyring.set_keyring(previous)


def test_locked_keyring_is_translated() -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(LockedKeyring())
    try:
        with pytest.raises(SecretStoreError, match="locked"):
            secrets.get_password("work")
        with pytest.raises(SecretStoreError, match="locked"):
            secrets.delete_password("work")
    finally:
        keyring.set_keyring(previous)


def test_account_defaults_and_round_trip(user_dirs: Path, tmp_path: Path) -> None:
    ca = tmp_path / "ca.pem"
    ca.write_text("x")
    add_account(Account("work", "imap.example.org", "me@example.org", ca_file=str(ca)))
    add_account(Account("local", "127.0.0.1", "me", security="plain", port=1143, folders=("INBOX", "Lists")))
    accounts = load_accounts()
    assert list(accounts) == ["work", "local"]
    assert accounts["work"].effective_port == 993 and accounts["work"].folders == ("INBOX",)
    assert accounts["local"] == Account("local", "127.0.0.1", "me", "plain", 1143, ("INBOX", "Lists"))
    assert get_account(None).name == "work"
    remove_account("work")
    assert list(load_accounts()) == ["local"]
    with pytest.raises(ConfigError, match="no account named"):
        remove_account("work")


def test_plain_only_to_loopback() -> None:
    assert Account("a", "::1", "u", security="plain").security == "plain"
    with pytest.raises(ConfigError, match="only allowed to localhost"):
        Account("a", "imap.example.org", "u", security="plain")
    assert Account("a", "h", "u", security="starttls").effective_port == 143


def test_invalid_accounts_file_names_the_problem(user_dirs: Path) -> None:
    path = accounts_path()
    path.parent.mkdir(parents=True)
    path.write_text('[accounts.work]\nhost = "h"\nusername = "u"\npassword = "x"\n')
    with pytest.raises(ConfigError, match="unknown setting.*password"):
        load_accounts()


def test_password_never_in_settings_file_or_log(user_dirs: Path, memory_keyring: MemoryKeyring,
                                                caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    secrets.set_password("work", PASSWORD)
    add_account(Account("work", "imap.example.org", "me"))
    assert PASSWORD not in accounts_path().read_text()
    assert accounts_path().stat().st_mode & 0o077 == 0
    assert PASSWORD not in caplog.text
