"""New mail that tells you (docs/mail.md) against a real Dovecot: several folders watched at once (IDLE and
polling), each new message reported once, `mail sync --watch` printing one line per new message, and the app's
notification with "Ask about it" (pytest-qt, offscreen: the in-app banner)."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pytest

from assistant.accounts import Account
from assistant.config import MailSettings, WatchedFolder
from assistant.errors import AssistantError, ConfigError, FolderError
from assistant.mail.cache import MailCache
from assistant.mail.connect import connector
from assistant.mail.imap import ImapSource
from assistant.mail.sync import SyncResult
from assistant.mail.watch import FolderWatch, NewMessage, Watcher, plan_watches

ROOT = Path(__file__).resolve().parents[1]
QUOTE = b"Roof repair: 4,250 EUR including VAT.\n"


def with_attachment(subject: str, tag: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"] = "Bob <bob@example.org>", "alice@example.org"
    m["Subject"], m["Message-ID"] = subject, f"<{tag}.{uuid.uuid4().hex}@example.org>"
    m["Date"] = "Mon, 02 Mar 2026 09:00:00 +0000"
    m.set_content("The quote is attached.")
    m.add_attachment(QUOTE, maintype="text", subtype="plain", filename="quote.txt")
    return m.as_bytes()


def plain(subject: str) -> bytes:
    return (f"From: Carol <carol@example.org>\r\nTo: alice@example.org\r\nSubject: {subject}\r\n"
            f"Message-ID: <{uuid.uuid4().hex}@example.org>\r\n\r\nJust text.\r\n").encode()


def new_folder(client: object, n: int = 1) -> str:
    name = f"w-{uuid.uuid4().hex[:8]}"
    client.create_folder(name)  # type: ignore[attr-defined]
    for i in range(n):
        client.append(name, plain(f"old {i}"))  # type: ignore[attr-defined]
    return name


def wait_for(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.05)


def test_settings_hold_watched_folders_with_their_mode() -> None:
    s = MailSettings(watch=[{"folder": "INBOX"}, {"folder": "Projects", "mode": "poll", "poll_s": 120},  # type: ignore
                            "Lists"])
    assert s.watch == (WatchedFolder("INBOX"), WatchedFolder("Projects", "poll", 120), WatchedFolder("Lists"))
    with pytest.raises(ConfigError, match="not idle or poll"):
        MailSettings(watch=[{"folder": "INBOX", "mode": "push"}])  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="unknown setting"):
        MailSettings(watch=[{"folder": "INBOX", "every": 3}])  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="at least 1 second"):
        WatchedFolder("INBOX", "poll", 0)


def test_plan_follows_the_command_line_then_the_settings_then_the_account() -> None:
    a = Account("a", "imap.a.org", "me@a.org", folders=("INBOX", "Work"))
    b = Account("b", "imap.b.org", "me@b.org")
    settings = (WatchedFolder("INBOX"), WatchedFolder("Work", "poll", 300, account="a"))

    def plan(**kw: object) -> list[tuple[str, str, str, float, bool]]:
        return [(w.account, w.folder.folder, w.folder.mode, w.folder.poll_s, w.deliver_pending)
                for w in plan_watches([a, b], kw.pop("watched", ()), connector, **kw)]  # type: ignore[arg-type]

    assert plan() == [("a", "INBOX", "idle", 60.0, True), ("a", "Work", "idle", 60.0, False),
                      ("b", "INBOX", "idle", 60.0, True)]
    assert plan(watched=settings) == [("a", "INBOX", "idle", 60.0, True), ("a", "Work", "poll", 300, False),
                                      ("b", "INBOX", "idle", 60.0, True)]
    assert plan(watched=settings, folders=["Lists"], mode="poll", poll_s=5.0) == [
        ("a", "Lists", "poll", 5.0, True), ("b", "Lists", "poll", 5.0, True)]


class Collector:
    """What a watcher reports, gathered from its threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.new: list[NewMessage] = []
        self.synced: list[SyncResult] = []
        self.problems: list[tuple[str, AssistantError, bool]] = []

    def on_new(self, messages: list[NewMessage]) -> None:
        with self.lock:
            self.new.extend(messages)

    def on_sync(self, result: SyncResult) -> None:
        with self.lock:
            self.synced.append(result)

    def on_problem(self, watch: FolderWatch, exc: AssistantError, permanent: bool) -> None:
        with self.lock:
            self.problems.append((watch.folder.folder, exc, permanent))

    def synced_folders(self) -> set[str]:
        with self.lock:
            return {r.folder for r in self.synced}

    def ids(self) -> list[str]:
        with self.lock:
            return [m.id for m in self.new]


