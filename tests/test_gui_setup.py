"""The desktop window's setup paths offscreen: first run, settings applied without restart, drag and drop."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator  # noqa: E402
from PySide6.QtCore import QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QWidget  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402

from assistant.config import Settings  # noqa: E402
from assistant.gui.account_dialog import AccountDialog  # noqa: E402
from assistant.gui.first_run import FirstRunDialog  # noqa: E402
from assistant.gui.window import MainWindow, gui_settings  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.service import ModelStore  # noqa: E402


def script(request: GenerationRequest) -> str:
    if request.purpose == "route":
        return '{"route": "question_answering", "target": ""}'
    return "Payment is due within 45 days of the invoice date [1]."


@pytest.fixture
def store(tokenizer: object, embedder: object, encoder: object) -> ModelStore:
    s = ModelStore(Settings())
    s._tokenizer, s._embedder, s._encoder = tokenizer, embedder, encoder
    s._generator = ScriptedGenerator(script)
    return s


def dismiss_next_modal(seen: list[type[QWidget]]) -> None:
    """Reject the next modal dialog that opens (a blocking exec() or a static file dialog), noting its type."""
    def poll() -> None:
        modal = QApplication.activeModalWidget()
        if isinstance(modal, QDialog) and not isinstance(modal, FirstRunDialog):
            seen.append(type(modal))
            modal.reject()
        else:
            QTimer.singleShot(20, poll)

    QTimer.singleShot(20, poll)


def new_window(qtbot: QtBot, store: ModelStore) -> MainWindow:
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    return window


@pytest.mark.parametrize(("button", "opens"), [("account_button", AccountDialog), ("file_button", QFileDialog)])
def test_first_run_offers_account_or_file_once(qtbot: QtBot, user_dirs: Path, button: str,
                                               opens: type[QWidget]) -> None:
    store = ModelStore(Settings())  # nothing is loaded: no model is needed here
    window = new_window(qtbot, store)
    dialog = window.first_run()
    assert dialog is not None and dialog.isVisible()
    seen: list[type[QWidget]] = []
    dismiss_next_modal(seen)
    clicked: Callable[[], None] = getattr(dialog, button).click
    clicked()
    qtbot.waitUntil(lambda: seen == [opens], timeout=10000)
    assert gui_settings().value("setup/done", False, type=bool)
    window.close()
    again = new_window(qtbot, store)
    assert again.first_run() is None


def test_first_run_closed_is_not_shown_again_and_not_with_an_account(qtbot: QtBot, user_dirs: Path,
                                                                     memory_keyring: object) -> None:
    from assistant.accounts import Account, add_account

    store = ModelStore(Settings())
    window = new_window(qtbot, store)
    dialog = window.first_run()
    assert dialog is not None
    dialog.reject()
    assert window.first_run() is None
    fresh = QSettings(str(user_dirs / "other.ini"), QSettings.Format.IniFormat)
    add_account(Account("mail", "imap.example.org", "me"))
    other = MainWindow(store, settings=fresh)
    qtbot.addWidget(other)
    assert other.first_run() is None  # an account exists: nothing to set up
