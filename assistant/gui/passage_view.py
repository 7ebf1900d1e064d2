"""Side view of a cited passage: file, page and the surrounding text with the cited chunk highlighted."""

from __future__ import annotations

import html
from pathlib import PurePath

from PySide6.QtWidgets import QLabel, QTextBrowser, QVBoxLayout, QWidget

from assistant.records import Document, Source

CONTEXT_CHARS = 600


def short_source(source: str) -> str:
    """A file's name without its folders (the full path goes in a tooltip)."""
    return PurePath(source).name or source


class PassageView(QWidget):
    """Shows one :class:`Source` inside its document's text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Click a source to read the passage.")
        self.title.setWordWrap(True)
        self.title.setAccessibleName("Passage location")
        self.text = QTextBrowser()
        self.text.setAccessibleName("Passage text")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.text)

    def show_source(self, source: Source, document: Document | None) -> None:
        page = f", page {source.page}" if source.page else ""
        self.title.setText(f"[{source.n}] {short_source(source.source)}{page}")
        self.title.setToolTip(source.source)
        if document is None:
            self.text.setHtml(f"<mark>{html.escape(source.snippet)}</mark>")
            return
        text = document.text
        before = text[max(0, source.start - CONTEXT_CHARS):source.start]
        passage = text[source.start:source.end]
        after = text[source.end:source.end + CONTEXT_CHARS]
        i = passage.find(source.snippet) if source.snippet else -1
        if i >= 0:
            cited = (html.escape(passage[:i]) + "<b style='background:#ffe680'>" +
                     html.escape(source.snippet) + "</b>" + html.escape(passage[i + len(source.snippet):]))
        else:
            cited = html.escape(passage)
        body = (f"<span style='color:#777'>{html.escape(before)}</span>"
                f"<span style='background:#fff5c0'>{cited}</span>"
                f"<span style='color:#777'>{html.escape(after)}</span>")
        self.text.setHtml(f"<div style='white-space:pre-wrap'>{body}</div>")
        cursor = self.text.textCursor()
        cursor.setPosition(len(before))
        self.text.setTextCursor(cursor)
        self.text.ensureCursorVisible()

    def clear(self) -> None:
        self.title.setText("Click a source to read the passage.")
        self.text.clear()
