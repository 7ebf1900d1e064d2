"""Draft reply panel: an editable reply written by the LLM from the selected message; saved to Drafts, never sent."""

from __future__ import annotations

import threading

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from assistant.accounts import Account, get_account
from assistant.gui.mail_list import MessageRow
from assistant.gui.tasks import Emit, TaskRunner
from assistant.mail.compose import draft_text
from assistant.mail.connect import connector
from assistant.mail.drafts import build_reply, save_draft
from assistant.records import Progress
from assistant.service import ModelStore


def my_address(account: Account) -> str:
    """The From address of a reply (as ``assistant draft`` writes it)."""
    return account.username if "@" in account.username else f"{account.username}@{account.host}"


class DraftPanel(QWidget):
    """Generate, edit, copy and save a reply to the selected message."""

    saved = Signal(str)  # folder

    def __init__(self, runner: TaskRunner, store: ModelStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner, self.store = runner, store
        self.row: MessageRow | None = None
        self.about = QLabel("Select a message to draft a reply (Ctrl+D).")
        self.about.setWordWrap(True)
        self.instructions = QLineEdit()
        self.instructions.setPlaceholderText("Optional: what the reply should say (e.g. accept, propose Friday)")
        self.instructions.setAccessibleName("Instructions for the reply")
        self.text = QPlainTextEdit()
        self.text.setAccessibleName("Draft reply text")
        self.text.setPlaceholderText("The draft appears here; edit it before saving.")
        self.generate_button = QPushButton("Generate")
        self.generate_button.setAccessibleName("Generate or regenerate the draft")
        self.generate_button.clicked.connect(self.generate)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setAccessibleName("Copy the draft to the clipboard")
        self.copy_button.clicked.connect(self.copy)
        self.save_button = QPushButton("Save to Drafts")
        self.save_button.setAccessibleName("Save the draft to the Drafts folder")
        self.save_button.clicked.connect(self.save)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Draft status")
        buttons = QHBoxLayout()
        for b in (self.generate_button, self.copy_button, self.save_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.about)
        layout.addWidget(self.instructions)
        layout.addWidget(self.text, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        self._update_buttons()

    def set_message(self, row: MessageRow | None) -> None:
        if row is not self.row:
            for task in self.runner.running("draft"):
                self.runner.cancel(task.id)
            self.text.clear()
            self.status.clear()
        self.row = row
        self.about.setText(f"Reply to: {row.message.subject or '(no subject)'} \u2014 {row.message.sender}"
                           if row else "Select a message to draft a reply (Ctrl+D).")
        self._update_buttons()

    def _update_buttons(self) -> None:
        has = self.row is not None
        self.generate_button.setEnabled(has)
        self.generate_button.setText("Regenerate" if self.text.toPlainText().strip() else "Generate")
        self.save_button.setEnabled(has)
        self.copy_button.setEnabled(has)

    def generate(self) -> None:
        row = self.row
        if row is None:
            return
        store, instructions = self.store, self.instructions.text()

        def work(emit: Emit, cancel: threading.Event) -> str:
            emit(Progress("draft", 0, 1))
            return draft_text(store.generator(), row.message, instructions=instructions)

        self.status.setText("Writing a draft\u2026")
        self.runner.start("draft", "Drafting a reply", work, self._generated, on_error=self._error)

    def _generated(self, text: str) -> None:
        self.text.setPlainText(text)
        self.status.setText("Draft ready: edit it, then Save to Drafts. Nothing is sent.")
        self._update_buttons()

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text.toPlainText())
        self.status.setText("Copied to the clipboard.")

    def save(self) -> None:
        row, text = self.row, self.text.toPlainText()
        if row is None:
            return
        if not text.strip():
            self.status.setText("The draft is empty; generate or type a reply first.")
            return

        def work(emit: Emit, cancel: threading.Event) -> str:
            account = get_account(row.ref.account)
            message = build_reply(row.message, text, me=my_address(account))
            with connector(account)() as source:
                folder, _ = save_draft(source, message)
            return folder

        self.status.setText("Saving\u2026")
        self.runner.start("save-draft", "Saving the draft", work, self._saved, on_error=self._error)

    def _saved(self, folder: str) -> None:
        self.status.setText(f"Saved to {folder}; review and send it from your mail program.")
        self.saved.emit(folder)

    def _error(self, exc: BaseException) -> None:
        self.status.setText(f"Failed: {exc}")
