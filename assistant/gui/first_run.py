"""First-run dialog: offered once, when no mail account exists, to add one or open a file instead."""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialog, QLabel, QPushButton, QVBoxLayout, QWidget

from assistant.accounts import load_accounts
from assistant.errors import AssistantError

SETUP_KEY = "setup/done"
Choice = Literal["account", "file", "later"]


def needs_first_run(settings: QSettings) -> bool:
    """True when the app was never set up and no account exists (an unreadable accounts file counts as one)."""
    if settings.value(SETUP_KEY, False, type=bool):
        return False
    try:
        return not load_accounts()
    except AssistantError:
        return False


def mark_set_up(settings: QSettings) -> None:
    """Remember that the first-run dialog was dismissed, whatever was chosen."""
    settings.setValue(SETUP_KEY, True)
    settings.sync()


class FirstRunDialog(QDialog):
    """Two ways to start; :attr:`choice` says which was taken (``later`` when closed)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Welcome")
        self.choice: Choice = "later"
        intro = QLabel("Ask questions about your mail and documents. Everything stays on this computer.\n"
                       "How would you like to start?")
        intro.setWordWrap(True)
        self.account_button = QPushButton("Add a mail account\u2026")
        self.account_button.setToolTip("IMAP server settings; the password goes to the OS keyring")
        self.file_button = QPushButton("Open a file instead\u2026")
        self.file_button.setToolTip("Ask about local documents; you can add an account later (File menu)")
        self.account_button.clicked.connect(lambda: self._choose("account"))
        self.file_button.clicked.connect(lambda: self._choose("file"))
        self.account_button.setDefault(True)
        layout = QVBoxLayout(self)
        for w in (intro, self.account_button, self.file_button):
            layout.addWidget(w)

    def _choose(self, choice: Choice) -> None:
        self.choice = choice
        self.accept()
