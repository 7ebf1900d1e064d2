"""Side view of a cited passage: file, page and the surrounding text with the cited chunk highlighted, from a
word boundary on, Markdown headings shown as headings; for a PDF, the page itself with the cited sentence
highlighted (:class:`~assistant.gui.page_view.PageView`), the text a tab away."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QTabWidget, QTextBrowser, QVBoxLayout, QWidget

from assistant.documents.pdfpage import cited_place, is_pdf
from assistant.gui.page_view import PageView
from assistant.records import Document, Source, source_name

CONTEXT_CHARS = 600


_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")


def _boundary_after(text: str) -> int:
    """Where the first whole sentence or line of ``text`` starts (``text`` was cut at its start), when one
    starts in its first half; else its first whole word."""
    ends = [i + len(mark) for mark in ("\n", ". ") if 0 <= (i := text.find(mark)) < len(text) // 2]
    if ends:
        return min(ends)
    return text.find(" ") + 1  # 0 when there is no space: the whole text is one word


def _boundary_before(text: str) -> int:
    """Where the last whole sentence or line of ``text`` ends (``text`` was cut at its end), when one ends
    in its second half; else its last whole word."""
    ends = [i + keep for mark, keep in (("\n", 0), (". ", 1)) if (i := text.rfind(mark)) >= len(text) // 2]
    if ends:
        return max(ends)
    i = text.rfind(" ")
    return i if i >= 0 else len(text)


def shown(text: str) -> str:
    """``text`` as the view shows it: Markdown heading lines without their ``#`` markers."""
    return "\n".join(m[2] if (m := _HEADING.match(line)) else line for line in text.split("\n"))


def render(text: str) -> str:
    """HTML for ``text`` (inside a pre-wrap block): headings (``### Title``) in bold without their markers,
    so the view's plain-text positions are those of :func:`shown`."""
    lines = []
    for line in text.split("\n"):
        m = _HEADING.match(line)
        lines.append(f"<b style='font-size:large'>{html.escape(m[2])}</b>" if m else html.escape(line))
    return "\n".join(lines)


def short_source(source: str) -> str:
    """A file's name without its folders, or "the message" for a message's own text (the full path goes in a
    tooltip; :func:`assistant.records.source_name`)."""
    return source_name(source)


class PassageView(QWidget):
    """Shows one :class:`Source` inside its document's text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shown_source = ""  # the source of the passage shown ('' none)
        self.title = QLabel("Click a source to read the passage.")
        self.title.setWordWrap(True)
        self.title.setAccessibleName("Passage location")
        self.text = QTextBrowser()
        self.text.setAccessibleName("Passage text")
        self.page = PageView()
        self.tabs = QTabWidget()
        self.page.failed.connect(lambda reason: self.tabs.setCurrentWidget(self.text))
        self.tabs.addTab(self.page, "Page")
        self.tabs.addTab(self.text, "Text")
        self._page_tab(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.tabs)
        self.setVisible(False)  # until a source is clicked: the question and answer get the width

    def show_source(self, source: Source, document: Document | None) -> None:
        self.setVisible(True)
        self.shown_source = source.source
        page = f", page {source.page}" if source.page else ""
        self.title.setText(f"[{source.n}] {short_source(source.source)}{page}{source.section_note()}")
        self.title.setToolTip(source.source)
        self._show_page(source, document)
        if document is None:
            self.text.setHtml(f"<mark>{html.escape(source.snippet)}</mark>")
            return
        text = document.text
        lo = max(0, source.start - CONTEXT_CHARS)
        before = text[lo:source.start]
        if lo > 0:  # the shown context starts at a line, a sentence or at least a word: never mid-word
            before = before[_boundary_after(before):]
        passage = text[source.start:source.end]
        after = text[source.end:source.end + CONTEXT_CHARS]
        if source.end + CONTEXT_CHARS < len(text):
            after = after[:_boundary_before(after)]
        i = passage.find(source.snippet) if source.snippet else -1
        if i >= 0:
            cited = (render(passage[:i]) + "<b style='background:#ffe680'>" + render(source.snippet) + "</b>" +
                     render(passage[i + len(source.snippet):]))
        else:
            cited = render(passage)
        body = (f"<span style='color:#777'>{render(before)}</span>"
                f"<span style='background:#fff5c0'>{cited}</span>"
                f"<span style='color:#777'>{render(after)}</span>")
        self.text.setHtml(f"<div style='white-space:pre-wrap'>{body}</div>")
        cursor = self.text.textCursor()
        cursor.setPosition(len(shown(before)))
        self.text.setTextCursor(cursor)
        self.text.ensureCursorVisible()
        QTimer.singleShot(0, self.text, self._scroll_to_passage)  # dropped with the view if it goes first

    def _scroll_to_passage(self) -> None:
        """The cited passage a quarter down the text view, once the view shown for it is laid out (it was
        scrolled to while the view had no size yet, and ended past the highlight)."""
        bar = self.text.verticalScrollBar()
        bar.setValue(bar.value() + self.text.cursorRect().top() - self.text.viewport().height() // 4)

    def _show_page(self, source: Source, document: Document | None) -> None:
        """A PDF source's page, the cited sentence highlighted; other formats have only the text."""
        page, quote = cited_place(source, document)
        pdf = page is not None and is_pdf(source.source)
        self._page_tab(pdf)
        if pdf and page is not None:
            self.page.show_page(source.source, page, quote)
        else:
            self.page.clear()

    def _page_tab(self, shown: bool) -> None:
        self.tabs.setTabVisible(0, shown)
        self.tabs.tabBar().setVisible(shown)
        self.tabs.setCurrentWidget(self.page if shown else self.text)

    def clear(self) -> None:
        self.shown_source = ""
        self.title.setText("Click a source to read the passage.")
        self.text.clear()
        self.page.clear()
        self._page_tab(False)
        self.setVisible(False)
