"""The desktop window driven offscreen with the real service: files, ask, cancel, mail sync, drafts."""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator, scripted_store  # noqa: E402
from PySide6.QtCore import QElapsedTimer, QTimer  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402

from assistant.config import PipelineOptions, Settings  # noqa: E402
from assistant.gui.account_dialog import AccountDialog  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.records import Retract, TokenText  # noqa: E402
from assistant.service import ModelStore  # noqa: E402
from assistant.ttrag.pipeline import NOT_FOUND_TEXT  # noqa: E402

FACTS = "\n\n".join([f"Clause {i}. Warehouse {i} stores {i * 3} crates of tin." for i in range(40)] +
                    ["Clause 99. Payment is due within 45 days of the invoice date."])
ROUTE = '{"route": "question_answering", "target": ""}'


PAYMENT = json.dumps({"found": True, "passage": 1, "short_answer": "45 days of the invoice date",
                      "answer": "Payment is due within 45 days of the invoice date."})


MENU = json.dumps({"found": True, "passage": 1, "short_answer": "soup and bread",
                   "answer": "The Friday menu is soup and bread."})


def script(request: GenerationRequest) -> str:
    if request.purpose == "route":
        return ROUTE
    if request.purpose == "draft_requests":
        return '{"requests": ["What is on the Friday menu?", "Is parking free?"]}'
    if request.purpose == "draft":
        return "Hi Bob,\n\nYes, noon works for me. The menu is soup and bread.\n\nBest,\nAlice"
    if "Friday menu:" in request.user:
        return MENU
    return PAYMENT  # the reader's JSON reply


class SlowGenerator(ScriptedGenerator):
    """Streams one piece every 20 ms for up to 30 s: long enough to be cancelled."""

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        if request.purpose in ("route", "draft_requests"):
            yield script(request)
            return
        # the sentence is shown once it states the short answer, then streams on
        yield '{"found": true, "passage": 1, "short_answer": "45 days", "answer": "Due within 45 days: '
        for _ in range(1500):
            time.sleep(0.02)
            yield "tin "


@pytest.fixture
def store(tokenizer: object, embedder: object, encoder: object) -> ModelStore:
    return scripted_store(ScriptedGenerator(script), tokenizer, embedder, encoder)


@pytest.fixture
def window(qtbot: QtBot, user_dirs: Path, store: ModelStore) -> MainWindow:
    w = MainWindow(store)
    qtbot.addWidget(w)
    w.show()
    return w


