"""Saved email: ``.eml`` (one RFC 5322 message) and ``.mbox`` (many), parsed by :mod:`assistant.documents.mime.parse`.

The headers and body are one segment; every attachment (including attached messages and winmail.dat)
goes back through the registry, so its text follows with ``section`` ``"attachment: NAME"``. Text
attachments arrive in their declared charset; encrypted parts are reported ("encrypted (S/MIME): cannot
be read"), detached signatures skipped; an invitation's section is named after its event
(``"invitation: SUMMARY"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path

from assistant.documents.base import (
    Extractor,
    current_limits,
    nested_segments,
    register,
    report,
    report_progress,
    within,
)
from assistant.documents.limits import ISOLATE_ABOVE_BYTES
from assistant.documents.mime.attachments import message_document
from assistant.documents.mime.parse import NOT_READ, SIGNATURE, parse_message, readable_data, sealed_reason
from assistant.errors import InputError
from assistant.records import Message, Segment

_OWN_SECTIONS = ("invitation: ", "event: ", "task: ", "contact: ")
#: Files that hold one message a person can reply to (a draft is offered for them).
MAIL_FILE_SUFFIXES = (".eml", ".msg")


def is_mail_file(path: str | Path) -> bool:
    """True for a saved message (``.eml``, Outlook ``.msg``): one a reply can be drafted to."""
    return Path(path).suffix.lower() in MAIL_FILE_SUFFIXES


def read_mail_file(path: str | Path) -> Message:
    """The message saved in ``path`` (``.eml`` from webmail or a mail program, Outlook ``.msg``), parsed as
    synced mail is, to reply to it.

    Raises:
        InputError: the file is missing, empty, not a saved message, or a ``.msg`` without extract-msg.
    """
    path = Path(path)
    if not is_mail_file(path):
        raise InputError(str(path), "not a saved message: reply to an .eml or .msg file")
    if path.suffix.lower() == ".msg":
        from assistant.documents.msg import msg_message

        return msg_message(path)
    try:
        raw = wide_to_utf8(path.read_bytes())
    except OSError as exc:
        raise InputError(str(path), f"could not be read ({exc.strerror or exc})") from exc
    if not raw.strip():
        raise InputError(str(path), "empty message")
    return parse_message(raw)


def message_segments(raw: bytes, source: str, label: str | None = None) -> Iterator[Segment]:
    """Headers and body of one message (section ``LABEL: SUBJECT`` when labelled), then its attachments.
    A labelled message (one of an mbox) is named in what is reported from it: ``message 131 (SUBJECT)``."""
    message = parse_message(raw)
    if label is None:
        yield from _message_parts(message, source)
        return
    subject = " ".join(message.subject.split())
    with within(f"{label} ({_short(subject)})" if subject else label):
        yield from _message_parts(message, source, label)


def _short(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[:most - 1].rstrip() + "…"


def _message_parts(message: Message, source: str, label: str | None = None) -> Iterator[Segment]:
    for defect in message.defects:
        if defect.startswith(NOT_READ):
            report(defect[len(NOT_READ):])
    head = message_document(message, source).text.replace("\r\n", "\n")
    yield Segment(text=head, section=f"{label}: {message.subject or '(no subject)'}" if label else None)
    limits = current_limits()
    for count, att in enumerate(message.attachments, start=1):
        if count > limits.max_members:
            report(f"refused: more than {limits.max_members} attachments; the rest were not read")
            return
        sealed = sealed_reason(att)
        if sealed == SIGNATURE:
            continue  # a detached signature says nothing to read
        if sealed:
            report(sealed, att.filename)
            continue
        prefix = f"attachment: {att.filename} / "
        for seg in nested_segments(att.filename, readable_data(att), content_type=att.content_type):
            if seg.section and seg.section.startswith(prefix) and seg.section[len(prefix):].startswith(_OWN_SECTIONS):
                seg = replace(seg, section=seg.section[len(prefix):])
            yield seg


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
    isolate_above = ISOLATE_ABOVE_BYTES

    def segments(self, path: Path) -> Iterator[Segment]:
        raw = wide_to_utf8(path.read_bytes())
        if not raw.strip():
            raise InputError(str(path), "empty message")
        yield from message_segments(raw, str(path))


# A From_ line: "From SENDER DATE", the date as asctime writes it (an optional zone before or after the year).
_FROM_LINE = re.compile(rb"From \S+ +(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? +)?"
                        rb"(?:\d{1,2} +)?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* +(?:\d{1,2} +)?"
                        rb"(?:\d{4} +)?\d{1,2}:\d{2}(?::\d{2})?.*$", re.IGNORECASE)
_ESCAPED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)


def _lines(source: bytes | Iterable[bytes]) -> Iterator[bytes]:
    """Lines (ends kept) split as :meth:`bytes.splitlines` does (LF, CR LF or a lone CR)."""
    if isinstance(source, bytes):
        yield from source.splitlines(keepends=True)
        return
    for chunk in source:  # a binary file yields LF-ended lines; a lone CR still ends a line
        yield from chunk.splitlines(keepends=True) if b"\r" in chunk.rstrip(b"\r\n") else (chunk,)


def mbox_messages(data: bytes | Iterable[bytes]) -> Iterator[bytes]:
    """The messages of an mbox: split only at real From_ lines (at the start or after a blank line, with a
    sender and a date), so a body line starting with "From " stays; ``>From`` escapes are undone (mboxrd).

    ``data`` is the whole mbox, or its lines (an open binary file): then only one message is in memory
    at a time, however large the mbox."""
    current: list[bytes] | None = None
    blank_before = True
    for line in _lines(data):
        if blank_before and line.startswith(b"From ") and _FROM_LINE.match(line.rstrip(b"\r\n")):
            if current is not None:
                yield _unescape(current)
            current = []
        elif current is not None:
            current.append(line)
        elif line.strip():  # text before the first From_ line: a message saved without one
            current = [line]
        blank_before = not line.strip()
    if current is not None:
        yield _unescape(current)


def _unescape(lines: list[bytes]) -> bytes:
    if lines and not lines[-1].strip():  # the blank line that separates it from the next From_ line
        lines = lines[:-1]
    return _ESCAPED_FROM.sub(rb"\1", b"".join(lines))


class MboxExtractor(Extractor):
    """Every message of a Unix mbox, in order; ``section`` is ``message N: SUBJECT``."""

    suffixes = (".mbox",)
    isolate_above = ISOLATE_ABOVE_BYTES

    def segments(self, path: Path) -> Iterator[Segment]:
        total = path.stat().st_size
        with path.open("rb") as f:  # streamed: one message in memory at a time
            for number, raw in enumerate(mbox_messages(f), start=1):
                report_progress(f.tell(), total, "B")  # also where Cancel is checked
                if raw.strip():
                    yield from message_segments(raw, f"{path.name} message {number}", f"message {number}")


register(EmlExtractor())
register(MboxExtractor())
