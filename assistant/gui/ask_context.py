"""What the Ask panel asks about: the selected message with its readable attachments, and the open files that are
ticked; one session over them, built in the background, and the line that names and counts each of them."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject

from assistant.documents.mime.attachments import attachment_documents, evidence_documents
from assistant.gui.mail_list import MessageRow
from assistant.gui.open_files import failure_sentence
from assistant.gui.tasks import Emit, Task
from assistant.gui.window_layout import WindowLayout
from assistant.records import Document
from assistant.service import Session

NOTHING_TICKED = "Nothing to ask about: tick an open file or select a message."
NOTHING_OPEN = "No file open: open a file (Ctrl+O) or select a message."


@dataclass(frozen=True)
class MessagePart:
    """A message read for questions: its own documents (headers and text, then its signature and the earlier
    messages it quotes, each a document of its own), its readable attachments, and the attachments not read
    (file name -> reason)."""

    row: MessageRow
    own: tuple[Document, ...]
    attached: tuple[Document, ...]
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def documents(self) -> list[Document]:
        return [*self.own, *self.attached]

    def attachment_names(self) -> list[str]:
        prefix = f"{self.row.ref.id}/"
        return [d.source.removeprefix(prefix) for d in self.attached]


def read_message(row: MessageRow, cancel: threading.Event | None = None) -> MessagePart:
    """The message of ``row`` with its attachments read (documents named ``ACCOUNT:FOLDER:UID/FILENAME``). Runs
    off the GUI thread."""
    own = evidence_documents(row.message, row.ref.id)
    attached, skipped = attachment_documents(row.message, row.ref.id, cancel=cancel)
    return MessagePart(row, tuple(own), tuple(attached), {s.attachment.filename: s.reason for s in skipped})


def listed(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def about_line(message: MessagePart | None, files: Sequence[Document]) -> str:
    """The sentence that says what the questions are about, each part counted and named: ``Asking about the
    message “Quote” with its attachment quote.pdf, and the open file terms.pdf (about 2,300 words).``; with
    files alone ``Asking about terms.pdf and annex.md (about ... words).``. A message's signature and the earlier
    messages it quotes are part of the message, not attachments."""
    names = [Path(d.source).name for d in files]
    if message is None:
        parts = [listed(names)] if names else []
    else:
        head = f"the message \u201c{message.row.message.subject or '(no subject)'}\u201d"
        attached = message.attachment_names()
        if attached:
            head += f" with its attachment {attached[0]}" if len(attached) == 1 else \
                f" with its {len(attached)} attachments {listed(attached)}"
        parts = [head]
        if names:
            parts.append(f"the open file {names[0]}" if len(names) == 1 else
                         f"the {len(names)} open files {listed(names)}")
    documents = [*(message.documents if message is not None else ()), *files]
    words = sum(len(d.text.split()) for d in documents)
    joint = ", and " if message is not None and message.attached and len(parts) > 1 else " and "
    return f"Asking about {joint.join(parts)} (about {words:,} words)."


class AskContext(QObject):
    """Keeps ``ui``'s Ask panel on what is asked about: :attr:`message` (the selected message, read, or None)
    and :attr:`files` (the ticked open files, read). Each change builds one session over them in the
    background (the ``context`` task: a newer change drops an older one's result) and names them in the
    panel's line. Selecting a message keeps the ticked files beside it; opening files leaves the message out
    (:meth:`opened`)."""

    def __init__(self, ui: WindowLayout) -> None:
        super().__init__(ui)
        self.ui = ui
        self.message: MessagePart | None = None
        self.files: list[Document] = []
        # the message being read, how to tell of it, and its task (a tick meanwhile reads it again with the files)
        self._reading: tuple[MessageRow, Callable[[MessagePart], None], Task] | None = None

    def documents(self) -> list[Document]:
        """Every document asked about: the message's, then the ticked files'."""
        return [*(self.message.documents if self.message is not None else ()), *self.files]

    def select_message(self, row: MessageRow, on_read: Callable[[MessagePart], None] = lambda part: None) -> None:
        """Ask about ``row``'s message and its attachments (read in the background; ``on_read`` hears what was
        read) beside the ticked open files; another message than the one asked about starts a new conversation."""
        store, files, panel = self.ui.store, list(self.files), self.ui.ask_panel
        panel.set_session(None, f"Reading the message \u201c{row.message.subject}\u201d\u2026")

        def work(emit: Emit, cancel: threading.Event) -> tuple[MessagePart, Session]:
            part = read_message(row, cancel)
            return part, Session(store, [*part.documents, *files], emit=emit)

        def done(outcome: tuple[MessagePart, Session]) -> None:
            part, session = outcome
            before, self.message, self.files, self._reading = self.message, part, files, None
            on_read(part)
            self.show(session, new_conversation=before is not None and before.row.ref.id != row.ref.id)

        task = self.ui.runner.start("context", "Reading the message", work, done, on_error=self.ui.context_error)
        self._reading = (row, on_read, task)

    def set_files(self, files: list[Document]) -> None:
        """The ticked open files changed (ticked, unticked, removed): a session over the message, if one is asked
        about, and ``files``; the conversation goes on."""
        self.files = list(files)
        reading = self._reading
        if reading is not None and reading[2] in self.ui.runner.running("context"):
            self.select_message(reading[0], reading[1])  # the message still being read: with these files
            return
        documents, store = self.documents(), self.ui.store
        if not documents:
            unticked = self.ui.ask_panel.files.ticked_paths(ticked=False)
            self.ui.ask_panel.set_session(None, NOTHING_TICKED if unticked else NOTHING_OPEN)
            return
        self.ui.ask_panel.set_session(None, "Reading again\u2026")
        self.ui.runner.start("context", "Reading again", lambda emit, cancel: Session(store, documents, emit=emit),
                             self.show, on_error=self.ui.context_error)

    def opened(self, session: Session | None, files: list[Document], failures: dict[str, str]) -> None:
        """Files were opened: the session over the ticked ``files`` (built with them), the message left out;
        ``failures`` are the files just opened that could not be read (path -> reason)."""
        self.message, self.files, self._reading = None, list(files), None
        self.show(session, failures=failures)

    def show(self, session: Session | None, *, failures: dict[str, str] | None = None,
             new_conversation: bool = False) -> None:
        """Put ``session`` in the Ask panel with the line that names what it holds, and what could not be read."""
        lines = []
        if session is not None:
            lines.append(about_line(self.message, self.files))
            ctx = session.context
            self.ui.ask_panel.context_label.setToolTip(f"{len(ctx.chunks)} passages, {ctx.n_tokens:,} tokens")
        if self.message is not None:
            lines += [f"\u2716 {failure_sentence(name, reason)}" for name, reason in self.message.skipped.items()
                      if reason != "signature"]
        lines += [f"\u2716 {failure_sentence(path, reason)}" for path, reason in (failures or {}).items()]
        if session is None:
            lines.append("None of the files could be read.")
        message = self.message.row if self.message is not None else None
        self.ui.ask_panel.set_message(message.message if message else None, message.ref.id if message else "")
        self.ui.ask_panel.set_session(session, "\n".join(lines), new_conversation=new_conversation)
