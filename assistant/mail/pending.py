"""Drafts made while the server cannot be reached: kept on this computer, appended to Drafts once at the next sync.

A pending draft is the exact message bytes in ``data_dir()/pending-drafts/ACCOUNT/NAME.eml`` (0600, in a
0700 folder), written atomically (temporary file, fsync, rename). Delivery is exactly once: before appending,
the Drafts folder is searched for the draft's Message-ID (RFC 5322 §3.6.4; ``SEARCH HEADER``, RFC 3501
§6.4.4), so a draft whose APPEND reached the server but whose local file was not yet removed (a crash, a
dropped connection) is not saved twice.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import quote, unquote

from assistant.config import data_dir
from assistant.errors import ConfigError, FolderError
from assistant.mail.cache import atomic_write, safe_name, storage_error
from assistant.mail.imap import ImapSource

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PendingDraft:
    """One draft waiting for the server: its account, file, Message-ID, subject, recipients and when it was made."""

    account: str
    path: Path
    message_id: str
    subject: str
    to: str
    created: datetime


@dataclass(frozen=True)
class Delivered:
    """A pending draft now in ``folder`` (``uid`` when the server says it; ``already`` when an earlier
    attempt had saved it and only the local copy was left)."""

    draft: PendingDraft
    folder: str
    uid: int | None
    already: bool = False


class PendingDrafts:
    """The drafts kept locally until their account's server can be reached (root: ``data_dir()/pending-drafts``)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or data_dir() / "pending-drafts"

    def _dir(self, account: str) -> Path:
        return self.root / safe_name(account)

    def keep(self, account: str, draft: EmailMessage) -> PendingDraft:
        """Store ``draft`` for ``account`` (it must carry a Message-ID); returns what was kept.

        Raises:
            ConfigError: the draft has no Message-ID (it could not be delivered exactly once).
            StorageError: the data folder is full or read-only.
        """
        message_id = str(draft.get("Message-ID", "")).strip()
        if not message_id:
            raise ConfigError("a draft without a Message-ID cannot be kept for later; this is a bug")
        folder = self._dir(account)
        try:
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
            folder.mkdir(exist_ok=True, mode=0o700)
        except OSError as exc:
            raise storage_error(exc, folder, self.root) from exc
        name = f"{time.strftime('%Y%m%dT%H%M%S')}-{quote(message_id.strip('<>'), safe='')}.eml"
        path = folder / name
        atomic_write(path, draft.as_bytes(), root=self.root)  # never a half-written draft (fsync, rename)
        return self._read(account, path)

    def _read(self, account: str, path: Path) -> PendingDraft:
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        when = email.utils.parsedate_to_datetime(message["Date"]) if message["Date"] else None
        return PendingDraft(account, path, str(message.get("Message-ID", "")).strip(),
                            str(message.get("Subject", "")), str(message.get("To", "")),
                            when or datetime.fromtimestamp(path.stat().st_mtime, tz=UTC))

    def waiting(self, account: str | None = None) -> list[PendingDraft]:
        """The pending drafts (of one account, or all), oldest first."""
        if not self.root.is_dir():
            return []
        folders = [self._dir(account)] if account else sorted(p for p in self.root.iterdir() if p.is_dir())
        drafts = []
        for folder in folders:
            for path in sorted(folder.glob("*.eml")) if folder.is_dir() else []:
                drafts.append(self._read(unquote(folder.name), path))
        return drafts

    def deliver(self, source: ImapSource) -> list[Delivered]:
        """Append the account's pending drafts to its Drafts folder, each exactly once; delivered files go.

        A draft the server refuses stays pending (logged); a lost connection stops delivery and the
        rest stay pending for the next sync.

        Raises:
            ServerUnreachable: the connection was lost (what was delivered before stays delivered).
        """
        drafts = self.waiting(source.account.name)
        if not drafts:
            return []
        folder = source.drafts_folder()
        delivered = []
        for draft in drafts:
            already = bool(source.find_message_id(folder, draft.message_id))
            uid = None
            if not already:
                try:
                    uid = source.append(folder, draft.path.read_bytes(), flags=("\\Draft",))
                except FolderError as exc:
                    log.warning("pending draft %s not saved: %s", draft.subject, exc)
                    continue
            draft.path.unlink(missing_ok=True)
            delivered.append(Delivered(draft, folder, uid, already))
        return delivered
