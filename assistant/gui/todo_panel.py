"""The "Needs reply" tab: the recent messages of the shown folder that ask something of you, each with what is
asked, by whom, any date and the sentence it comes from; Open shows the message, Draft a reply drafts it."""

from __future__ import annotations

import html
import threading
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal, SignalInstance
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from assistant.gui.tasks import Emit, Task, TaskRunner
from assistant.mail.cache import MailCache
from assistant.mail.todo import DEFAULT_DAYS, CachedMessage, recent_messages
from assistant.service import ModelStore
from assistant.text.plural import count_of
from assistant.ttrag.compute.requests import Reading, Request, find_requests

ID_ROLE = Qt.ItemDataRole.UserRole
ADD_ACCOUNT_HREF = "add-account"
NO_ACCOUNT = (f"No mail account is set up yet: <a href='{ADD_ACCOUNT_HREF}'>add one</a> (File \u2192 Add account) "
              "to find the messages that need your reply.")
Where = Callable[[], tuple[str | None, str | None]]  # the shown (account, folder); None: all


def look(store: ModelStore, cache: MailCache, account: str | None, folder: str | None, emit: Emit,
         cancel: threading.Event) -> tuple[list[CachedMessage], list[Reading]]:
    """The recent messages of ``account``/``folder`` and what each asks (every one is read: skipping lists and
    notifications by their headers missed requests sent through a list, benchmarks/results/mail_todo.md).
    Runs off the GUI thread."""
    found = recent_messages(cache, account=account, folder=folder, days=DEFAULT_DAYS)
    readings = find_requests(store.generator(), [(m.ref.id, m.message, "") for m in found],
                             emit=emit, cancel=cancel) if found else []
    return found, readings


def item_text(request: Request, found: CachedMessage) -> str:
    """One list line: what (and by when), who and the date, then the cited sentence."""
    m = found.message
    due = f" \u2014 by {request.due}" if request.due else ""
    when = f", {m.date:%Y-%m-%d}" if m.date else ""
    quote = f"\u201c{request.quote}\u201d" if request.quote else "(not cited: the model's quote is not in the message)"
    return f"{request.what or m.subject or '(see the message)'}{due}\n{request.sender}{when}: {m.subject}\n{quote}"


class TodoPanel(QWidget):
    """Find (in the background, stopped from the status bar or with Esc), then the list; emits
    ``open_requested(ID)`` and ``draft_requested(ID)`` with the message's ``ACCOUNT:FOLDER:UID``, and
    ``add_account_requested()`` when the person follows the "add one" link shown while no account is set up
    (:meth:`set_has_accounts`)."""

    open_requested = Signal(str)
    draft_requested = Signal(str)
    add_account_requested = Signal()

    def __init__(self, runner: TaskRunner, store: Callable[[], ModelStore], cache: MailCache, where: Where,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner, self.store, self.cache, self.where = runner, store, cache, where
        self.has_accounts = True
        self.about = QLabel(f"Messages of the last {DEFAULT_DAYS} days (or new since the last sync) in the shown "
                            "folder that ask something of you. Each line cites the sentence it comes from.")
        self.about.setWordWrap(True)
        self.find_button = QPushButton("Find what needs my reply")
        self.find_button.setAccessibleName("Find the messages that ask something of you")
        self.find_button.clicked.connect(self.look_through)
        self.items = QListWidget()
        self.items.setAccessibleName("Messages that need your reply")
        self.items.setWordWrap(True)
        self.items.setAlternatingRowColors(True)
        self.items.itemActivated.connect(lambda item: self.open_requested.emit(item.data(ID_ROLE)))
        self.items.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.open_button = QPushButton("Open")
        self.open_button.setAccessibleName("Open the selected message")
        self.open_button.clicked.connect(lambda: self._emit(self.open_requested))
        self.draft_button = QPushButton("Draft a reply")
        self.draft_button.setAccessibleName("Draft a reply to the selected message")
        self.draft_button.clicked.connect(lambda: self._emit(self.draft_requested))
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Needs reply status")
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.linkActivated.connect(lambda _href: self.add_account_requested.emit())
        buttons = QHBoxLayout()
        for b in (self.find_button, self.open_button, self.draft_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.about)
        layout.addLayout(buttons)
        layout.addWidget(self.items, 1)
        layout.addWidget(self.status)
        self.runner.ended.connect(self._ended)
        self._update_buttons()

    @property
    def busy(self) -> bool:
        return bool(self.runner.running("todo"))

    def current_id(self) -> str | None:
        item = self.items.currentItem()
        return str(item.data(ID_ROLE)) if item is not None else None

    def _emit(self, signal: SignalInstance) -> None:
        message_id = self.current_id()
        if message_id is not None:
            signal.emit(message_id)

    def set_has_accounts(self, has: bool) -> None:
        """Whether a mail account is set up: without one the panel says so and offers to add one before anything
        is clicked (a newcomer was told only after clicking "Find what needs my reply")."""
        self.has_accounts = has
        if not has and not self.status.text():
            self.status.setText(NO_ACCOUNT)
        elif has and self.status.text() == NO_ACCOUNT:
            self.status.clear()

    def _update_buttons(self) -> None:
        chosen = self.items.currentItem() is not None
        self.open_button.setEnabled(chosen)
        self.draft_button.setEnabled(chosen)

    def look_through(self) -> None:
        """Look through the shown folder's recent messages in the background (replacing a search running)."""
        store, cache = self.store(), self.cache
        account, folder = self.where()
        self.items.clear()
        self.status.setText("Reading the recent messages\u2026")
        self.find_button.setEnabled(False)
        self.runner.start("todo", "Looking for what needs your reply",
                          lambda emit, cancel: look(store, cache, account, folder, emit, cancel), self.show_readings,
                          on_error=self._failed)

    def _ended(self, task: Task) -> None:
        if task.key == "todo" and not self.busy:  # done, failed or stopped
            self.find_button.setEnabled(True)
            if not self.items.count() and self.status.text().endswith("\u2026"):
                self.status.setText("Stopped.")

    def show_readings(self, outcome: tuple[list[CachedMessage], list[Reading]]) -> None:
        """List what ``outcome`` (the messages read and each one's reading) asks, newest first."""
        found, readings = outcome
        by_id = {m.ref.id: m for m in found}
        self.items.clear()
        for reading in readings:
            if reading.request is not None:
                item = QListWidgetItem(item_text(reading.request, by_id[reading.message_id]))
                item.setData(ID_ROLE, reading.message_id)
                item.setToolTip(reading.message_id)
                self.items.addItem(item)
        skipped = sum(1 for r in readings if r.skipped)
        aside = f"; {count_of(skipped, 'list or notification', 'lists or notifications')} skipped" if skipped else ""
        verb = "asks" if self.items.count() == 1 else "ask"
        self.status.setText(f"{count_of(self.items.count(), 'message')} of {len(readings)} {verb} something of "
                            f"you{aside}." if readings else "No recent messages here; sync, or pick another folder."
                            if self.has_accounts else NO_ACCOUNT)
        if self.items.count():
            self.items.setCurrentRow(0)
        self._update_buttons()

    def _failed(self, exc: BaseException) -> None:
        self.status.setText(f"Could not look through the messages: {html.escape(str(exc))}")
