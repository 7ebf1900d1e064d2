"""The main window's layout: folders, message list and view, the Ask and Draft tabs, the status bar, the
actions with their menus and toolbar, and the saved geometry. What the actions do for files and mail is
wired in by :class:`~assistant.gui.window.MainWindow`."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QPoint, QRect, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication, QIcon, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QSplitter, QTabWidget, QTreeWidget, QVBoxLayout, QWidget

from assistant.gui.ask_panel import AskPanel
from assistant.gui.draft_panel import DraftPanel
from assistant.gui.labels import StatusNotice
from assistant.gui.mail_list import MessageListPanel
from assistant.gui.message_view import MessageView
from assistant.gui.notify import NotificationBanner
from assistant.gui.progress import ProgressPanel
from assistant.gui.tasks import TaskRunner
from assistant.gui.todo_panel import TodoPanel
from assistant.mail.cache import MailCache
from assistant.mail.pending import PendingDrafts
from assistant.service import ModelStore

DEFAULT_SIZES = [150, 470, 660]  # folders, mail list and message, Ask/Draft (scaled to the window)
FIRST_SIZE = QSize(1280, 800)  # the first start's size, where the screen has room for it
SCREEN_SHARE = 0.9  # at most this share of the screen's free area on the first start or when clamped
#: Room the window manager's frame takes around the window (title bar, borders) before the window is shown
#: and its real frame is known: a restored size that leaves less than this is too large for the screen.
FRAME_ALLOWANCE = QSize(16, 40)
MAX_FOLDERS_MIN = 200  # pixels: the folder pane's minimum width fits its names, up to this
NOTICE_MS = 15_000  # how long a notice of something that happened (new mail, a sync) stays in the status bar
ICON = Path(__file__).resolve().parents[2] / "resources" / "icons" / "org.ttrag.Assistant.svg"
#: Every keyboard stop shows where the focus is: views and text areas draw no focus frame of their own in
#: Fusion (Qt's default style on Linux), so they get a highlight-coloured border while focused.
FOCUS_STYLE = """
QAbstractScrollArea { border: 1px solid palette(mid); }
QAbstractScrollArea:focus { border: 2px solid palette(highlight); }
"""


class WindowLayout(QMainWindow):
    """The window's widgets and actions, laid out, with what they share: the model ``store``, the mail
    ``cache``, the window ``settings``, the ``pending`` drafts and the background :attr:`runner`."""

    def __init__(self, store: ModelStore, *, cache: MailCache, settings: QSettings, pending: PendingDrafts) -> None:
        super().__init__()
        self.setWindowTitle("Assistant")
        if ICON.is_file():
            self.setWindowIcon(QIcon(str(ICON)))
        self.setAcceptDrops(True)
        self.setStyleSheet(FOCUS_STYLE)
        self.store = store
        self.cache = cache
        self.settings = settings
        self.pending = pending
        self.runner = TaskRunner(self)
        self.folders = QTreeWidget()
        self.folders.setHeaderHidden(True)
        self.folders.setAccessibleName("Accounts and folders")
        self.messages = MessageListPanel()
        self.message_view = MessageView()
        self.ask_panel = AskPanel(self.runner)
        self.draft_panel = DraftPanel(self.runner, store, pending=pending)
        self.draft_panel.cache = cache
        self.tabs = QTabWidget()
        self.tabs.addTab(self.ask_panel, "Ask")
        self.tabs.addTab(self.draft_panel, "Draft reply")
        self.todo_panel = TodoPanel(self.runner, lambda: self.store, cache, self.shown_folder)
        self.tabs.addTab(self.todo_panel, "Needs reply")
        self.mail_side = QSplitter(Qt.Orientation.Vertical)
        self.mail_side.addWidget(self.messages)
        self.mail_side.addWidget(self.message_view)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("main-splitter")
        for w, stretch in ((self.folders, 1), (self.mail_side, 3), (self.tabs, 4)):
            self.splitter.addWidget(w)
            self.splitter.setStretchFactor(self.splitter.count() - 1, stretch)
        self.splitter.setSizes(DEFAULT_SIZES)
        self.banner = NotificationBanner()  # new mail with attachments, where the desktop has no tray
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.banner)
        box.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self._make_status_bar()
        self._make_actions()
        self._restore()

    def _make_status_bar(self) -> None:
        self.progress = ProgressPanel(self.runner)
        self.offline = QLabel("\u26A0 Offline: showing cached mail")
        self.offline.setAccessibleName("Offline indicator")
        self.offline.setStyleSheet("color: #a05a00")
        self.offline.setVisible(False)
        self.pending_label = QLabel()
        self.pending_label.setAccessibleName("Drafts waiting for the server")
        self.pending_label.setStyleSheet("color: #a05a00")
        self.gist_label = QLabel()  # mail waiting for its attachments' gist, with a link that stops it
        self.gist_label.setAccessibleName("Attachments being read")
        self.gist_label.setToolTip("The attachments of synced and new mail are read in the background, at the "
                                   "lowest priority, for the one line on what they are (Settings \u2192 New mail)")
        self.gist_label.setVisible(False)
        self.notice = StatusNotice()
        self.notice.setAccessibleName("Status message")
        self._notice_timer = QTimer(self)  # ends a notice shown by flash_notice
        self._notice_timer.setSingleShot(True)
        self._notice_timer.timeout.connect(self._notice_ended)
        self._flashed, self._lasting = "", ""
        self.statusBar().addWidget(self.notice, 1)
        self.statusBar().addPermanentWidget(self.gist_label)
        self.statusBar().addPermanentWidget(self.pending_label)
        self.statusBar().addPermanentWidget(self.offline)
        self.statusBar().addPermanentWidget(self.progress)

    def flash_notice(self, text: str, ms: int | None = None) -> None:
        """Tell of something that happened (new mail, a sync) for ``ms`` milliseconds (:data:`NOTICE_MS`); then
        what the status bar said before comes back (a notice of new mail had stayed for a quarter of an hour,
        across later work)."""
        if not self._notice_timer.isActive():
            self._lasting = self.notice.text()
        self._flashed = text
        self.notice.setText(text)
        self._notice_timer.start(ms or NOTICE_MS)

    def _notice_ended(self) -> None:
        if self.notice.text() == self._flashed:  # not replaced meanwhile by a lasting message
            self.notice.setText(self._lasting)

    # -- actions and shortcuts -------------------------------------------------------------------------
    def _action(self, text: str, slot: object | None = None,
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None, tip: str = "") -> QAction:
        """A window-wide action; ``slot`` None leaves it for :class:`~assistant.gui.window.MainWindow` to wire."""
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(tip or text)
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if slot is not None:
            action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _make_actions(self) -> None:
        self.open_action = self._action("Open files\u2026", None, QKeySequence.StandardKey.Open,
                                        "Open local files to ask about (Ctrl+O)")
        self.sync_action = self._action("Sync", None, "F5", "Fetch new mail (F5)")
        self.account_action = self._action("Add account\u2026")
        self.settings_action = self._action("Settings\u2026")
        self.ask_action = self._action("Ask", self.ask_panel.ask, "Ctrl+Return", "Ask the question (Ctrl+Enter)")
        self.draft_action = self._action("Draft reply", self.draft_reply, "Ctrl+D", "Draft a reply (Ctrl+D)")
        self.stop_action = self._action("Stop", self.stop_running, "Esc", "Stop what is running (Esc)")
        self.filter_action = self._action("Filter messages", self.focus_filter, "Ctrl+F")
        self.prev_action = self._action("Previous message", lambda: self.messages.step(-1), "Alt+Up")
        self.next_action = self._action("Next message", lambda: self.messages.step(1), "Alt+Down")
        quit_action = self._action("Quit", self.close, QKeySequence.StandardKey.Quit)
        menu = self.menuBar().addMenu("&File")
        for a in (self.open_action, self.sync_action, self.account_action, self.settings_action):
            menu.addAction(a)
        menu.addSeparator()  # Quit apart from Settings: not one slip of the mouse away
        menu.addAction(quit_action)
        self.watch_action = self._action("Watch for new mail",
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

    def stop_running(self) -> None:
        """Esc: stop the question being answered, else the draft being written, else the newest task (the
        same as the one Stop button shown for it)."""
        if self.ask_panel.busy:
            self.ask_panel.stop()
        elif self.draft_panel.busy:
            self.draft_panel.stop()
        else:
            self.progress.cancel()

    def focus_filter(self) -> None:
        self.messages.filter.setFocus()
        self.messages.filter.selectAll()

    def draft_reply(self) -> None:
        self.tabs.setCurrentWidget(self.draft_panel)
        if not self.draft_panel.busy:  # Ctrl+D again while writing does not restart it; Stop does stop
            self.draft_panel.generate()

    # -- what the panes show ---------------------------------------------------------------------------
    def show_mail_panes(self, shown: bool) -> None:
        """Show or hide the folders and the mail list and message: a file-only session gets the whole width,
        not half of it in empty mail panes."""
        self.folders.setVisible(shown)
        self.mail_side.setVisible(shown)
        if shown and min(self.splitter.sizes()[:2]) == 0:  # saved while there was no account
            self.splitter.setSizes(DEFAULT_SIZES)

    def fit_folders(self) -> None:
        """The folder pane at least as wide as its names (a page opened beside the answer squeezed it to
        "INBO"), at most :data:`MAX_FOLDERS_MIN` pixels."""
        self.folders.setMinimumWidth(min(self.folders.sizeHintForColumn(0) + 2 * self.folders.frameWidth() + 8,
                                         MAX_FOLDERS_MIN))

    def shown_folder(self) -> tuple[str | None, str | None]:
        """The (account, folder) the folder tree has selected; None for all."""
        item = self.folders.currentItem()
        shown = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        return shown if isinstance(shown, tuple) else (None, None)

    def context_error(self, exc: BaseException) -> None:
        """The Ask panel's context could not be read (files, a message, or again after a settings change)."""
        self.ask_panel.set_session(None, f"Could not read: {exc}")

    # -- window state ---------------------------------------------------------------------------------
    def _restore(self) -> None:
        geometry = self.settings.value("window/geometry")
        restored = isinstance(geometry, QByteArray) and self.restoreGeometry(geometry)
        self.fit_to_screen(first=not restored)
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        splitter = self.settings.value("window/splitter")
        if isinstance(splitter, QByteArray):
            self.splitter.restoreState(splitter)

    def fit_to_screen(self, *, first: bool = False) -> None:
        """Keep the whole window, status bar included, on the screen's free area (``availableGeometry``, less
        panels and docks): the ``first`` start's size is :data:`FIRST_SIZE` where it fits, else
        :data:`SCREEN_SHARE` of the area, centred; a restored size too large for this screen (saved on a larger
        one) is brought down to that share and centred too. A maximized window is left as it is."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None or self.isMaximized() or self.isFullScreen():
            return
        area = screen.availableGeometry()
        most = QSize(int(area.width() * SCREEN_SHARE), int(area.height() * SCREEN_SHARE))
        if first:
            size = FIRST_SIZE.boundedTo(most)
        else:
            framed = self.frameGeometry().size().expandedTo(self.size() + FRAME_ALLOWANCE)
            if framed.width() <= area.width() and framed.height() <= area.height():
                if not area.contains(self.frameGeometry().center()):  # saved on a screen no longer there
                    self.move(self._centred(self.size(), area))
                return
            size = self.size().boundedTo(most)
        self.resize(size)
        self.move(self._centred(size, area))

    @staticmethod
    def _centred(size: QSize, area: QRect) -> QPoint:
        rect = QRect(area.topLeft(), size)
        rect.moveCenter(area.center())
        return rect.topLeft()

    def save_layout(self) -> None:
        """Keep the geometry, toolbar state and pane sizes for the next start (restored on creation)."""
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.setValue("window/splitter", self.splitter.saveState())
        self.settings.sync()
