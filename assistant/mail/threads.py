"""Conversations: messages grouped into threads by References / In-Reply-To (RFC 5322 §3.6.4).

The rule is a simplified form of Jamie Zawinski's threading algorithm (the one RFC 5256 ``THREAD=REFERENCES``
describes): a message's thread is named by its root, found as

1. the first message of its ``References`` chain (oldest first) that is known, followed to that message's own
   root; when none of them is known, the chain's first Message-ID (a message we do not have, JWZ's "empty
   container"), so replies to the same missing message still group;
2. else its ``In-Reply-To`` Message-ID, followed the same way;
3. else, only when the subject starts with ``Re:``, the earliest known message with the same subject (with
   ``Re:``/``Fwd:`` prefixes and ``[list]`` tags removed);
4. else the message itself.

The functions here are pure (headers in, groups out) except :func:`earlier_in_cache`, which reads the local
mail cache, and :func:`earlier_documents`, which extracts the earlier messages' attachments.
"""

from __future__ import annotations

import email.header
import email.parser
import email.policy
import email.utils
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from assistant.records import Document, Message
from assistant.text.subjects import base_subject, is_reply_subject

if TYPE_CHECKING:
    from assistant.mail.cache import CachedRef, MailCache

_MSGID = re.compile(r"<[^<>\s]+>")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_HEADER_END = re.compile(rb"\r?\n\r?\n")
MAX_HEADER_BYTES = 256 * 1024  # headers past this are not read when threading the cache


@dataclass(frozen=True)
class ThreadHeaders:
    """The headers threading needs, for one message known by ``key`` (e.g. its cache id ``ACCOUNT:FOLDER:UID``).

    ``message_id`` and the ids in ``references`` / ``in_reply_to`` keep their angle brackets (``<a@b>``).
    """

    key: str
    message_id: str
    in_reply_to: str
    references: tuple[str, ...]
    subject: str
    date: datetime | None


def message_ids(text: str) -> tuple[str, ...]:
    """The ``<id>`` tokens of a Message-ID, In-Reply-To or References header, in order (comments and
    phrases around them, which RFC 822 allowed in In-Reply-To, are dropped)."""
    return tuple(_MSGID.findall(text or ""))


def headers_of(message: Message, key: str) -> ThreadHeaders:
    """The threading headers of a parsed message."""
    ids = message_ids(message.message_id)
    reply = message_ids(message.in_reply_to)
    return ThreadHeaders(key, ids[0] if ids else "", reply[0] if reply else "",
                         tuple(r for m in message.references for r in message_ids(m)), message.subject,
                         message.date)


def read_headers(raw: bytes, key: str) -> ThreadHeaders:
    """The threading headers of a raw RFC 5322 message, reading only its header block (cheap for large
    messages); never raises."""
    match = _HEADER_END.search(raw, 0, MAX_HEADER_BYTES)
    head = raw[:match.end()] if match else raw[:MAX_HEADER_BYTES]
    try:
        # compat32 leaves headers as text (7 times faster than policy.default here); only the subject is decoded
        msg = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(head)
        get = lambda name: str(msg.get(name, "") or "")  # noqa: E731
        subject, date_text = _decoded(get("Subject")), get("Date")
        mid, irt, refs = get("Message-ID"), get("In-Reply-To"), get("References")
    except Exception:  # noqa: BLE001  (the email package raises many types on broken headers)
        return ThreadHeaders(key, "", "", (), "", None)
    try:
        date = email.utils.parsedate_to_datetime(date_text) if date_text else None
    except (TypeError, ValueError, IndexError):
        date = None
    ids, reply = message_ids(mid), message_ids(irt)
    return ThreadHeaders(key, ids[0] if ids else "", reply[0] if reply else "", message_ids(refs), subject, date)


def _decoded(text: str) -> str:
    """An RFC 2047 encoded header value as text (undecodable parts are kept as they are)."""
    try:
        return str(email.header.make_header(email.header.decode_header(text)))
    except (ValueError, LookupError, UnicodeError):
        return text


def _when(h: ThreadHeaders) -> datetime:
    d = h.date or _EPOCH
    return d if d.tzinfo else d.replace(tzinfo=UTC)


