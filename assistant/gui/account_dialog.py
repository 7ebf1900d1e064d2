"""Add-account dialog: server settings to accounts.toml, the password to the OS keyring only."""

from __future__ import annotations

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


class AccountDialog(QDialog):
    """Collects one IMAP account; on OK the account is saved (or the error is shown and the dialog stays)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add mail account")
        self.account: Account | None = None
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
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Trusted certificate (PEM)", "", "PEM (*.pem *.crt);;All (*)")
        if path:
            self.ca_file.setText(path)

    def accept(self) -> None:
        try:
            account = Account(self.name.text().strip(), self.host.text().strip(), self.user.text().strip(),
                              security=self.security.currentText(),  # type: ignore[arg-type]
                              port=self.port.value(),
                              folders=tuple(f.strip() for f in self.folders.text().split(",") if f.strip()),
                              ca_file=self.ca_file.text().strip() or None)
            secrets.set_password(account.name, self.password.text())
            add_account(account)
        except AssistantError as exc:
            self.error.setText(str(exc))
            return
        self.account = account
        super().accept()
