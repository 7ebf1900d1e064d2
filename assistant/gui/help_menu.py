"""The Help menu: how to start, the keyboard shortcuts (read from the window's own actions, so the list cannot
go stale), the documentation that came with the program (opened from this machine: no network), and About."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox

#: The documentation beside the package in a checkout or an install from it; absent in a bare wheel.
DOCS = Path(__file__).resolve().parents[2] / "docs"
DESKTOP_DOC = DOCS / "desktop.md"

GETTING_STARTED = (
    "1. Open a file (File \u25b8 Open files\u2026, Ctrl+O) or add a mail account (File \u25b8 Add account\u2026) "
    "and pick a message.\n\n"
    "2. Type a question in the question box and press Ctrl+Enter. The answer appears with the passages it comes "
    "from; click a source to see its page with the sentence highlighted.\n\n"
    "3. Ask \u201cSummarize this\u201d for what a document is read for (a contract's parties, term and law; a "
    "report's purpose and findings), or press Ctrl+D to draft a reply to the message shown.\n\n"
    "Esc stops what is running. Everything is read on this computer: nothing you open is sent anywhere "
    "(Privacy \u25b8 Privacy and connections\u2026 shows every connection made).")


def version() -> str:
    """The installed program's version, or '' when it runs from files that were not installed."""
    try:
        return importlib.metadata.version("assistant")
    except importlib.metadata.PackageNotFoundError:
        return ""


def shortcut_lines(window: QMainWindow) -> list[str]:
    """"KEYS  what it does" for each of ``window``'s actions that has a shortcut, in the order they were made."""
    lines = []
    for action in window.actions():
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if keys:
            lines.append(f"{keys}\t{action.text().replace('&', '').removesuffix(chr(0x2026))}")
    return lines


class HelpMenu:
    """The window's Help menu (last in its menu bar). Its boxes are window-modal and do not block (``open``)."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self.start_action = QAction("Getting started", window)
        self.start_action.setShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents))
        self.start_action.triggered.connect(self.show_start)
        window.addAction(self.start_action)  # listed with the window's other shortcuts
        self.keys_action = QAction("Keyboard shortcuts", window)
        self.keys_action.triggered.connect(self.show_shortcuts)
        self.docs_action = QAction("Documentation", window)
        self.docs_action.setToolTip(f"Opens {DESKTOP_DOC} (on this computer)" if DESKTOP_DOC.is_file() else
                                    "The documentation is not installed with this copy")
        self.docs_action.setEnabled(DESKTOP_DOC.is_file())
        self.docs_action.triggered.connect(self.open_docs)
        self.about_action = QAction("About Assistant", window)
        self.about_action.triggered.connect(self.show_about)
        menu = window.menuBar().addMenu("&Help")
        menu.setToolTipsVisible(True)
        for action in (self.start_action, self.keys_action, self.docs_action):
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.about_action)
        self.box: QMessageBox | None = None

    def _show(self, title: str, text: str) -> QMessageBox:
        if self.box is not None:
            self.box.close()
        self.box = QMessageBox(QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Close,
                               self.window)
        self.box.open()
        return self.box

    def show_start(self) -> QMessageBox:
        return self._show("Getting started", GETTING_STARTED)

    def show_shortcuts(self) -> QMessageBox:
        return self._show("Keyboard shortcuts", "\n".join(shortcut_lines(self.window)))

    def show_about(self) -> QMessageBox:
        number = version()
        return self._show("About Assistant", f"Assistant{' ' + number if number else ''}: a private, on-device "
                          "email and document assistant.\n\nIt reads your files and mail and answers questions "
                          "about them on this computer, with the passages each answer comes from. Nothing you "
                          "read is indexed ahead of time or kept after the session.\n\nLicence: Apache-2.0.")

    def open_docs(self) -> bool:
        """Open the desktop app's documentation in the program this computer opens Markdown files with; where
        none opens it, a box says where the file is (a newcomer clicked and nothing happened)."""
        opened = QDesktopServices.openUrl(QUrl.fromLocalFile(str(DESKTOP_DOC)))
        if not opened:
            self._show("Documentation", f"No program on this computer opened the documentation. It is the file\n"
                       f"{DESKTOP_DOC}\n(plain text, Markdown): open it in any text editor or browser. The other "
                       f"pages are beside it in {DOCS}.")
        return opened
