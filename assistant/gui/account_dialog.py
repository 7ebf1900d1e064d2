"""Add-account dialog, address first: "Find settings" fills the server fields (editable), then a password
or "Sign in with Google/Microsoft" (OAuth 2.0 in the system browser). Settings go to accounts.toml; the
password or refresh token to the OS keyring only; Test connection tries them without saving. The account
name is checked as it is typed, the user name follows the address until it is edited, and the person's own
name goes into the From line and the signature of drafted replies."""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from assistant import netguard, secrets
from assistant.accounts import SECURITY_MODES, Account, add_account, name_problem
from assistant.errors import AssistantError, ConfigError
from assistant.gui.labels import WrappedLabel
from assistant.gui.tasks import Emit, TaskRunner
from assistant.mail import oauth
from assistant.mail.autoconfig import ServerSettings, discover
from assistant.mail.connect import OAuthImapSource
from assistant.mail.imap import ImapSource
from assistant.text.plural import count_of

PASSWORD = ""  # the sign-in choice meaning "a password (or app password)"
#: The security modes in words (the choice shown; the mode itself is the item's data).
SECURITY_WORDS = {"ssl": "SSL/TLS (port 993, recommended)", "starttls": "STARTTLS (port 143)",
                  "plain": "None \u2014 unencrypted, this computer only"}
ERROR_COLOUR, OK_COLOUR = "#b00020", "#1b5e20"


def try_login(account: Account, password: str, emit: Emit, cancel: threading.Event) -> list[str]:
    """Log in and list the folders, INBOX first (runs off the GUI thread; the password is not stored)."""
    source = OAuthImapSource(account) if account.auth == "oauth2" else ImapSource(account, password)
    with netguard.purpose("testing the account"), source:
        names = [f.name for f in source.folders()]
    return sorted(names, key=lambda n: (n.upper() != "INBOX", n.lower()))


