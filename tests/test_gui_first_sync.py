"""Issue 51, points 1 and 2, against a real Dovecot (pytest-qt, offscreen): the mail of an account's first sync
gets its attachments' gist too (newest first, in the background, stopped from the status bar), the list shows the
gist on a line of its own under the subject, and adding the first account in the running app watches for new
mail as a restart would, the status bar telling what arrives."""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator  # noqa: E402
from PySide6.QtWidgets import QDialog, QWidget  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402
from qtmodal import on_next_modal  # noqa: E402

from assistant.accounts import Account, add_account  # noqa: E402
from assistant.config import MailSettings, Settings  # noqa: E402
from assistant.gui.account_dialog import AccountDialog  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.mail.cache import CachedRef, FolderState, MailCache  # noqa: E402
from assistant.mail.gists import load_gist  # noqa: E402
from assistant.mail.sync import SyncResult  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

LICENSE = "Content license agreement. The licensee may show the catalogue images online for two years. The fee " \
          "is 1,200 EUR a year, payable in advance.\n"
INVOICE = "Invoice 2026-031. Amount due: 840 EUR within 30 days of the invoice date.\n"


def summary(request: GenerationRequest) -> str:
    """The reader's reply to the gist's summary request: one point citing the first passage shown."""
    text = LICENSE if "licensee" in request.user else INVOICE
    return json.dumps({"point1": {"sentence": text.split(". ")[1], "passage": 1}})


class SlowSummary(ScriptedGenerator):
    """Writes its summary one piece every 50 ms for up to a minute: a gist long enough to be stopped."""

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        self.requests.append(request)
        for _ in range(1200):
            time.sleep(0.05)
            yield " "


def mail(subject: str, day: int, attachment: tuple[str, str] | None = None) -> bytes:
    m = EmailMessage()
    m["From"], m["To"] = "Dana <dana@example.org>", "alice@example.org"
    m["Subject"], m["Message-ID"] = subject, f"<{uuid.uuid4().hex}@example.org>"
    m["Date"] = format_datetime(datetime(2026, 3, day, 9, 0))
    m.set_content("See the attachment." if attachment else "Just text.")
    if attachment:
        m.add_attachment(attachment[1].encode(), maintype="text", subtype="plain", filename=attachment[0])
    return m.as_bytes()


def gist_store(tokenizer: object, generator: ScriptedGenerator, *, gist: bool = True) -> ModelStore:
    store = ModelStore(Settings(mail=MailSettings(gist=gist)))
    store._tokenizer, store._generator = tokenizer, generator
    return store


def new_window(qtbot: QtBot, store: ModelStore) -> MainWindow:
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.mail.gists.nice = 0  # at the lowest priority a shared test machine can starve the gist for minutes
    return window


def accept_account(account: Account, password: str) -> None:
    """Answer the next Add account dialog as the person does: the account saved, the dialog accepted."""
    def act(dialog: QWidget) -> None:
        from assistant import secrets

        assert isinstance(dialog, AccountDialog)
        secrets.set_password(account.name, password)
        add_account(account)
        dialog.account = account
        QDialog.accept(dialog)

    on_next_modal(AccountDialog, act)


def new_account(dovecot: object, name: str, folder: str) -> Account:
    return Account(name, "127.0.0.1", dovecot.user, port=dovecot.imaps_port,  # type: ignore[attr-defined]
                   ca_file=str(dovecot.cert), folders=(folder,))  # type: ignore[attr-defined]


def server_folder(client: object, *messages: bytes) -> str:
    folder = f"f-{uuid.uuid4().hex[:8]}"
    client.create_folder(folder)  # type: ignore[attr-defined]
    for raw in messages:
        client.append(folder, raw)  # type: ignore[attr-defined]
    return folder


