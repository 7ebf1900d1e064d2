"""The offline switch in the window's status bar and the Privacy page, offscreen, with real sockets."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

import httpx2  # noqa: E402
from conftest import ScriptedGenerator  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402
from qtmodal import on_next_modal, press  # noqa: E402

from assistant import netguard  # noqa: E402
from assistant.config import Settings, load_settings  # noqa: E402
from assistant.errors import NetworkOff  # noqa: E402
from assistant.gui.privacy import OfflineSwitch  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

ELSEWHERE = "203.0.113.1"  # TEST-NET-3 (RFC 5737)
FACTS = "\n\n".join([f"Clause {i}. Warehouse {i} stores {i * 3} crates of tin." for i in range(20)] +
                    ["Clause 99. Payment is due within 45 days of the invoice date."])


def script(request: GenerationRequest) -> str:
    if request.purpose == "route":
        return '{"route": "question_answering", "target": ""}'
    return json.dumps({"found": True, "passage": 1, "short_answer": "45 days of the invoice date",
                       "answer": "Payment is due within 45 days of the invoice date."})


@pytest.fixture
def window(qtbot: QtBot, user_dirs: Path, tokenizer: object, embedder: object, encoder: object,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    monkeypatch.delenv("ASSISTANT_CONNECTION_LOG", raising=False)  # this test's own log, in its data folder
    netguard.install()
    netguard.set_offline(False)
    store = ModelStore(Settings())
    store._tokenizer, store._embedder, store._encoder = tokenizer, embedder, encoder
    store._generator = ScriptedGenerator(script)
    w = MainWindow(store)
    qtbot.addWidget(w)
    w.show()
    yield w
    netguard.set_offline(False)


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "3072")
        self.end_headers()
        self.wfile.write(b"x" * 3072)

    def log_message(self, *args: object) -> None:
        pass


def test_the_offline_switch_shows_its_state_in_the_status_bar(qtbot: QtBot, window: MainWindow,
                                                              memory_keyring: object) -> None:
    from assistant import secrets
    from assistant.accounts import Account, add_account

    switch = window.privacy.switch
    assert window.statusBar().findChildren(OfflineSwitch) == [switch] and switch.isVisible()
    assert switch.text() == "Offline mode: off" and not netguard.is_offline()
    qtbot.mouseClick(switch, Qt.MouseButton.LeftButton)
    assert netguard.is_offline() and switch.text().endswith("Offline mode: on") and switch.isChecked()
    assert window.privacy.offline_action.isChecked()
    assert load_settings().privacy.offline is True  # kept for the next start and for the command line
    with pytest.raises(NetworkOff):
        socket.create_connection((ELSEWHERE, 993), timeout=5)
    add_account(Account("far", ELSEWHERE, "alice@example.org", folders=("INBOX",)))
    secrets.set_password("far", "not-used")
    window.reload_accounts()
    window.mail.sync()
    qtbot.waitUntil(window.sync_action.isEnabled, timeout=20000)
    assert "Mail sync needs the network; offline mode is on" in window.notice.text()
    window.privacy.offline_action.trigger()  # Privacy menu -> Offline mode turns it off again
    assert not netguard.is_offline() and switch.text() == "Offline mode: off" and not switch.isChecked()
    assert load_settings().privacy.offline is False


def test_the_privacy_page_tells_the_last_question_and_lists_every_connection(qtbot: QtBot, window: MainWindow,
                                                                            tmp_path: Path) -> None:
    page = window.privacy.show_page()
    assert "Offline mode is off" in page.summary.text()
    doc = tmp_path / "contract.md"
    doc.write_text(FACTS)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    window.ask_panel.question.setText("When is payment due?")
    asked = time.time()
    window.ask_action.trigger()
    qtbot.waitUntil(lambda: window.ask_panel.answer is not None, timeout=60000)
    page.refresh()
    last = netguard.last_activity("question")
    assert last is not None and last.started >= asked and last.ended is not None
    asked_at = time.strftime("%H:%M:%S", time.localtime(last.started))
    assert f"During your last question ({asked_at}): no connections." in page.summary.text()

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with netguard.purpose("asking the reader server"):
            assert len(httpx2.get(f"http://127.0.0.1:{server.server_port}/v1", timeout=5).content) == 3072
    finally:
        server.shutdown()
        server.server_close()
    window.privacy.page_action.trigger()  # the Privacy menu's entry shows the page, read afresh
    cells = [page.table.item(0, c).text() for c in range(page.table.columnCount())]
    assert cells[1] == "127.0.0.1 \u2014 this computer" and cells[2] == str(server.server_port)
    assert cells[3:] == ["asking the reader server", cells[4], "3.1 KB", "closed"] and cells[4].endswith(" B")
    assert page.where.text().startswith("1 connection logged, none to other machines (newest first).")

    on_next_modal(QMessageBox, press("Remove"))
    page.clear_button.click()
    assert page.table.rowCount() == 0 and not netguard.log().path.exists()
