"""The gist of new mail in the app (pytest-qt, offscreen): the banner and the message list show it, "Draft a
reply" opens the Draft tab, a question makes a running gist give way and start again after it, and the whole
watch path with a real Dovecot and the 135M reader."""

from __future__ import annotations

import threading
import uuid
from pathlib import Path

from test_mail_gist import REPORT, a_gist, with_attachment

from assistant.config import MailSettings, ModelSettings, Settings, WatchedFolder
from assistant.mail.cache import CachedRef, FolderState, MailCache
from assistant.mail.gists import load_gist, save_gist
from assistant.mail.watch import NewMessage


def quote_message(ref: CachedRef) -> NewMessage:
    return NewMessage(ref, "Bob <bob@example.org>", "Quote for the roof", None, (("quote.txt", len(REPORT)),))


def test_the_banner_tells_the_gist_and_offers_a_draft(qtbot: object) -> None:
    from PySide6.QtWidgets import QWidget

    from assistant.gui.notify import NewMailNotifier, NotificationBanner, notification_text

    parent = QWidget()
    qtbot.addWidget(parent)  # type: ignore[attr-defined]
    banner = NotificationBanner(parent)
    notifier = NewMailNotifier(banner, use_tray=False, parent=parent)
    drafts: list[NewMessage] = []
    notifier.draft_requested.connect(drafts.append)
    new, other = quote_message(CachedRef("a", "INBOX", 1, 2)), quote_message(CachedRef("a", "INBOX", 1, 3))
    assert notifier.notify([new])
    assert "roof costs" not in banner.text.text()
    assert not notifier.tell_gist(other, a_gist())  # not the message shown: the banner keeps its words
    assert notifier.tell_gist(new, a_gist())
    assert "Quote (quote.txt): the roof costs 4,250 EUR [1]" in banner.text.text()
    assert "[1] quote.txt: \u201cThe roof repair costs 4,250 EUR\u201d" in banner.text.toolTip()
    assert notification_text(new, 0, a_gist())[1].endswith("\nQuote (quote.txt): the roof costs 4,250 EUR [1]")
    banner.draft_button.click()
    assert drafts == [new] and banner.isHidden()
    assert not notifier.tell_gist(new, a_gist())  # dismissed: not shown again


def test_the_message_list_shows_the_kept_gist(qtbot: object, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt

    from assistant.gui.mail_list import GIST_ROLE, MessageListPanel, load_rows

    cache = MailCache(tmp_path / "mail")
    cache.set_state("a", "INBOX", FolderState(1, 2))
    with_gist, later = CachedRef("a", "INBOX", 1, 1), CachedRef("a", "INBOX", 1, 2)
    cache.put(with_gist, with_attachment("Quote for the roof", REPORT.encode(), "quote.txt"))
    cache.put(later, with_attachment("Invoice", REPORT.encode(), "invoice.txt"))
    save_gist(cache, with_gist, a_gist())
    panel = MessageListPanel()
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.set_rows(load_rows(cache))
    model = panel.model
    subjects = {model.rows[i].ref.uid: model.index(i, 3) for i in range(model.rowCount())}
    assert subjects[1].data() == "Quote for the roof"  # the gist has a line of its own under the subject
    assert subjects[1].data(GIST_ROLE) == "Quote (quote.txt): the roof costs 4,250 EUR [1]"
    assert "[1] quote.txt" in subjects[1].data(Qt.ItemDataRole.ToolTipRole)
    assert subjects[2].data() == "Invoice" and subjects[2].data(GIST_ROLE) is None
    assert panel.set_gist(later.id, a_gist("Invoice (invoice.txt): 4,250 EUR due in 30 days [1]"))
    assert subjects[2].data(GIST_ROLE) == "Invoice (invoice.txt): 4,250 EUR due in 30 days [1]"
    panel.proxy.set_text("due in 30")  # the filter finds words of the gist
    assert panel.proxy.rowCount() == 1


def _fast_store(fast_llm: object, tokenizer: object, **mail: object) -> object:
    from assistant.service import ModelStore

    store = ModelStore(Settings(models=ModelSettings(llm="fast"), mail=MailSettings(**mail)))  # type: ignore
    store._generator = fast_llm  # type: ignore[assignment]
    store._tokenizer = tokenizer
    return store


def test_a_question_makes_the_gist_give_way_and_it_starts_again_after(qtbot: object, tmp_path: Path,
                                                                     fast_llm: object, tokenizer: object) -> None:
    from PySide6.QtCore import QObject

    from assistant.gui.mail_gist import GistQueue
    from assistant.gui.tasks import TaskRunner

    cache = MailCache(tmp_path / "mail")
    ref = CachedRef("a", "INBOX", 1, 1)
    cache.put(ref, with_attachment("Quote for the roof", REPORT.encode(), "quote.txt"))
    owner = QObject()
    foreground = TaskRunner(owner)
    store = _fast_store(fast_llm, tokenizer)
    gists = GistQueue(foreground, cache, lambda: store, owner)  # type: ignore[arg-type,return-value]
    gists.nice = 0  # at the lowest priority, other work on a shared test machine can starve it for minutes
    ready: list[tuple[NewMessage, object]] = []
    gists.ready.connect(lambda new, gist: ready.append((new, gist)))
    new = quote_message(ref)
    plain = NewMessage(CachedRef("a", "INBOX", 1, 9), "Carol", "Agenda", None, ())
    gists.add([plain, new])
    assert gists.busy and gists.waiting == []  # started at once; a message without attachments is not queued
    first = gists.current[0] if gists.current else None
    answered = threading.Event()
    foreground.start("ask", "Answering", lambda emit, cancel: answered.wait(60), lambda _: None)
    assert not gists.busy and gists.waiting == [new]  # the question came first: the gist gave way
    assert first is not None and first.cancel.is_set()
    foreground.start("sync", "Syncing mail", lambda emit, cancel: None, lambda _: None)
    assert not gists.busy  # other work does not let it start while the question runs
    answered.set()
    qtbot.waitUntil(lambda: gists.busy or bool(ready), timeout=30000)  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: bool(ready), timeout=300000)  # type: ignore[attr-defined]
    (told, gist), = ready
    assert told == new and load_gist(cache, ref) == gist
    assert "quote.txt" in gist.text  # type: ignore[attr-defined]
    gists.stop(wait_ms=30000)
    foreground.wait(30000)


