"""Opening an IMAP connection for an account: the password comes from the keyring, nowhere else."""

from __future__ import annotations

from collections.abc import Callable

from assistant import secrets
from assistant.accounts import Account
from assistant.errors import SecretStoreError
from assistant.mail.imap import ImapSource


def password(account: Account) -> str:
    """The account's password from the OS keyring.

    Raises:
        SecretStoreError: none is stored (the message says how to store one).
    """
    stored = secrets.get_password(account.name)
    if stored is None:
        raise SecretStoreError(f"no password stored for account {account.name}; run "
                               f"`assistant account add {account.name} ...` again")
    return stored


def connector(account: Account) -> Callable[[], ImapSource]:
    """A function opening a new connection for ``account`` (logged in on ``with`` entry)."""
    return lambda: ImapSource(account, password(account))