def test_two_folders_idle_and_polling_report_each_new_message_once(mail_account: Account, dovecot: object,
                                                                   server_client: object, user_dirs: Path) -> None:
    idle_folder, poll_folder = new_folder(server_client, 2), new_folder(server_client, 1)
    with ImapSource(mail_account, dovecot.password) as source:  # type: ignore[attr-defined]
        assert source.has_idle()  # so the first folder really waits by IDLE
    plan = plan_watches([mail_account], (WatchedFolder(idle_folder), WatchedFolder(poll_folder, "poll", 1)),
                        connector)
    seen = Collector()
    watcher = Watcher(plan, MailCache(), on_new=seen.on_new, on_sync=seen.on_sync, on_problem=seen.on_problem)
    watcher.start()
    try:
        wait_for(lambda: seen.synced_folders() == {idle_folder, poll_folder})
        assert seen.new == []  # what was there before the first sync is not new mail
        server_client.append(idle_folder, with_attachment("Quote for the roof", "q"))  # type: ignore
        server_client.append(poll_folder, plain("Agenda"))  # type: ignore[attr-defined]
        wait_for(lambda: len(seen.ids()) >= 2)
        server_client.append(idle_folder, plain("Thanks"))  # type: ignore[attr-defined]
        wait_for(lambda: len(seen.ids()) >= 3)
        time.sleep(1.5)  # more polls and syncs happen meanwhile: nothing is reported twice
    finally:
        watcher.stop()
        assert watcher.join(10)
    assert sorted(seen.ids()) == sorted([f"test:{idle_folder}:3", f"test:{poll_folder}:2", f"test:{idle_folder}:4"])
    quote = next(m for m in seen.new if m.subject == "Quote for the roof")
    assert quote.sender == "Bob <bob@example.org>"
    assert quote.attachments == (("quote.txt", len(QUOTE)),)
    assert quote.attachment_text() == f"1 attachment: quote.txt ({len(QUOTE)} bytes)"
    assert f"test:{idle_folder}:3" in quote.line() and "\u201cQuote for the roof\u201d" in quote.line()
    assert seen.problems == []
    idle_syncs = [r for r in seen.synced if r.folder == idle_folder]
    assert len(idle_syncs) <= 5  # the first, and one or two per message: IDLE waits, it does not spin


def test_a_missing_folder_ends_only_its_own_watch(mail_account: Account, dovecot: object, server_client: object,
                                                  user_dirs: Path) -> None:
    good = new_folder(server_client)
    plan = plan_watches([mail_account], (), connector, folders=[f"missing-{uuid.uuid4().hex[:6]}", good])
    seen = Collector()
    watcher = Watcher(plan, MailCache(), on_new=seen.on_new, on_sync=seen.on_sync, on_problem=seen.on_problem)
    watcher.start()
    try:
        wait_for(lambda: bool(seen.problems) and good in seen.synced_folders())
        assert watcher.threads[0].join(10) is None and not watcher.threads[0].is_alive()
        server_client.append(good, plain("still watched"))  # type: ignore[attr-defined]
        wait_for(lambda: bool(seen.ids()))
    finally:
        watcher.stop()
        assert watcher.join(10)
    [(folder, exc, permanent)] = seen.problems
    assert folder.startswith("missing-") and isinstance(exc, FolderError) and permanent
    assert seen.ids() == [f"test:{good}:2"]


