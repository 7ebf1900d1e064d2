"""What a newcomer hit in the desktop app (pytest-qt, offscreen): the page shown while the reader read stayed
beside an answer that cites another passage; a summary in the conversation ran its points into one paragraph;
the list of open files in the status bar squeezed a summary's progress line to "Point 4 of..."; a cited page
first fitted to a pane still being laid out stayed at 41% in a pane with room for twice that; the empty answer
box's how-to-start showed its first line only."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator, scripted_store  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402
from test_gui_page import cited, clause  # noqa: E402,F401  (the fixture)

from assistant.gui.help_menu import DESKTOP_DOC, version  # noqa: E402
from assistant.gui.history import history_blocks  # noqa: E402
from assistant.gui.passage_view import PassageView  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.records import Answer, Document, Source  # noqa: E402
from assistant.ttrag.conversation import Turn  # noqa: E402

CONTRACT = "\n\n".join([f"Clause {i}. Warehouse {i} stores {i * 3} crates of tin." for i in range(12)] +
                       ["Clause 99. Payment is due within 45 days of the invoice date."])
NOT_FOUND = json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})


def script(request: GenerationRequest) -> str:
    if request.purpose == "route":
        return '{"route": "question_answering", "target": ""}'
    if request.purpose == "standalone":
        return '{"question": "What colour are the crates?"}'
    if request.purpose == "rewrite":
        return '{"query": "colour of the crates of tin"}'
    return NOT_FOUND


@pytest.fixture
def window(qtbot: QtBot, user_dirs: Path, tokenizer: object, embedder: object, encoder: object) -> MainWindow:
    w = MainWindow(scripted_store(ScriptedGenerator(script), tokenizer, embedder, encoder))
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_the_passage_shown_while_the_reader_reads_leaves_with_an_answer_that_found_nothing(
        qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    doc = tmp_path / "contract.md"
    doc.write_text(CONTRACT)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    panel = window.ask_panel
    # how to start, whole: a QTextEdit's placeholder showed its first line only (Qt 6)
    hint = panel.start_hint
    assert hint.isVisible() and hint.wordWrap() and "Summarize this" in hint.text()
    assert hint.height() >= 5 * hint.fontMetrics().height() and hint.width() <= panel.answer_text.viewport().width()
    previews: list[str] = []
    window.runner.progressed.connect(lambda task, e: previews.append(panel.passage.title.text()))
    panel.question.setText("What colour are the crates?")
    window.ask_action.trigger()
    qtbot.waitUntil(lambda: not panel.busy and window.progress.idle, timeout=60000)
    assert panel.answer is not None and not panel.answer.found
    assert not hint.isVisible()  # the answer in the hint's place
    assert any(title.startswith("[1] contract.md") for title in previews)  # shown while the reader read
    # read, but no evidence of an answer: it must not stay beside "not found" as if it were its source
    assert not panel.passage.isVisible() and not panel.passage.title.text().startswith("[")


def test_a_summary_in_the_conversation_keeps_one_point_a_line() -> None:
    source = Source(n=1, source="/tmp/NETGEAR.pdf", page=1, start=0, end=10, snippet="x", chunk_id=0)
    text = ("DISTRIBUTOR AGREEMENT (NETGEAR.pdf, 8 pages):\n- Parties: Ingram Micro and NETGEAR, Inc. [1]\n"
            "- Term: one year. [1]")
    answer = Answer(question="Summarize this", text=text, found=True, route="summary", sources=(source,),
                    rewrites=(), timings={}, usage=(), supported_by=(1,))
    block, = history_blocks([Turn("Summarize this", "Summarize this", answer)])
    assert "8 pages):<br>- Parties: Ingram Micro and NETGEAR, Inc. [1]<br>- Term: one year. [1]" in block
    assert "href='source:0:0'>[1] NETGEAR.pdf, p. 1</a>" in block


def test_the_open_files_in_the_status_bar_give_way_to_the_progress_line(qtbot: QtBot, window: MainWindow) -> None:
    names = ["NETGEAR,INC_04_21_2003-EX-10.16-DISTRIBUTOR AGREEMENT.pdf (70 KB)",
             "CHANGEPOINTCORP_03_08_2000-EX-10.6-LICENSE AND HOSTING AGREEMENT.pdf (159 KB)"]
    window.notice.setText("Open: " + ", ".join(names))
    line = "Point 2 of 10: subject \u2014 reading passages 1\u20133 of 2 files"  # two long names: "of 2 files"
    release = threading.Event()
    task = window.runner.start("summary", line, lambda emit, cancel: release.wait(10), lambda result: None)
    try:
        qtbot.waitUntil(lambda: window.progress.isVisible() and window.progress.stage.line == line)
        qtbot.wait(100)  # laid out
        assert window.progress.stage.text() == line  # whole, not "... reading passages 1-3 of"
        assert window.notice.toolTip() == window.notice.text()  # the files, whole, where the line is cut
    finally:
        release.set()
        window.runner.cancel(task.id)
    qtbot.waitUntil(lambda: window.progress.idle)


def test_a_page_fitted_to_a_narrow_pane_is_fitted_again_when_the_pane_widens(
        qtbot: QtBot, clause: Document) -> None:  # noqa: F811
    view = PassageView()
    qtbot.addWidget(view)
    view.resize(300, 800)
    view.show()
    with qtbot.waitSignal(view.page.rendered, timeout=20000) as shown:
        view.show_source(cited(clause), clause)
    narrow = shown.args[0].image.width
    assert narrow <= 300
    with qtbot.waitSignal(view.page.rendered, timeout=20000) as again:
        view.resize(700, 800)
    assert again.args[0].image.width > 1.5 * narrow and again.args[0].highlights
    assert view.page.image.width() <= view.page.area.viewport().width()


def test_a_file_read_with_a_part_left_unread_says_so_in_the_list(qtbot: QtBot, window: MainWindow) -> None:
    # A newcomer opened an encrypted message: "encrypted.eml (12 words)", ticked, no warning; an ask then spent a
    # model call on "(no text)". The reason the reader gave ("encrypted (PGP): cannot be read") is in the row.
    from test_read_every_word import bug_input

    path = bug_input("eml-pgp-mime-encrypted", "encrypted.eml")
    window.open_files([path])
    files = window.ask_panel.files
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    row = files.list.item(0)
    assert row.text().startswith("encrypted.eml (") and row.text().endswith("\u26a0 encrypted (PGP): cannot be read")
    assert "Not read: " in row.toolTip()


def test_closing_a_file_closes_the_passage_shown_from_it(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    # After closing every file a newcomer still saw the closed contract's page beside the answer.
    doc = tmp_path / "contract.md"
    doc.write_text(CONTRACT)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    panel = window.ask_panel
    document = panel.session.context.documents[0]
    at = document.text.index("Clause 99")
    panel.passage.show_source(Source(n=1, source=document.source, page=None, start=at, end=at + 20,
                                     snippet="Clause 99", chunk_id=0), document)
    assert panel.passage.isVisible()
    panel.files.remove_requested.emit([str(doc)])
    qtbot.waitUntil(lambda: not panel.passage.isVisible(), timeout=5000)


def test_a_help_menu_says_how_to_start_and_lists_the_shortcuts(qtbot: QtBot, window: MainWindow) -> None:
    # A newcomer looked for a Help menu and found none.
    menus = [a.text() for a in window.menuBar().actions()]
    assert menus[-1] == "&Help", menus
    start = window.help.show_start()
    assert start.isVisible() and "Ctrl+O" in start.text() and "Summarize this" in start.text()
    shortcuts = window.help.show_shortcuts().text().splitlines()
    assert not start.isVisible()  # one help box at a time
    for keys, does in (("Ctrl+O", "Open files"), ("Esc", "Stop"), ("F5", "Sync"), ("F1", "Getting started")):
        assert f"{keys}\t{does}" in shortcuts, shortcuts
    assert window.help.docs_action.isEnabled() and "desktop.md" in window.help.docs_action.toolTip()
    # offscreen, no program opens a file: the box says where it is instead of nothing happening
    if not window.help.open_docs():
        assert window.help.box is not None and window.help.box.isVisible()
        assert str(DESKTOP_DOC) in window.help.box.text()
    about = window.help.show_about()
    assert about.text().startswith(f"Assistant {version()}: a private, on-device") and version()
    about.close()
