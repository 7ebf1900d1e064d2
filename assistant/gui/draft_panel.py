"""Draft reply panel: a reply grounded in the message's attachments, streamed as it is written, each answered
point listed with its sources for review; edited by the person, saved to Drafts (kept locally when offline).
The message is a synced one, or one saved as a file (``.eml``, ``.msg``) whose reply can also be saved as an
``.eml`` file where the person chooses."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from assistant import netguard
from assistant.accounts import Account, get_account, load_accounts
from assistant.errors import AssistantError, ServerUnreachable
from assistant.gui.attachment_pages import AttachmentPages
from assistant.gui.draft_points import SOURCE_ROLE, PointsTree, point_item
from assistant.gui.file_dialogs import save_file_name
from assistant.gui.mail_list import MessageRow
from assistant.gui.passage_view import PassageView
from assistant.gui.tasks import Emit, TaskRunner
from assistant.mail.cache import MailCache
from assistant.mail.connect import connector
from assistant.mail.drafts import build_reply, save_draft
from assistant.mail.pending import PendingDraft, PendingDrafts
from assistant.mail.reply_file import account_for, default_reply_path, replying_as, write_reply
from assistant.records import Message, PointAnswered, Progress, Source, TokenText
from assistant.service import DraftResult, ModelStore, draft_reply
from assistant.text.plural import count_of
from assistant.ttrag.compute.draft import Point


def my_address(account: Account) -> str:
    """The From address of a reply (as ``assistant draft`` writes it)."""
    return account.username if "@" in account.username else f"{account.username}@{account.host}"


@dataclass(frozen=True)
class MailFile:
    """A message saved as a file (``.eml``, ``.msg``) to draft a reply to, opened in the Ask panel."""

    path: str
    message: Message


@dataclass(frozen=True)
class SaveOutcome:
    """Where a draft went: the Drafts folder, or kept on this computer because the server was unreachable."""

    folder: str | None = None
    pending: PendingDraft | None = None
    reason: str = ""


def save_or_keep(account_name: str, original: Message, text: str, pending: PendingDrafts) -> SaveOutcome:
    """APPEND the reply to ``original`` to the account's Drafts; when the server cannot be reached, keep it for
    the next sync. Off the GUI thread."""
    account = get_account(account_name)
    message = build_reply(original, text, me=my_address(account), name=account.display_name)
    try:
        with netguard.purpose("saving a draft"), connector(account)() as source:
            folder, _ = save_draft(source, message)
    except ServerUnreachable as exc:
        return SaveOutcome(pending=pending.keep(account.name, message), reason=exc.reason)
    return SaveOutcome(folder=folder)


class DraftPanel(QWidget):
    """Generate (or stop), review, edit, copy and save a reply to the selected message."""

    saved = Signal(str)  # folder
    kept = Signal(object)  # PendingDraft: the server was unreachable

    def __init__(self, runner: TaskRunner, store: ModelStore, parent: QWidget | None = None,
                 *, pending: PendingDrafts | None = None) -> None:
        super().__init__(parent)
        self.runner, self.store = runner, store
        self.pending = pending or PendingDrafts()
        self.cache: MailCache | None = None  # earlier messages of the conversation are read from it
        self.row: MessageRow | None = None
        self.mail_file: MailFile | None = None  # a saved message instead of a synced one
        self.result: DraftResult | None = None
        self.replied: tuple[Message, str] | None = None  # the message the result replies to, and its id
        self.attachment_pages = AttachmentPages()  # PDF attachments whose cited pages are shown
        self.about = QLabel("Select a message to draft a reply (Ctrl+D).")
        self.about.setWordWrap(True)
        self.instructions = QLineEdit()
        self.instructions.setPlaceholderText("Optional: what the reply should say (e.g. accept, propose Friday)")
        self.instructions.setAccessibleName("Instructions for the reply")
        self.text = QPlainTextEdit()
        self.text.setAccessibleName("Draft reply text")
        self.text.setPlaceholderText("The draft appears here as it is written; edit it before saving.")
        self.points_heading = QLabel("What the email asks, and what the documents say")
        self.points_heading.setWordWrap(True)
        self.points = PointsTree()  # each point listed as soon as it is answered, wrapped at the list's width
        self.points.setAccessibleName("Points answered, with their sources")
        self.points.itemClicked.connect(self._open_source)
        self.points.itemActivated.connect(self._open_source)
        self.passage = PassageView()
        self.generate_button = QPushButton("Generate")
        self.generate_button.setAccessibleName("Generate the draft, or stop while it is written")
        self.generate_button.clicked.connect(self.generate_or_stop)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setAccessibleName("Copy the draft to the clipboard")
        self.copy_button.clicked.connect(self.copy)
        self.save_button = QPushButton("Save to Drafts")
        self.save_button.setAccessibleName("Save the draft to the Drafts folder")
        self.save_button.clicked.connect(self.save)
        self.save_as_button = QPushButton("Save as\u2026")
        self.save_as_button.setAccessibleName("Save the draft as an email file")
        self.save_as_button.setToolTip("Save the reply as an .eml file (with its quoted original) to open in your "
                                       "mail program")
        self.save_as_button.clicked.connect(self.save_as)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Draft status")
        buttons = QHBoxLayout()
        for b in (self.generate_button, self.copy_button, self.save_button, self.save_as_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        # as in the Ask tab: the draft and its points on the left, a clicked source's page or passage on the
        # right at full height; the points keep the left column's width (beside the passage they were cut to
        # "1. What i…")
        points = QWidget()
        column = QVBoxLayout(points)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.points_heading)
        column.addWidget(self.points, 1)
        review = QSplitter(Qt.Orientation.Vertical)
        review.addWidget(self.text)
        review.addWidget(points)
        review.setStretchFactor(0, 3)
        review.setStretchFactor(1, 2)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(review)
        split.addWidget(self.passage)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        self.split = split
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.about)
        layout.addWidget(self.instructions)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        self._update_buttons()

    @property
    def busy(self) -> bool:
        """A draft is being written."""
        return bool(self.runner.running("draft"))

    def set_message(self, row: MessageRow | None) -> None:
        if row is not self.row or self.mail_file is not None:
            for task in self.runner.running("draft"):
                self.runner.cancel(task.id)
            self._clear()
        self.row, self.mail_file = row, None
        self.about.setText(f"Reply to: {row.message.subject or '(no subject)'} \u2014 {row.message.sender}"
                           if row else "Select a message to draft a reply (Ctrl+D).")
        self._update_buttons()

    def set_mail_file(self, mail_file: MailFile | None) -> None:
        """Reply to a message saved as a file (None: the file was closed; a synced message is then selected
        again to reply to it)."""
        if mail_file != self.mail_file:
            for task in self.runner.running("draft"):
                self.runner.cancel(task.id)
            self._clear()
        self.row, self.mail_file = None, mail_file
        if mail_file is None:
            self.about.setText("Select a message, or open a saved one (.eml, .msg), to draft a reply (Ctrl+D).")
        else:
            message = mail_file.message
            self.about.setText(f"Reply to: {message.subject or '(no subject)'} \u2014 {message.sender} "
                               f"(saved message {Path(mail_file.path).name})")
        self._update_buttons()

    def _file_account(self) -> Account | None:
        """The account a reply to the saved message goes to Drafts of (see :func:`account_for`), if any."""
        if self.mail_file is None:
            return None
        try:
            return account_for(self.mail_file.message, list(load_accounts().values()))
        except AssistantError:  # an unreadable accounts file: the reply is saved as a file
            return None

    def _clear(self) -> None:
        self.result, self.replied = None, None
        self.text.clear()
        self.points.clear()
        self.passage.clear()
        self.attachment_pages.clear()
        self.status.clear()

    def _update_buttons(self) -> None:
        has = self.row is not None or self.mail_file is not None
        busy = self.busy
        self.generate_button.setEnabled(has)
        self.generate_button.setText("Stop" if busy else
                                     "Regenerate" if self.text.toPlainText().strip() else "Generate")
        to_drafts = self.row is not None or self._file_account() is not None
        self.save_button.setEnabled(has and to_drafts and not busy)
        self.save_button.setToolTip("" if to_drafts or not has else
                                    "No mail account is set up: save the reply as a file instead (Save as\u2026)")
        self.save_as_button.setVisible(self.mail_file is not None)
        self.save_as_button.setEnabled(not busy)
        self.copy_button.setEnabled(has and not busy)
        self.instructions.setEnabled(not busy)

    def generate_or_stop(self) -> None:
        if self.busy:
            self.stop()
        else:
            self.generate()

    def stop(self) -> None:
        """Cancel the draft being written; what streamed so far stays for the person to keep or discard."""
        for task in self.runner.running("draft"):
            self.runner.cancel(task.id)
        self.status.setText("Cancelled: the draft was not finished and nothing was saved.")
        self._update_buttons()

    def generate(self) -> None:
        row, mail_file = self.row, self.mail_file
        if row is not None:
            message, message_id, signer, cache = row.message, row.ref.id, self._signer(row), self.cache
        elif mail_file is not None:  # a saved message: its own attachments; no account's cache to search
            message, message_id, cache = mail_file.message, mail_file.path, None
            signer = replying_as(message, self._file_account())[1]
        else:
            return
        store, instructions = self.store, self.instructions.text()
        self._clear()
        self.replied = (message, message_id)

        def work(emit: Emit, cancel: threading.Event) -> DraftResult:
            return draft_reply(store, message, message_id, signer=signer, instructions=instructions,
                               emit=emit, cancel=cancel, cache=cache)

        self.status.setText("Finding what the email asks, then answering each point from the attachments\u2026")
        self.runner.start("draft", "Drafting a reply", work, self._generated, on_event=self._event,
                          on_error=self._error)
        self._update_buttons()

    def _signer(self, row: MessageRow) -> str:
        try:
            return get_account(row.ref.account).signer
        except AssistantError:  # a message cached for an account removed since: no name to sign with
            return ""

    def _event(self, event: object) -> None:
        if isinstance(event, Progress) and event.stage == "draft" and event.done == 0:
            self.status.setText("Writing the reply from the answers\u2026")
        elif isinstance(event, PointAnswered):  # listed now, to check while the next points are read
            self.points.addTopLevelItem(point_item(event.n, Point(event.request, event.answer, event.whole)))
            self.points.expandAll()
            self.status.setText(f"{count_of(event.n, 'point')} of {event.total} answered…")
        elif isinstance(event, TokenText):
            cursor = self.text.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(event.text)

    def _generated(self, result: DraftResult) -> None:
        self.result = result
        self.text.setPlainText(result.draft.body)
        self.points.clear()  # the finished draft's points, as listed while they were answered
        for n, point in enumerate(result.draft.points, 1):
            self.points.addTopLevelItem(point_item(n, point))
        self.points.expandAll()
        missing = sum(not p.answer.found for p in result.draft.points)
        parts_of = sum(p.answer.found and not p.whole for p in result.draft.points)
        save = "Save to Drafts" if self.mail_file is None else "save it (Save as\u2026 writes an .eml file)"
        parts = [f"Draft ready: check each point against its source, edit, then {save}. Nothing is sent."]
        if missing:
            parts.append(f"{count_of(missing, 'point')} {'is' if missing == 1 else 'are'} not stated in the documents.")
        if parts_of:
            parts.append(f"{count_of(parts_of, 'point')} {'is' if parts_of == 1 else 'are'} part of a sentence "
                         "(\u26a0): check against the source.")
        if not result.draft.points:
            parts.append("No question in the email could be answered from attachments.")
        parts += [f"Not read: {line}" for line in result.skipped]
        self.status.setText(" ".join(parts))
        self._update_buttons()

    def _open_source(self, item: QTreeWidgetItem) -> None:
        """Show a clicked source beside the points; while the draft is written (a point listed as soon as it is
        answered) its document is not at hand yet: a PDF attachment's page shows all the same."""
        source = item.data(0, SOURCE_ROLE)
        if not isinstance(source, Source) or self.replied is None:
            return
        documents = self.result.documents if self.result is not None else ()
        document = next((d for d in documents if d.source == source.source), None)
        if not self.passage.isVisible():  # the page opens beside the draft, which keeps most of the width
            width = sum(self.split.sizes())
            self.split.setSizes([width * 3 // 5, width - width * 3 // 5])
        # a PDF attachment: its page, the cited sentence highlighted (as the Ask tab)
        self.passage.show_source(*self.attachment_pages.shown(*self.replied, source, document))
        self.passage.title.setToolTip(source.source)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text.toPlainText())
        self.status.setText("Copied to the clipboard.")

    def save(self) -> None:
        """Save to the Drafts folder of the message's account (a saved message's: see :func:`account_for`)."""
        text, pending = self.text.toPlainText(), self.pending
        account = self._file_account()
        if self.row is not None:
            name, original = self.row.ref.account, self.row.message
        elif self.mail_file is not None and account is not None:
            name, original = account.name, self.mail_file.message
        else:
            return
        if not text.strip():
            self.status.setText("The draft is empty; generate or type a reply first.")
            return
        self.status.setText("Saving\u2026")
        self.runner.start("save-draft", "Saving the draft",
                          lambda emit, cancel: save_or_keep(name, original, text, pending),
                          self._saved, on_error=self._error)

    def save_as(self) -> None:
        """Ask where to save the reply to the saved message, then write it there as an ``.eml`` file (RFC 5322,
        threaded to the original by In-Reply-To and References)."""
        if self.mail_file is None:
            return
        if not self.text.toPlainText().strip():
            self.status.setText("The draft is empty; generate or type a reply first.")
            return
        start = default_reply_path(Path(self.mail_file.path))
        path = save_file_name(self, "Save the reply", str(start), "Email (*.eml);;All files (*)", ".eml")
        if path:
            self.save_to_file(Path(path))

    def save_to_file(self, path: Path) -> bool:
        """Write the reply to the saved message to ``path``; the outcome is shown below the draft."""
        if self.mail_file is None:
            return False
        original = self.mail_file.message
        account = self._file_account()
        me = replying_as(original, account)[0]
        name = account.display_name if account is not None else ""
        try:
            write_reply(build_reply(original, self.text.toPlainText(), me=me, name=name), path)
        except AssistantError as exc:
            self.status.setText(f"Not saved: {exc}")
            return False
        self.status.setText(f"Saved to {path}; open it in your mail program to review and send it. Nothing is "
                            "sent.")
        return True

    def _saved(self, outcome: SaveOutcome) -> None:
        if outcome.pending is not None:
            self.status.setText(f"The server cannot be reached ({outcome.reason}). The draft is kept on this "
                                "computer and will be saved to Drafts at the next sync.")
            self.kept.emit(outcome.pending)
            return
        folder = outcome.folder or "Drafts"
        self.status.setText(f"Saved to {folder}; review and send it from your mail program.")
        self.saved.emit(folder)

    def _error(self, exc: BaseException) -> None:
        self.status.setText(f"Failed: {exc}")
        self._update_buttons()