# -- point 1: the first sync gets its gists ----------------------------------------------------------------------
def test_the_first_sync_of_a_new_account_gets_its_gists_newest_first(
        qtbot: QtBot, user_dirs: Path, memory_keyring: object, dovecot: object, server_client: object,
        tokenizer: object) -> None:
    folder = server_folder(server_client, mail("Invoice for March", 2, ("invoice.txt", INVOICE)),
                           mail("Lunch on Friday", 3),
                           mail("Content license agreement for the spring catalogue images", 4,
                                ("license.txt", LICENSE)), mail("Minutes", 5))
    window = new_window(qtbot, gist_store(tokenizer, ScriptedGenerator(summary)))
    ready: list[str] = []
    failed: list[str] = []
    window.mail.gists.ready.connect(lambda new, gist: ready.append(new.subject))
    window.mail.gists.failed.connect(lambda new, reason: failed.append(f"{new.subject}: {reason}"))
    accept_account(new_account(dovecot, "first", folder), dovecot.password)  # type: ignore[attr-defined]
    try:
        window.mail.add_account()
        qtbot.waitUntil(lambda: window.notice.text() == "Synced: 4 new messages.", timeout=30000)
        # two gists of a scripted reader take seconds; the limit is for a machine other work holds
        qtbot.waitUntil(lambda: len(ready) + len(failed) == 2, timeout=180000)
        assert not failed
        assert ready == ["Content license agreement for the spring catalogue images", "Invoice for March"]
        model = window.messages.model
        qtbot.waitUntil(lambda: sum(r.gist is not None for r in model.rows) == 2, timeout=30000)
        with_gist = [r for r in model.rows if r.gist is not None]
        assert [r.message.subject for r in with_gist] == ready  # the list shows them (newest first)
        assert all(load_gist(window.cache, r.ref) == r.gist for r in with_gist)  # kept beside the message
        assert window.banner.isHidden()  # the mail that was there is not told as new mail
        assert window.gist_label.isHidden()  # nothing left to read
    finally:
        window.mail_watch.stop(wait_s=5)


# -- point 2: the first account added in the running app is watched ----------------------------------------------
def test_the_first_account_added_is_watched_and_the_status_bar_tells_what_arrives(
        qtbot: QtBot, user_dirs: Path, memory_keyring: object, dovecot: object, server_client: object,
        tokenizer: object) -> None:
    folder = server_folder(server_client, *(mail(f"Old {i}", 2 + i) for i in range(4)))
    window = new_window(qtbot, gist_store(tokenizer, ScriptedGenerator(summary), gist=False))
    assert not window.watch_action.isChecked() and not window.mail.has_accounts
    accept_account(new_account(dovecot, "first", folder), dovecot.password)  # type: ignore[attr-defined]
    try:
        window.mail.add_account()
        qtbot.waitUntil(lambda: window.notice.text() == "Synced: 4 new messages.", timeout=30000)
        qtbot.waitUntil(window.watch_action.isChecked, timeout=30000)  # as after a restart
        assert window.mail_watch.watching == [f"first/{folder}"]
        server_client.append(folder, mail("Fifth one", 6))  # type: ignore[attr-defined]
        qtbot.waitUntil(lambda: window.notice.text().startswith(f"New mail in first/{folder}: "), timeout=60000)
        assert window.notice.text().endswith("\u201cFifth one\u201d from Dana <dana@example.org>.")
        qtbot.waitUntil(lambda: window.messages.model.rowCount() == 5, timeout=30000)  # and the list shows it
    finally:
        window.mail_watch.stop(wait_s=5)


def test_a_watch_left_off_by_hand_stays_off_when_an_account_is_added(
        qtbot: QtBot, user_dirs: Path, memory_keyring: object, dovecot: object, server_client: object,
        tokenizer: object) -> None:
    folder = server_folder(server_client)
    window = new_window(qtbot, gist_store(tokenizer, ScriptedGenerator(summary)))
    window.watch_action.trigger()  # ticked by hand with no account: nothing to watch, and it says so
    assert not window.watch_action.isChecked() and "add a mail account first" in window.notice.text()
    window.watch_action.setChecked(True)
    window.watch_action.trigger()  # unticked by hand
    accept_account(new_account(dovecot, "second", folder), dovecot.password)  # type: ignore[attr-defined]
    window.mail.add_account()
    qtbot.waitUntil(lambda: window.notice.text() == "Synced: 0 new messages.", timeout=30000)
    qtbot.wait(300)
    assert not window.watch_action.isChecked() and window.mail_watch.watcher is None


def cached_mail(cache: MailCache, folder: str) -> SyncResult:
    """Three messages with attachments in ``cache``, as a first sync leaves them (dates 2, 4, 3 March)."""
    cache.set_state("a", folder, FolderState(1, 3))
    for uid, (subject, day) in enumerate((("Oldest", 2), ("Newest", 4), ("Middle", 3)), start=1):
        cache.put(CachedRef("a", folder, 1, uid), mail(subject, day, ("note.txt", INVOICE)))
    return SyncResult("a", folder, 1, (1, 2, 3), False, 0)


