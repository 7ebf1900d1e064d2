"""The "Needs reply" tab driven offscreen: find over a cached mailbox with known answers, open, draft a reply."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402
from test_mail_todo import MAILBOX, fill_cache, knows  # noqa: E402

from assistant.config import Settings  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.mail.cache import FolderState, MailCache  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.service import ModelStore  # noqa: E402


def script(request: GenerationRequest) -> str:
    if request.purpose == "todo":
        return knows(request)
    if request.purpose == "draft_requests":
        return '{"requests": []}'
    return "Hi,\n\nYes, I like it.\n\nSam"


@pytest.fixture
def window(qtbot: QtBot, user_dirs: Path, data_root: Path, tokenizer: object, embedder: object,
           encoder: object) -> Iterator[tuple[MainWindow, dict[str, str]]]:
    store = ModelStore(Settings())
    store._tokenizer, store._embedder, store._encoder = tokenizer, embedder, encoder
    store._generator = ScriptedGenerator(script)
    cache = MailCache()
    ids = fill_cache(data_root, cache)
    cache.set_state("me", "INBOX", FolderState(7, len(MAILBOX), previous_uid=0))  # all brought by the last sync
    w = MainWindow(store, cache=cache)
    qtbot.addWidget(w)
    yield w, ids
    w.runner.cancel_all()
    w.runner.wait(10000)


def test_needs_reply_lists_cites_and_drafts(qtbot: QtBot, window: tuple[MainWindow, dict[str, str]]) -> None:
    w, ids = window
    panel = w.todo_panel
    assert w.tabs.tabText(w.tabs.indexOf(panel)) == "Needs reply"
    assert not panel.draft_button.isEnabled()
    panel.find_button.click()
    qtbot.waitUntil(lambda: panel.items.count() == 2 and not panel.busy, timeout=30000)
    assert panel.status.text() == "2 messages of 5 ask something of you."
    lines = [panel.items.item(i).text() for i in range(2)]
    contract = next(t for t in lines if "Review the contract changes" in t)
    assert "\u2014 by Friday 27 November" in contract and "Maria Lopez" in contract and "not cited" in contract
    liked = next(t for t in lines if "Say if you like it" in t)
    assert liked.endswith("\u201cDo you like this message?\u201d")
    row = lines.index(liked)
    panel.items.setCurrentRow(row)
    assert panel.current_id() == ids["emails/cpython_email/msg_01.txt"]
    with qtbot.waitSignal(panel.draft_requested, timeout=5000):
        panel.draft_button.click()
    assert w.tabs.currentWidget() is w.draft_panel
    assert w.draft_panel.row is not None and w.draft_panel.row.ref.id == ids["emails/cpython_email/msg_01.txt"]
    qtbot.waitUntil(lambda: "Yes, I like it." in w.draft_panel.text.toPlainText() and not w.draft_panel.busy,
                    timeout=60000)


def test_stop_leaves_the_button_ready(qtbot: QtBot, window: tuple[MainWindow, dict[str, str]]) -> None:
    w, _ = window
    panel = w.todo_panel
    panel.find_button.click()
    assert not panel.find_button.isEnabled()
    w.stop_running()  # Esc: the newest task, this one
    qtbot.waitUntil(lambda: panel.find_button.isEnabled(), timeout=10000)
    assert panel.items.count() == 0


def test_without_an_account_finding_nothing_offers_to_add_one(qtbot: QtBot, user_dirs: Path) -> None:
    from assistant.accounts import Account, add_account
    from assistant.gui.todo_panel import NO_ACCOUNT

    store = ModelStore(Settings())
    store._generator = ScriptedGenerator(script)
    w = MainWindow(store, cache=MailCache())
    qtbot.addWidget(w)
    panel = w.todo_panel
    assert not panel.has_accounts
    # said before any click (a newcomer was told only after clicking), and after one
    assert panel.status.text() == NO_ACCOUNT and "add one" in panel.status.text()
    panel.find_button.click()
    qtbot.waitUntil(lambda: not panel.busy and panel.find_button.isEnabled(), timeout=10000)
    assert panel.status.text() == NO_ACCOUNT
    w.todo_panel.add_account_requested.disconnect()  # the account dialog would wait for a person
    with qtbot.waitSignal(panel.add_account_requested, timeout=1000):
        panel.status.linkActivated.emit("add-account")
    add_account(Account("me", "imap.example.org", "me@example.org", folders=("INBOX",)))
    w.reload_accounts()
    assert panel.has_accounts and panel.status.text() == ""
    panel.find_button.click()
    qtbot.waitUntil(lambda: not panel.busy and panel.find_button.isEnabled(), timeout=10000)
    assert panel.status.text() == "No recent messages here; sync, or pick another folder."