class AccountDialog(QDialog):
    """Collects one IMAP account; on OK the account is saved (or the error is shown and the dialog stays).

    Args:
        parent: the owning window.
        find: finds settings from an address (default :func:`assistant.mail.autoconfig.discover`; runs in
            the background).
        open_browser: opens the sign-in page (default: the system browser).
    """

    def __init__(self, parent: QWidget | None = None, *, find: Callable[[str], ServerSettings] = discover,
                 open_browser: Callable[[str], object] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add mail account")
        self.account: Account | None = None
        self.found: ServerSettings | None = None
        self.signed_in_as: str | None = None  # the account name the refresh token was stored under
        self._find = find
        self._open_browser = open_browser
        self.runner = TaskRunner(self)
        self.address = QLineEdit()
        self.address.setPlaceholderText("you@example.org")
        self.find_button = QPushButton("Find settings")
        self.find_button.setToolTip("Look up the server from the address (provider list, the domain's "
                                    "autoconfig document, DNS); you can change what is found")
        self.find_button.clicked.connect(self.find_settings)
        self.address.returnPressed.connect(self.find_settings)
        address_row = QHBoxLayout()
        address_row.addWidget(self.address)
        address_row.addWidget(self.find_button)
        self.display_name = QLineEdit()
        self.display_name.setPlaceholderText("e.g. Alice Example")
        self.display_name.setToolTip("Your name as your replies show it: in their From line "
                                     "(\u201cAlice Example <alice@example.org>\u201d) and under them")
        self.name = QLineEdit("mail")
        self.name.setToolTip("A short name for this account on this computer (e.g. work); it is part of each "
                             "message's ID, so it has no spaces")
        self.name.textChanged.connect(self._check_name)
        self.name_note = WrappedLabel()
        self.name_note.setStyleSheet(f"color: {ERROR_COLOUR}")
        self.name_note.setAccessibleName("Account name problem")
        self.host = QLineEdit()
        self.user = QLineEdit()
        self.user.setPlaceholderText("usually the e-mail address")
        self._user_edited = False  # until the person types a user name, it follows the address
        self.user.textEdited.connect(self._user_typed)
        self.address.textChanged.connect(self._address_changed)
        self.sign_in_with = QComboBox()
        self.sign_in_with.addItem("Password (or app password)", PASSWORD)
        for key in oauth.PROVIDERS:
            self.sign_in_with.addItem(f"Sign in with {oauth.PROVIDERS[key].title}", key)
        self.sign_in_with.currentIndexChanged.connect(self._auth_changed)
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.client_id = QLineEdit()
        self.client_id.setPlaceholderText("the OAuth client id you registered (see docs/mail.md)")
        self.client_secret = QLineEdit()
        self.client_secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.client_secret.setPlaceholderText("Google desktop clients only")
        self.sign_in_button = QPushButton("Sign in")
        self.sign_in_button.clicked.connect(self.sign_in)
        self.security = QComboBox()
        for mode in SECURITY_MODES:
            self.security.addItem(SECURITY_WORDS[mode], mode)
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
        self.note = WrappedLabel()
        self.error = WrappedLabel()  # as tall as its message: a long error is never cut
        self.error.setStyleSheet(f"color: {ERROR_COLOUR}")
        self.error.setAccessibleName("Outcome")
        form = QFormLayout(self)
        self.address.setAccessibleName("E-mail address")
        form.addRow("E-mail address", address_row)
        form.addRow(self.note)
        self.display_name.setAccessibleName("Your name")
        form.addRow("Your name", self.display_name)
        self.name.setAccessibleName("Account name")
        form.addRow("Account name", self.name)
        form.addRow(self.name_note)
        for label, widget in (("Server", self.host), ("User name", self.user),
                              ("Sign-in", self.sign_in_with), ("Password", self.password),
                              ("Client id", self.client_id), ("Client secret", self.client_secret),
                              ("Security", self.security), ("Port", self.port),
                              ("Folders (comma separated)", self.folders)):
            widget.setAccessibleName(label)
            form.addRow(label, widget)
        form.addRow(self.sign_in_button)
        self.ca_file.setAccessibleName("Trusted certificate file")
        form.addRow("Trusted certificate", ca_row)
        form.addRow(self.error)
        self._form = form
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.test_button = buttons.addButton("Test connection", QDialogButtonBox.ButtonRole.ActionRole)
        self.test_button.setToolTip("Log in with these settings and list the folders; nothing is saved")
        self.test_button.clicked.connect(self.test_connection)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        form.setRowVisible(self.note, False)  # no empty line under the address until a note comes
        self._auth_changed()
        self._check_name()

    @property
    def provider_key(self) -> str:
        """The chosen sign-in: '' for a password, else an OAuth provider key."""
        return str(self.sign_in_with.currentData())

    def _auth_changed(self) -> None:
        key = self.provider_key
        for widget, shown in ((self.password, not key), (self.client_id, bool(key)),
                              (self.client_secret, key == "google"), (self.sign_in_button, bool(key))):
            self._form.setRowVisible(widget, shown)
        if key:
            self.sign_in_button.setText(f"Sign in with {oauth.provider(key).title}\u2026")
            self.sign_in_button.setAccessibleName(self.sign_in_button.text())

    def _check_name(self) -> None:
        """The account name as typed: what is wrong with it right under it, and OK and Test connection off until
        it is fixed (it was refused only at Test connection before)."""
        problem = name_problem(self.name.text().strip())
        self.name_note.setText(f"\u2716 {problem[:1].upper()}{problem[1:]}." if problem else "")
        self._form.setRowVisible(self.name_note, bool(problem))
        self.ok_button.setEnabled(not problem)
        self.test_button.setEnabled(not problem and not self.runner.running("test"))

    def _user_typed(self, text: str) -> None:
        self._user_edited = bool(text)  # emptied: it follows the address again

    def _address_changed(self, text: str) -> None:
        if not self._user_edited:
            self.user.setText(text.strip())

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Trusted certificate (PEM)", "", "PEM (*.pem *.crt);;All (*)")
        if path:
            self.ca_file.setText(path)

    def find_settings(self) -> None:
        """Look up the server for the typed address in the background; the fields are filled when it ends."""
        address = self.address.text().strip()
        if not address:
            self._show("Type your e-mail address first.", ok=False)
            return
        self.find_button.setEnabled(False)
        self._show(f"Looking up the mail server for {address}\u2026", ok=True)
        self.runner.start("find", "Finding the mail server", lambda emit, cancel: self._find(address),
                          self._found, on_error=self._found)

    def _found(self, outcome: ServerSettings | BaseException) -> None:
        self.find_button.setEnabled(True)
        if isinstance(outcome, BaseException):
            self._show(f"\u2716 {outcome}", ok=False)
            return
        self.found = outcome
        self.host.setText(outcome.host)
        if not self._user_edited:
            self.user.setText(outcome.username)
        self.security.setCurrentIndex(max(0, self.security.findData(outcome.security)))
        self.port.setValue(outcome.port)
        self.sign_in_with.setCurrentIndex(max(0, self.sign_in_with.findData(outcome.oauth_provider or PASSWORD)))
        self.note.setText(outcome.note + ("." if outcome.note else ""))
        self._form.setRowVisible(self.note, bool(outcome.note))
        words = SECURITY_WORDS[outcome.security].split(" (")[0]
        self._show(f"\u2714 Found {outcome.host}:{outcome.port} ({words}) \u2014 {outcome.how}. "
                   "Check the fields and change them if needed.", ok=True)

    def _account(self) -> Account:
        key = self.provider_key
        if key and not self.client_id.text().strip():
            raise ConfigError(f"Sign in with {oauth.provider(key).title} needs a Client id: the one you or your "
                              "organisation registered (see docs/mail.md)")
        return Account(self.name.text().strip(), self.host.text().strip(), self.user.text().strip(),
                       security=self.security.currentData(),
                       port=self.port.value(),
                       folders=tuple(f.strip() for f in self.folders.text().split(",") if f.strip()),
                       ca_file=self.ca_file.text().strip() or None,
                       display_name=self.display_name.text().strip(),
                       auth="oauth2" if key else "password", oauth_provider=key,
                       oauth_client_id=self.client_id.text().strip() if key else "")

    def sign_in(self) -> None:
        """Open the provider's sign-in page in the browser and wait (in the background) for it to come back."""
        try:
            account = self._account()
        except AssistantError as exc:
            self._show(str(exc), ok=False)
            return
        prov = oauth.provider(account.oauth_provider)
        secret = self.client_secret.text().strip() or None
        browser = self._open_browser
        self.sign_in_button.setEnabled(False)
        self._show(f"Finish signing in to {prov.title} in your browser\u2026", ok=True)

        def work(emit: Emit, cancel: threading.Event) -> str:
            kwargs = {"open_browser": browser} if browser is not None else {}
            oauth.sign_in(account.name, prov, account.oauth_client_id, client_secret=secret,
                          login_hint=account.username, cancel=cancel, **kwargs)  # type: ignore[arg-type]
            return account.name

        self.runner.start("sign-in", f"Signing in to {prov.title}", work, self._signed_in, on_error=self._signed_in)

    def _signed_in(self, outcome: str | BaseException) -> None:
        self.sign_in_button.setEnabled(True)
        if isinstance(outcome, BaseException):
            self._show(f"\u2716 {outcome}", ok=False)
            return
        self.signed_in_as = outcome
        self._show(f"\u2714 Signed in as {self.user.text().strip()}.", ok=True)

    def test_connection(self) -> None:
        """Try the settings in the background; the outcome is shown under the form."""
        try:
            account = self._account()
            self._carry_sign_in(account)
        except AssistantError as exc:
            self._show(str(exc), ok=False)
            return
        password = self.password.text()
        self.test_button.setEnabled(False)
        self._show(f"Connecting to {account.host}\u2026", ok=True)
        self.runner.start("test", "Testing the connection",
                          lambda emit, cancel: try_login(account, password, emit, cancel),
                          self._tested, on_error=lambda exc: self._tested(exc))

    def _carry_sign_in(self, account: Account) -> None:
        """OAuth: the refresh token was stored under the name at sign-in; follow a renamed account."""
        if account.auth != "oauth2":
            return
        if self.signed_in_as is None:
            raise ConfigError(f"press \"Sign in with {oauth.provider(account.oauth_provider).title}\" first")
        if self.signed_in_as != account.name:
            token = secrets.get_refresh_token(self.signed_in_as)
            if token is None:
                raise ConfigError("the sign-in was lost; sign in again")
            secrets.set_refresh_token(account.name, token)
            secrets.delete_refresh_token(self.signed_in_as)
            oauth.forget_access_token(self.signed_in_as)
            self.signed_in_as = account.name

    def _tested(self, outcome: list[str] | BaseException) -> None:
        self.test_button.setEnabled(not name_problem(self.name.text().strip()))
        if isinstance(outcome, BaseException):
            self._show(f"\u2716 {outcome}", ok=False)
        else:
            self._show(f"\u2714 Connected: {count_of(len(outcome), 'folder')} ({', '.join(outcome[:5])}).", ok=True)

    def _show(self, text: str, *, ok: bool) -> None:
        self.error.setStyleSheet(f"color: {OK_COLOUR if ok else ERROR_COLOUR}")
        self.error.setText(text)

    def done(self, result: int) -> None:
        self.runner.cancel_all()
        super().done(result)

    def accept(self) -> None:
        try:
            account = self._account()
            if account.auth == "oauth2":
                self._carry_sign_in(account)
            else:
                secrets.set_password(account.name, self.password.text())
            add_account(account)
        except AssistantError as exc:
            self._show(str(exc), ok=False)
            return
        self.account = account
        super().accept()
