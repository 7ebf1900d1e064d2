"""Issue 51, points 4 and 5 (pytest-qt, offscreen): closing one of two open files keeps the conversation; each
open file has a real checkbox that takes it into the questions or leaves it out; and the "Asking about" line
counts and names exactly what is asked about: the message, its attachments read, and the ticked open files."""

from __future__ import annotations

import json
import os
from email.message import EmailMessage
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator, scripted_store  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402

from assistant.gui.window import MainWindow  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

CONTRACT = "\n\n".join([f"Clause {i}. Warehouse {i} stores {i * 3} crates of tin." for i in range(12)] +
                       ["Clause 99. Payment is due within 45 days of the invoice date."])
AMENDMENT = "Amendment 1. The payment term is extended to 60 days. The warehouses close on Sundays."
PAYMENT = json.dumps({"found": True, "passage": 1, "short_answer": "45 days",
                      "answer": "Payment is due within 45 days of the invoice date."})


def script(request: GenerationRequest) -> str:
    if request.purpose == "route":
        return '{"route": "question_answering", "target": ""}'
    if request.purpose == "standalone":
        return '{"question": "When is payment due under the contract?"}'
    return PAYMENT


@pytest.fixture
def store(tokenizer: object, embedder: object, encoder: object) -> ModelStore:
    return scripted_store(ScriptedGenerator(script), tokenizer, embedder, encoder)


@pytest.fixture
def window(qtbot: QtBot, user_dirs: Path, store: ModelStore) -> MainWindow:
    w = MainWindow(store)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    return w


