"""The app with a message saved from webmail and no account: opening the .eml offers "Draft a reply", drafted
from its attachment, saved as an .eml file where the person chooses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator, scripted_store  # noqa: E402
from PySide6.QtWidgets import QFileDialog, QLineEdit, QWidget  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402
from qtmodal import on_next_modal  # noqa: E402
from test_reply_file import parsed, reply_text, saved_message, script  # noqa: E402

from assistant.gui.window import MainWindow  # noqa: E402
from assistant.service import ModelStore  # noqa: E402


@pytest.fixture
def store(tokenizer: object, embedder: object, encoder: object) -> ModelStore:
    return scripted_store(ScriptedGenerator(script), tokenizer, embedder, encoder)


def test_an_opened_eml_offers_a_reply_drafted_from_its_attachment_and_saved_as_a_file(
        qtbot: QtBot, user_dirs: Path, store: ModelStore, tmp_path: Path) -> None:
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    original = saved_message(tmp_path)
    files = window.ask_panel.files
    assert not files.draft_button.isVisibleTo(window)
    window.open_files([original])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    assert files.draft_button.isVisibleTo(window)
    panel = window.draft_panel
    assert "Contract question" in panel.about.text() and "Select a message" not in panel.about.text()
    files.draft_button.click()
    assert window.tabs.currentWidget() is panel
    qtbot.waitUntil(lambda: panel.result is not None, timeout=60000)
    assert "36 months" in panel.text.toPlainText()
    point = panel.points.topLevelItem(0)
    assert point.text(0).startswith("\u2714 1. How long is the warranty period?")
    cited = [point.child(i).text(0) for i in range(point.childCount())]
    assert any(line.startswith("[1] agreement.txt") for line in cited), cited  # grounded in the attachment
    assert not panel.save_button.isEnabled()  # no account: no Drafts folder to save to
    assert panel.save_as_button.isVisible() and panel.save_as_button.isEnabled()
    chosen = tmp_path / "answer to Bob.eml"
    seen: list[str] = []

    def save(dialog: QWidget) -> None:
        assert isinstance(dialog, QFileDialog)
        seen.append(dialog.selectedFiles()[0])
        dialog.findChild(QLineEdit, "fileNameEdit").setText(str(chosen))  # typed, as a person would
        dialog.accept()

    on_next_modal(QFileDialog, save)
    panel.save_as_button.click()
    assert seen == [str(tmp_path / "Contract question-reply.eml")]  # proposed beside the original
    reply = parsed(chosen)
    assert reply["Subject"] == "Re: Contract question" and reply["In-Reply-To"] == "<c1@buyer.example>"
    assert "36 months" in reply_text(reply) and "> how long is the warranty period" in reply_text(reply)
    assert str(chosen) in panel.status.text()
    window.close_files([str(original)])
    assert not files.draft_button.isVisibleTo(window) and panel.mail_file is None
