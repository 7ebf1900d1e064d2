"""The desktop window as a new user met it on a laptop screen: it fits the screen, the status bar says what is
happening in plain words, only cited passages are listed as sources, Sync without an account says so, one
Stop, a file dialog wide enough for its columns, the question focused, and the answer given the height."""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator, scripted_store  # noqa: E402
from PySide6.QtCore import QByteArray, QRect  # noqa: E402
from PySide6.QtWidgets import QAbstractButton, QApplication, QFileDialog, QWidget  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402
from qtmodal import on_next_modal  # noqa: E402

from assistant.gui.account_dialog import AccountDialog  # noqa: E402
from assistant.gui.watch_settings import COLUMNS  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.records import Preview, Progress, Source, TraceStep  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

FACTS = "\n\n".join([f"Clause {i}. Warehouse {i} stores {i * 3} crates of tin." for i in range(30)] +
                    ["Clause 99. Payment is due within 45 days of the invoice date. Late payment bears interest "
                     "of 4% a year, capped at 10% of the invoice."])
PAYMENT = json.dumps({"found": True, "passage": 1, "short_answer": "45 days of the invoice date",
                      "answer": "Payment is due within 45 days of the invoice date."})
CAP = json.dumps({"found": True, "passage": 1, "short_answer": "10% of the invoice",
                  "answer": "Late payment interest is capped at 10% of the invoice."})


def script(request: GenerationRequest) -> str:
    if request.purpose == "route":
        return '{"route": "question_answering", "target": ""}'
    if request.purpose == "standalone":
        return '{"question": "Is there a cap on the late payment interest?"}'
    return CAP if "cap" in request.user.rsplit("\n", 3)[-1].lower() else PAYMENT


@pytest.fixture
def store(tokenizer: object, embedder: object, encoder: object) -> ModelStore:
    return scripted_store(ScriptedGenerator(script), tokenizer, embedder, encoder)


def new_window(qtbot: QtBot, store: ModelStore, size: tuple[int, int] | None = None) -> MainWindow:
    window = MainWindow(store)
    qtbot.addWidget(window)
    if size:
        window.resize(*size)
    window.show()
    window.activateWindow()
    qtbot.waitExposed(window)
    return window


