"""New mail with attachments, told to the person: a desktop notification (the system tray's balloon) where the
desktop has a tray, else a banner in the window; both offer "Ask about it", which opens the message with its
attachments ready to ask about, and the banner "Draft a reply". Once the attachments' gist is ready
(:mod:`assistant.gui.mail_gist`) the notification says it too: the banner's text gains the line, the tray
shows it in a second balloon.

The tray is used only when ``QSystemTrayIcon.isSystemTrayAvailable()``; clicking its message
(``messageClicked``) asks about the message it showed. Without a tray (a desktop without one, offscreen) the
banner above the message list shows the same words and an "Ask about it" button.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSystemTrayIcon, QWidget

from assistant.mail.gists import Gist
from assistant.mail.watch import NewMessage, size_text

SHOW_MS = 15_000  # how long a desktop notification stays


def with_attachments(messages: list[NewMessage]) -> list[NewMessage]:
    """The messages that carry attachments (only those are told)."""
    return [m for m in messages if m.attachments]


def notification_text(message: NewMessage, more: int = 0, gist: Gist | None = None) -> tuple[str, str]:
    """Title and body for ``message``: ``New mail from SENDER`` / the subject, then ``Attached:`` each attachment's
    name and size, then the attachments' ``gist`` line when there is one, then ``and N more new messages with
    attachments`` when ``more``."""
    title = f"New mail from {message.sender or '(unknown sender)'}"
    files = ", ".join(f"{name} ({size_text(size)})" for name, size in message.attachments)
    # a word, not a paperclip emoji: that is an empty box on a desktop without an emoji font
    body = f"{message.subject or '(no subject)'}\nAttached: {files}"
    if gist is not None and gist.text:
        body += f"\n{gist.text}"
    if more:
        body += f"\nand {more} more new message{'s' if more > 1 else ''} with attachments"
    return title, body


class NotificationBanner(QFrame):
    """A strip above the message list: what arrived, "Ask about it" and "Dismiss". Hidden until told."""

    ask = Signal(object)  # NewMessage
    draft = Signal(object)  # NewMessage

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("new-mail-banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#new-mail-banner { background: palette(alternate-base); }")
        self.setAccessibleName("New mail notification")
        self.message: NewMessage | None = None
        self.more = 0
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setAccessibleName("New mail")
        self.ask_button = QPushButton("Ask about it")
        self.ask_button.setToolTip("Open the message with its attachments, ready for your question")
        self.ask_button.clicked.connect(self._ask)
        self.draft_button = QPushButton("Draft a reply")
        self.draft_button.setToolTip("Open the message in the Draft reply tab and write a reply grounded in its "
                                     "attachments")
        self.draft_button.clicked.connect(self._draft)
        self.dismiss_button = QPushButton("Dismiss")
        self.dismiss_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.ask_button)
        layout.addWidget(self.draft_button)
        layout.addWidget(self.dismiss_button)
        self.hide()

    def show_message(self, message: NewMessage, more: int = 0, gist: Gist | None = None) -> None:
        title, body = notification_text(message, more, gist)
        self.message, self.more = message, more
        self.text.setText(f"<b>{_escape(title)}</b><br>{_escape(body).replace(chr(10), '<br>')}")
        self.text.setToolTip(gist.cited() if gist is not None else message.id)
        self.show()

    def show_gist(self, message: NewMessage, gist: Gist) -> bool:
        """Add ``gist`` to the banner if it shows ``message`` now; whether it did."""
        if self.isHidden() or self.message is None or self.message.id != message.id:
            return False
        self.show_message(message, self.more, gist)
        return True

    def _ask(self) -> None:
        if self.message is not None:
            self.hide()
            self.ask.emit(self.message)

    def _draft(self) -> None:
        if self.message is not None:
            self.hide()
            self.draft.emit(self.message)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class NewMailNotifier(QObject):
    """Tells of new messages with attachments through the tray (when the desktop has one) or ``banner``, and
    emits :attr:`ask_requested` with the message when the person picks "Ask about it"."""

    ask_requested = Signal(object)  # NewMessage
    draft_requested = Signal(object)  # NewMessage

    def __init__(self, banner: NotificationBanner, *, icon: QIcon | None = None, use_tray: bool | None = None,
                 parent: Any = None) -> None:
        super().__init__(parent)
        self.banner = banner
        self.banner.ask.connect(self.ask_requested)
        self.banner.draft.connect(self.draft_requested)
        self.last: NewMessage | None = None
        if use_tray is None:
            use_tray = QSystemTrayIcon.isSystemTrayAvailable()
        self.tray: QSystemTrayIcon | None = None
        if use_tray:
            self.tray = QSystemTrayIcon(icon or QIcon(), self)
            self.tray.setToolTip("Assistant: watching for new mail")
            self.tray.messageClicked.connect(self._tray_clicked)
            self.tray.show()

    def notify(self, messages: list[NewMessage]) -> bool:
        """Tell of the newest of ``messages`` that has attachments (the others are counted); whether anything
        was told."""
        told = with_attachments(messages)
        if not told:
            return False
        self.last = told[-1]
        if self.tray is not None:
            title, body = notification_text(self.last, len(told) - 1)
            self.tray.showMessage(title, body + "\nClick to ask about it.", QSystemTrayIcon.MessageIcon.Information,
                                  SHOW_MS)
        else:
            self.banner.show_message(self.last, len(told) - 1)
        return True

    def tell_gist(self, message: NewMessage, gist: Gist) -> bool:
        """Tell the gist of ``message``'s attachments: on the banner if it still shows that message, else in a
        tray balloon if ``message`` is the last one told; whether it was told."""
        if self.tray is not None:
            if self.last is None or self.last.id != message.id or not gist.text:
                return False
            title, body = notification_text(message, 0, gist)
            self.tray.showMessage(title, body + "\nClick to ask about it.", QSystemTrayIcon.MessageIcon.Information,
                                  SHOW_MS)
            return True
        return self.banner.show_gist(message, gist)

    def _tray_clicked(self) -> None:
        if self.last is not None:
            self.ask_requested.emit(self.last)

    def close(self) -> None:
        """Remove the tray icon (when the window closes)."""
        if self.tray is not None:
            self.tray.hide()