def _reader(stream: object, lines: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        lines.put(line.rstrip("\n"))


def test_cli_watch_prints_one_line_per_new_message(mail_account: Account, dovecot: object, server_client: object,
                                                   user_dirs: Path, tmp_path: Path) -> None:
    first, second = new_folder(server_client), new_folder(server_client)
    keyring_file = tmp_path / "keyring.json"
    keyring_file.write_text(json.dumps({"assistant/test": dovecot.password}))  # type: ignore[attr-defined]
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "filekeyring.FileKeyring",
           "ASSISTANT_TEST_KEYRING": str(keyring_file), "PYTHONPATH": str(ROOT / "tests"),
           "ASSISTANT_CONFIG_DIR": str(user_dirs / "config"), "ASSISTANT_DATA_DIR": str(user_dirs / "data")}
    # Ctrl-C is sent as SIGINT: a test run started in the background by a non-interactive shell ignores SIGINT,
    # and an ignored signal stays ignored in the child, so the child gets the default disposition back first
    proc = subprocess.Popen([sys.executable, "-m", "assistant", "mail", "sync", "--watch", "--folder", first,
                             "--folder", second], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    out: queue.Queue[str] = queue.Queue()
    err: queue.Queue[str] = queue.Queue()
    for stream, q in ((proc.stdout, out), (proc.stderr, err)):
        threading.Thread(target=_reader, args=(stream, q), daemon=True).start()
    cache = MailCache(user_dirs / "data" / "mail")
    try:
        # the first sync holds the message that was there (its UID search is done): later ones are new
        wait_for(lambda: all(cache.uids("test", f) for f in (first, second)), 60)
        server_client.append(first, with_attachment("Quote for the roof", "q"))  # type: ignore[attr-defined]
        server_client.append(second, plain("Agenda"))  # type: ignore[attr-defined]
        try:
            lines = [out.get(timeout=30), out.get(timeout=30)]
        except queue.Empty:
            raise AssertionError("\n".join(iter_queue(err))) from None
        time.sleep(1.0)
        assert out.empty()  # one line per new message, nothing for the messages that were already there
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(30)
        for stream in (proc.stdout, proc.stderr):
            stream.close()  # type: ignore[union-attr]
    stderr = "\n".join(iter_queue(err))
    assert code == 0, stderr
    assert f"Watching test/{first} (IDLE), test/{second} (IDLE)" in stderr
    quote = next(line for line in lines if "Quote" in line)
    assert quote.startswith(f"test:{first}:2  2026-03-02 09:00  Bob <bob@example.org>  \u201cQuote for the roof\u201d")
    assert quote.endswith(f"1 attachment: quote.txt ({len(QUOTE)} bytes)")
    agenda = next(line for line in lines if "Agenda" in line)
    assert agenda.startswith(f"test:{second}:2 ") and agenda.endswith("no attachments")


def iter_queue(q: queue.Queue[str]) -> list[str]:
    items = []
    while not q.empty():
        items.append(q.get())
    return items


def test_poll_without_watch_is_refused_with_what_to_type(mail_account: Account, user_dirs: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.cli import main

    assert main(["mail", "sync", "--poll", "5"]) != 0
    assert "--poll goes with --watch" in capsys.readouterr().err


# -- the app: a notification with "Ask about it" (pytest-qt; offscreen has no tray, so the in-app banner) -------
def test_app_tells_of_new_mail_with_attachments_and_ask_about_it_opens_it(
        qtbot: object, mail_account: Account, dovecot: object, server_client: object, user_dirs: Path,
        tokenizer: object) -> None:
    from PySide6.QtWidgets import QApplication, QSystemTrayIcon

    from assistant.config import Settings
    from assistant.gui.window import MainWindow
    from assistant.service import ModelStore

    folder = new_folder(server_client)
    store = ModelStore(Settings(mail=MailSettings(watch=(WatchedFolder(folder),))))
    store._tokenizer = tokenizer
    window = MainWindow(store)
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    window.show()
    window.activateWindow()
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    assert not QSystemTrayIcon.isSystemTrayAvailable() and window.notifier.tray is None  # offscreen: the banner
    assert window.start_watching() == 1 and window.watch_action.isChecked()
    qtbot.waitUntil(lambda: bool(window.cache.uids("test", folder)), timeout=30000)  # type: ignore[attr-defined]
    arrived: list[object] = []
    window.mail_watch.arrived.connect(arrived.append)
    try:
        server_client.append(folder, plain("Agenda"))  # type: ignore[attr-defined]
        qtbot.waitUntil(lambda: bool(arrived), timeout=30000)  # type: ignore[attr-defined]
        qtbot.waitUntil(lambda: window.messages.model.rowCount() == 2, timeout=30000)  # type: ignore
        assert window.banner.isHidden()  # no attachments: listed, not told
        server_client.append(folder, with_attachment("Quote for the roof", "q"))  # type: ignore[attr-defined]
        qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=30000)  # type: ignore[attr-defined]
    finally:
        window.mail_watch.stop(wait_s=5)
    text = window.banner.text.text()
    assert "New mail from Bob &lt;bob@example.org&gt;" in text and "Quote for the roof" in text
    assert f"quote.txt ({len(QUOTE)} bytes)" in text
    window.banner.ask_button.click()
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)  # type: ignore
    assert window.banner.isHidden() and window.tabs.currentWidget() is window.ask_panel
    sources = [d.source for d in window.ask_panel.session.context.documents]  # type: ignore[union-attr]
    assert f"test:{folder}:3/quote.txt" in sources
    assert "Quote for the roof" in window.ask_panel.context_label.text()
    assert QApplication.focusWidget() is window.ask_panel.question