def thread_keys(items: Sequence[ThreadHeaders]) -> dict[str, str]:
    """Each item's thread: ``{item.key: root}``, where ``root`` is a Message-ID (known or not) or, for a
    message without one that starts a thread, its own ``key``. Items with the same root are one conversation.
    """
    by_id: dict[str, ThreadHeaders] = {}
    for h in sorted(items, key=_when):  # the earliest copy of a duplicated Message-ID wins
        if h.message_id:
            by_id.setdefault(h.message_id, h)
    first_by_subject: dict[str, ThreadHeaders] = {}
    for h in sorted(items, key=_when):
        if not is_reply_subject(h.subject):
            first_by_subject.setdefault(base_subject(h.subject), h)
    for h in sorted(items, key=_when):  # a reply whose original is missing: the earliest reply
        first_by_subject.setdefault(base_subject(h.subject), h)
    roots: dict[str, str] = {}

    def root(h: ThreadHeaders, seen: frozenset[str]) -> str:
        if h.key in roots:
            return roots[h.key]
        seen = seen | {h.key}
        parent: ThreadHeaders | None = None
        phantom = ""
        chain = h.references or ((h.in_reply_to,) if h.in_reply_to else ())
        for mid in chain:
            if mid == h.message_id:
                continue
            known = by_id.get(mid)
            if known is not None and known.key not in seen:
                parent = known
                break
            phantom = phantom or mid
        if parent is None and not chain and base_subject(h.subject) and is_reply_subject(h.subject):
            candidate = first_by_subject.get(base_subject(h.subject))
            if candidate is not None and candidate.key not in seen and _when(candidate) <= _when(h):
                parent = candidate
        if parent is not None:
            result = root(parent, seen)
        else:
            result = phantom or h.message_id or h.key
        roots[h.key] = result
        return result

    for h in items:
        root(h, frozenset())
    return roots


@dataclass(frozen=True)
class Thread:
    """One conversation: its root (see :func:`thread_keys`) and its messages' keys, oldest first."""

    root: str
    keys: tuple[str, ...]


def group_threads(items: Sequence[ThreadHeaders]) -> list[Thread]:
    """``items`` grouped into conversations, each oldest message first; the conversations ordered by their
    newest message, newest first (as a mail list shows them)."""
    roots = thread_keys(items)
    groups: dict[str, list[ThreadHeaders]] = {}
    for h in items:
        groups.setdefault(roots[h.key], []).append(h)
    threads = [(max(_when(h) for h in members), Thread(root, tuple(h.key for h in sorted(members, key=_when))))
               for root, members in groups.items()]
    threads.sort(key=lambda t: t[0], reverse=True)
    return [t for _, t in threads]


def earlier_in_thread(target: ThreadHeaders, items: Iterable[ThreadHeaders]) -> list[ThreadHeaders]:
    """The messages of ``items`` in ``target``'s conversation that came before it, oldest first.

    "Before" means named in its References / In-Reply-To, or dated earlier. Copies of one Message-ID (the same
    message in two folders) count once, and ``target`` itself (by key or Message-ID) never.
    """
    others = [h for h in items if h.key != target.key and not (h.message_id and h.message_id == target.message_id)]
    roots = thread_keys([target, *others])
    mine = roots[target.key]
    ancestors = set(target.references) | ({target.in_reply_to} if target.in_reply_to else set())
    found: dict[str, ThreadHeaders] = {}
    for h in sorted(others, key=_when):
        if roots[h.key] != mine:
            continue
        if (h.message_id in ancestors) or (target.date is not None and h.date is not None
                                           and _when(h) < _when(target)):
            found.setdefault(h.message_id or h.key, h)
    return sorted(found.values(), key=_when)


def earlier_in_cache(cache: MailCache, message: Message, message_key: str, *,
                     account: str | None = None) -> list[tuple[CachedRef, Message]]:
    """The earlier messages of ``message``'s conversation found in the local mail cache (every folder of
    ``account``, e.g. INBOX and Sent), parsed, oldest first.

    Only the header blocks of the cached messages are read to find them; the matches are then parsed whole.
    """
    from assistant.documents.mime.parse import parse_message

    refs = {}
    headers = []
    for ref in cache.refs(account):
        if ref.id == message_key:
            continue
        raw = cache.get(ref)
        if raw is None:
            continue
        refs[ref.id] = ref
        headers.append(read_headers(raw, ref.id))
    result = []
    for h in earlier_in_thread(headers_of(message, message_key), headers):
        raw = cache.get(refs[h.key])
        if raw is not None:
            result.append((refs[h.key], parse_message(raw)))
    return result


def when_text(message: Message) -> str:
    """The message's date as ``YYYY-MM-DD HH:MM`` (its own time zone), or ``undated``."""
    return message.date.strftime("%Y-%m-%d %H:%M") if message.date else "undated"


def earlier_documents(messages: Sequence[Message]) -> tuple[list[Document], list[str]]:
    """The earlier messages of a conversation as documents of their own: each message's new text (its quoted
    history left out: the later message quotes it already) named ``earlier message: SUBJECT (DATE)``, and
    each readable attachment named ``FILENAME (from DATE message)``.

    Returns:
        The documents, and ``FILENAME (from DATE message): reason`` for each attachment that was not read.
    """
    from assistant.documents.mime.attachments import attachment_documents, evidence_documents

    documents: list[Document] = []
    skipped: list[str] = []
    for m in messages:
        when = when_text(m)
        name = f"earlier message: {m.subject or '(no subject)'} ({when})"
        documents.append(evidence_documents(m, name)[0])
        docs, rest = attachment_documents(m, name)
        prefix = name + "/"
        for d in docs:
            filename = d.source[len(prefix):] if d.source.startswith(prefix) else d.source
            documents.append(Document(f"{filename} (from {when} message)", d.text, d.segments, d.offsets,
                                      d.problems))
        skipped.extend(f"{s.attachment.filename} (from {when} message): {s.reason}" for s in rest)
    return documents, skipped
