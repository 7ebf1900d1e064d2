"""The add-account dialog as a person fills it (issue 51, point 8), offscreen: the account name checked as it is
typed, the user name taken from the address until it is edited, security in words, and the person's own name
saved for the From line and signature of drafted replies."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from pytestqt.qtbot import QtBot  # noqa: E402

from assistant.accounts import Account, load_accounts, name_problem  # noqa: E402
from assistant.errors import ConfigError  # noqa: E402
from assistant.gui.account_dialog import AccountDialog  # noqa: E402


def test_the_account_name_is_checked_as_it_is_typed(qtbot: QtBot) -> None:
    dialog = AccountDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.name_note.isVisible() and dialog.ok_button.isEnabled()  # "mail" will do
    qtbot.keyClicks(dialog.name, " test")  # "mail test"
    assert dialog.name_note.isVisible() and "no spaces" in dialog.name_note.text()
    assert '"mail-test" would do' in dialog.name_note.text()
    assert not dialog.ok_button.isEnabled() and not dialog.test_button.isEnabled()  # not only at Test connection
    dialog.name.setText("Local-test")
    assert not dialog.name_note.isVisible() and dialog.ok_button.isEnabled() and dialog.test_button.isEnabled()
    dialog.name.setText("")
    assert "short name" in dialog.name_note.text()


def test_the_name_rule_is_the_same_in_the_dialog_and_the_accounts_file() -> None:
    assert name_problem("work") == "" and name_problem("alice@example.org") == ""
    assert '"local-test" would do' in name_problem("Local test")
    assert "at most 64" in name_problem("x" * 65)
    with pytest.raises(ConfigError, match="no spaces"):
        Account("Local test", "imap.example.org", "me")


def test_the_user_name_follows_the_address_until_it_is_edited(qtbot: QtBot) -> None:
    dialog = AccountDialog()
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.address, "alice@example.org")
    assert dialog.user.text() == "alice@example.org"
    dialog.user.clear()
    qtbot.keyClicks(dialog.user, "alice")  # the person's own user name stays
    dialog.address.setText("alice@example.net")
    assert dialog.user.text() == "alice"
    dialog.user.selectAll()
    qtbot.keyClick(dialog.user, "\b")  # emptied: it follows the address again
    dialog.address.setText("bob@example.org")
    assert dialog.user.text() == "bob@example.org"


def test_security_is_offered_in_words_and_saved_as_its_mode(qtbot: QtBot, user_dirs: Path,
                                                            memory_keyring: object) -> None:
    dialog = AccountDialog()
    qtbot.addWidget(dialog)
    offered = [dialog.security.itemText(i) for i in range(dialog.security.count())]
    assert offered == ["SSL/TLS (port 993, recommended)", "STARTTLS (port 143)",
                       "None \u2014 unencrypted, this computer only"]
    dialog.address.setText("alice@example.org")
    dialog.display_name.setText("Alice Example")
    dialog.host.setText("127.0.0.1")
    dialog.password.setText("pw")
    dialog.security.setCurrentIndex(2)
    dialog.accept()
    assert dialog.account is not None, dialog.error.text()
    saved = load_accounts()["mail"]
    assert (saved.security, saved.username, saved.display_name) == ("plain", "alice@example.org", "Alice Example")
    assert saved.signer == "Alice Example"