def test_the_tray_path_tells_by_the_tray_and_its_click_asks(qtbot: object, user_dirs: Path) -> None:
    from PySide6.QtWidgets import QWidget

    from assistant.gui.notify import NewMailNotifier, NotificationBanner, notification_text
    from assistant.mail.cache import CachedRef

    parent = QWidget()
    qtbot.addWidget(parent)  # type: ignore[attr-defined]
    banner = NotificationBanner(parent)
    notifier = NewMailNotifier(banner, use_tray=True, parent=parent)  # as where the desktop has a tray
    asked: list[NewMessage] = []
    notifier.ask_requested.connect(asked.append)
    plain_one = NewMessage(CachedRef("a", "INBOX", 1, 1), "Carol", "Agenda", None, ())
    quote = NewMessage(CachedRef("a", "INBOX", 1, 2), "Bob", "Quote", None, (("q.pdf", 2048), ("a.txt", 10)))
    assert not notifier.notify([plain_one])  # nothing with attachments: nothing told
    assert notifier.notify([plain_one, quote]) and banner.isHidden()
    assert notifier.tray is not None
    notifier.tray.messageClicked.emit()
    assert asked == [quote]
    assert notification_text(quote, 2) == ("New mail from Bob", "Quote\nAttached: q.pdf (2 KB), a.txt (10 bytes)\n"
                                                               "and 2 more new messages with attachments")
    notifier.close()


def test_settings_dialog_edits_the_watched_folders_in_plain_words(qtbot: object, user_dirs: Path) -> None:
    from PySide6.QtWidgets import QComboBox, QLineEdit, QSpinBox

    from assistant.config import load_settings, update_settings_file
    from assistant.gui.settings_dialog import SettingsDialog

    update_settings_file({"mail": {"watch": [{"folder": "INBOX"}], "notify": True}})
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    watch = dialog.watch
    assert watch.title() == "New mail" and watch.table.rowCount() == 1 and watch.empty.isHidden()
    how = watch.table.cellWidget(0, 2)
    assert isinstance(how, QComboBox) and how.currentText() == "As it arrives"
    assert "IMAP IDLE" in how.itemData(0, 3) and "polling" in how.itemData(1, 3)  # the terms, in tooltips only
    every = watch.table.cellWidget(0, 3)
    assert isinstance(every, QSpinBox) and not every.isEnabled()  # only when checking regularly
    watch.add_button.click()
    name, how2, every2 = (watch.table.cellWidget(1, c) for c in (0, 2, 3))
    assert isinstance(name, QLineEdit) and isinstance(how2, QComboBox) and isinstance(every2, QSpinBox)
    name.setText("Projects/Roof")
    how2.setCurrentIndex(how2.findData("poll"))
    assert every2.isEnabled()
    every2.setValue(300)
    watch.notify.setChecked(False)
    dialog.accept()
    assert dialog.saved is not None
    mail = load_settings().mail
    assert mail.watch == (WatchedFolder("INBOX"), WatchedFolder("Projects/Roof", "poll", 300))
    assert not mail.notify
    again = SettingsDialog()
    qtbot.addWidget(again)  # type: ignore[attr-defined]
    again.watch.table.selectRow(0)
    again.watch.remove_button.click()
    again.watch.remove_button.click()
    assert again.watch.table.rowCount() == 0 and not again.watch.empty.isHidden()
    again.accept()
    assert load_settings().mail.watch == ()


def test_idle_notices_a_connection_the_server_closed(user_dirs: Path, memory_keyring: object) -> None:
    """A server that goes away during IDLE ends the wait with ServerUnreachable (the watch reconnects), instead
    of imapclient's empty replies being read as a quiet folder until the 10-minute refresh (a busy loop)."""
    import shutil

    from assistant.errors import ServerUnreachable

    if shutil.which("dovecot") is None or shutil.which("openssl") is None:
        pytest.skip("dovecot or openssl is not installed (apt-get install dovecot-imapd openssl)")
    from dovecot import Dovecot

    server = Dovecot.start()
    try:
        account = Account("gone", "127.0.0.1", server.user, port=server.imaps_port, ca_file=str(server.cert))
        outcome: queue.Queue[object] = queue.Queue()
        with ImapSource(account, server.password) as source:
            source.select("INBOX")

            def wait() -> None:
                try:
                    outcome.put(source.idle_until(threading.Event(), 600, tick_s=1.0))
                except Exception as exc:  # noqa: BLE001  (the test looks at what it was)
                    outcome.put(exc)

            waiter = threading.Thread(target=wait, daemon=True)
            waiter.start()
            time.sleep(1.5)  # IDLE is open
            server.halt()
            waiter.join(120)  # far below the 600 s the IDLE was given
            assert not waiter.is_alive()
            result = outcome.get_nowait()
            assert isinstance(result, ServerUnreachable), result
    finally:
        server.stop()
