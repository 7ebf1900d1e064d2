"""Outlook ``.msg`` files with extract-msg, an optional extra: extract-msg is GPL-3.0, so it is never
installed by default (``bash packaging/install.sh --with msg``). Without it, ``.msg`` files are reported with
the command that installs it into this install (:mod:`assistant.documents.extras`)."""

from __future__ import annotations

import email.utils
import logging
import mimetypes
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assistant.documents.base import Extractor, current_limits, nested_segments, register, report
from assistant.documents.extras import missing_extra
from assistant.errors import InputError
from assistant.records import Attachment, Message, Segment


def missing() -> str:
    """Why a ``.msg`` file is not read without extract-msg, and the command that installs it here."""
    return missing_extra("Outlook .msg files", "msg", "extract-msg", "GPL-3.0")


def _head(message: Any) -> str:
    lines = [f"From: {message.sender or ''}", f"To: {message.to or ''}"]
    if message.cc:
        lines.append(f"Cc: {message.cc}")
    if message.date:
        lines.append(f"Date: {message.date.isoformat() if hasattr(message.date, 'isoformat') else message.date}")
    lines.append(f"Subject: {message.subject or ''}")
    return "\n".join(lines)


def _body(message: Any) -> str:
    body = message.body
    if body and body.strip():
        return str(body)
    html = message.htmlBody
    if html:
        from assistant.documents.mime.html import html_to_text

        return html_to_text(html.decode("utf-8", errors="replace") if isinstance(html, bytes) else str(html))
    return "(no text)"


def _addresses(field: str | None) -> tuple[str, ...]:
    """``"A" <a@x>; b@y`` (Outlook separates recipients with semicolons) as display strings."""
    pairs = email.utils.getaddresses([(field or "").replace(";", ",")])
    return tuple(email.utils.formataddr(p) if p[0] else p[1] for p in pairs if p[1])


def _open(path: Path) -> Any:
    try:
        import extract_msg
    except ImportError as exc:
        raise InputError(str(path), missing()) from exc
    logging.getLogger("extract_msg").setLevel(logging.ERROR)  # it logs every unknown property
    try:
        return extract_msg.openMsg(str(path))
    except Exception as exc:  # noqa: BLE001  (olefile and extract-msg raise many types)
        raise InputError(str(path), f"corrupt or not an Outlook message ({type(exc).__name__}: {exc})") from exc


def msg_message(path: Path) -> Message:
    """The Outlook message in ``path`` as a :class:`Message` (to reply to it): addresses, Message-ID and
    threading headers, text, and the attachments that carry data (embedded messages are left out).

    Raises:
        InputError: extract-msg is not installed, or the file is not an Outlook message.
    """
    message = _open(path)
    try:
        header = message.header
        refs = str(header.get("References", "") if header is not None else "").split()
        attachments = []
        for count, att in enumerate(getattr(message, "attachments", []), start=1):
            if isinstance(att.data, bytes):
                name = att.longFilename or att.getFilename() or f"attachment{count}"
                kind = att.mimetype or mimetypes.guess_type(name)[0] or "application/octet-stream"
                attachments.append(Attachment(name, kind, len(att.data), att.data))
        html = message.htmlBody
        html_text = ""
        if html:
            from assistant.documents.mime.html import html_to_text

            html_text = html_to_text(html.decode("utf-8", errors="replace") if isinstance(html, bytes) else str(html))
        date = message.date if hasattr(message.date, "isoformat") else None
        return Message(sender=str(message.sender or ""), to=_addresses(message.to), cc=_addresses(message.cc),
                       reply_to=_addresses(getattr(message, "replyTo", None)), date=date,
                       subject=str(message.subject or ""), message_id=str(message.messageId or "").strip(),
                       in_reply_to=str(getattr(message, "inReplyTo", "") or "").strip(), references=tuple(refs),
                       text=str(message.body or "").replace("\r\n", "\n"), html_text=html_text,
                       attachments=tuple(attachments), defects=(), raw=path.read_bytes())
    finally:
        message.close()


class MsgExtractor(Extractor):
    """Headers and body, then every attachment through the registry (embedded messages too)."""

    suffixes = (".msg",)
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        message = _open(path)
        try:
            yield Segment(text=_head(message) + "\n\n" + _body(message).replace("\r\n", "\n"))
            limits = current_limits()
            for count, att in enumerate(getattr(message, "attachments", []), start=1):
                if count > limits.max_members:
                    report(f"refused: more than {limits.max_members} attachments; the rest were not read")
                    break
                name = att.longFilename or att.getFilename() or f"attachment{count}"
                data = att.data
                if isinstance(data, bytes):
                    yield from nested_segments(name, data)
                elif data is not None and hasattr(data, "body"):  # an embedded Outlook message
                    yield Segment(text=_head(data) + "\n\n" + _body(data), section=f"attachment: {name}")
                else:
                    report("attachment has no data", name)
        finally:
            message.close()


register(MsgExtractor())
