"""Reply drafts (RFC 5322 §3.6.4 threading) saved to the Drafts folder with ``\\Draft``; never sent.

The assistant never sends, deletes, moves or flags mail: a draft is APPENDed and the user sends it
from their own mail program.
"""

from __future__ import annotations

import email.policy
import email.utils
import re
from email.message import EmailMessage

from assistant.mail.imap import ImapSource
from assistant.records import Message

_RE = re.compile(r"^\s*(re|aw|sv)\s*(\[\d+\])?\s*:\s*", re.IGNORECASE)


def reply_subject(subject: str) -> str:
    """``Re: subject``, without stacking prefixes (``Re: Re:``, ``RE[2]:``, ``AW:`` are kept as one)."""
    return subject.strip() if _RE.match(subject) else f"Re: {subject.strip()}".rstrip()


def _address_of(display: str) -> str:
    return email.utils.parseaddr(display)[1].lower()


def reply_recipients(original: Message, me: str, *, reply_all: bool = False) -> tuple[list[str], list[str]]:
    """(To, Cc) of a reply: Reply-To or From; with ``reply_all`` also the other To and Cc, never ``me``."""
    to = list(original.reply_to or ((original.sender,) if original.sender else ()))
    cc: list[str] = []
    if reply_all:
        seen = {_address_of(a) for a in to} | {me.lower()}
        for addr in (*original.to, *original.cc):
            key = _address_of(addr)
            if key and key not in seen:
                seen.add(key)
                cc.append(addr)
    return to, cc


def quote(original: Message) -> str:
    """The original body quoted with ``> `` under an attribution line."""
    when = original.date.strftime("%a, %d %b %Y %H:%M") if original.date else "an earlier date"
    body = original.body.strip() or "(no text)"
    quoted = "\n".join(f"> {line}" if line else ">" for line in body.splitlines())
    return f"On {when}, {original.sender or 'the sender'} wrote:\n{quoted}"


def draft_text(draft: EmailMessage) -> str:
    """The draft as a person reads it (``assistant draft --print``): its From, To, Cc, Subject and In-Reply-To
    headers, a blank line, then the decoded text. The message itself keeps its transfer encoding (RFC 2045
    quoted-printable for long lines); printing it raw showed "=" at every soft line break."""
    heads = [f"{k}: {draft[k]}" for k in ("From", "To", "Cc", "Subject", "In-Reply-To") if draft[k]]
    body = draft.get_body(("plain",))
    text = body.get_content() if body is not None else draft.get_content()
    return "\n".join(heads) + "\n\n" + text.replace("\r\n", "\n")


def build_reply(original: Message, text: str, *, me: str, name: str = "", reply_all: bool = False) -> EmailMessage:
    """A reply draft to ``original``: ``text`` first, the quoted original below.

    Args:
        original: the message replied to.
        text: the reply's own text.
        me: the user's address (From; left out of reply-all recipients).
        name: the user's name for the From line (``Alice Example <alice@example.org>``, RFC 5322 §3.4);
            '' leaves the bare address.
        reply_all: also address the original To and Cc.

    Returns:
        The draft with In-Reply-To and References (RFC 5322 §3.6.4), ``Re:`` subject, Date, Message-ID.
    """
    draft = EmailMessage(policy=email.policy.SMTP)
    to, cc = reply_recipients(original, me, reply_all=reply_all)
    draft["From"] = email.utils.formataddr((name.strip(), me)) if name.strip() else me
    if to:
        draft["To"] = ", ".join(to)
    if cc:
        draft["Cc"] = ", ".join(cc)
    draft["Subject"] = reply_subject(original.subject)
    draft["Date"] = email.utils.formatdate(localtime=True)
    domain = me.rsplit("@", 1)[-1] if "@" in me else None
    draft["Message-ID"] = email.utils.make_msgid(domain=domain)
    if original.message_id:
        draft["In-Reply-To"] = original.message_id
        refs = [*original.references]
        if not refs and original.in_reply_to:
            refs.append(original.in_reply_to)
        draft["References"] = " ".join([*refs, original.message_id])
    draft.set_content(f"{text.rstrip()}\n\n{quote(original)}\n")
    return draft


def save_draft(source: ImapSource, draft: EmailMessage) -> tuple[str, int | None]:
    """APPEND ``draft`` to the account's Drafts folder with ``\\Draft``; returns (folder, UID or None).

    Raises:
        FolderError: no Drafts folder, or the server refused the message.
    """
    folder = source.drafts_folder()
    return folder, source.append(folder, draft.as_bytes(), flags=("\\Draft",))


