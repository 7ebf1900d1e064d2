"""Main window: accounts and folders, message list and view, Ask and Draft panels, progress, sync."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from assistant.accounts import load_accounts
from assistant.config import Settings, config_dir
from assistant.documents import supported_suffixes
from assistant.documents.mime.attachments import attachment_documents, evidence_documents
from assistant.errors import AssistantError
from assistant.gui.account_dialog import AccountDialog
from assistant.gui.ask_panel import AskPanel
from assistant.gui.draft_panel import DraftPanel
from assistant.gui.first_run import FirstRunDialog, mark_set_up, needs_first_run
from assistant.gui.mail_list import MessageListPanel, MessageRow, load_rows
from assistant.gui.mail_sync import MailWatch, SyncOutcome, sync_all
from assistant.gui.message_view import MessageView
from assistant.gui.notify import NewMailNotifier, NotificationBanner
from assistant.gui.open_files import OpenedFiles, ask_password, failure_sentence, open_more
from assistant.gui.privacy import PrivacyControls
from assistant.gui.progress import ProgressPanel
from assistant.gui.tasks import Emit, TaskRunner
from assistant.mail.cache import MailCache
from assistant.mail.pending import PendingDrafts
from assistant.mail.watch import NewMessage
from assistant.records import Document
from assistant.service import ModelStore, Session

ACCOUNT_ROLE = Qt.ItemDataRole.UserRole
MIB = 1024**2
DEFAULT_SIZES = [150, 470, 660]  # folders, mail list and message, Ask/Draft (scaled to the window)
ICON = Path(__file__).resolve().parents[2] / "resources" / "icons" / "org.ttrag.Assistant.svg"
#: Every keyboard stop shows where the focus is: views and text areas draw no focus frame of their own in
#: Fusion (Qt's default style on Linux), so they get a highlight-coloured border while focused.
FOCUS_STYLE = """
QAbstractScrollArea { border: 1px solid palette(mid); }
QAbstractScrollArea:focus { border: 2px solid palette(highlight); }
"""


def human_size(n_bytes: int) -> str:
    """``512 bytes``, ``3 KB``, ``1.2 MB`` (powers of 1024)."""
    if n_bytes < 1024:
        return f"{n_bytes} bytes"
    if n_bytes < MIB:
        return f"{n_bytes / 1024:.0f} KB"
    return f"{n_bytes / MIB:.1f} MB"


def gui_settings() -> QSettings:
    """Window state lives beside config.toml (``config_dir()/gui.ini``)."""
    return QSettings(str(config_dir() / "gui.ini"), QSettings.Format.IniFormat)


def open_message(store: ModelStore, row: MessageRow, emit: Emit,
                 cancel: threading.Event) -> tuple[Session, dict[str, str]]:
    """A session over the message and its readable attachments; skipped ones with their reasons."""
    documents = evidence_documents(row.message, row.ref.id)
    attached, skipped = attachment_documents(row.message, row.ref.id)
    return Session(store, documents + attached, emit=emit), {s.attachment.filename: s.reason for s in skipped}


class MainWindow(QMainWindow):
    """The assistant's desktop window. All slow work goes through :attr:`runner`."""

    def __init__(self, store: ModelStore, *, cache: MailCache | None = None,
                 settings: QSettings | None = None) -> None:
        super().__init__()
        self.setWindowTitle("Assistant")
        if ICON.is_file():
            self.setWindowIcon(QIcon(str(ICON)))
        self.setAcceptDrops(True)
        self.setStyleSheet(FOCUS_STYLE)
        self.store = store
        self.cache = cache or MailCache(max_bytes=store.settings.mail.cache_mb * MIB)
        self.settings = settings or gui_settings()
        self.runner = TaskRunner(self)
        self.sync_outcome: SyncOutcome | None = None
        self.folders = QTreeWidget()
        self.folders.setHeaderHidden(True)
        self.folders.setAccessibleName("Accounts and folders")
        self.folders.currentItemChanged.connect(lambda *_: self.load_mail())
        self.messages = MessageListPanel()
        self.messages.selected.connect(self.select_message)
        self.message_view = MessageView()
        self.ask_panel = AskPanel(self.runner)
        self.open_docs: dict[str, Document] = {}  # open files already read, by path (never read twice)
        self.open_failures: dict[str, str] = {}  # open files that could not be read: the reason
        self.ask_panel.files.add_requested.connect(self.choose_files)
        self.ask_panel.files.remove_requested.connect(self.close_files)
        self.pending = PendingDrafts()
        self.draft_panel = DraftPanel(self.runner, store, pending=self.pending)
        self.draft_panel.cache = self.cache
        self.draft_panel.kept.connect(lambda _: self.show_pending())
        self.tabs = QTabWidget()
        self.tabs.addTab(self.ask_panel, "Ask")
        self.tabs.addTab(self.draft_panel, "Draft reply")
        self.mail_side = QSplitter(Qt.Orientation.Vertical)
        self.mail_side.addWidget(self.messages)
        self.mail_side.addWidget(self.message_view)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("main-splitter")
        for w, stretch in ((self.folders, 1), (self.mail_side, 3), (self.tabs, 4)):
            self.splitter.addWidget(w)
            self.splitter.setStretchFactor(self.splitter.count() - 1, stretch)
        self.splitter.setSizes(DEFAULT_SIZES)
        self.has_accounts = False
        self.banner = NotificationBanner()  # new mail with attachments, where the desktop has no tray
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.banner)
        box.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.notifier = NewMailNotifier(self.banner, icon=self.windowIcon(), parent=self)
        self.notifier.ask_requested.connect(self.ask_about)
        self.mail_watch = MailWatch(self.cache, self.pending, self)
        self.mail_watch.arrived.connect(self._mail_arrived)
        self.mail_watch.problem.connect(self._watch_problem)
        self.mail_watch.delivered.connect(lambda _: self.show_pending())
        self.progress = ProgressPanel(self.runner)
        self.offline = QLabel("\u26A0 Offline: showing cached mail")
        self.offline.setAccessibleName("Offline indicator")
        self.offline.setStyleSheet("color: #a05a00")
        self.offline.setVisible(False)
        self.pending_label = QLabel()
        self.pending_label.setAccessibleName("Drafts waiting for the server")
        self.pending_label.setStyleSheet("color: #a05a00")
        self.notice = QLabel()
        self.notice.setAccessibleName("Status message")
        self.statusBar().addWidget(self.notice, 1)
        self.statusBar().addPermanentWidget(self.pending_label)
        self.statusBar().addPermanentWidget(self.offline)
        self.statusBar().addPermanentWidget(self.progress)
        self._make_actions()
        self.privacy = PrivacyControls(self)  # the offline switch in the status bar, the Privacy menu and page
        self.resize(1280, 800)
        self._restore()
        self.reload_accounts()
        self.show_pending()

    def show_pending(self) -> None:
        """Show how many drafts wait on this computer for their server (saved at the next sync)."""
        drafts = self.pending.waiting()
        self.pending_label.setText(f"\u2709 {len(drafts)} draft(s) waiting for the server" if drafts else "")
        self.pending_label.setToolTip("\n".join(f"{d.account}: {d.subject}" for d in drafts))
        self.pending_label.setVisible(bool(drafts))

    # -- actions and shortcuts -------------------------------------------------------------------------
    def _action(self, text: str, slot: object, shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(tip or text)
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _make_actions(self) -> None:
        self.open_action = self._action("Open files\u2026", self.choose_files, QKeySequence.StandardKey.Open,
                                        "Open local files to ask about (Ctrl+O)")
        self.sync_action = self._action("Sync", self.sync, "F5", "Fetch new mail (F5)")
        self.account_action = self._action("Add account\u2026", self.add_account)
        self.settings_action = self._action("Settings\u2026", self.show_settings)
        self.ask_action = self._action("Ask", self.ask_panel.ask, "Ctrl+Return", "Ask the question (Ctrl+Enter)")
        self.draft_action = self._action("Draft reply", self.draft_reply, "Ctrl+D", "Draft a reply (Ctrl+D)")
        self.filter_action = self._action("Filter messages", self.focus_filter, "Ctrl+F")
        self.prev_action = self._action("Previous message", lambda: self.messages.step(-1), "Alt+Up")
        self.next_action = self._action("Next message", lambda: self.messages.step(1), "Alt+Down")
        quit_action = self._action("Quit", self.close, QKeySequence.StandardKey.Quit)
        menu = self.menuBar().addMenu("&File")
        for a in (self.open_action, self.sync_action, self.account_action, self.settings_action):
            menu.addAction(a)
        menu.addSeparator()  # Quit apart from Settings: not one slip of the mouse away
        menu.addAction(quit_action)
        self.watch_action = self._action("Watch for new mail", self.set_watching,
                                         tip="Fetch new mail as it arrives in the watched folders and tell when it "
                                             "has attachments (Settings: which folders, and how)")
        self.watch_action.setCheckable(True)
        mail = self.menuBar().addMenu("&Mail")
        for a in (self.filter_action, self.prev_action, self.next_action, self.draft_action, self.watch_action):
            mail.addAction(a)
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main-toolbar")
        toolbar.setMovable(False)
        for a in (self.open_action, self.sync_action, self.account_action):
            toolbar.addAction(a)

    def focus_filter(self) -> None:
        self.messages.filter.setFocus()
        self.messages.filter.selectAll()

    def draft_reply(self) -> None:
        self.tabs.setCurrentWidget(self.draft_panel)
        if not self.draft_panel.busy:  # Ctrl+D again while writing does not restart it; Stop does stop
            self.draft_panel.generate()

    def first_run(self) -> FirstRunDialog | None:
        """Offer the first-run choices once (window-modal, non-blocking); None when already set up."""
        if not needs_first_run(self.settings):
            return None
        dialog = FirstRunDialog(self)
        dialog.finished.connect(lambda _: self._first_run_done(dialog))
        dialog.open()
        return dialog

    def _first_run_done(self, dialog: FirstRunDialog) -> None:
        mark_set_up(self.settings)
        dialog.deleteLater()
        if dialog.choice == "account":
            self.add_account()
        elif dialog.choice == "file":
            self.choose_files()

    def show_settings(self) -> None:
        from assistant.gui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self, cache=self.cache, gui=self.settings)
        if dialog.exec() and dialog.saved is not None:
            self.apply_settings(dialog.saved)
        if dialog.cleared:
            self.load_mail()

    def apply_settings(self, settings: Settings) -> None:
        """Use ``settings`` from the next question on: a new model store (changed models reload lazily) and the
        open context re-bound to it, or re-read when its chunking changed. A running ask keeps the old store."""
        watched = self.store.settings.mail.watch
        self.store = self.store.with_settings(settings)
        self.draft_panel.store = self.store
        self.cache.max_bytes = settings.mail.cache_mb * MIB
        if self.mail_watch.watcher is not None and settings.mail.watch != watched:
            self.start_watching()  # the watched folders changed: watch the new ones
        session = self.ask_panel.session
        if session is None:
            return
        rebound = session.with_store(self.store)
        if rebound is not None:
            self.ask_panel.session = rebound
            return
        store, documents = self.store, session.context.documents
        description = self.ask_panel.context_label.text()
        self.ask_panel.set_session(None, "Settings changed: reading the context again\u2026")
        self.runner.start("context", "Reading again",
                          lambda emit, cancel: Session(store, documents, emit=emit),
                          lambda s: self.ask_panel.set_session(s, description), on_error=self._context_error)

    # -- files ----------------------------------------------------------------------------------------
    def choose_files(self) -> None:
        """The file dialog, opening in the folder files were last opened from."""
        patterns = " ".join(f"*{s}" for s in supported_suffixes())
        start = str(self.settings.value("files/last_dir", ""))
        paths, _ = QFileDialog.getOpenFileNames(self, "Open files", start if Path(start).is_dir() else "",
                                                f"Documents ({patterns});;All files (*)")
        if paths:
            self.settings.setValue("files/last_dir", str(Path(paths[0]).parent))
            self.open_files(paths)

    def open_files(self, paths: Sequence[str | Path]) -> None:
        """Add ``paths`` to the open files and read, in the background, only those not read yet; the Ask panel
        then asks about every open file."""
        new = list(dict.fromkeys(str(p) for p in paths if str(p) not in self.open_docs))
        for path in new:
            self.open_failures.pop(path, None)
        self.tabs.setCurrentWidget(self.ask_panel)
        if not new:
            self.notice.setText("Those files are already open.")
            return
        self._reopen(new, f"Reading {len(new)} more file(s)\u2026" if self.open_docs else
                     f"Reading {len(new)} file(s)\u2026")

    def close_files(self, paths: Sequence[str]) -> None:
        """Remove ``paths`` from the open files; the others are not read again."""
        for path in paths:
            self.open_docs.pop(path, None)
            self.open_failures.pop(path, None)
        if not self.open_docs:
            self.ask_panel.files.show_files({}, self.open_failures)
            self.ask_panel.set_session(None, "No file open: open a file (Ctrl+O) or select a message.")
            self.show_status()
            return
        self._reopen([], "Closing files\u2026")

    def _reopen(self, new: list[str], description: str, passwords: dict[str, str] | None = None) -> None:
        store, kept = self.store, list(self.open_docs.values())
        self.ask_panel.files.show_files(self.open_docs, self.open_failures, new)
        self.ask_panel.set_session(None, description)
        self.runner.start("context", "Opening files",
                          lambda emit, cancel: open_more(store, new, kept, emit, cancel, passwords),
                          self._files_opened, on_error=self._context_error)

    def _unlock(self, locked: dict[str, bool]) -> None:
        """Ask for the password of each password-protected file just opened (again after a wrong one) and
        read those given once more; Cancel leaves the file listed as not read. Passwords stay in memory."""
        passwords: dict[str, str] = {}
        for path, wrong in locked.items():
            password = ask_password(self, path, wrong)
            if password is not None:
                passwords[path] = password
                self.open_failures.pop(path, None)
        if passwords:
            self._reopen(list(passwords), f"Reading {len(passwords)} password-protected file(s)\u2026", passwords)

    def _files_opened(self, opened: OpenedFiles) -> None:
        self.open_docs.update(opened.read)
        self.open_failures.update(opened.failed)
        self.ask_panel.files.show_files(self.open_docs, self.open_failures)
        session = opened.session
        lines = []
        if session is not None:
            ctx = session.context
            files = ", ".join(Path(d.source).name for d in ctx.documents)
            words = sum(len(d.text.split()) for d in ctx.documents)
            lines.append(f"Asking about {files} (about {words:,} words).")
            self.ask_panel.context_label.setToolTip(f"{len(ctx.chunks)} passages, {ctx.n_tokens:,} tokens")
        for path, reason in opened.failed.items():
            lines.append(f"\u2716 {failure_sentence(path, reason)}")
        if session is None:
            lines.append("None of the files could be read.")
        self.ask_panel.set_session(session, "\n".join(lines))
        self.show_status()
        if session is not None:
            self.ask_panel.question.setFocus()  # the next thing a person does is type the question
        if opened.locked:
            self._unlock(opened.locked)

    def _context_error(self, exc: BaseException) -> None:
        self.ask_panel.set_session(None, f"Could not read: {exc}")

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.open_files(paths)

    # -- mail -----------------------------------------------------------------------------------------
    def reload_accounts(self) -> None:
        self.folders.blockSignals(True)
        self.folders.clear()
        everything = QTreeWidgetItem(["All mail"])
        everything.setData(0, ACCOUNT_ROLE, (None, None))
        self.folders.addTopLevelItem(everything)
        error = ""
        try:
            accounts = load_accounts()
        except AssistantError as exc:
            error, accounts = str(exc), {}
        for account in accounts.values():
            item = QTreeWidgetItem([account.name])
            item.setToolTip(0, f"{account.username} at {account.host}")
            item.setData(0, ACCOUNT_ROLE, (account.name, None))
            for folder in account.folders:
                child = QTreeWidgetItem([folder])
                child.setData(0, ACCOUNT_ROLE, (account.name, folder))
                item.addChild(child)
            self.folders.addTopLevelItem(item)
        self.folders.expandAll()
        self.folders.setCurrentItem(everything)
        self.folders.blockSignals(False)
        self.has_accounts = bool(accounts)
        # a file-only session gets the whole width, not half of it in empty mail panes
        self.folders.setVisible(self.has_accounts)
        self.mail_side.setVisible(self.has_accounts)
        if self.has_accounts and min(self.splitter.sizes()[:2]) == 0:  # saved while there was no account
            self.splitter.setSizes(DEFAULT_SIZES)
        self.show_status()
        if error:
            self.notice.setText(error)
        self.load_mail()

    def show_status(self) -> None:
        """The status bar says what is true now: the open files and their size, else the missing account."""
        if self.open_docs or self.open_failures:
            parts = []
            for path in [*self.open_docs, *self.open_failures]:
                try:
                    size = f" ({human_size(Path(path).stat().st_size)})"
                except OSError:
                    size = ""
                mark = "" if path in self.open_docs else " \u2716 not read"
                parts.append(f"{Path(path).name}{size}{mark}")
            self.notice.setText(f"Open: {', '.join(parts)}")
        elif not self.has_accounts:
            self.notice.setText("No mail account yet: add one (File \u2192 Add account) or open files (Ctrl+O).")
        else:
            self.notice.clear()

    def load_mail(self) -> None:
        """Show the cached messages of the selected account/folder (parsed in the background)."""
        item = self.folders.currentItem()
        account, folder = item.data(0, ACCOUNT_ROLE) if item else (None, None)
        cache = self.cache
        self.runner.start("load-mail", "Loading messages",
                          lambda emit, cancel: load_rows(cache, account, folder), self.messages.set_rows,
                          on_error=lambda exc: self.notice.setText(f"Could not read the mail cache: {exc}"))

    def select_message(self, row: MessageRow) -> None:
        self.message_view.show_row(row)
        self.draft_panel.set_message(row)
        self.ask_panel.set_session(None, f"Reading the message \u201c{row.message.subject}\u201d\u2026")
        store = self.store
        self.runner.start("context", "Reading the message",
                          lambda emit, cancel: open_message(store, row, emit, cancel),
                          lambda outcome: self._message_opened(row, outcome), on_error=self._context_error)

    def _message_opened(self, row: MessageRow, outcome: tuple[Session, dict[str, str]]) -> None:
        session, skipped = outcome
        self.message_view.set_statuses(skipped)
        n = len(session.context.documents) - 1
        extra = f" and {n} attachment(s)" if n else ""
        self.ask_panel.set_session(session, f"Asking about the message \u201c{row.message.subject}\u201d{extra}.")

    def add_account(self) -> None:
        dialog = AccountDialog(self)
        if dialog.exec() and dialog.account is not None:
            self.reload_accounts()
            self.sync()

    def sync(self) -> None:
        cache, pending = self.cache, self.pending
        self.sync_action.setEnabled(False)
        self.runner.start("sync", "Syncing mail", lambda emit, cancel: sync_all(cache, emit, cancel, pending),
                          self._synced, on_error=self._sync_failed)

    def _synced(self, outcome: SyncOutcome) -> None:
        self.sync_outcome = outcome
        self.sync_action.setEnabled(True)
        self.offline.setVisible(bool(outcome.unreachable))
        new = sum(len(r.new_uids) for r in outcome.results)
        saved = f"; {len(outcome.delivered)} waiting draft(s) saved to Drafts" if outcome.delivered else ""
        self.notice.setText("; ".join(outcome.errors) if outcome.errors else f"Synced: {new} new message(s){saved}.")
        self.show_pending()
        self.load_mail()

    def _sync_failed(self, exc: BaseException) -> None:
        self.sync_action.setEnabled(True)
        self.notice.setText(f"Sync failed: {exc}")

    # -- new mail -------------------------------------------------------------------------------------
    def start_watching(self) -> int:
        """Watch the folders the settings name (else every account's folders) for new mail; returns how many."""
        n = self.mail_watch.start(self.store.settings.mail.watch) if self.has_accounts else 0
        self.watch_action.setChecked(n > 0)
        return n

    def set_watching(self, on: bool) -> None:
        if not on:
            self.mail_watch.stop()
        elif not self.start_watching():
            self.notice.setText("Nothing to watch: add a mail account first.")

    def _watch_problem(self, text: str, ended: bool) -> None:
        self.notice.setText(("\u2716 " if ended else "") + text)
        if ended and not self.mail_watch.watching:
            self.watch_action.setChecked(False)

    def _mail_arrived(self, messages: list[NewMessage]) -> None:
        self.load_mail()
        if self.store.settings.mail.notify:
            self.notifier.notify(messages)

    def ask_about(self, new: NewMessage) -> None:
        """Open ``new`` with its attachments in the Ask panel, the question box focused ("Ask about it")."""
        from assistant.documents.mime.parse import parse_message

        self.raise_()
        self.activateWindow()
        self.tabs.setCurrentWidget(self.ask_panel)
        if not self.messages.select_ref(new.id):  # not listed (yet, or another folder is shown): open it directly
            raw = self.cache.get(new.ref)
            if raw is None:
                self.notice.setText(f"The message {new.id} is no longer in the local cache; sync again.")
                return
            self.select_message(MessageRow(new.ref, parse_message(raw), True))
        self.ask_panel.question.setFocus()

    # -- window state ---------------------------------------------------------------------------------
    def _restore(self) -> None:
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        splitter = self.settings.value("window/splitter")
        if isinstance(splitter, QByteArray):
            self.splitter.restoreState(splitter)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.setValue("window/splitter", self.splitter.saveState())
        self.settings.sync()
        self.runner.cancel_all()
        self.runner.wait(5000)
        self.mail_watch.stop(wait_s=3)
        self.notifier.close()
        super().closeEvent(event)


