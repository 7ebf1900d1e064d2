"""The desktop window's setup paths offscreen: first run, settings applied without restart, drag and drop."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator, scripted_store  # noqa: E402
from PySide6.QtCore import QMimeData, QPoint, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtGui import QDragEnterEvent  # noqa: E402
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox, QWidget  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402

from assistant.config import Settings  # noqa: E402
from assistant.gui.account_dialog import AccountDialog  # noqa: E402
from assistant.gui.first_run import FirstRunDialog  # noqa: E402
from assistant.gui.settings_dialog import SettingsDialog  # noqa: E402
from assistant.gui.window import MainWindow, gui_settings  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.records import Answer  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

PAYMENT = json.dumps({"found": True, "passage": 1, "short_answer": "45 days of the invoice date",
                      "answer": "Payment is due within 45 days of the invoice date."})


def script(request: GenerationRequest) -> str:
    if request.purpose == "route":
        return '{"route": "question_answering", "target": ""}'
    return PAYMENT  # the reader's JSON reply


@pytest.fixture
def store(tokenizer: object, embedder: object, encoder: object) -> ModelStore:
    return scripted_store(ScriptedGenerator(script), tokenizer, embedder, encoder)


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


def edit_next_settings(edit: Callable[[SettingsDialog], None]) -> None:
    """When the settings dialog opens (a blocking exec()), apply ``edit`` to it."""
    def poll() -> None:
        modal = QApplication.activeModalWidget()
        if isinstance(modal, SettingsDialog):
            edit(modal)
        else:
            QTimer.singleShot(20, poll)

    QTimer.singleShot(20, poll)


def ask(qtbot: QtBot, window: MainWindow, question: str) -> Answer:
    window.ask_panel.question.setText(question)
    window.ask_action.trigger()
    qtbot.waitUntil(lambda: window.ask_panel.answer is not None or "Could not" in window.ask_panel.meta.text(),
                    timeout=60000)
    assert window.ask_panel.answer is not None, window.ask_panel.meta.text()
    return window.ask_panel.answer


def test_saved_settings_reach_the_next_ask_without_restart(qtbot: QtBot, user_dirs: Path, store: ModelStore,
                                                           tmp_path: Path) -> None:
    generator = store._generator
    assert isinstance(generator, ScriptedGenerator)
    window = new_window(qtbot, store)
    doc = tmp_path / "contract.md"
    doc.write_text("\n\n".join(f"Clause {i}. Warehouse {i} stores {i * 3} crates of tin." for i in range(30)) +
                   "\n\nClause 99. Payment is due within 45 days of the invoice date.")
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    before = ask(qtbot, window, "When is payment due?")
    old_session = window.ask_panel.session
    assert [t["mode"] for t in before.trace if t["stage"] == "conditional"][0] == "fused"  # the default
    assert any(t["stage"] == "route" for t in before.trace)  # the router ran (by its cues: no LLM call)

    def edit(dialog: SettingsDialog) -> None:
        dialog.ce_mode.setCurrentIndex(dialog.ce_mode.findData("off"))
        dialog.router.setChecked(False)
        dialog.cache_mb.setValue(64)
        dialog.accept()

    edit_next_settings(edit)
    window.settings_action.trigger()
    assert window.store is not store and window.store.settings.pipeline.ce_mode == "off"
    assert window.store._generator is generator  # unchanged model settings: nothing reloads
    assert window.cache.max_bytes == 64 * 1024**2
    assert old_session is not None and old_session.store is store  # an ask still holding it keeps its models
    session = window.ask_panel.session
    assert session is not None and session.context is old_session.context  # same chunking: not read again
    generator.requests.clear()
    after = ask(qtbot, window, "When is payment due?")
    assert [t["mode"] for t in after.trace if t["stage"] == "conditional"][0] == "off"
    assert not any(r.purpose == "route" for r in generator.requests)
    assert not any(t["stage"] == "route" for t in after.trace)
    assert 'ce_mode = "off"' in (user_dirs / "config" / "config.toml").read_text()


def confirm_next_message_box() -> None:
    """Press Remove in the next confirmation box (a blocking exec())."""
    def poll() -> None:
        modal = QApplication.activeModalWidget()
        if isinstance(modal, QMessageBox):
            next(b for b in modal.buttons() if b.text() == "Remove").click()
        else:
            QTimer.singleShot(20, poll)

    QTimer.singleShot(20, poll)


def test_clear_mail_cache_from_settings(qtbot: QtBot, user_dirs: Path) -> None:
    from assistant.mail.cache import CachedRef, FolderState, MailCache

    cache = MailCache()
    cache.put(CachedRef("acc", "INBOX", 7, 1), b"From: a@example.org\r\nSubject: Hello\r\n\r\nBody\r\n")
    cache.set_state("acc", "INBOX", FolderState(7, 1))
    window = new_window(qtbot, ModelStore(Settings()))
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 1)

    def edit(dialog: SettingsDialog) -> None:
        assert "In use: 0.0 MiB" in dialog.cache_used.text()
        confirm_next_message_box()  # clearing asks first
        dialog.clear_button.click()
        dialog.reject()

    edit_next_settings(edit)
    window.settings_action.trigger()
    assert window.cache.size() == 0
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 0)


def drag_enter(mime: QMimeData) -> QDragEnterEvent:
    # PySide6 marks QDragEnterEvent's only constructor (QPoint, Qt 6 has no QPointF one) as deprecated.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return QDragEnterEvent(QPoint(50, 50), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                               Qt.KeyboardModifier.NoModifier)


def test_dropping_files_on_the_window_opens_them(qtbot: QtBot, user_dirs: Path, store: ModelStore,
                                                 tmp_path: Path) -> None:
    from PySide6.QtCore import QPointF, QUrl
    from PySide6.QtGui import QDropEvent

    window = new_window(qtbot, store)
    doc = tmp_path / "notes.txt"
    doc.write_text("The meeting moved to Thursday at ten.")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(doc)), QUrl("https://example.org/page.html")])
    action, no_button, no_key = Qt.DropAction.CopyAction, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier
    enter = drag_enter(mime)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(50, 50), action, mime, no_button, no_key)
    QApplication.sendEvent(window, drop)
    assert drop.isAccepted()
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    session = window.ask_panel.session
    assert [Path(d.source).name for d in session.context.documents] == ["notes.txt"]
    assert "Asking about notes.txt" in window.ask_panel.context_label.text()

    text_only = QMimeData()
    text_only.setText("not a file")
    ignored = drag_enter(text_only)
    ignored.ignore()
    QApplication.sendEvent(window, ignored)
    assert not ignored.isAccepted()


def test_test_connection_reports_an_unreachable_server(qtbot: QtBot, user_dirs: Path) -> None:
    from dovecot import free_port

    dialog = AccountDialog()
    qtbot.addWidget(dialog)
    dialog.host.setText("127.0.0.1")
    dialog.user.setText("me")
    dialog.port.setValue(free_port())
    dialog.test_button.click()
    qtbot.waitUntil(lambda: dialog.error.text().startswith("\u2716"), timeout=30000)
    assert "127.0.0.1" in dialog.error.text() and dialog.test_button.isEnabled()
    assert not (user_dirs / "config" / "accounts.toml").exists()  # testing saves nothing


def test_test_connection_lists_the_folders(qtbot: QtBot, user_dirs: Path, dovecot: object) -> None:
    dialog = AccountDialog()
    qtbot.addWidget(dialog)
    dialog.host.setText("127.0.0.1")
    dialog.user.setText(dovecot.user)  # type: ignore[attr-defined]
    dialog.password.setText(dovecot.password)  # type: ignore[attr-defined]
    dialog.port.setValue(dovecot.imaps_port)  # type: ignore[attr-defined]
    dialog.ca_file.setText(str(dovecot.cert))  # type: ignore[attr-defined]
    dialog.test_button.click()
    qtbot.waitUntil(lambda: dialog.error.text().startswith("\u2714"), timeout=30000)
    assert "INBOX" in dialog.error.text()
