"""Which cached messages the "what needs my reply" list reads, and which it skips by their headers alone.

Recent means fetched by the latest sync or dated within the last days (the cache keeps no ``\\Seen`` flag,
so "unread" is not known here). Mail sent to many at once (a mailing list, a newsletter) and mail a program
sent (a delivery report, a notification from a no-reply address) declare it in their headers: RFC 2369
``List-*`` fields, RFC 2919 ``List-Id``, ``Precedence: bulk``, RFC 3834 ``Auto-Submitted``, a
``multipart/report`` body (RFC 6522) or a no-reply sender. :func:`bulk_reason` names the first such sign.
"""

from __future__ import annotations

import email.parser
import email.policy
import email.utils
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from assistant.documents.mime.parse import parse_message
from assistant.mail.cache import CachedRef, FolderState, MailCache
from assistant.records import Message

DEFAULT_DAYS = 7
DEFAULT_LIMIT = 50
_LIST_HEADERS = ("List-Id", "List-Unsubscribe", "List-Post", "List-Help")
_BULK_PRECEDENCE = {"bulk", "list", "junk"}
_MACHINE_SENDER = re.compile(r"^(no-?reply|do-?not-?reply|noreply|mailer-daemon|postmaster|notifications?|"
                             r"bounces?|news-?alerts?(-no-?reply)?|[\w.-]*-noreply)$", re.I)


@dataclass(frozen=True)
class CachedMessage:
    """A cached message, parsed: where it is (``ref.id`` is ``ACCOUNT:FOLDER:UID``) and whether the latest
    sync brought it."""

    ref: CachedRef
    message: Message
    new: bool


def bulk_reason(raw: bytes) -> str:
    """Why the message ``raw`` (its exact bytes) was sent to many or by a program, from its headers alone:
    ``List-Id header``, ``Precedence: bulk``, ``Auto-Submitted: auto-replied``, ``delivery report``,
    ``no-reply sender``; '' when its headers show neither."""
    head = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)
    for name in _LIST_HEADERS:
        if head.get(name) is not None:
            return f"{name} header"
    precedence = str(head.get("Precedence") or "").strip().lower()
    if precedence in _BULK_PRECEDENCE:
        return f"Precedence: {precedence}"
    auto = str(head.get("Auto-Submitted") or "").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    if head.get_content_type() == "multipart/report":
        return "delivery report"
    local = email.utils.parseaddr(str(head.get("From") or ""))[1].rpartition("@")[0]
    if _MACHINE_SENDER.match(local):
        return "no-reply sender"
    return ""


def recent_messages(cache: MailCache, *, account: str | None = None, folder: str | None = None,
                    days: int | None = DEFAULT_DAYS, limit: int = DEFAULT_LIMIT,
                    now: datetime | None = None) -> list[CachedMessage]:
    """The cached messages to look through, newest first: those the latest sync brought and those dated
    within the last ``days`` days (``days`` None: every cached message), at most ``limit`` (0: no limit).

    Args:
        cache: the local mail cache.
        account: only this account (default: all).
        folder: only this folder.
        days: how far back a message's Date may lie; None takes every message.
        limit: at most this many, the newest.
        now: the time ``days`` counts back from (default: now, UTC).
    """
    since = (now or datetime.now(UTC)) - timedelta(days=days) if days is not None else None
    found = [m for m in cached_messages(cache, account, folder)
             if since is None or m.new or (m.message.date is not None and _aware(m.message.date) >= since)]
    found.sort(key=lambda m: (_aware(m.message.date).timestamp() if m.message.date else 0.0, m.ref.uid),
               reverse=True)
    return found[:limit] if limit else found


def cached_messages(cache: MailCache, account: str | None = None,
                    folder: str | None = None) -> Iterator[CachedMessage]:
    """Every cached message (of one account/folder) parsed, with whether the latest sync brought it."""
    states: dict[tuple[str, str], FolderState | None] = {}
    for ref in cache.refs(account):
        if folder is not None and ref.folder != folder:
            continue
        raw = cache.get(ref)
        if raw is None:
            continue
        state = states.setdefault((ref.account, ref.folder), cache.state(ref.account, ref.folder))
        yield CachedMessage(ref, parse_message(raw), bool(state and ref.uid > state.previous_uid))


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
