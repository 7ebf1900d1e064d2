"""Add-account dialog: server settings to accounts.toml, the password to the OS keyring only; Test connection."""

from __future__ import annotations

import threading

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from assistant import secrets
from assistant.accounts import SECURITY_MODES, Account, add_account
from assistant.errors import AssistantError
from assistant.gui.tasks import Emit, TaskRunner
from assistant.mail.imap import ImapSource


def try_login(account: Account, password: str, emit: Emit, cancel: threading.Event) -> list[str]:
    """Log in and list the folders (runs off the GUI thread; the password is not stored)."""
    with ImapSource(account, password) as source:
        return [f.name for f in source.folders()]


class AccountDialog(QDialog):
    """Collects one IMAP account; on OK the account is saved (or the error is shown and the dialog stays)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add mail account")
        self.account: Account | None = None
        self.runner = TaskRunner(self)
        self.name = QLineEdit("mail")
        self.host = QLineEdit()
        self.user = QLineEdit()
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.security = QComboBox()
        self.security.addItems(list(SECURITY_MODES))
        self.port = QSpinBox()
        self.port.setRange(0, 65535)
        self.port.setSpecialValueText("default")
        self.folders = QLineEdit("INBOX")
        self.ca_file = QLineEdit()
        self.ca_file.setPlaceholderText("system CAs")
        browse = QPushButton("Browse\u2026")
        browse.clicked.connect(self._browse)
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_file)
        ca_row.addWidget(browse)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        form = QFormLayout(self)
        for label, widget in (("Name", self.name), ("Server", self.host), ("User name", self.user),
                              ("Password", self.password), ("Security", self.security), ("Port", self.port),
                              ("Folders (comma separated)", self.folders)):
            widget.setAccessibleName(label)
            form.addRow(label, widget)
        self.ca_file.setAccessibleName("Trusted certificate file")
        form.addRow("Trusted certificate", ca_row)
        form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.test_button = buttons.addButton("Test connection", QDialogButtonBox.ButtonRole.ActionRole)
        self.test_button.setToolTip("Log in with these settings and list the folders; nothing is saved")
        self.test_button.clicked.connect(self.test_connection)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Trusted certificate (PEM)", "", "PEM (*.pem *.crt);;All (*)")
        if path:
            self.ca_file.setText(path)

    def _account(self) -> Account:
        return Account(self.name.text().strip(), self.host.text().strip(), self.user.text().strip(),
                       security=self.security.currentText(),  # type: ignore[arg-type]
                       port=self.port.value(),
                       folders=tuple(f.strip() for f in self.folders.text().split(",") if f.strip()),
                       ca_file=self.ca_file.text().strip() or None)

    def test_connection(self) -> None:
        """Try the settings in the background; the outcome is shown under the form."""
        try:
            account = self._account()
        except AssistantError as exc:
            self._show(str(exc), ok=False)
            return
        password = self.password.text()
        self.test_button.setEnabled(False)
        self._show(f"Connecting to {account.host}\u2026", ok=True)
        self.runner.start("test", "Testing the connection",
                          lambda emit, cancel: try_login(account, password, emit, cancel),
                          self._tested, on_error=lambda exc: self._tested(exc))

    def _tested(self, outcome: list[str] | BaseException) -> None:
        self.test_button.setEnabled(True)
        if isinstance(outcome, BaseException):
            self._show(f"\u2716 {outcome}", ok=False)
        else:
            self._show(f"\u2714 Connected: {len(outcome)} folder(s) ({', '.join(outcome[:5])}).", ok=True)

    def _show(self, text: str, *, ok: bool) -> None:
        self.error.setStyleSheet("color: #1b5e20" if ok else "color: #b00020")
        self.error.setText(text)

    def done(self, result: int) -> None:
        self.runner.cancel_all()
        super().done(result)

    def accept(self) -> None:
        try:
            account = self._account()
            secrets.set_password(account.name, self.password.text())
            add_account(account)
        except AssistantError as exc:
            self.error.setText(str(exc))
            return
        self.account = account
        super().accept()