def test_reading_the_first_sync_s_attachments_is_stopped_from_the_status_bar(
        qtbot: QtBot, user_dirs: Path, tokenizer: object) -> None:
    slow = SlowSummary(summary)
    window = new_window(qtbot, gist_store(tokenizer, slow))
    gists = window.mail.gists
    gists.add_synced([cached_mail(window.cache, "INBOX")])
    qtbot.waitUntil(lambda: gists.busy and bool(slow.requests), timeout=30000)
    assert gists.current is not None and gists.current[1].subject == "Newest"
    assert [m.subject for m in gists.backlog] == ["Middle", "Oldest"]  # newest first
    label = window.gist_label
    assert label.isVisible() and label.text().startswith("Reading attachments: 3 messages left")
    running = gists.current[0]
    ready: list[object] = []
    gists.ready.connect(lambda new, gist: ready.append(new))
    label.linkActivated.emit("stop-gists")  # what clicking "stop" does
    assert running.cancel.is_set() and not gists.busy and not gists.backlog and label.isHidden()
    gists.runner.wait(30000)
    qtbot.wait(200)
    assert ready == [] and len(slow.requests) == 1  # nothing else was read


def test_the_list_shows_the_gist_on_its_own_line_under_a_long_subject(qtbot: QtBot, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QFontMetrics, QPalette
    from PySide6.QtWidgets import QStyleOptionViewItem
    from test_mail_gist import a_gist

    from assistant.gui.mail_list import GIST_ROLE, MessageListPanel, load_rows
    from assistant.mail.gists import save_gist

    cache = MailCache(tmp_path / "mail")
    cache.set_state("a", "INBOX", FolderState(1, 2))
    subject = "Content license agreement for the spring catalogue images and the web shop"
    with_gist, plain_one = CachedRef("a", "INBOX", 1, 1), CachedRef("a", "INBOX", 1, 2)
    cache.put(with_gist, mail(subject, 2, ("license.txt", LICENSE)))
    cache.put(plain_one, mail("Lunch", 3))
    line = "License (license.txt): images online for two years, 1,200 EUR a year [1]"
    save_gist(cache, with_gist, a_gist(line))
    panel = MessageListPanel()
    qtbot.addWidget(panel)
    panel.resize(520, 300)  # a narrow list: the subject alone is wider than its column
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_rows(load_rows(cache))
    table, proxy = panel.table, panel.proxy
    row = next(i for i in range(proxy.rowCount()) if proxy.index(i, 0).data(Qt.ItemDataRole.UserRole).ref.uid == 1)
    index = proxy.index(row, 3)
    assert index.data() == subject and index.data(GIST_ROLE) == line  # the subject column no longer runs on
    assert QFontMetrics(table.font()).horizontalAdvance(subject) > table.columnWidth(3)
    option = QStyleOptionViewItem()
    option.widget, option.font, option.rect = table, table.font(), table.visualRect(index)
    _, shown_subject, below, shown_gist = panel.subjects.lines(option, index)
    assert shown_subject.endswith("\u2026") and shown_gist.startswith("License (license.txt): images")
    other = 1 - row
    assert table.rowHeight(row) > table.rowHeight(other)  # two lines where there is a gist, one elsewhere
    # the second line is painted: ink in the gist's strip of the row
    image = table.viewport().grab().toImage()
    background = table.viewport().palette().color(QPalette.ColorRole.Base)

    def ink(top: int, bottom: int) -> int:
        rect = table.visualRect(index)
        return sum(QColor(image.pixel(x, y)) != background for x in range(rect.left() + 4, rect.left() + 120)
                   for y in range(top, bottom))

    assert ink(below.top(), below.bottom()) > 20
    assert "[1] quote.txt" in index.data(Qt.ItemDataRole.ToolTipRole)  # the sources, in the tooltip
    panel.set_gist(plain_one.id, a_gist("Lunch (menu.txt): soup [1]"))  # a gist arriving later makes room too
    qtbot.waitUntil(lambda: table.rowHeight(other) == table.rowHeight(row))