class GapMeter:
    """Longest interval between ticks of a 10 ms timer on the GUI thread (a responsiveness figure)."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.longest_ms = 0
        self.clock.start()
        self.timer.start()

    def _tick(self) -> None:
        self.longest_ms = max(self.longest_ms, self.clock.restart())

    def stop(self) -> int:
        self.timer.stop()
        return self.longest_ms


def ask(qtbot: QtBot, window: MainWindow, question: str, timeout: int = 60000) -> None:
    window.ask_panel.question.setText(question)
    window.ask_action.trigger()
    qtbot.waitUntil(lambda: window.ask_panel.answer is not None or "Could not" in window.ask_panel.meta.text(),
                    timeout=timeout)


def test_open_files_ask_streams_answer_and_sources(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    good = tmp_path / "contract.md"
    good.write_text(FACTS)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not really a pdf")
    window.open_files([good, broken])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    context = window.ask_panel.context_label.text()
    assert "contract.md" in context and "Could not read broken.pdf" in context
    tokens: list[str] = []
    window.runner.progressed.connect(lambda task, e: tokens.append(e.text) if isinstance(e, TokenText) else None)
    meter = GapMeter()
    ask(qtbot, window, "When is payment due?")
    print(f"\nGUI longest gap during an ask (scripted LLM, real MiniLM): {meter.stop()} ms")
    answer = window.ask_panel.answer
    assert answer is not None and "45 days" in answer.text
    assert "".join(tokens) == answer.text and len(tokens) > 3
    assert window.ask_panel.answer_text.toPlainText() == answer.text
    assert window.ask_panel.sources.count() == len(answer.cited) > 0
    window.ask_panel.sources.itemClicked.emit(window.ask_panel.sources.item(0))
    assert window.ask_panel.passage.title.text().startswith("[1] ")
    assert window.ask_panel.passage.text.toPlainText()
    qtbot.waitUntil(lambda: window.progress.idle)
    session = window.ask_panel.session
    ask(qtbot, window, "How many crates does warehouse 3 store?")
    assert window.ask_panel.session is session  # the follow-up reused the session


def test_only_unreadable_files_show_the_reason(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    window.open_files([empty])
    qtbot.waitUntil(lambda: "None of the files" in window.ask_panel.context_label.text(), timeout=30000)
    assert "empty.txt: contains no text" in window.ask_panel.context_label.text()
    window.ask_panel.question.setText("Anything?")
    window.ask_panel.ask()
    assert "open a file" in window.ask_panel.meta.text()


def test_cancel_a_long_ask_returns_to_idle(qtbot: QtBot, window: MainWindow, store: ModelStore,
                                           tmp_path: Path) -> None:
    store._generator = SlowGenerator(script)
    doc = tmp_path / "facts.txt"
    doc.write_text(FACTS)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    window.ask_panel.question.setText("When is payment due?")
    window.ask_panel.ask_button.click()
    qtbot.waitUntil(lambda: "tin" in window.ask_panel.answer_text.toPlainText(), timeout=30000)
    assert not window.progress.idle and window.progress.isVisible()
    assert window.ask_panel.ask_button.text() == "Stop"
    task = window.ask_panel._task
    window.ask_panel.question.returnPressed.emit()  # Enter again does not silently restart it
    window.ask_action.trigger()
    assert window.ask_panel._task is task and not task.cancel.is_set() and "Still answering" in \
        window.ask_panel.meta.text()
    assert not window.progress.stop_button.isVisible()  # one Stop: the Ask button's
    window.ask_panel.ask_button.click()
    assert window.progress.idle and not window.progress.isVisible() and not window.ask_panel.busy
    assert window.ask_panel.answer_text.toPlainText() == "Cancelled."
    assert window.ask_panel.ask_button.text() == "Ask"
    assert window.runner.wait(10000)  # the pipeline stopped at its next step
    qtbot.wait(100)
    assert window.ask_panel.answer is None and window.ask_panel.answer_text.toPlainText() == "Cancelled."


HEDGING = json.dumps({"found": True, "passage": 1, "short_answer": "45 days of the invoice date",
                      "answer": "Payment is due within 45 days of the invoice date, but the rate is not provided."})


def test_withdrawn_text_leaves_the_answer_box(qtbot: QtBot, window: MainWindow, store: ModelStore,
                                              tmp_path: Path) -> None:
    store._generator = ScriptedGenerator(lambda r: HEDGING if r.purpose.startswith("answer") else script(r))
    doc = tmp_path / "facts.txt"
    doc.write_text(FACTS)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    seen: list[tuple[object, str]] = []  # each event, and the answer box right after the panel handled it
    window.runner.progressed.connect(lambda task, e: seen.append((e, window.ask_panel.answer_text.toPlainText())))
    ask(qtbot, window, "When is payment due?")
    assert window.ask_panel.answer is not None and not window.ask_panel.answer.found
    shown = [text for event, text in seen if isinstance(event, TokenText)]
    assert any(text.startswith("Payment is due within 45 days") for text in shown)  # streamed while grounded
    retracted = [text for event, text in seen if isinstance(event, Retract)]
    assert retracted and all(text == "" for text in retracted)  # then taken off the screen
    assert shown[-1] == NOT_FOUND_TEXT  # all the box showed before the answer arrived
    assert window.ask_panel.answer_text.toPlainText() == NOT_FOUND_TEXT


def test_stop_button_stops_a_long_prefill_of_the_real_model(qtbot: QtBot, user_dirs: Path, fast_llm: object,
                                                            tokenizer: object, embedder: object,
                                                            encoder: object, tmp_path: Path) -> None:
    store = ModelStore(Settings(pipeline=PipelineOptions(router=False, max_rewrites=0, ce_top_k=8,
                                                         max_answer_tokens=64)))
    store._tokenizer, store._embedder, store._encoder = tokenizer, embedder, encoder
    store._generator = fast_llm  # type: ignore[assignment]
    window = MainWindow(store)
    qtbot.addWidget(window)
    doc = tmp_path / "facts.txt"
    clauses = [f"Clause {i}. Warehouse {i} stores {i * 3} crates of tin in row {i % 7}." for i in range(300)]
    doc.write_text(uuid.uuid4().hex + "\n\n" + "\n\n".join(clauses) + "\n\n" + FACTS)  # new: no saved prefix
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=60000)
    stages: list[str] = []
    window.runner.progressed.connect(lambda task, e: stages.append(getattr(e, "stage", "")))
    window.ask_panel.question.setText("When is payment due?")
    window.ask_panel.ask_button.click()
    qtbot.waitUntil(lambda: "generate" in stages, timeout=60000)  # the model is reading the passages
    qtbot.wait(300)
    assert window.ask_panel.ask_button.text() == "Stop"
    t0 = time.perf_counter()
    window.ask_panel.ask_button.click()
    assert window.runner.wait(2000)  # the model call itself stopped
    lag = time.perf_counter() - t0
    usage = fast_llm.usage[-1]  # type: ignore[attr-defined]
    ctx = window.ask_panel.session.context  # type: ignore[union-attr]
    passages = fast_llm.count_tokens("\n".join(c.text for c in ctx.chunks[:8]))  # type: ignore[attr-defined]
    print(f"\nStop during the reader's prefill (SmolLM2-135M, a prompt of about {passages} tokens of passages): "
          f"worker ended {lag:.3f} s after Stop")
    assert window.ask_panel.answer_text.toPlainText() == "Cancelled." and usage.completion_tokens == 0


def test_fast_llm_streams_an_answer(qtbot: QtBot, user_dirs: Path, fast_llm: object, tokenizer: object,
                                    embedder: object, encoder: object, tmp_path: Path) -> None:
    store = ModelStore(Settings(pipeline=PipelineOptions(router=False, max_rewrites=0, max_answer_tokens=48)))
    store._tokenizer, store._embedder, store._encoder = tokenizer, embedder, encoder
    store._generator = fast_llm  # type: ignore[assignment]
    window = MainWindow(store)
    qtbot.addWidget(window)
    doc = tmp_path / "facts.txt"
    doc.write_text(FACTS)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    tokens: list[str] = []
    window.runner.progressed.connect(lambda task, e: tokens.append(e.text) if isinstance(e, TokenText) else None)
    meter = GapMeter()
    ask(qtbot, window, "When is payment due?", timeout=120000)
    print(f"\nGUI longest gap during an ask (SmolLM2-135M): {meter.stop()} ms")
    assert window.ask_panel.answer is not None
    assert tokens and window.ask_panel.answer_text.toPlainText()


def test_offline_indicator_when_the_server_is_unreachable(qtbot: QtBot, window: MainWindow,
                                                          memory_keyring: object) -> None:
    from dovecot import free_port

    dialog = AccountDialog(window)
    dialog.name.setText("gone")
    dialog.host.setText("127.0.0.1")
    dialog.user.setText("me")
    dialog.password.setText("pw")
    dialog.port.setValue(free_port())
    dialog.accept()
    assert dialog.account is not None
    window.reload_accounts()
    window.sync_action.trigger()
    qtbot.waitUntil(lambda: window.sync_outcome is not None, timeout=30000)
    assert window.offline.isVisibleTo(window) and window.sync_outcome.unreachable == ["gone"]


def test_mail_sync_select_ask_draft_and_save(qtbot: QtBot, window: MainWindow, dovecot: object,
                                             server_client: object, memory_keyring: object) -> None:
    tag = uuid.uuid4().hex[:8]
    folder = f"gui-{tag}"
    server_client.create_folder(folder)  # type: ignore[attr-defined]
    msg = EmailMessage()
    msg["From"], msg["To"] = "Bob <bob@example.org>", "alice@example.org"
    msg["Subject"], msg["Message-ID"] = f"Lunch {tag}?", f"<{tag}@example.org>"
    msg.set_content("Are you free at noon on Friday? The menu is attached.")
    msg.add_attachment(b"Friday menu: soup and bread.\n", maintype="text", subtype="plain", filename="menu.txt")
    msg.add_attachment(b"\x89PNG....", maintype="image", subtype="png", filename="logo.png")
    server_client.append(folder, msg.as_bytes())  # type: ignore[attr-defined]

    dialog = AccountDialog(window)
    for field, value in ((dialog.name, "gui"), (dialog.host, "127.0.0.1"),
                         (dialog.user, dovecot.user), (dialog.password, dovecot.password),  # type: ignore
                         (dialog.folders, folder), (dialog.ca_file, str(dovecot.cert))):  # type: ignore
        field.setText(value)
    dialog.port.setValue(dovecot.imaps_port)  # type: ignore[attr-defined]
    dialog.accept()
    assert dialog.account is not None, dialog.error.text()
    window.reload_accounts()
    window.sync_action.trigger()
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 1, timeout=30000)
    assert not window.offline.isVisibleTo(window)
    assert window.messages.model.index(0, 0).data() == "\u25CF"  # new since the last sync
    window.messages.select_row(0)
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    view = window.message_view
    assert "noon on Friday" in view.body.toPlainText()
    assert view.status_of("menu.txt") == "read"
    assert view.status_of("logo.png") == "failed: unsupported: image/png"
    ask(qtbot, window, "What is on the Friday menu?")
    assert window.ask_panel.answer is not None

    panel = window.draft_panel
    panel.instructions.setText("accept")
    window.draft_action.trigger()
    assert panel.generate_button.text() == "Stop" and not panel.save_button.isEnabled()
    qtbot.waitUntil(lambda: panel.result is not None, timeout=60000)
    assert panel.generate_button.text() == "Regenerate" and panel.save_button.isEnabled()
    assert "soup and bread" in panel.text.toPlainText()
    menu, parking = panel.points.topLevelItem(0), panel.points.topLevelItem(1)
    assert menu.text(0).startswith("\u2714 1. What is on the Friday menu?")
    assert parking.text(0).startswith("\u2716 2.") and "not stated" in parking.child(0).text(0)
    cited = [menu.child(i) for i in range(menu.childCount()) if "menu.txt" in menu.child(i).text(0)]
    assert cited, [menu.child(i).text(0) for i in range(menu.childCount())]
    panel.points.itemClicked.emit(cited[0], 0)
    assert "menu.txt" in panel.passage.title.text() and "soup and bread" in panel.passage.text.toPlainText()
    assert "1 point is not stated" in panel.status.text()
    window.draft_panel.text.setPlainText("Yes, noon works. See you Friday!")
    window.draft_panel.save_button.click()
    qtbot.waitUntil(lambda: window.draft_panel.status.text().startswith(("Saved", "Failed")), timeout=30000)
    assert window.draft_panel.status.text().startswith("Saved to Drafts"), window.draft_panel.status.text()
    server_client.select_folder("Drafts", readonly=True)  # type: ignore[attr-defined]
    uids = server_client.search(["SUBJECT", tag])  # type: ignore[attr-defined]
    assert len(uids) == 1
    raw = server_client.fetch(uids, [b"BODY.PEEK[]"])[uids[0]][b"BODY[]"]  # type: ignore[attr-defined]
    assert b"Yes, noon works. See you Friday!" in raw and f"In-Reply-To: <{tag}@example.org>".encode() in raw


def cache_messages(n: int) -> None:
    from assistant.mail.cache import CachedRef, FolderState, MailCache

    cache = MailCache()
    for uid in range(1, n + 1):
        raw = (f"From: Sender {uid} <s{uid}@example.org>\r\nSubject: Topic {uid}\r\n"
               f"Date: Mon, 0{uid} Jun 2025 10:00:00 +0000\r\n\r\nBody {uid}\r\n").encode()
        cache.put(CachedRef("acc", "INBOX", 7, uid), raw)
    cache.set_state("acc", "INBOX", FolderState(7, n, previous_uid=n - 1))


def test_shortcuts_filter_and_window_state(qtbot: QtBot, user_dirs: Path, store: ModelStore) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QKeySequence

    cache_messages(3)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 3)
    shortcuts = {a.text(): a.shortcut().toString() for a in window.actions()}
    assert shortcuts["Ask"] == QKeySequence("Ctrl+Return").toString()
    assert shortcuts["Draft reply"] == "Ctrl+D" and shortcuts["Filter messages"] == "Ctrl+F"
    assert shortcuts["Previous message"] == "Alt+Up" and shortcuts["Next message"] == "Alt+Down"
    assert shortcuts["Open files\u2026"] == QKeySequence(QKeySequence.StandardKey.Open).toString()
    window.next_action.trigger()
    assert window.message_view.row is not None and window.message_view.row.message.subject == "Topic 3"
    window.next_action.trigger()
    assert window.message_view.row.message.subject == "Topic 2"
    window.prev_action.trigger()
    assert window.message_view.row.message.subject == "Topic 3"
    assert window.messages.model.index(0, 0).data() == "\u25CF" and not window.messages.model.index(1, 0).data()
    window.filter_action.trigger()
    qtbot.keyClicks(window.messages.filter, "topic 1")
    assert window.messages.proxy.rowCount() == 1
    for widget in (window.messages.table, window.ask_panel.question, window.ask_panel.sources,
                   window.draft_panel.text, window.progress.stop_button):
        assert widget.accessibleName()
    window.splitter.setSizes([100, 500, 700])
    saved = window.splitter.saveState()
    window.close()
    qtbot.waitUntil(lambda: window.runner.wait(0))
    again = MainWindow(store)
    qtbot.addWidget(again)
    assert (user_dirs / "config" / "gui.ini").is_file()
    assert again.settings.value("window/splitter") == saved and again.settings.value("window/geometry")
    assert again.splitter.saveState() == saved
    qtbot.waitUntil(lambda: again.messages.model.rowCount() == 3)
    described = again.messages.model.index(0, 3).data(Qt.ItemDataRole.AccessibleTextRole)
    assert described == "new, from Sender 3 <s3@example.org>, Topic 3"


def test_runner_drops_the_result_of_a_replaced_task(qtbot: QtBot) -> None:
    import threading

    from assistant.gui.tasks import TaskRunner

    runner = TaskRunner()
    release = threading.Event()
    got: list[str] = []

    def slow(emit: object, cancel: threading.Event) -> str:
        release.wait(5)
        return "old"

    runner.start("k", "old", slow, got.append)
    runner.start("k", "new", lambda emit, cancel: "new", got.append)
    qtbot.waitUntil(lambda: got == ["new"])
    release.set()
    assert runner.wait(5000)
    qtbot.wait(50)
    assert got == ["new"] and runner.running() == []


def test_draft_streams_and_stop_stops_it(qtbot: QtBot, window: MainWindow, store: ModelStore) -> None:
    cache_messages(1)
    store._generator = SlowGenerator(script)
    window.load_mail()
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 1)
    window.messages.select_row(0)
    panel = window.draft_panel
    window.draft_action.trigger()
    qtbot.waitUntil(lambda: "tin" in panel.text.toPlainText(), timeout=30000)  # the reply streams in
    window.draft_action.trigger()  # Ctrl+D again while writing does not restart it
    assert panel.busy and "tin" in panel.text.toPlainText()
    panel.generate_button.click()  # "Stop"
    assert not panel.busy and panel.status.text().startswith("Cancelled")
    assert panel.generate_button.text() == "Regenerate" and panel.result is None
    assert window.runner.wait(10000)  # the worker stopped at its next piece


def test_a_draft_saved_offline_is_kept_and_shown_as_waiting(qtbot: QtBot, window: MainWindow,
                                                            memory_keyring: object) -> None:
    from dovecot import free_port

    from assistant import secrets
    from assistant.accounts import Account, add_account
    from assistant.mail.pending import PendingDrafts

    add_account(Account("acc", "127.0.0.1", "alice", port=free_port()))  # nothing listens there
    secrets.set_password("acc", "pw")
    cache_messages(1)
    window.reload_accounts()
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 1)
    window.messages.select_row(0)
    window.draft_panel.text.setPlainText("See you then.")
    window.draft_panel.save_button.click()
    qtbot.waitUntil(lambda: window.draft_panel.status.text() != "Saving\u2026", timeout=30000)
    assert "kept on this computer" in window.draft_panel.status.text(), window.draft_panel.status.text()
    [kept] = PendingDrafts().waiting("acc")
    assert kept.subject == "Re: Topic 1" and b"See you then." in kept.path.read_bytes()
    assert window.pending_label.isVisibleTo(window) and "1 draft waiting" in window.pending_label.text()


NOT_FOUND = json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})


def test_not_found_lists_passages_read_and_names_each_attempt(qtbot: QtBot, window: MainWindow, store: ModelStore,
                                                              tmp_path: Path) -> None:
    rewrites = iter(["warehouse rent", "storage fees", "monthly charges"])
    store._generator = ScriptedGenerator(lambda r: next(rewrites) if r.purpose == "rewrite" else
                                         ROUTE if r.purpose == "route" else NOT_FOUND)
    doc = tmp_path / "facts.txt"
    doc.write_text(FACTS)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    labels: list[str] = []
    window.runner.progressed.connect(lambda task, e: labels.append(window.progress.stage.line))
    ask(qtbot, window, "What is the rent of the warehouse?")
    panel = window.ask_panel
    assert panel.answer is not None and not panel.answer.found
    assert panel.sources_label.text() == "Passages read (no answer found in them)"
    assert panel.sources.accessibleName() == "Passages read"
    assert "Attempt 2 of 2: searching again with \u2018warehouse rent\u2019" in labels  # one rewrite (the default)
    assert not any("storage fees" in label for label in labels)
    assert not any("Routing" in label or "Conditional" in label for label in labels)
    assert not any(label.count("Reading files") > 1 for label in labels)


def test_open_files_add_up_and_can_be_removed(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    first, second, broken = tmp_path / "contract.md", tmp_path / "amendment.txt", tmp_path / "broken.pdf"
    first.write_text(FACTS)
    second.write_text("Amendment 1. The payment term is extended to 60 days.")
    broken.write_bytes(b"%PDF-1.4 this is not really a pdf")
    window.open_files([first])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    assert window.focusWidget() is window.ask_panel.question  # ready to type the question
    ask(qtbot, window, "When is payment due?")
    kept = window.open_docs[str(first)]
    window.open_files([second, broken])  # Ctrl+O again adds, it does not replace
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    assert window.open_docs[str(first)] is kept  # the first file was not read again
    sources = {d.source for d in window.ask_panel.session.context.documents}  # type: ignore[union-attr]
    assert len(sources) == 2 and any("amendment" in s for s in sources)
    lines = [window.ask_panel.files.list.item(i).text() for i in range(window.ask_panel.files.list.count())]
    assert len(lines) == 3 and any(line.startswith("\u2716 broken.pdf \u2014 not read: ") for line in lines)
    # files added beside the contract the answer cites leave the answer as true as it was
    assert window.ask_panel.answer is not None and "changed since this answer" not in window.ask_panel.meta.text()
    window.close_files([str(first)])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    assert "changed since this answer" in window.ask_panel.meta.text()  # the contract it cites is closed
    assert [d.source for d in window.ask_panel.session.context.documents] == [  # type: ignore[union-attr]
        window.open_docs[str(second)].source]
    assert len(window.ask_panel.files.paths()) == 2


def test_menu_icon_and_one_elapsed_figure(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    menu = window.menuBar().actions()[0].menu()
    actions = menu.actions()  # type: ignore[union-attr]
    assert actions[-1].text() == "Quit" and actions[-2].isSeparator() and actions[-3].text() == "Settings\u2026"
    assert not window.windowIcon().isNull()
    doc = tmp_path / "facts.txt"
    doc.write_text(FACTS)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    started: list[float] = []
    window.runner.started.connect(lambda task: started.append(task.started_at))
    ask(qtbot, window, "When is payment due?")
    assert window.progress._t0 == started[-1]  # the progress clock and the answer count from one start
    assert window.ask_panel.meta.text().endswith(f"{window.ask_panel.elapsed:.1f} s")
