"""Privacy in the window: the offline switch in the status bar, the Privacy menu and the Privacy page (what the
last question connected to, and the log of every connection; :mod:`assistant.netguard`)."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMainWindow,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from assistant import netguard
from assistant.config import update_settings_file
from assistant.errors import AssistantError
from assistant.gui.confirm import confirm_remove
from assistant.netlog import Connection, LoggedConnection, human_bytes
from assistant.text.plural import count_of

OFFLINE_TIP = ("Offline mode refuses every connection to another machine, at the lowest level, for any part of "
               "the app: mail sync, model downloads, sign-in, a reader server elsewhere. Open files, questions, "
               "summaries and drafts keep working; a draft waits on this computer until the next sync. "
               "Click to turn it {other}.")
COLUMNS = ("When", "Host", "Port", "Purpose", "Sent", "Received", "How it ended")


def save_offline(on: bool) -> None:
    """Keep the choice in config.toml (``[privacy] offline``) for the next start and for the command line."""
    update_settings_file({"privacy": {"offline": on}})


class OfflineSwitch(QToolButton):
    """Offline mode on or off; its text in the status bar says which ("Offline mode: on")."""

    changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None, *, save: Callable[[bool], None] = save_offline) -> None:
        super().__init__(parent)
        self._save = save
        self.setCheckable(True)
        self.setAutoRaise(True)
        self.setAccessibleName("Offline mode")
        self.setChecked(netguard.is_offline())
        self._show()
        self.toggled.connect(self._switched)

    def _switched(self, on: bool) -> None:
        netguard.set_offline(on)
        self._show()
        try:
            self._save(on)
        except AssistantError as exc:
            self.setToolTip(f"{self.toolTip()}\n(Not saved for the next start: {exc})")
        self.changed.emit(on)

    def _show(self) -> None:
        on = self.isChecked()
        self.setText("\u26D4 Offline mode: on" if on else "Offline mode: off")
        self.setStyleSheet("color: #a05a00; font-weight: bold" if on else "")
        self.setToolTip(OFFLINE_TIP.format(other="off" if on else "on"))


def activity_sentence(name: str, label: str) -> str:
    """"During your last question (14:03:07): no connections." (or which ones), from
    :func:`netguard.last_activity`."""
    act = netguard.last_activity(name)
    if act is None:
        return f"No {label} yet since the app started."
    label = f"{label} ({time.strftime('%H:%M:%S', time.localtime(act.started))})"
    if not act.connections:
        return f"During your last {label}: no connections."
    outside = [c for c in act.connections if not c.loopback]
    listed = "; ".join(f"{c.describe()}{'' if not c.loopback else ' (this computer)'}" for c in act.connections[:5])
    more = f" and {len(act.connections) - 5} more" if len(act.connections) > 5 else ""
    return (f"During your last {label}: {count_of(len(act.connections), 'connection')}, {len(outside) or 'none'} "
            f"to other machines: {listed}{more}.")


def _row(c: LoggedConnection, live: dict[str, Connection]) -> list[str]:
    now = live.get(c.id)
    sent, received, outcome = c.sent, c.received, c.outcome
    if now is not None and c.outcome == "open":  # still open in this process: its counts so far
        sent, received, outcome = now.sent, now.received, "open"
    host = c.host + (f" ({c.address})" if c.address and c.address != c.host else "")
    return [time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(c.time)),
            host + (" \u2014 this computer" if c.loopback else ""), str(c.port or ""),
            c.purpose or "no purpose given", human_bytes(sent), human_bytes(received), outcome]


class PrivacyDialog(QDialog):
    """The Privacy page: offline mode, the last question's and draft's connections, and the connection log."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Privacy")
        self.resize(900, 480)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Connections during the last question")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setAccessibleName("Connection log")
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.clicked.connect(self.refresh)
        self.clear_button = QPushButton("Clear log\u2026")
        self.clear_button.clicked.connect(self.clear)
        buttons.addButton(self.refresh_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.clear_button, QDialogButtonBox.ButtonRole.ActionRole)
        box = QVBoxLayout(self)
        box.addWidget(self.summary)
        box.addWidget(self.table, 1)
        box.addWidget(self.where)
        box.addWidget(buttons)
        self.refresh()

    def refresh(self) -> None:
        """Read the log again (the file, with this app's open connections' counts so far)."""
        state = "on: connections to other machines are refused" if netguard.is_offline() else "off"
        self.summary.setText(f"Offline mode is {state}.\n{activity_sentence('question', 'question')}\n"
                             f"{activity_sentence('draft', 'draft')}")
        log = netguard.log()
        entries = log.entries()
        live = {c.id: c for c in netguard.recent() if c.ended is None}
        self.table.setRowCount(len(entries))
        for r, entry in enumerate(reversed(entries)):  # newest first
            for col, text in enumerate(_row(entry, live)):
                self.table.setItem(r, col, QTableWidgetItem(text))
        outside = sum(not e.loopback for e in entries)
        self.where.setText(f"{count_of(len(entries), 'connection')} logged, {outside or 'none'} to other machines "
                           "(newest first). Every "
                           f"connection is logged: when, host, port, purpose and bytes, never content or passwords; "
                           f"the last {log.max_days:g} days are kept, in {log.path}.")

    def clear(self) -> None:
        if confirm_remove(self, "Clear the connection log", "Clear the connection log?",
                          "Every logged connection is removed from this computer; new ones are logged again."):
            netguard.log().clear()
            self.refresh()


class PrivacyControls(QObject):
    """Adds privacy to ``window``: the offline switch in its status bar and a Privacy menu (offline mode, the
    Privacy page). ``changed`` tells when offline mode is switched."""

    changed = Signal(bool)

    def __init__(self, window: QMainWindow, *, save: Callable[[bool], None] = save_offline) -> None:
        super().__init__(window)
        self.window = window
        self.switch = OfflineSwitch(save=save)
        window.statusBar().addPermanentWidget(self.switch)
        self.offline_action = QAction("Offline mode", window)
        self.offline_action.setCheckable(True)
        self.offline_action.setChecked(self.switch.isChecked())
        self.offline_action.setToolTip(self.switch.toolTip())
        self.offline_action.toggled.connect(self.switch.setChecked)
        self.switch.changed.connect(self._changed)
        self.page_action = QAction("Privacy and connections\u2026", window)
        self.page_action.triggered.connect(self.show_page)
        menu = window.menuBar().addMenu("&Privacy")
        menu.addAction(self.offline_action)
        menu.addAction(self.page_action)
        self.page: PrivacyDialog | None = None

    def _changed(self, on: bool) -> None:
        self.offline_action.setChecked(on)
        if self.page is not None:
            self.page.refresh()
        self.changed.emit(on)

    def show_page(self) -> PrivacyDialog:
        """Open (or raise) the Privacy page, read afresh; it is not modal."""
        if self.page is None:
            self.page = PrivacyDialog(self.window)
        self.page.refresh()
        self.page.show()
        self.page.raise_()
        return self.page
