"""The Draft tab's points: a point the reader cut mid-sentence is listed as the whole sentence of its source
(✔), and its source opens as the Ask tab opens one: a PDF attachment's page with the sentence highlighted,
beside the draft and its points at full height, the points keeping their width."""

from __future__ import annotations

import json
import os
from email.message import EmailMessage
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator, scripted_store  # noqa: E402
from PySide6.QtCore import QPoint  # noqa: E402
from PySide6.QtWidgets import QWidget  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402
from test_page_image import SENTENCE, clause_pdf  # noqa: E402

from assistant.gui.draft_panel import DraftPanel  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

CUT = SENTENCE.split(",")[0]  # "Late delivery entitles ... for each week of delay": the reader stopped there


def script(request: GenerationRequest) -> str:
    if request.purpose == "draft_requests":
        return '{"requests": ["What does late delivery cost the supplier?"]}'
    if request.purpose == "rewrite":
        return "another query"
    passages = request.user.split("\n[")[1:]
    n = next((i for i, p in enumerate(passages, 1) if "Late delivery" in p), 0)
    return json.dumps({"found": bool(n), "passage": n, "short_answer": "one percent for each week of delay",
                       "answer": CUT if n else ""})


@pytest.fixture
def store(tokenizer: object, embedder: object, encoder: object) -> ModelStore:
    return scripted_store(ScriptedGenerator(script), tokenizer, embedder, encoder)


def saved_message(folder: Path) -> Path:
    msg = EmailMessage()
    msg["From"], msg["To"] = "Bob Miller <bob@buyer.example>", "Alice Example <alice@supplier.example>"
    msg["Subject"], msg["Message-ID"] = "Late delivery", "<d1@buyer.example>"
    msg.set_content("Hi Alice,\n\nwhat does late delivery cost you under the attached agreement?\n\nThanks,\nBob")
    msg.add_attachment(clause_pdf(folder / "clause.pdf").read_bytes(), maintype="application", subtype="pdf",
                       filename="clause.pdf")
    path = folder / "Late delivery.eml"
    path.write_bytes(msg.as_bytes())
    return path


def drafted(qtbot: QtBot, store: ModelStore, message: Path) -> tuple[MainWindow, DraftPanel]:
    """The window with the saved ``message`` open and its reply drafted."""
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.open_files([message])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    panel = window.draft_panel
    window.ask_panel.files.draft_button.click()
    qtbot.waitUntil(lambda: panel.result is not None, timeout=60000)
    return window, panel


def _left(widget: QWidget, panel: DraftPanel) -> int:
    return widget.mapTo(panel, QPoint(0, 0)).x()


def test_a_cut_point_is_its_whole_sentence_and_its_source_opens_the_page_beside_the_points(
        qtbot: QtBot, user_dirs: Path, store: ModelStore, tmp_path: Path) -> None:
    original = saved_message(tmp_path)
    window, panel = drafted(qtbot, store, original)
    point = panel.points.topLevelItem(0)
    assert point.text(0).startswith("\u2714 1. What does late delivery cost")  # confirmed: a whole sentence
    assert point.child(0).text(0).startswith(SENTENCE + " [")  # widened from the cut "... week of delay"
    assert SENTENCE in panel.text.toPlainText()
    width = panel.points.width()

    source = next(point.child(i) for i in range(point.childCount()) if point.child(i).text(0).startswith("[1]"))
    with qtbot.waitSignal(panel.passage.page.rendered, timeout=20000) as shown:
        panel.points.itemClicked.emit(source, 0)
    rendered = shown.args[0]
    assert panel.passage.tabs.currentWidget() is panel.passage.page  # the page, as the Ask tab shows a PDF
    assert rendered.page == 2 and rendered.match == "whole" and rendered.highlights
    assert panel.passage.title.text().startswith("[1] clause.pdf, page")
    # beside the draft and the points, at the panel's height; the points keep most of their width
    assert _left(panel.passage, panel) >= _left(panel.points, panel) + panel.points.width()
    assert panel.passage.height() > panel.points.height()
    assert panel.points.width() >= 0.5 * width and panel.points.width() > panel.passage.width()
    shown_file = Path(panel.passage.page.path)
    assert shown_file.is_file() and shown_file.name == "clause.pdf"
    window.close_files([str(original)])  # the draft is cleared: the attachment's file goes with it
    assert not shown_file.exists()


def test_a_text_source_scrolls_to_its_passage(qtbot: QtBot, user_dirs: Path, store: ModelStore,
                                             tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["Subject"], msg["Message-ID"] = "Bob <bob@buyer.example>", "Late", "<d2@buyer.example>"
    msg.set_content("Hi Alice,\n\nwhat does late delivery cost you?\n\nBob")
    filler = "\n\n".join(f"Clause {i}. Packaging unit {i} holds {4 * i} cartons of gloves." for i in range(60))
    msg.add_attachment(f"{filler}\n\n{SENTENCE}\n\n{filler}".encode(), maintype="text", subtype="plain",
                       filename="agreement.txt")
    path = tmp_path / "late.eml"
    path.write_bytes(msg.as_bytes())
    _window, panel = drafted(qtbot, store, path)
    point = panel.points.topLevelItem(0)
    source = next(point.child(i) for i in range(point.childCount()) if point.child(i).text(0).startswith("[1]"))
    panel.points.itemClicked.emit(source, 0)
    view = panel.passage.text
    assert panel.passage.tabs.currentWidget() is view  # a text file has no page to show
    qtbot.waitUntil(lambda: 0 <= view.cursorRect().top() < view.viewport().height() // 2, timeout=5000)
    assert view.verticalScrollBar().value() > 0  # scrolled to the passage, not left at the top or past it
