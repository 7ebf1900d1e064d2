"""Raw message bytes -> :class:`Message` (RFC 5322, MIME RFC 2045-2049, RFC 2047/2231 words). Pure.

Parsing never raises: whatever is broken (bad base64, unknown charsets, malformed headers) is kept as
best it can be and named in ``Message.defects``. Text parts are decoded here rather than with
``get_content()``, which raises ``LookupError`` on unknown charsets and mangles mislabelled ones: the
declared charset is tried, then UTF-8, then cp1252 (which never fails with ``errors="replace"``).
"""

from __future__ import annotations

import email
import email.policy
import email.utils
from datetime import datetime
from email.message import EmailMessage
from email.message import Message as MimePart
from typing import Any

from assistant.mail.html import html_to_text
from assistant.records import Attachment, Message

MAX_DEPTH = 20


def decode_text(data: bytes, charset: str | None) -> tuple[str, str | None]:
    """``data`` as text: declared charset, else UTF-8, else cp1252; returns (text, defect or None)."""
    if charset:
        try:
            return data.decode(charset), None
        except (LookupError, UnicodeDecodeError, ValueError):
            pass
    try:
        text = data.decode("utf-8")
        return text, (f"charset {charset!r} could not decode the text; read as UTF-8" if charset
                      and charset.lower().replace("-", "") not in ("usascii", "utf8") else None)
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), f"text is not valid {charset or 'UTF-8'}; read as cp1252"


def _header(msg: MimePart, name: str, defects: list[str]) -> str:
    try:
        value = msg.get(name)
        return "" if value is None else str(value).strip()
    except Exception as exc:  # noqa: BLE001  (the email package raises many types on broken headers)
        defects.append(f"header {name} is malformed ({type(exc).__name__})")
        for key, raw in msg.raw_items():
            if key.lower() == name.lower():
                return str(raw).strip()
        return ""


def _addresses(values: list[str]) -> tuple[str, ...]:
    try:
        pairs = email.utils.getaddresses(values)
    except Exception:  # noqa: BLE001  (malformed lists fall back to the raw text)
        return tuple(values)
    # Not formataddr: it raises on non-ASCII addresses (RFC 6532), which we only display.
    return tuple(f"{name} <{addr}>" if name else addr for name, addr in pairs if name or addr)


def _all_headers(msg: MimePart, name: str, defects: list[str]) -> list[str]:
    value = _header(msg, name, defects)
    return [value] if value else []


def _date(value: str, defects: list[str]) -> datetime | None:
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        defects.append(f"date {value!r} is not an RFC 5322 date")
        return None


def _ids(value: str) -> tuple[str, ...]:
    return tuple(part for part in value.replace(",", " ").split() if part.startswith("<") and part.endswith(">"))


class _Walker:
    """Collects the text, HTML and attachments of a MIME tree."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.html: list[str] = []
        self.attachments: list[Attachment] = []
        self.defects: list[str] = []

    def walk(self, part: MimePart, depth: int = 0) -> None:
        self.defects.extend(type(d).__name__ for d in part.defects)
        if depth > MAX_DEPTH:
            self.defects.append("MIME nesting too deep; the rest was skipped")
            return
        try:
            ctype = part.get_content_type()
            if part.is_multipart() and ctype != "message/rfc822":
                payload = part.get_payload()
                for sub in payload if isinstance(payload, list) else []:
                    if isinstance(sub, MimePart):
                        self.walk(sub, depth + 1)
                return
            self._leaf(part, ctype)
        except Exception as exc:  # noqa: BLE001  (one broken part never stops the others)
            self.defects.append(f"a {type(exc).__name__} while reading a part: {exc}")

    def _leaf(self, part: MimePart, ctype: str) -> None:
        filename = _filename(part, self.defects)
        disposition = part.get_content_disposition()
        if ctype == "message/rfc822":
            inner = part.get_payload()
            first = inner[0] if isinstance(inner, list) and inner else None
            inner_bytes = first.as_bytes() if isinstance(first, MimePart) else b""
            self.attachments.append(Attachment(filename or "message.eml", ctype, len(inner_bytes), inner_bytes))
            return
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        if ctype in ("text/plain", "text/html") and disposition != "attachment" and not filename:
            text, defect = decode_text(data, part.get_content_charset())
            if defect:
                self.defects.append(defect)
            (self.text if ctype == "text/plain" else self.html).append(
                text if ctype == "text/plain" else html_to_text(text))
            return
        self.attachments.append(Attachment(filename or _default_name(ctype), ctype, len(data), data))


def _filename(part: MimePart, defects: list[str]) -> str:
    try:
        name = part.get_filename()
    except Exception as exc:  # noqa: BLE001
        defects.append(f"attachment name is malformed ({type(exc).__name__})")
        return ""
    return str(name).replace("/", "_").replace("\\", "_").strip() if name else ""


def _default_name(ctype: str) -> str:
    import mimetypes

    return "attachment" + (mimetypes.guess_extension(ctype) or ".bin")


def parse_message(raw: bytes) -> Message:
    """Parse ``raw`` (the exact RFC 5322 bytes) into a :class:`Message`; never raises.

    Broken parts are skipped or decoded best-effort and listed in ``defects``.
    """
    defects: list[str] = []
    try:
        msg: Any = email.message_from_bytes(raw, policy=email.policy.default)
    except Exception as exc:  # noqa: BLE001
        msg = EmailMessage()
        defects.append(f"not parseable as email ({type(exc).__name__})")
    walker = _Walker()
    walker.walk(msg)
    sender = _addresses(_all_headers(msg, "From", defects))
    return Message(
        sender=sender[0] if sender else _header(msg, "From", defects),
        to=_addresses(_all_headers(msg, "To", defects)),
        cc=_addresses(_all_headers(msg, "Cc", defects)),
        reply_to=_addresses(_all_headers(msg, "Reply-To", defects)),
        date=_date(_header(msg, "Date", defects), defects),
        subject=_header(msg, "Subject", defects),
        message_id=_header(msg, "Message-ID", defects),
        in_reply_to=_header(msg, "In-Reply-To", defects),
        references=_ids(_header(msg, "References", defects)),
        text="\n".join(walker.text).strip(),
        html_text="\n".join(walker.html).strip(),
        attachments=tuple(walker.attachments),
        defects=tuple(dict.fromkeys(defects + walker.defects)),
        raw=raw,
    )
