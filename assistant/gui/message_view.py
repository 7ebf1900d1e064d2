"""Message view: headers, body, and the attachments with size and read/failed status (with the reason).

The body is shown as plain text (HTML mail is converted to its visible text when parsed), and the body
view refuses every resource URL, so an HTML mail never loads remote content: no tracking image, style
sheet or font is fetched, and no request tells the sender the mail was opened.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from assistant.gui.mail_list import MessageRow
from assistant.gui.open_files import plain_reason


def human_size(n: int) -> str:
    for unit in ("B", "KB", "MB"):
        if n < 1024 or unit == "MB":
            return f"{n:,} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


class LocalOnlyBrowser(QTextBrowser):
    """A QTextBrowser that loads no resource at all (images, style sheets, fonts): mail is untrusted."""

    def loadResource(self, kind: int, url: QUrl | Any) -> Any:  # noqa: N802  (Qt's name)
        return None


class MessageView(QWidget):
    """Shows one :class:`MessageRow`; attachment statuses arrive later from the reading task."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.row: MessageRow | None = None
        self.headers = QLabel("No message selected.")
        self.headers.setTextFormat(Qt.TextFormat.RichText)
        self.headers.setWordWrap(True)
        self.headers.setAccessibleName("Message headers")
        self.body = LocalOnlyBrowser()
        self.body.setAccessibleName("Message body")
        self.body.setOpenLinks(False)  # a click never opens a link from the mail
        self.attachments = QTreeWidget()
        self.attachments.setAccessibleName("Attachments")
        self.attachments.setHeaderLabels(["Attachment", "Size", "Status"])
        self.attachments.setRootIsDecorated(False)
        self.attachments.setColumnWidth(0, 160)
        self.attachments.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.attachments.setVisible(False)  # until a message with attachments is shown
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.body)
        split.addWidget(self.attachments)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.headers)
        layout.addWidget(split)

    def show_row(self, row: MessageRow) -> None:
        self.row = row
        m = row.message
        lines = [("From", m.sender), ("To", ", ".join(m.to))]
        if m.cc:
            lines.append(("Cc", ", ".join(m.cc)))
        lines.append(("Date", m.date.strftime("%a %d %b %Y %H:%M") if m.date else ""))
        lines.append(("Subject", m.subject))
        self.headers.setText("<br>".join(f"<b>{k}:</b> {html.escape(v)}" for k, v in lines))
        self.body.setPlainText(m.body or "(no text)")
        self.attachments.clear()
        for a in m.attachments:
            item = QTreeWidgetItem([a.filename, human_size(a.size), "reading\u2026"])
            item.setToolTip(0, a.content_type)
            self.attachments.addTopLevelItem(item)
        self.attachments.setVisible(bool(m.attachments))

    def _items(self) -> list[QTreeWidgetItem]:
        items = (self.attachments.topLevelItem(i) for i in range(self.attachments.topLevelItemCount()))
        return [item for item in items if item is not None]

    def set_statuses(self, skipped: dict[str, str]) -> None:
        """Mark each attachment read, or failed with its reason (``skipped``: filename -> reason)."""
        for item in self._items():
            reason = skipped.get(item.text(0))
            item.setText(2, "read" if reason is None else f"failed: {plain_reason(reason)}")
            item.setToolTip(2, "read" if reason is None else reason)

    def status_of(self, filename: str) -> str:
        for item in self._items():
            if item.text(0) == filename:
                return item.text(2)
        return ""