def two_files(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> tuple[Path, Path]:
    contract, amendment = tmp_path / "contract.md", tmp_path / "amendment.txt"
    contract.write_text(CONTRACT)
    amendment.write_text(AMENDMENT)
    window.open_files([contract, amendment])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    return contract, amendment


def ask(qtbot: QtBot, window: MainWindow, question: str) -> None:
    window.ask_panel.question.setText(question)
    window.ask_action.trigger()
    qtbot.waitUntil(lambda: not window.ask_panel.busy and window.progress.idle, timeout=60000)
    assert window.ask_panel.answer is not None, window.ask_panel.meta.text()


def sources(window: MainWindow) -> list[str]:
    session = window.ask_panel.session
    assert session is not None
    return [d.source for d in session.context.documents]


def settle(qtbot: QtBot, window: MainWindow) -> None:
    """Wait for the context being read again (after a file was closed, ticked or unticked)."""
    qtbot.waitUntil(lambda: window.ask_panel.session is not None and not window.runner.running("context"),
                    timeout=30000)


# -- point 4: a click does not lose the conversation -----------------------------------------------------------
def test_closing_one_of_two_files_keeps_the_conversation(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    contract, amendment = two_files(qtbot, window, tmp_path)
    ask(qtbot, window, "When is payment due?")
    panel = window.ask_panel
    assert len(panel.conversation.turns) == 1 and panel.new_button.isEnabled()
    panel.files.list.setCurrentRow(panel.files.paths().index(str(amendment)))
    panel.files.remove_button.click()  # "Remove" with the amendment selected
    settle(qtbot, window)
    assert sources(window) == [str(contract)]
    assert len(panel.conversation.turns) == 1  # kept, not wiped
    assert panel.new_button.isEnabled() and panel.export_button.isEnabled()
    assert panel.context_label.text().startswith("Asking about contract.md (about ")
    ask(qtbot, window, "And is it later for the warehouses?")
    assert len(panel.conversation.turns) == 2  # the follow-up continues it
    assert panel.history.isVisible() and "When is payment due?" in panel.history.toPlainText()


def test_each_open_file_has_a_checkbox_and_the_question_is_about_the_ticked_ones(
        qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    contract, amendment = two_files(qtbot, window, tmp_path)
    panel = window.ask_panel
    items = [panel.files.list.item(i) for i in range(panel.files.list.count())]
    assert all(item.flags() & Qt.ItemFlag.ItemIsUserCheckable for item in items)
    assert all(item.data(Qt.ItemDataRole.CheckStateRole) is not None for item in items)  # a box is drawn
    assert [item.checkState() for item in items] == [Qt.CheckState.Checked] * 2  # opened: asked about
    assert not any(item.text().startswith("\u2714") for item in items)  # the box is the mark: no fake one
    ask(qtbot, window, "When is payment due?")
    items[1].setCheckState(Qt.CheckState.Unchecked)  # what a click on the amendment's box does
    settle(qtbot, window)
    assert sources(window) == [str(contract)] and window.files.left_out == {str(amendment)}
    assert panel.context_label.text().startswith("Asking about contract.md (about ")
    assert str(amendment) in panel.files.paths()  # left out, still open
    assert len(panel.conversation.turns) == 1
    ask(qtbot, window, "When is payment due?")
    answer = panel.answer
    assert answer is not None and {s.source for s in answer.sources} == {str(contract)}
    assert len(panel.conversation.turns) == 2
    items = [panel.files.list.item(i) for i in range(panel.files.list.count())]
    items[0].setCheckState(Qt.CheckState.Unchecked)  # nothing ticked: nothing to ask about, and it says how
    qtbot.waitUntil(lambda: "tick an open file" in panel.context_label.text(), timeout=10000)
    assert panel.session is None
    items[1].setCheckState(Qt.CheckState.Checked)
    settle(qtbot, window)
    assert sources(window) == [str(amendment)]
    assert panel.context_label.text().startswith("Asking about amendment.txt (about ")
    window.open_files([tmp_path / "contract.md"])  # already open: not read again, the box stays as set
    assert panel.files.ticked_paths() == [str(amendment)]


# -- point 5: the line names and counts what is asked about ----------------------------------------------------
def cache_message(with_logo: bool = False) -> None:
    from assistant.accounts import Account, add_account
    from assistant.mail.cache import CachedRef, FolderState, MailCache

    add_account(Account("work", "imap.example.org", "alice@example.org", folders=("INBOX",)))
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "Dana <dana@example.org>", "alice@example.org", "Roof quote"
    msg["Date"] = "Tue, 03 Jun 2025 09:12:00 +0200"
    # a quoted earlier message: a document of the message, not an attachment
    msg.set_content("Please find the quote attached.\n\nOn Monday, Alice wrote:\n> Can you send the quote?\n"
                    "> Thanks\n")
    msg.add_attachment(b"Roof repair quote: 4,250 EUR including VAT.\n", maintype="text", subtype="plain",
                       filename="quote.txt")
    if with_logo:
        msg.add_attachment(b"\x89PNG....", maintype="image", subtype="png", filename="logo.png")
    cache = MailCache()
    cache.put(CachedRef("work", "INBOX", 1, 1), msg.as_bytes())
    cache.set_state("work", "INBOX", FolderState(1, 1))


def select_first(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 1, timeout=30000)
    window.messages.select_row(0)
    qtbot.waitUntil(lambda: window.ask_panel.context_label.text().startswith("Asking about"), timeout=30000)


def test_a_message_with_one_attachment_is_asked_about_with_that_one(qtbot: QtBot, user_dirs: Path,
                                                                    store: ModelStore, memory_keyring: object) -> None:
    cache_message(with_logo=True)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    select_first(qtbot, window)
    docs = window.ask_panel.session.context.documents  # type: ignore[union-attr]
    # the quoted earlier message is a document of its own: it was counted as a second attachment
    assert [d.source for d in docs] == ["work:INBOX:1", "work:INBOX:1 (earlier messages)", "work:INBOX:1/quote.txt"]
    lines = window.ask_panel.context_label.text().splitlines()
    words = sum(len(d.text.split()) for d in docs)
    assert lines[0] == f"Asking about the message \u201cRoof quote\u201d with its attachment quote.txt " \
                       f"(about {words:,} words)."
    assert lines[1:] == ["\u2716 Could not read logo.png: unsupported: image/png."]


def test_the_ticked_open_files_are_asked_about_beside_the_message_and_named(
        qtbot: QtBot, user_dirs: Path, store: ModelStore, memory_keyring: object, tmp_path: Path) -> None:
    cache_message()
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    contract, amendment = two_files(qtbot, window, tmp_path)
    select_first(qtbot, window)
    panel = window.ask_panel
    docs = panel.session.context.documents  # type: ignore[union-attr]
    assert [d.source for d in docs][-3:] == ["work:INBOX:1/quote.txt", str(contract), str(amendment)]
    words = sum(len(d.text.split()) for d in docs)
    assert panel.context_label.text() == (
        "Asking about the message \u201cRoof quote\u201d with its attachment quote.txt, and the 2 open files "
        f"contract.md and amendment.txt (about {words:,} words).")
    panel.files.list.item(0).setCheckState(Qt.CheckState.Unchecked)  # the contract left out: the message stays
    settle(qtbot, window)
    assert [d.source for d in panel.session.context.documents][-2:] == [  # type: ignore[union-attr]
        "work:INBOX:1/quote.txt", str(amendment)]
    assert panel.context_label.text().startswith(
        "Asking about the message \u201cRoof quote\u201d with its attachment quote.txt, and the open file "
        "amendment.txt (about ")
    ask(qtbot, window, "How much is the roof repair?")
    read = {s.source for s in panel.answer.sources}  # type: ignore[union-attr]
    assert str(contract) not in read


def test_a_file_unticked_while_the_message_is_read_leaves_the_message_in(
        qtbot: QtBot, user_dirs: Path, store: ModelStore, memory_keyring: object, tmp_path: Path) -> None:
    cache_message()
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    contract, amendment = two_files(qtbot, window, tmp_path)
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 1, timeout=30000)
    window.messages.select_row(0)
    window.ask_panel.files.list.item(0).setCheckState(Qt.CheckState.Unchecked)  # before the message is read
    qtbot.waitUntil(lambda: window.ask_panel.context_label.text().startswith("Asking about"), timeout=30000)
    settle(qtbot, window)
    assert sources(window)[-2:] == ["work:INBOX:1/quote.txt", str(amendment)]
    assert window.ask_panel.context_label.text().startswith("Asking about the message \u201cRoof quote\u201d")
