"""The mail side of the window: accounts and folders, the cached message list, opening a message for the Ask
and Draft panels, sync, watching for new mail with its notifications and its attachments' gist, and the drafts
waiting for a server."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QTreeWidgetItem

from assistant.accounts import load_accounts
from assistant.errors import AssistantError
from assistant.gui.account_dialog import AccountDialog
from assistant.gui.ask_context import AskContext, MessagePart
from assistant.gui.mail_gist import GistQueue
from assistant.gui.mail_list import MessageRow, load_rows
from assistant.gui.mail_sync import MailWatch, SyncOutcome, sync_all
from assistant.gui.notify import NewMailNotifier
from assistant.gui.tasks import Task
from assistant.gui.window_layout import WindowLayout
from assistant.mail.gists import Gist
from assistant.mail.sync import SyncResult, synced_text
from assistant.mail.watch import NewMessage
from assistant.text.plural import count_of

ACCOUNT_ROLE = Qt.ItemDataRole.UserRole
ADD_ACCOUNT_HREF = "add-account"  # the status bar's link that opens the Add account dialog
ADD_ACCOUNT_LINK = f"<a href='{ADD_ACCOUNT_HREF}'>add one</a> (File \u2192 Add account)"
STOP_GISTS_HREF = "stop-gists"  # the status bar's link that stops reading attachments for their gist
RELOAD_MS = 150  # a watched folder's sync and the new mail it found reload the list once, not twice


def where(result: SyncResult) -> str:
    return f"{result.account}/{result.folder}"


class MailController(QObject):
    """Mail in ``ui``: :attr:`has_accounts`, the last :attr:`sync_outcome`, the :attr:`watch` on new mail, its
    :attr:`notifier` and the :attr:`gists` of mail with attachments; a message selected is asked about through
    ``asking``. :attr:`accounts_changed` is emitted when the accounts were (re)loaded.

    :attr:`watch_off` is True once the person unticked Mail \u2192 Watch for new mail: adding an account then
    leaves the watch off (as it stays on, restarted to take the new account in, when it is on)."""

    accounts_changed = Signal()

    def __init__(self, ui: WindowLayout, asking: AskContext) -> None:
        super().__init__(ui)
        self.ui = ui
        self.asking = asking
        self.has_accounts = False
        self.sync_outcome: SyncOutcome | None = None
        self.watch_off = False
        self._watch_after_sync: Task | None = None  # the sync after which watching starts (an account was added)
        self._reload = QTimer(self)
        self._reload.setSingleShot(True)
        self._reload.setInterval(RELOAD_MS)
        self._reload.timeout.connect(self.load_mail)
        ui.runner.ended.connect(self._sync_ended)
        self.notifier = NewMailNotifier(ui.banner, icon=ui.windowIcon(), parent=ui)
        self.notifier.ask_requested.connect(self.ask_about)
        self.notifier.draft_requested.connect(self.draft_about)
        self.gists = GistQueue(ui.runner, ui.cache, lambda: self.ui.store, self)
        self.gists.ready.connect(self._gist_ready)
        self.gists.failed.connect(lambda new, why: self.ui.notice.setText(
            f"No gist for \u201c{new.subject}\u201d: {why}"))
        self.gists.pending.connect(self._gists_pending)
        ui.gist_label.linkActivated.connect(lambda _link: self.gists.stop_reading())
        self.watch = MailWatch(ui.cache, ui.pending, ui)
        self.watch.synced.connect(self._watch_synced)
        self.watch.arrived.connect(self._mail_arrived)
        self.watch.problem.connect(self._watch_problem)
        self.watch.delivered.connect(lambda _: self.show_pending())

    def show_pending(self) -> None:
        """Show how many drafts wait on this computer for their server (saved at the next sync)."""
        drafts = self.ui.pending.waiting()
        label = self.ui.pending_label
        label.setText(f"\u2709 {count_of(len(drafts), 'draft')} waiting for the server" if drafts else "")
        label.setToolTip("\n".join(f"{d.account}: {d.subject}" for d in drafts))
        label.setVisible(bool(drafts))

    # -- accounts and messages ------------------------------------------------------------------------
    def reload_accounts(self) -> None:
        folders = self.ui.folders
        folders.blockSignals(True)
        folders.clear()
        everything = QTreeWidgetItem(["All mail"])
        everything.setData(0, ACCOUNT_ROLE, (None, None))
        folders.addTopLevelItem(everything)
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
            folders.addTopLevelItem(item)
        folders.expandAll()
        self.ui.fit_folders()
        folders.setCurrentItem(everything)
        folders.blockSignals(False)
        self.has_accounts = bool(accounts)
        self.ui.show_mail_panes(self.has_accounts)
        self.accounts_changed.emit()
        if error:
            self.ui.notice.setText(error)
        self.load_mail()

    def load_mail(self) -> None:
        """Show the cached messages of the selected account/folder (parsed in the background)."""
        item = self.ui.folders.currentItem()
        account, folder = item.data(0, ACCOUNT_ROLE) if item else (None, None)
        cache = self.ui.cache
        self.ui.runner.start("load-mail", "Loading messages",
                             lambda emit, cancel: load_rows(cache, account, folder), self.ui.messages.set_rows,
                             on_error=lambda exc: self.ui.notice.setText(f"Could not read the mail cache: {exc}"))

    def select_message(self, row: MessageRow) -> None:
        """Show ``row`` and ask about it: the message, its attachments and the ticked open files."""
        self.ui.message_view.show_row(row)
        self.ui.draft_panel.set_message(row)
        self.asking.select_message(row, self._message_read)

    def _message_read(self, part: MessagePart) -> None:
        self.ui.message_view.set_statuses(part.skipped)

    def add_account(self) -> None:
        """The Add account dialog; a new account is synced at once, then watched as after a restart (unless
        the person turned watching off)."""
        dialog = AccountDialog(self.ui)
        if dialog.exec() and dialog.account is not None:
            self.reload_accounts()
            self._watch_after_sync = self.sync()
            if self._watch_after_sync is None:
                self._watch_again()

    # -- sync -----------------------------------------------------------------------------------------
    def sync(self) -> Task | None:
        """Fetch new mail for every account in the background; without an account there is nothing to fetch,
        and the status bar says so with a link to add one (a sync of nothing read as a success). Returns the
        task (None without an account)."""
        if not self.has_accounts:
            self.ui.notice.setText(f"Nothing to sync: no mail account is set up yet; {ADD_ACCOUNT_LINK}.")
            return None
        cache, pending = self.ui.cache, self.ui.pending
        self.ui.sync_action.setEnabled(False)
        return self.ui.runner.start("sync", "Syncing mail",
                                    lambda emit, cancel: sync_all(cache, emit, cancel, pending),
                                    self._synced, on_error=self._sync_failed)

    def _sync_ended(self, task: Task) -> None:
        """After the sync that followed a new account (done, failed or stopped), watch: the watch's first sync of
        each folder then finds it synced, and what arrives from now on is new mail."""
        if self._watch_after_sync is not None and task.id == self._watch_after_sync.id:
            self._watch_after_sync = None
            self._watch_again()

    def _watch_again(self) -> None:
        if not self.watch_off:
            self.start_watching()

    def _synced(self, outcome: SyncOutcome) -> None:
        self.sync_outcome = outcome
        self.ui.sync_action.setEnabled(True)
        self.ui.offline.setVisible(bool(outcome.unreachable))
        if outcome.errors:
            self.ui.notice.setText("; ".join(outcome.errors))
        else:
            self.ui.flash_notice(synced_text(outcome.results, delivered=len(outcome.delivered)))
        self.show_pending()
        self.load_mail()
        if self.ui.store.settings.mail.gist:
            self.gists.add_synced(outcome.results)

    def _sync_failed(self, exc: BaseException) -> None:
        self.ui.sync_action.setEnabled(True)
        self.ui.notice.setText(f"Sync failed: {exc}")

    # -- new mail -------------------------------------------------------------------------------------
    def start_watching(self) -> int:
        """Watch the folders the settings name (else every account's folders) for new mail; returns how many."""
        n = self.watch.start(self.ui.store.settings.mail.watch) if self.has_accounts else 0
        self.ui.watch_action.setChecked(n > 0)
        return n

    def set_watching(self, on: bool) -> None:
        """Mail \u2192 Watch for new mail, ticked or unticked by the person."""
        self.watch_off = not on
        if not on:
            self.watch.stop()
        elif not self.start_watching():
            self.ui.notice.setText("Nothing to watch: add a mail account first.")

    def stop(self) -> None:
        """Stop watching and take the notification down (the window is closing)."""
        self.watch.stop(wait_s=3)
        self.gists.stop(wait_ms=5000)
        self.notifier.close()

    def _watch_problem(self, text: str, ended: bool) -> None:
        self.ui.notice.setText(("\u2716 " if ended else "") + text)
        if ended and not self.watch.watching:
            self.ui.watch_action.setChecked(False)

    def _watch_synced(self, result: SyncResult) -> None:
        """A watched folder was synced (its first sync too, whose messages are not told as new mail): the list
        follows, and what it fetched gets its gist."""
        if result.new_uids or result.removed_uids:
            self._reload.start()
        if result.new_uids:
            self.ui.flash_notice(f"Synced {where(result)}: {count_of(len(result.new_uids), 'new message')}.")
            if self.ui.store.settings.mail.gist:
                self.gists.add_synced([result])

    def _mail_arrived(self, messages: list[NewMessage]) -> None:
        self._reload.start()
        if messages:
            last = messages[-1]
            folder = f"{last.ref.account}/{last.ref.folder}"
            what = f"\u201c{last.subject or '(no subject)'}\u201d from {last.sender or '(unknown sender)'}" \
                if len(messages) == 1 else count_of(len(messages), "new message")
            self.ui.flash_notice(f"New mail in {folder}: {what}.")
        if self.ui.store.settings.mail.notify:
            self.notifier.notify(messages)
        if self.ui.store.settings.mail.gist:
            self.gists.add(messages)

    def _gists_pending(self, left: int) -> None:
        """The status bar says how many messages still wait for their attachments' gist, with Stop."""
        label = self.ui.gist_label
        label.setText(f"Reading attachments: {count_of(left, 'message')} left "
                      f"(<a href='{STOP_GISTS_HREF}'>stop</a>)" if left else "")
        label.setVisible(left > 0)

    def _gist_ready(self, new: NewMessage, gist: Gist) -> None:
        self.ui.messages.set_gist(new.id, gist)
        if self.ui.store.settings.mail.notify:
            self.notifier.tell_gist(new, gist)

    def _open_new(self, new: NewMessage) -> bool:
        """Select ``new`` in the list, or open it directly when it is not listed; whether it is still cached."""
        from assistant.documents.mime.parse import parse_message

        ui = self.ui
        ui.raise_()
        ui.activateWindow()
        if not ui.messages.select_ref(new.id):  # not listed (yet, or another folder is shown): open it directly
            raw = ui.cache.get(new.ref)
            if raw is None:
                ui.notice.setText(f"The message {new.id} is no longer in the local cache; sync again.")
                return False
            self.select_message(MessageRow(new.ref, parse_message(raw), True))
        return True

    def ask_about(self, new: NewMessage) -> None:
        """Open ``new`` with its attachments in the Ask panel, the question box focused ("Ask about it")."""
        self.ui.tabs.setCurrentWidget(self.ui.ask_panel)
        if self._open_new(new):
            self.ui.ask_panel.question.setFocus()

    def draft_about(self, new: NewMessage) -> None:
        """Open ``new`` and write a reply grounded in its attachments in the Draft reply tab ("Draft a reply")."""
        if self._open_new(new):
            self.ui.draft_reply()
