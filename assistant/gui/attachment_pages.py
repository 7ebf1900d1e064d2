"""PDF attachments of a message (replied to, or asked about), as files whose pages the passage view renders.

A draft's or an answer's sources are passages of the message's attachments (``MESSAGE_ID/FILENAME``), which
live in memory only, so the passage view could show them only as text. To show a cited page as for an opened
PDF, the attachment is written to a private temporary folder (as extraction does) while the draft or the
answer is on screen, and the folder is removed when it is cleared, the message changes, the panel goes, or the
app quits.
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
import weakref
from pathlib import Path

from assistant.records import Document, Message, Source


class AttachmentPages:
    """Temporary files for the PDF attachments whose pages are shown; :meth:`clear` removes them."""

    def __init__(self) -> None:
        self._folder: Path | None = None
        self._remove: weakref.finalize[..., object] | None = None
        self._paths: dict[str, Path] = {}

    def pdf_path(self, message: Message, message_id: str, source: str) -> Path | None:
        """The file holding the PDF attachment of ``message`` named ``source`` (``MESSAGE_ID/FILENAME``, as
        :func:`~assistant.documents.mime.attachments.attachment_documents` names it); None when ``source`` is
        no PDF attachment of it (another document, an earlier message's attachment, a Word file)."""
        if source in self._paths:
            return self._paths[source]
        prefix = f"{message_id}/"
        if not source.startswith(prefix):
            return None
        name = source[len(prefix):]
        attachment = next((a for a in message.attachments if a.filename == name and b"%PDF-" in a.data[:1024]),
                          None)
        if attachment is None:
            return None
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="assistant-page-"))
            self._remove = weakref.finalize(self, shutil.rmtree, str(self._folder), True)  # at the latest on exit
        folder = self._folder / str(len(self._paths))  # two attachments may share a name
        folder.mkdir()
        path = folder / (Path(name).name or "attachment.pdf")
        path.write_bytes(attachment.data)
        self._paths[source] = path
        return path

    def shown(self, message: Message, message_id: str, source: Source,
              document: Document | None) -> tuple[Source, Document | None]:
        """``source`` and its ``document`` as the passage view is to show them: a PDF attachment of ``message``
        named by the file written for it (so its page is rendered, the sentence highlighted); any other as
        given."""
        path = self.pdf_path(message, message_id, source.source)
        if path is None:
            return source, document
        return (dataclasses.replace(source, source=str(path)),
                dataclasses.replace(document, source=str(path)) if document is not None else None)

    def clear(self) -> None:
        """Remove the files written so far."""
        if self._remove is not None:
            self._remove()
        self._folder, self._remove, self._paths = None, None, {}
