"""Saved email: ``.eml`` (one RFC 5322 message) and ``.mbox`` (many), parsed by :mod:`assistant.mail.parse`.

The headers and body are one segment; every attachment (including attached messages and winmail.dat)
goes back through the registry, so its text follows with ``section`` ``"attachment: NAME"``.
"""

from __future__ import annotations

import mailbox
from collections.abc import Iterator
from pathlib import Path

from assistant.documents.base import Extractor, current_limits, nested_segments, register, report
from assistant.errors import InputError
from assistant.mail.attachments import message_document
from assistant.mail.parse import parse_message
from assistant.records import Segment


def message_segments(raw: bytes, source: str, label: str | None = None) -> Iterator[Segment]:
    """Headers and body of one message (section ``LABEL: SUBJECT`` when labelled), then its attachments."""
    message = parse_message(raw)
    head = message_document(message, source).text.replace("\r\n", "\n")
    yield Segment(text=head, section=f"{label}: {message.subject or '(no subject)'}" if label else None)
    limits = current_limits()
    for count, att in enumerate(message.attachments, start=1):
        if count > limits.max_members:
            report(f"refused: more than {limits.max_members} attachments; the rest were not read")
            return
        yield from nested_segments(att.filename, att.data, content_type=att.content_type)


def wide_to_utf8(raw: bytes) -> bytes:
    """A message saved whole as UTF-16 (some Windows tools do) re-encoded as UTF-8, which MIME expects."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    elif raw[:1] == b"\x00" and raw[1:2] != b"\x00":
        encoding = "utf-16-be"
    elif raw[1:2] == b"\x00" and raw[:1] != b"\x00":
        encoding = "utf-16-le"
    else:
        return raw
    try:
        return raw.decode(encoding).encode("utf-8")
    except UnicodeDecodeError:
        return raw


class EmlExtractor(Extractor):
    """One ``.eml`` message (also attached ``message/rfc822`` parts, which arrive as ``.eml``)."""

    suffixes = (".eml",)

    def segments(self, path: Path) -> Iterator[Segment]:
        raw = wide_to_utf8(path.read_bytes())
        if not raw.strip():
            raise InputError(str(path), "empty message")
        yield from message_segments(raw, str(path))


class MboxExtractor(Extractor):
    """Every message of a Unix mbox, in order; ``section`` is ``message N: SUBJECT``."""

    suffixes = (".mbox",)

    def segments(self, path: Path) -> Iterator[Segment]:
        box = mailbox.mbox(str(path), create=False)
        try:
            for number, key in enumerate(box.iterkeys(), start=1):
                yield from message_segments(box.get_bytes(key), f"{path.name} message {number}", f"message {number}")
        finally:
            box.close()


register(EmlExtractor())
register(MboxExtractor())