def test_the_app_shows_the_gist_of_new_mail_from_a_real_server(
        qtbot: object, mail_account: object, dovecot: object, server_client: object, user_dirs: Path,
        fast_llm: object, tokenizer: object) -> None:
    from assistant.gui.mail_list import GIST_ROLE
    from assistant.gui.window import MainWindow

    folder = f"g-{uuid.uuid4().hex[:8]}"
    server_client.create_folder(folder)  # type: ignore[attr-defined]
    server_client.append(folder, b"Subject: old\r\n\r\nthere before\r\n")  # type: ignore[attr-defined]
    window = MainWindow(_fast_store(fast_llm, tokenizer, watch=(WatchedFolder(folder),)))  # type: ignore[arg-type]
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    window.show()
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    assert window.start_watching() == 1
    # the first sync holds the message that was there (its UID search is done): later ones are new
    qtbot.waitUntil(lambda: bool(window.cache.uids("test", folder)), timeout=30000)  # type: ignore
    ready: list[object] = []
    window.mail.gists.ready.connect(lambda new, gist: ready.append(gist))
    window.mail.gists.nice = 0  # as above: not starved by other work on a shared test machine
    try:
        server_client.append(folder, with_attachment("Quote for the roof", REPORT.encode(),  # type: ignore
                                                     "quote.txt"))
        # generous: late in a full run the sync that follows IDLE's wake waits behind other work
        qtbot.waitUntil(lambda: 2 in window.cache.uids("test", folder), timeout=120000)  # type: ignore
        qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=120000)  # type: ignore[attr-defined]
        qtbot.waitUntil(lambda: bool(ready), timeout=300000)  # type: ignore[attr-defined]
    finally:
        window.mail_watch.stop(wait_s=5)
    gist = ready[0]
    line = gist.text  # type: ignore[attr-defined]
    assert "quote.txt" in line and line.replace("&", "&amp;").replace("<", "&lt;") in window.banner.text.text()
    model = window.messages.model
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=30000)  # type: ignore[attr-defined]
    row = next(i for i in range(2) if model.rows[i].ref.uid == 2)
    assert model.index(row, 3).data(GIST_ROLE) == line  # the list shows it too
    assert model.rows[row].gist == gist
    window.banner.draft_button.click()
    assert window.tabs.currentWidget() is window.draft_panel
    assert window.draft_panel.row is not None and window.draft_panel.row.ref.id == f"test:{folder}:2"
    window.draft_panel.stop()


def test_the_settings_turn_the_gist_off(qtbot: object, user_dirs: Path) -> None:
    from assistant.config import load_settings
    from assistant.gui.settings_dialog import SettingsDialog

    assert load_settings().mail.gist  # on unless turned off
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    assert dialog.watch.gist.isChecked() and "lowest priority" in dialog.watch.gist.toolTip()
    dialog.watch.gist.setChecked(False)
    dialog.accept()
    assert not load_settings().mail.gist
    again = SettingsDialog()
    qtbot.addWidget(again)  # type: ignore[attr-defined]
    assert not again.watch.gist.isChecked()
