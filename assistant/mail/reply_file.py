"""Replies to a message saved as a file (an ``.eml`` from webmail, an Outlook ``.msg``): who replies, where
the reply goes without an account (an ``.eml`` file beside the original), and which account's Drafts it goes
to when one is set. The reply itself is :func:`assistant.mail.drafts.build_reply`'s, as for synced mail."""

from __future__ import annotations

import email.utils
import re
from collections.abc import Sequence
from email.message import EmailMessage
from pathlib import Path

from assistant.accounts import Account
from assistant.errors import StorageError
from assistant.records import Message

REPLY_SUFFIX = "-reply"


def replying_as(original: Message, account: Account | None = None) -> tuple[str, str]:
    """(address, name to sign with) of the person replying: the account's when one is set, else the first
    address the message was sent to (it was saved by its recipient); ("", "") when it names none."""
    if account is not None:
        me = account.username if "@" in account.username else f"{account.username}@{account.host}"
        return me, account.signer
    for display in (*original.to, *original.cc):
        name, address = email.utils.parseaddr(display)
        if address:
            local = address.split("@", 1)[0]
            return address, name.strip() or " ".join(w.capitalize() for w in re.split(r"[._-]+", local) if w)
    return "", ""


def account_for(original: Message, accounts: Sequence[Account]) -> Account | None:
    """The account whose address the message was sent to, else the only account; None when there is none or
    several and none is addressed (the reply then goes to a file the person chooses)."""
    sent_to = {email.utils.parseaddr(a)[1].lower() for a in (*original.to, *original.cc)}
    for account in accounts:
        if replying_as(original, account)[0].lower() in sent_to:
            return account
    return accounts[0] if len(accounts) == 1 else None


def default_reply_path(original: Path) -> Path:
    """``NAME-reply.eml`` beside ``original`` (``NAME-reply-2.eml`` and on when taken: nothing is overwritten)."""
    candidate = original.with_name(f"{original.stem}{REPLY_SUFFIX}.eml")
    n = 2
    while candidate.exists():
        candidate = original.with_name(f"{original.stem}{REPLY_SUFFIX}-{n}.eml")
        n += 1
    return candidate


def write_reply(draft: EmailMessage, path: Path) -> Path:
    """Write ``draft`` to ``path`` as an RFC 5322 message (CRLF line ends), ready to open in a mail program.

    Raises:
        StorageError: the folder cannot be written.
    """
    try:
        path.write_bytes(draft.as_bytes())
    except OSError as exc:
        raise StorageError(str(path), f"could not write the reply to {path}: {exc.strerror or exc}; choose "
                           "another folder") from exc
    return path
