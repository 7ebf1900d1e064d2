"""Text the window cut off (issue 51, point 7), offscreen: a source's quote line once the passage view opens
beside the answer, the status bar's stage with a long file name, and the account dialog's longer messages."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from pytestqt.qtbot import QtBot  # noqa: E402

from assistant.config import Settings  # noqa: E402
from assistant.gui.account_dialog import AccountDialog  # noqa: E402
from assistant.gui.labels import elide_longest_word  # noqa: E402
from assistant.gui.sources_list import source_item  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.records import Progress, Source  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

LONG_NAME = "WaterNowInc_20191120_10-Q_EX-10.1_11.pdf"
QUOTE = "Late delivery entitles the buyer to a reduction of the price of 0.5% a week, up to 10% in total."


def test_a_sources_quote_line_stays_in_view_when_the_passage_view_opens(qtbot: QtBot, user_dirs: Path) -> None:
    window = MainWindow(ModelStore(Settings()))
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    panel = window.ask_panel
    source = Source(n=1, source=f"/tmp/{LONG_NAME}", page=1, start=0, end=len(QUOTE), snippet=QUOTE, chunk_id=0)
    panel.sources.addItem(source_item(source))
    panel.sources.fit()
    qtbot.wait(50)
    one_line = panel.sources.visualRect(panel.sources.model().index(0, 0)).height()

    panel.passage.show_source(source, None)  # the passage view takes part of the width: the row wraps
    qtbot.waitUntil(lambda: panel.sources.width() < 0.7 * window.width())
    qtbot.wait(50)
    row = panel.sources.visualRect(panel.sources.model().index(0, 0))
    assert row.height() > one_line  # wrapped: the quote goes on a second line
    # the whole row inside the visible part of the list (the viewport kept its old, one-line height)
    assert panel.sources.viewport().height() >= row.bottom() + 1, (panel.sources.viewport().height(), row)


def test_a_long_file_name_is_shortened_in_the_middle_of_the_stage_line(qtbot: QtBot, user_dirs: Path) -> None:
    window = MainWindow(ModelStore(Settings()))
    qtbot.addWidget(window)
    window.resize(720, 600)  # a small screen: no room for the whole line
    window.show()
    qtbot.waitExposed(window)
    window.notice.setText("Read 1 file.")  # not the first start's long hint, which takes its own width
    progress, runner = window.progress, window.runner
    full = f"Reading passages 1\u20133 of {LONG_NAME}"
    task = runner.start("ask", "Asking", lambda emit, cancel: cancel.wait(10), lambda result: None)
    assert progress.task is task
    progress._progressed(task, Progress("generate", 0, 3, detail=f"passages 1\u20133 of {LONG_NAME}"))
    stage, metrics = progress.stage, progress.stage.fontMetrics()
    assert stage.line == full
    # shortened to the room the status bar gives it (it was cut at "..._10-Q_E"), the name's end kept
    qtbot.waitUntil(lambda: stage.width() > stage.minimumSizeHint().width(), timeout=3000)  # laid out
    qtbot.wait(50)
    shown = stage.text()
    assert shown != full and metrics.horizontalAdvance(shown) <= stage.contentsRect().width()
    assert shown.startswith("Reading passages 1\u20133 of Water") and shown.endswith(".pdf") and "\u2026" in shown
    assert full in stage.toolTip() and "reads the best passages" in stage.toolTip()  # whole, with what it does
    window.resize(1900, 700)  # room for all of it: shown whole
    qtbot.waitUntil(lambda: stage.text() == full, timeout=3000)
    runner.cancel_all()
    assert runner.wait(5000)

    short = "Reading passages 1\u20133 of contract.md"
    assert elide_longest_word(short, metrics, 1000) == short  # what fits is left alone
    narrow = elide_longest_word(full, metrics, metrics.horizontalAdvance("Reading passages"))
    assert metrics.horizontalAdvance(narrow) <= metrics.horizontalAdvance("Reading passages")  # cut at the end


def test_the_account_dialog_shows_a_long_message_whole(qtbot: QtBot) -> None:
    dialog = AccountDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    message = ("\u2716 could not connect to imap.example.org:993 (connection refused): check the server name and "
               "the port, and whether this computer is online; a company network may block the port. ") * 2
    dialog._show(message, ok=False)
    error = dialog.error
    qtbot.waitUntil(lambda: error.height() >= error.heightForWidth(error.width()))
    assert error.heightForWidth(error.width()) > 3 * error.fontMetrics().height()  # four lines or more
    dialog.resize(dialog.minimumWidth(), dialog.height())  # narrower: more lines, and still all of them
    qtbot.waitUntil(lambda: error.height() >= error.heightForWidth(error.width()))
