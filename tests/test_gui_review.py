"""What a tester found walking the app at 1280x800 (pytest-qt, offscreen): a draft's points are listed as each is
answered and stay readable beside the page view at 1150 px; a synced message's PDF attachment shows its page in the
Ask tab; a notice of new mail times out; the "changed since this answer" warning only when the answer's documents
changed; opening a page neither squeezes the folders nor widens the window."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator, scripted_store  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QTreeWidgetItem, QTreeWidgetItemIterator  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402
from test_gui_draft_points import saved_message  # noqa: E402
from test_page_image import SENTENCE, clause_pdf  # noqa: E402

from assistant.config import Settings  # noqa: E402
from assistant.documents import extract  # noqa: E402
from assistant.gui import window_layout  # noqa: E402
from assistant.gui.draft_points import wrapped_height  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.records import Answer, Document, Source  # noqa: E402
from assistant.service import DraftResult, ModelStore  # noqa: E402
from assistant.ttrag.compute.draft import Draft, Point  # noqa: E402

QUIET = Settings(mail=dataclasses.replace(Settings().mail, notify=False, gist=False))
LATE = json.dumps({"found": True, "passage": 1, "short_answer": "one percent for each week of delay",
                   "answer": SENTENCE})


class Gate:
    """Holds the reply's opening (the LLM's last step) until the test has looked at the points."""

    def __init__(self) -> None:
        self.open = threading.Event()

    def script(self, request: GenerationRequest) -> str:
        if request.purpose == "draft_requests":
            return '{"requests": ["What does late delivery cost the supplier?"]}'
        if request.purpose == "draft":
            self.open.wait(60)
            return "We accept the terms."
        if request.purpose == "route":
            return '{"route": "question_answering", "target": ""}'
        if request.purpose == "rewrite":
            return "another query"
        passages = request.user.split("\n[")[1:]
        n = next((i for i, p in enumerate(passages, 1) if "Late delivery" in p), 0)
        return json.dumps({"found": bool(n), "passage": n, "short_answer": "one percent for each week of delay",
                           "answer": SENTENCE if n else ""})


@pytest.fixture
def gate() -> Gate:
    return Gate()


@pytest.fixture
def store(tokenizer: object, embedder: object, encoder: object, gate: Gate) -> ModelStore:
    return scripted_store(ScriptedGenerator(gate.script), tokenizer, embedder, encoder, settings=QUIET)


def new_window(qtbot: QtBot, store: ModelStore, width: int = 1280, height: int = 800) -> MainWindow:
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    return window


def cache_pdf_message() -> None:
    """A synced message in work/INBOX with clause.pdf attached."""
    from assistant.accounts import Account, add_account
    from assistant.mail.cache import CachedRef, FolderState, MailCache

    add_account(Account("work", "imap.example.org", "alice@example.org", folders=("INBOX",)))
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "Bob <bob@buyer.example>", "alice@example.org", "Late delivery"
    msg["Date"] = "Tue, 03 Jun 2025 09:12:00 +0200"
    msg.set_content("Hi Alice,\n\nwhat does late delivery cost you under the attached agreement?\n\nBob")
    folder = Path(os.environ["ASSISTANT_DATA_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    msg.add_attachment(clause_pdf(folder / "clause.pdf").read_bytes(), maintype="application", subtype="pdf",
                       filename="clause.pdf")
    cache = MailCache()
    cache.put(CachedRef("work", "INBOX", 1, 1), msg.as_bytes())
    cache.set_state("work", "INBOX", FolderState(1, 1))


# -- 1. a point is listed as soon as it is answered ----------------------------------------------------------
def test_each_point_is_listed_as_soon_as_it_is_answered(qtbot: QtBot, user_dirs: Path, store: ModelStore,
                                                        gate: Gate, tmp_path: Path) -> None:
    window = new_window(qtbot, store)
    window.open_files([saved_message(tmp_path)])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    panel = window.draft_panel
    panel.instructions.setText("accept")  # the LLM writes an opening: held by the gate until the points are seen
    try:
        window.ask_panel.files.draft_button.click()
        qtbot.waitUntil(lambda: panel.points.topLevelItemCount() == 1, timeout=60000)
        assert panel.result is None and panel.busy  # listed while the reply is still being written
        point = panel.points.topLevelItem(0)
        assert point.text(0).startswith("\u2714 1. What does late delivery cost")
        assert point.child(0).text(0).startswith(SENTENCE)
        source = next(point.child(i) for i in range(point.childCount()) if point.child(i).text(0).startswith("[1]"))
        with qtbot.waitSignal(panel.passage.page.rendered, timeout=20000):  # its page opens while drafting
            panel.points.itemClicked.emit(source, 0)
    finally:
        gate.open.set()
    qtbot.waitUntil(lambda: panel.result is not None, timeout=60000)
    assert panel.points.topLevelItemCount() == 1  # the finished draft's points replace those listed, not added
    assert "We accept the terms." in panel.text.toPlainText()


# -- 2 and 6. readable points beside the page; the folders and the window keep their width --------------------
def _items(tree: object) -> list[QTreeWidgetItem]:
    items, it = [], QTreeWidgetItemIterator(tree)  # type: ignore[call-overload]
    while it.value():
        items.append(it.value())
        it += 1
    return items


def test_points_are_readable_beside_the_page_at_1150_px(qtbot: QtBot, user_dirs: Path) -> None:
    cache_pdf_message()
    window = new_window(qtbot, ModelStore(QUIET), 1150, 750)
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 1, timeout=30000)
    names = max(window.folders.fontMetrics().horizontalAdvance(t) for t in ("All mail", "INBOX", "work"))
    panel = window.draft_panel
    window.tabs.setCurrentWidget(panel)
    window.messages.select_row(0)
    qtbot.waitUntil(lambda: panel.row is not None, timeout=30000)
    assert panel.row is not None
    doc = extract(clause_pdf(user_dirs / "clause.pdf"))
    start = doc.text.index("Late delivery")
    source = Source(1, f"{panel.row.ref.id}/clause.pdf", 2, start, start + len(SENTENCE), SENTENCE, 0)
    document = Document(source.source, doc.text, doc.segments, doc.offsets)
    answer = Answer("q", f"The agreement states that delivery is due within thirty days, and {SENTENCE} [1]",
                    True, "question_answering", (source,), (), {}, (), supported_by=(1,))
    point = Point("What does late delivery cost the supplier under the agreement, and is there a cap?", answer)
    panel.replied = (panel.row.message, panel.row.ref.id)
    panel._generated(DraftResult(Draft("Hi Bob,", (point,)), (document,), ()))  # as a finished draft shows it
    qtbot.wait(200)
    width, sizes = window.width(), window.splitter.sizes()
    cited = _items(panel.points)[-1]
    with qtbot.waitSignal(panel.passage.page.rendered, timeout=20000):
        panel.points.itemClicked.emit(cited, 0)
    qtbot.wait(300)
    assert panel.passage.tabs.currentWidget() is panel.passage.page  # the attachment's page
    tree = panel.points
    assert tree.horizontalScrollBar().maximum() == 0
    for item in _items(tree):
        rect = tree.visualItemRect(item)
        text = item.text(0)
        assert rect.width() >= 200, text
        # the whole text fits its row wrapped at the row's width: nothing cut to "…"
        assert wrapped_height(text, tree.font(), rect.width() - 8) <= rect.height(), text
    heading = panel.points_heading
    assert heading.wordWrap() and heading.height() >= heading.heightForWidth(heading.width())
    # the page view takes what it needs: the window is not widened and the folders keep their names' width
    assert window.width() == width and window.splitter.sizes() == sizes
    assert window.folders.width() >= names + window.folders.indentation()


# -- 3. a synced message's PDF attachment shows its page in the Ask tab ----------------------------------------
def test_an_attachment_source_of_a_synced_message_shows_its_page(qtbot: QtBot, user_dirs: Path, store: ModelStore,
                                                                 tmp_path: Path) -> None:
    cache_pdf_message()
    window = new_window(qtbot, store)
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 1, timeout=30000)
    window.messages.select_row(0)
    panel = window.ask_panel
    qtbot.waitUntil(lambda: panel.context_label.text().startswith("Asking about"), timeout=30000)
    panel.question.setText("What does late delivery cost?")
    window.ask_action.trigger()
    qtbot.waitUntil(lambda: not panel.busy and panel.answer is not None, timeout=60000)
    item = next(panel.sources.item(i) for i in range(panel.sources.count())
                if "] clause.pdf, p. " in panel.sources.item(i).text())
    with qtbot.waitSignal(panel.passage.page.rendered, timeout=20000) as shown:
        panel.sources.itemClicked.emit(item)
    assert panel.passage.tabs.currentWidget() is panel.passage.page
    assert shown.args[0].highlights  # the cited sentence, highlighted on its page
    page_file = Path(panel.passage.page.path)
    assert page_file.is_file() and page_file.name == "clause.pdf"
    assert panel.passage.title.toolTip().endswith("/clause.pdf") and "INBOX" in panel.passage.title.toolTip()
    other = tmp_path / "notes.md"
    other.write_text("Nothing about delivery.")
    window.open_files([other])  # the message is no longer asked about: its attachment's file goes
    qtbot.waitUntil(lambda: panel.mail is None, timeout=30000)
    assert not page_file.exists()


def test_a_text_source_in_the_ask_tab_scrolls_to_its_passage(qtbot: QtBot, user_dirs: Path, store: ModelStore,
                                                            tmp_path: Path) -> None:
    from assistant.accounts import Account, add_account

    add_account(Account("work", "imap.example.org", "alice@example.org", folders=("INBOX",)))
    window = new_window(qtbot, store, 1150, 750)  # the mail panes beside: the passage view is narrow
    filler = "\n\n".join(f"Clause {i}. Packaging unit {i} holds {4 * i} cartons of gloves." for i in range(60))
    path = tmp_path / "agreement.txt"
    path.write_text(f"{filler}\n\n{SENTENCE}\n\n{filler}")
    window.open_files([path])
    panel = window.ask_panel
    qtbot.waitUntil(lambda: panel.session is not None, timeout=30000)
    panel.question.setText("What does late delivery cost?")
    window.ask_action.trigger()
    qtbot.waitUntil(lambda: not panel.busy and panel.answer is not None, timeout=60000)
    panel.sources.itemClicked.emit(panel.sources.item(0))
    view = panel.passage.text
    assert panel.passage.tabs.currentWidget() is view
    qtbot.waitUntil(lambda: 0 <= view.cursorRect().top() < view.viewport().height() // 2, timeout=5000)
    assert view.verticalScrollBar().value() > 0


# -- 4. a notice of new mail times out -------------------------------------------------------------------------
def test_a_notice_of_new_mail_goes_after_a_while(qtbot: QtBot, user_dirs: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.mail.cache import CachedRef
    from assistant.mail.watch import NewMessage

    monkeypatch.setattr(window_layout, "NOTICE_MS", 300)
    window = new_window(qtbot, ModelStore(QUIET))
    window.notice.setText("Open: contract.pdf (3 KB)")
    new = NewMessage(CachedRef("work", "INBOX", 1, 7), "Dana <dana@example.org>", "Office closed Monday",
                     datetime(2025, 6, 3), ())
    window.mail._mail_arrived([new])
    assert window.notice.text().startswith("New mail in work/INBOX: \u201cOffice closed Monday\u201d")
    qtbot.waitUntil(lambda: window.notice.text() == "Open: contract.pdf (3 KB)", timeout=3000)


# -- 5. the warning only when the answer's own documents changed -----------------------------------------------
CONTRACT = "\n\n".join([f"Clause {i}. Warehouse {i} stores {i * 3} crates of tin." for i in range(12)] +
                       [f"Clause 99. {SENTENCE}"])


def test_leaving_out_a_file_the_answer_did_not_use_gives_no_warning(qtbot: QtBot, user_dirs: Path,
                                                                    store: ModelStore, tmp_path: Path) -> None:
    window = new_window(qtbot, store)
    contract, memo = tmp_path / "contract.md", tmp_path / "memo.txt"
    contract.write_text(CONTRACT)
    memo.write_text("The office is closed on Monday.")
    window.open_files([contract, memo])
    panel = window.ask_panel
    qtbot.waitUntil(lambda: panel.session is not None, timeout=30000)
    panel.question.setText("What does late delivery cost?")
    window.ask_action.trigger()
    qtbot.waitUntil(lambda: not panel.busy and panel.answer is not None, timeout=60000)
    assert panel.answer is not None and {s.source for s in panel.answer.cited} == {str(contract)}

    def settle() -> None:
        qtbot.waitUntil(lambda: panel.session is not None and not window.runner.running("context"), timeout=30000)

    panel.files.list.item(1).setCheckState(Qt.CheckState.Unchecked)  # the memo left out
    settle()
    window.close_files([str(memo)])  # and removed
    settle()
    assert "changed since this answer" not in panel.meta.text()
    other = tmp_path / "other.txt"
    other.write_text("Nothing here.")
    window.open_files([other])
    settle()
    panel.files.list.item(0).setCheckState(Qt.CheckState.Unchecked)  # the contract the answer cites, left out
    settle()
    assert "changed since this answer" in panel.meta.text()