def open_facts(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> Path:
    doc = tmp_path / "contract.md"
    doc.write_text(FACTS)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    return doc


def ask(qtbot: QtBot, window: MainWindow, question: str) -> None:
    window.ask_panel.question.setText(question)
    window.ask_action.trigger()
    qtbot.waitUntil(lambda: not window.ask_panel.busy and window.progress.idle, timeout=60000)
    assert window.ask_panel.answer is not None, window.ask_panel.meta.text()


def on_screen(window: MainWindow) -> QRect:
    return window.screen().availableGeometry()


# -- the window fits the screen: the status bar (progress, Stop) is never below its edge ---------------------
def test_first_start_fits_the_screen_and_a_restored_oversize_window_is_clamped(qtbot: QtBot, user_dirs: Path,
                                                                               store: ModelStore) -> None:
    window = new_window(qtbot, store)
    area = on_screen(window)
    assert area.contains(window.frameGeometry()), (window.frameGeometry(), area)
    assert window.width() <= area.width() * 0.9 and window.height() <= area.height() * 0.9
    assert abs(window.frameGeometry().center().x() - area.center().x()) <= 2  # centred
    bar = window.statusBar()
    assert area.contains(QRect(bar.mapToGlobal(bar.rect().topLeft()), bar.size()))
    window.setGeometry(QRect(0, 0, area.width() * 2, area.height() * 2))  # saved on a far larger screen
    window.close()
    again = new_window(qtbot, store)
    assert isinstance(again.settings.value("window/geometry"), QByteArray)
    assert area.contains(again.frameGeometry()), (again.frameGeometry(), area)


# -- the status bar says what is happening in plain words -------------------------------------------------
def test_stages_say_which_passages_are_read_and_a_follow_up_step_shows_only_for_a_follow_up(
        qtbot: QtBot, user_dirs: Path, store: ModelStore, tmp_path: Path) -> None:
    window = new_window(qtbot, store)
    open_facts(qtbot, window, tmp_path)
    labels: list[str] = []
    bars: list[tuple[str, int, int]] = []
    window.runner.progressed.connect(lambda task, e: labels.append(window.progress.stage.line))
    window.runner.progressed.connect(lambda task, e: bars.append(
        (window.progress.stage.line, window.progress.bar.maximum(), window.progress.bar.value())))
    shown: list[tuple[str, str]] = []
    window.runner.progressed.connect(lambda task, e: isinstance(e, Preview) and shown.append(
        (window.progress.stage.line, window.ask_panel.passage.title.text())))
    ask(qtbot, window, "When is payment due?")
    assert any(re.fullmatch(r"Reading passages 1\u20133 of contract\.md", label) for label in labels), labels
    # seconds in, before the answer, the best passage is on screen with its best sentence highlighted
    previews = [(label, title) for label, title in shown if title.startswith("[1] contract.md")]
    assert previews and all("Writing" not in label for label, _ in previews[:1]), shown
    # the bar moves while the reader reads: the prompt's tokens read so far, not a bar that only spins
    reading = [(top, value) for label, top, value in bars if label.startswith("Reading passages")]
    assert any(top > 1 and 0 < value <= top for top, value in reading), reading
    assert "Writing the answer" in labels
    assert labels.index("Writing the answer") > max(i for i, label in enumerate(labels) if "Reading" in label)
    # the whole prompt read, the bar spins with what the reader does until its sentence streams
    assert "Passages read; deciding the answer" in labels
    assert max(i for i, label in enumerate(labels) if "Reading" in label) < \
        labels.index("Passages read; deciding the answer") < labels.index("Writing the answer")
    assert not any("(LLM)" in label or label.endswith(": Reading") for label in labels), labels
    labels.clear()
    ask(qtbot, window, "Summarise the contract")  # not a follow-up: short, but it names what it is about
    assert labels and not any("earlier" in label or "refers to" in label for label in labels), labels
    labels.clear()
    ask(qtbot, window, "Is there a cap on it?")  # a follow-up: "it" is the late payment interest
    assert "Working out what \u201cit\u201d refers to" in labels, labels
    assert window.ask_panel.conversation.turns[-1].standalone == "Is there a cap on the late payment interest?"


# -- the sources listed are those the answer cites; the rest are behind "Other passages read" ----------------
def test_only_cited_passages_are_sources_and_the_rest_are_folded_away(qtbot: QtBot, user_dirs: Path,
                                                                      store: ModelStore, tmp_path: Path) -> None:
    window = new_window(qtbot, store, (1280, 800))
    open_facts(qtbot, window, tmp_path)
    ask(qtbot, window, "When is payment due?")
    panel = window.ask_panel
    answer = panel.answer
    assert answer is not None and answer.text.endswith("[1]") and len(answer.sources) == 3
    listed = [panel.sources.item(i).text() for i in range(panel.sources.count())]
    assert len(listed) == 1 and listed[0].startswith("[1] contract.md") and "45 days" in listed[0]
    other = panel.other_sources
    assert other.isVisible() and other.toggle.text() == "Other passages read (2)"
    assert not other.list.isVisible()  # closed until asked for
    other.toggle.click()
    assert other.list.isVisible() and other.list.count() == 2
    assert [other.list.item(i).text()[:3] for i in range(2)] == ["[2]", "[3]"]
    other.list.itemClicked.emit(other.list.item(0))  # a passage read can still be opened
    assert panel.passage.title.text().startswith("[2] ")
    history_links = re.findall(r"\[(\d)\] contract\.md", panel.history.toHtml())
    ask(qtbot, window, "When is payment due?")
    history_links = re.findall(r"\[(\d)\] contract\.md", panel.history.toHtml())
    assert history_links == ["1"]  # the conversation lists what the earlier answer cited too
    assert not other.list.isVisible()  # a new answer starts closed again


def test_opening_the_other_passages_does_not_grow_the_window(qtbot: QtBot, user_dirs: Path, store: ModelStore,
                                                              tmp_path: Path) -> None:
    """A newcomer's per-contract answer left six long passages behind "Other passages read"; opening them grew an
    800-pixel window past the screen. The list scrolls instead."""
    window = new_window(qtbot, store, (1280, 800))
    open_facts(qtbot, window, tmp_path)
    ask(qtbot, window, "When is payment due?")
    quote = "The Distributor shall purchase the Products at the prices set out in Schedule B, " * 6
    other = window.ask_panel.other_sources
    other.show_sources([Source(n, f"/tmp/contract-{n}.pdf", n, 0, 10, quote, n) for n in range(2, 8)])
    window.ask_panel.sources.itemClicked.emit(window.ask_panel.sources.item(0))  # the page view takes half the width
    qtbot.wait(50)
    height = window.height()
    other.toggle.click()
    qtbot.wait(50)
    assert other.list.isVisible() and other.list.count() == 6
    assert window.height() <= height, (height, window.height())
    assert other.list.height() <= window.height() // 4 + 1, other.list.height()  # it scrolls


# -- the answer and the conversation get the height ----------------------------------------------------------
def test_the_conversation_and_the_answer_get_most_of_the_height_at_1280x800(qtbot: QtBot, user_dirs: Path,
                                                                           store: ModelStore,
                                                                           tmp_path: Path) -> None:
    window = new_window(qtbot, store, (1280, 800))
    open_facts(qtbot, window, tmp_path)
    ask(qtbot, window, "When is payment due?")
    ask(qtbot, window, "Where is warehouse 3?")
    panel = window.ask_panel
    assert panel.history.isVisible()
    read = panel.history.height() + panel.answer_text.height()
    assert read >= 0.55 * panel.height(), (panel.history.height(), panel.answer_text.height(), panel.height())
    assert min(panel.history.height(), panel.answer_text.height()) >= 180
    assert panel.files.list.height() <= 3 * panel.files.list.fontMetrics().height()  # one file, one line


# -- Sync with no account says so and offers to add one ----------------------------------------------------
def test_sync_without_an_account_says_none_is_set_and_links_to_adding_one(qtbot: QtBot, user_dirs: Path,
                                                                          store: ModelStore) -> None:
    window = new_window(qtbot, store)
    window.sync_action.trigger()
    notice = window.notice.text()
    assert "Synced" not in notice and "no mail account" in notice.lower()
    assert not window.runner.running("sync")  # nothing was started
    link = re.search(r"href='([^']+)'", notice)
    assert link is not None
    seen: list[QWidget] = []
    on_next_modal(AccountDialog, seen.append)
    window.notice.linkActivated.emit(link[1])  # what clicking the link does
    assert len(seen) == 1


def test_the_point_under_way_stays_in_the_status_bar_while_its_search_runs(qtbot: QtBot, user_dirs: Path,
                                                                          store: ModelStore) -> None:
    window = new_window(qtbot, store)
    labels: list[str] = []
    window.runner.progressed.connect(lambda task, e: labels.append(window.progress.stage.line))

    def draft(emit: Callable[[object], None], cancel: threading.Event) -> None:
        emit(Progress("draft points", 1, 2, "points", "Point 2 of 2: \u201cIs there a cap?\u201d"))
        emit(Progress("generate", 0, 1, detail="passages 1\u20133 of contract.md"))
        emit(TraceStep("rewrite", {"query": "liability cap", "attempt": 2, "attempts": 2}))
        emit(Progress("generate", 0, 1, detail="passages 4\u20136 of contract.md"))
        emit(Progress("draft points", 2, 2, "points"))
        emit(Progress("draft", 0, 1))

    done: list[object] = []
    window.runner.start("points-test", "Drafting", draft, done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=5000)
    point = "Point 2 of 2: \u201cIs there a cap?\u201d"
    again = "Attempt 2 of 2: searching again with \u2018liability cap\u2019"
    assert labels == [
        point,
        f"{point} \u2014 reading passages 1\u20133 of contract.md",
        f"{point} \u2014 {again}",
        f"{point} \u2014 {again} \u2014 reading passages 4\u20136 of contract.md",
        "Answering the email's questions",
        "Drafting: Writing the reply",
    ], labels


# -- one Stop; the file dialog's size; focus after a restart; wording ------------------------------------
def test_one_stop_control_with_esc(qtbot: QtBot, user_dirs: Path, store: ModelStore, tmp_path: Path) -> None:
    window = new_window(qtbot, store)
    open_facts(qtbot, window, tmp_path)
    assert window.progress.stop_button.text() == "Stop"
    assert not [b for b in window.findChildren(QAbstractButton) if b.text() == "Cancel"]
    shortcuts = {a.text(): a.shortcut().toString() for a in window.actions()}
    assert shortcuts["Stop"] == "Esc"
    window.ask_panel.question.setText("When is payment due?")
    window.ask_action.trigger()
    assert window.ask_panel.ask_button.text() == "Stop"
    assert not window.progress.stop_button.isVisible()  # the Ask button is the question's Stop: no second one
    window.stop_action.trigger()
    assert not window.ask_panel.busy and window.ask_panel.answer_text.toPlainText() == "Cancelled."
    window.runner.start("load-mail", "Loading messages", lambda emit, cancel: cancel.wait(5), lambda _: None)
    assert window.progress.stop_button.isVisible()  # a task with no panel of its own stops in the status bar
    window.stop_action.trigger()
    assert window.progress.idle


def test_file_dialog_is_wide_enough_for_its_columns(qtbot: QtBot, user_dirs: Path, store: ModelStore) -> None:
    window = new_window(qtbot, store)
    seen: list[tuple[int, int]] = []

    def look(dialog: QWidget) -> None:
        assert isinstance(dialog, QFileDialog)
        seen.append((dialog.width(), dialog.height()))
        assert dialog.viewMode() == QFileDialog.ViewMode.Detail

    on_next_modal(QFileDialog, look)
    window.choose_files()
    area = on_screen(window)
    assert seen == [(min(900, int(area.width() * 0.9)), min(600, int(area.height() * 0.9)))]


def test_the_question_has_focus_after_a_restart_with_no_file_open(qtbot: QtBot, user_dirs: Path,
                                                                  store: ModelStore) -> None:
    window = new_window(qtbot, store)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.ask_panel.question, timeout=3000)


def test_wording_counts_and_column_titles(qtbot: QtBot, user_dirs: Path, store: ModelStore,
                                          tmp_path: Path) -> None:
    assert "How" not in COLUMNS and "Every" not in COLUMNS and "Check every" in COLUMNS
    window = new_window(qtbot, store)
    window.pending.keep("work", _draft())
    window.mail.show_pending()
    assert window.pending_label.text() == "\u2709 1 draft waiting for the server"
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_text(FACTS)
    b.write_text(FACTS)
    window.open_files([a, b])
    assert window.ask_panel.context_label.text() == "Reading 2 files\u2026"


def _draft() -> object:
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@example.org", "b@example.org", "Re: hello"
    msg["Message-ID"] = "<draft-1@example.org>"
    msg.set_content("Hi")
    return msg
