"""A message and its attachments as documents for the question-answering pipeline.

Supported attachments go through the :mod:`assistant.documents` extractors: each is written to a
private temporary folder that is removed right after extraction (text in its declared charset). Others
are listed with a reason: ``unsupported: TYPE``, the read error, ``encrypted (S/MIME): cannot be read`` /
``encrypted (PGP): cannot be read``, or ``signature`` for a detached signature (not a failure).
"""

from __future__ import annotations

import dataclasses
import mimetypes
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from assistant.documents import PasswordPrompt, extract, supported_suffixes
from assistant.documents.mime.body import split_body
from assistant.documents.mime.parse import readable_data, sealed_reason
from assistant.errors import InputError
from assistant.records import Attachment, Document, Message, Segment

EARLIER_MESSAGES = " (earlier messages)"  # suffix of the document holding the quoted thread


@dataclass(frozen=True)
class SkippedAttachment:
    """An attachment that did not become a document, and why (``unsupported: TYPE``, the read error,
    ``encrypted (...): cannot be read``, or ``signature``)."""

    attachment: Attachment
    reason: str


def message_document(message: Message, source: str) -> Document:
    """The message's headers and body as one document named ``source``."""
    head = [f"From: {message.sender}", f"To: {', '.join(message.to)}"]
    if message.cc:
        head.append(f"Cc: {', '.join(message.cc)}")
    if message.date:
        head.append(f"Date: {message.date.isoformat()}")
    head.append(f"Subject: {message.subject}")
    text = "\n".join(head) + "\n\n" + (message.body or "(no text)")
    return Document(source=source, text=text, segments=(Segment(text),), offsets=(0,))


def evidence_documents(message: Message, source: str) -> list[Document]:
    """The message as evidence for questions and drafts: headers and new text (``source``), then its
    signature (``source (signature)``) and quoted earlier messages (``source (earlier messages)``) as
    documents of their own, so they rank apart from the new text (see :mod:`assistant.documents.mime.body`)."""
    parts = split_body(message.body or "")
    main = message_document(dataclasses.replace(message, shown=parts.text or "(no text)"), source)
    extra = [(f"{source} (signature)", parts.signature), (f"{source}{EARLIER_MESSAGES}", parts.quoted)]
    return [main] + [Document(source=name, text=text, segments=(Segment(text),), offsets=(0,))
                     for name, text in extra if text.strip()]


def _suffix(attachment: Attachment, supported: set[str]) -> str | None:
    suffix = Path(attachment.filename).suffix.lower()
    if suffix in supported:
        return suffix
    guessed = mimetypes.guess_extension(attachment.content_type) or ""
    return guessed if guessed in supported else None


def _named(passwords: PasswordPrompt | None, name: str) -> PasswordPrompt | None:
    """``passwords`` asked about ``name`` instead of the temporary file the attachment is read from."""
    if passwords is None:
        return None
    ask = passwords
    return lambda _temp, wrong: ask(name, wrong)


def attachment_documents(message: Message, source: str, *, passwords: PasswordPrompt | None = None,
                         cancel: threading.Event | None = None) -> tuple[list[Document], list[SkippedAttachment]]:
    """Extract every supported attachment; documents are named ``source/FILENAME``. ``passwords`` is asked
    (as ``source/FILENAME``) for a password-protected attachment.

    Returns:
        The documents, and the attachments skipped with their reasons.

    Raises:
        Cancelled: ``cancel`` was set (checked at every page of an attachment).
    """
    supported = set(supported_suffixes())
    documents: list[Document] = []
    skipped: list[SkippedAttachment] = []
    with tempfile.TemporaryDirectory(prefix="assistant-att-") as tmp:
        for i, att in enumerate(message.attachments):
            sealed = sealed_reason(att)
            if sealed:
                skipped.append(SkippedAttachment(att, sealed))
                continue
            suffix = _suffix(att, supported)
            if suffix is None:
                skipped.append(SkippedAttachment(att, f"unsupported: {att.content_type}"))
                continue
            path = Path(tmp) / f"{i}{suffix}"
            path.write_bytes(readable_data(att))
            try:
                doc = extract(path, passwords=_named(passwords, f"{source}/{att.filename}"), cancel=cancel)
            except InputError as exc:
                skipped.append(SkippedAttachment(att, exc.reason))
                continue
            finally:
                path.unlink(missing_ok=True)
            documents.append(dataclasses.replace(doc, source=f"{source}/{att.filename}"))
    return documents, skipped
