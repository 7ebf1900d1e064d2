"""Main window: the layout (:mod:`~assistant.gui.window_layout`) with the files and mail controllers wired in,
the status line, first-run choices, settings and closing."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent

from assistant.config import Settings, config_dir
from assistant.gui.ask_context import AskContext
from assistant.gui.collector import collect_on_gui_thread
from assistant.gui.files_controller import FilesController
from assistant.gui.first_run import FirstRunDialog, mark_set_up, needs_first_run
from assistant.gui.help_menu import HelpMenu
from assistant.gui.mail_controller import ADD_ACCOUNT_HREF, ADD_ACCOUNT_LINK, MailController
from assistant.gui.mail_sync import SyncOutcome
from assistant.gui.privacy import PrivacyControls
from assistant.gui.refcounts import guard_singletons
from assistant.gui.window_layout import WindowLayout
from assistant.mail.cache import MailCache
from assistant.mail.pending import PendingDrafts
from assistant.records import Document
from assistant.service import ModelStore, Session

MIB = 1024**2


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


class MainWindow(WindowLayout):
    """The assistant's desktop window. All slow work goes through :attr:`runner`; the open files are
    :attr:`files`' (a :class:`FilesController`), accounts, sync and new mail :attr:`mail`'s (a
    :class:`MailController`)."""

    def __init__(self, store: ModelStore, *, cache: MailCache | None = None,
                 settings: QSettings | None = None) -> None:
        guard_singletons()  # before any signal is emitted (see assistant.gui.refcounts)
        collect_on_gui_thread()  # before any worker runs (see assistant.gui.collector)
        super().__init__(store, cache=cache or MailCache(max_bytes=store.settings.mail.cache_mb * MIB),
                         settings=settings or gui_settings(), pending=PendingDrafts())
        self.asking = AskContext(self)  # what the Ask panel asks about: a message, the ticked open files
        self.files = FilesController(self, self.asking)
        self.mail = MailController(self, self.asking)
        self.privacy = PrivacyControls(self)  # the offline switch in the status bar, the Privacy menu and page
        self.help = HelpMenu(self)  # last in the menu bar: getting started, shortcuts, documentation, about
        self.mail_watch = self.mail.watch
        self.notifier = self.mail.notifier
        self._wire()
        self.reload_accounts()
        self.mail.show_pending()
        self.ask_panel.question.setFocus()  # taken when the window is first activated: type the question

    def _wire(self) -> None:
        files, mail = self.files, self.mail
        self.folders.currentItemChanged.connect(lambda *_: mail.load_mail())
        self.messages.selected.connect(mail.select_message)
        self.ask_panel.files.add_requested.connect(files.choose_files)
        self.ask_panel.files.remove_requested.connect(files.close_files)
        self.ask_panel.files.draft_requested.connect(self.draft_reply)
        self.draft_panel.kept.connect(lambda _: mail.show_pending())
        self.open_action.triggered.connect(files.choose_files)
        self.sync_action.triggered.connect(mail.sync)
        self.account_action.triggered.connect(mail.add_account)
        self.settings_action.triggered.connect(self.show_settings)
        self.watch_action.triggered.connect(mail.set_watching)
        files.changed.connect(self.show_status)
        mail.accounts_changed.connect(self.show_status)
        mail.accounts_changed.connect(lambda: self.todo_panel.set_has_accounts(mail.has_accounts))
        self.todo_panel.add_account_requested.connect(mail.add_account)
        self.notice.linkActivated.connect(self._notice_link)
        self.todo_panel.open_requested.connect(self.open_message_id)
        self.todo_panel.draft_requested.connect(self.draft_message_id)

    # -- the window's entry points (the app, the tests) ------------------------------------------------
    def open_files(self, paths: Sequence[str | Path]) -> None:
        """Open ``paths`` beside the files already open (see :meth:`FilesController.open_files`)."""
        self.files.open_files(paths)

    def close_files(self, paths: Sequence[str]) -> None:
        self.files.close_files(paths)

    def choose_files(self) -> None:
        self.files.choose_files()

    def reload_accounts(self) -> None:
        self.mail.reload_accounts()

    def load_mail(self) -> None:
        self.mail.load_mail()

    def start_watching(self) -> int:
        """Watch for new mail (see :meth:`MailController.start_watching`); returns how many folders."""
        return self.mail.start_watching()

    @property
    def open_docs(self) -> dict[str, Document]:
        return self.files.open_docs

    @property
    def open_failures(self) -> dict[str, str]:
        return self.files.open_failures

    @property
    def sync_outcome(self) -> SyncOutcome | None:
        return self.mail.sync_outcome

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
        elif not self.mail.has_accounts:
            self.notice.setText(f"No mail account yet: {ADD_ACCOUNT_LINK} or open files (Ctrl+O).")
        else:
            self.notice.clear()

    def open_message_id(self, message_id: str) -> bool:
        """Select the cached message ``ACCOUNT:FOLDER:UID`` in the list, or open it directly where the list does
        not show it; False when it is no longer cached."""
        from assistant.cli.mail_commands import load_message
        from assistant.errors import ConfigError
        from assistant.gui.mail_list import MessageRow

        if self.messages.select_ref(message_id):
            return True
        try:
            ref, message = load_message(message_id, self.cache)
        except ConfigError:
            self.notice.setText(f"The message {message_id} is no longer in the local cache; sync again.")
            return False
        self.mail.select_message(MessageRow(ref, message, False))
        return True

    def draft_message_id(self, message_id: str) -> None:
        """Open ``message_id`` and draft a reply to it in the Draft tab."""
        if self.open_message_id(message_id):
            self.draft_reply()

    def _notice_link(self, link: str) -> None:
        if link == ADD_ACCOUNT_HREF:
            self.mail.add_account()

    # -- first run and settings ------------------------------------------------------------------------
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
            self.mail.add_account()
        elif dialog.choice == "file":
            self.files.choose_files()

    def show_settings(self) -> None:
        from assistant.gui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self, cache=self.cache, gui=self.settings)
        if dialog.exec() and dialog.saved is not None:
            self.apply_settings(dialog.saved)
        if dialog.cleared:
            self.mail.load_mail()

    def apply_settings(self, settings: Settings) -> None:
        """Use ``settings`` from the next question on: a new model store (changed models reload lazily) and the
        open context re-bound to it, or re-read when its chunking changed. A running ask keeps the old store."""
        watched = self.store.settings.mail.watch
        self.store = self.store.with_settings(settings)
        self.draft_panel.store = self.store
        self.cache.max_bytes = settings.mail.cache_mb * MIB
        if not settings.mail.gist:
            self.mail.gists.stop_reading()  # turned off: what waits for a gist is not read
        if self.mail.watch.watcher is not None and settings.mail.watch != watched:
            self.mail.start_watching()  # the watched folders changed: watch the new ones
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
                          lambda s: self.ask_panel.set_session(s, description), on_error=self.context_error)

    # -- dropped files and closing ---------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.files.open_files(paths)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_layout()
        self.runner.cancel_all()
        self.runner.wait(5000)
        self.mail.stop()
        self.ask_panel.attachment_pages.clear()  # the PDF attachments written to show their pages
        self.draft_panel.attachment_pages.clear()
        super().closeEvent(event)
