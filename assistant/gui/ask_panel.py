"""Ask panel: open files, question box, streamed answer, route and rewrites, numbered sources; one Session per
context."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from assistant.gui.open_files import OpenFilesList
from assistant.gui.passage_view import PassageView, short_source
from assistant.gui.tasks import Emit, Task, TaskRunner
from assistant.records import Answer, Source, TokenText
from assistant.service import Session


class AskPanel(QWidget):
    """Asks questions about the current :class:`Session` (files or a message); follow-ups reuse it."""

    answered = Signal(object)  # Answer
    failed = Signal(str)

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.session: Session | None = None
        self.answer: Answer | None = None
        self._task: Task | None = None
        self.elapsed = 0.0  # of the last ask, from the same start as the progress clock
        self.files = OpenFilesList()
        self.context_label = QLabel("Open a file or select a message, then ask about it.")
        self.context_label.setWordWrap(True)
        self.context_label.setAccessibleName("What the questions are about")
        self.question = QLineEdit()
        self.question.setPlaceholderText("Ask a question (Ctrl+Enter)")
        self.question.setAccessibleName("Question")
        self.question.returnPressed.connect(self.ask)
        self.ask_button = QPushButton("Ask")
        self.ask_button.setAccessibleName("Ask the question")
        self.ask_button.clicked.connect(self.ask_or_stop)
        runner.ended.connect(self._ended)
        self.answer_text = QTextBrowser()
        self.answer_text.setAccessibleName("Answer")
        self.meta = QLabel()
        self.meta.setWordWrap(True)
        self.meta.setStyleSheet("color: #666; font-size: small")
        self.meta.setAccessibleName("Route and rewrites")
        self.sources_label = QLabel("Sources")
        self.sources = QListWidget()
        self.sources.setAccessibleName("Sources")
        self.sources.setWordWrap(True)
        self.sources.itemClicked.connect(self._open_source)
        self.sources.itemActivated.connect(self._open_source)
        self.passage = PassageView()
        row = QHBoxLayout()
        row.addWidget(self.question)
        row.addWidget(self.ask_button)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.files)
        column.addWidget(self.context_label)
        column.addLayout(row)
        column.addWidget(self.answer_text, 3)
        column.addWidget(self.meta)
        column.addWidget(self.sources_label)
        column.addWidget(self.sources, 2)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.passage)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)

    def set_session(self, session: Session | None, description: str) -> None:
        """A new context: a running ask belongs to the old one and is stopped; an earlier answer stays on
        screen, marked as being about the previous context."""
        for task in self.runner.running("ask"):
            self.runner.cancel(task.id)
        self.session = session
        self.context_label.setText(description)
        if self.answer is not None:
            self.meta.setText("\u26A0 The files or message changed since this answer: it is about what was "
                              "open before. Ask again to use what is open now.")

    def clear_answer(self) -> None:
        self.answer = None
        self.answer_text.clear()
        self.meta.clear()
        self.sources.clear()
        self.sources_label.setText("Sources")
        self.sources.setAccessibleName("Sources")
        self.passage.clear()

    @property
    def busy(self) -> bool:
        return bool(self.runner.running("ask"))

    def ask_or_stop(self) -> None:
        """The button: Ask when idle, Stop while a question runs."""
        if self.busy:
            self.stop()
        else:
            self.ask()

    def stop(self) -> None:
        """Stop the running question; the model call itself ends (see :class:`StoppableLlama`)."""
        for task in self.runner.running("ask"):
            self.runner.cancel(task.id)

    def ask(self) -> None:
        """Ask the question; while one runs this does nothing (Enter must not silently restart it)."""
        if self.busy:
            self.meta.setText("Still answering: press Stop to stop this question first.")
            return
        question = self.question.text().strip()
        session = self.session
        if not question or session is None:
            if session is None:
                self.meta.setText("Nothing to ask about yet: open a file or select a message first.")
            return
        self.clear_answer()
        self.answer_text.setPlainText("")

        def work(emit: Emit, cancel: threading.Event) -> Answer:
            return session.ask(question, emit=emit, cancel=cancel)

        self._task = self.runner.start("ask", "Answering", work, self._done, on_event=self._event,
                                       on_error=self._error)
        self._update_button()

    def _update_button(self) -> None:
        busy = self.busy
        self.ask_button.setText("Stop" if busy else "Ask")
        self.ask_button.setAccessibleName("Stop the question" if busy else "Ask the question")
        self.ask_button.setToolTip("Stop answering (the model stops within a second)" if busy else
                                   "Ask the question (Enter)")

    def _ended(self, task: Task) -> None:
        if task is not self._task:
            return
        self._task = None
        self.elapsed = time.perf_counter() - task.started_at
        self._update_button()
        if task.cancel.is_set():  # Stop here, Cancel in the progress bar, or a new context
            self.answer_text.setPlainText("Cancelled.")
            self.meta.setText(f"Stopped after {self.elapsed:.1f} s; ask again when ready.")

    def _event(self, event: object) -> None:
        if isinstance(event, TokenText):
            cursor = self.answer_text.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(event.text)

    def _done(self, answer: Answer) -> None:
        self.answer = answer
        self.answer_text.setPlainText(answer.text)
        parts = []
        if answer.route != "question_answering":
            parts.append(f"answered by {answer.route.replace('_', ' ')}")
        if answer.rewrites:
            parts.append("rewrites: " + " | ".join(answer.rewrites))
        if not answer.found:
            parts.append("not found in the documents")
        parts.append(f"{self.elapsed:.1f} s")
        self.meta.setText(" \u00b7 ".join(parts))
        if not answer.found:  # what was read is not evidence: it must not look like sources
            self.sources_label.setText("Passages read (no answer found in them)")
            self.sources.setAccessibleName("Passages read")
        for source in answer.sources:
            page = f", p. {source.page}" if source.page else ""
            item = QListWidgetItem(f"[{source.n}] {short_source(source.source)}{page}: \u201c{source.snippet}\u201d")
            item.setToolTip(source.source)
            item.setData(Qt.ItemDataRole.UserRole, source)
            self.sources.addItem(item)
        self.answered.emit(answer)

    def _error(self, exc: BaseException) -> None:
        self.meta.setText(f"Could not answer: {exc}")
        self.failed.emit(str(exc))

    def _open_source(self, item: QListWidgetItem) -> None:
        source = item.data(Qt.ItemDataRole.UserRole)
        if not isinstance(source, Source):
            return
        documents = self.session.context.documents if self.session else []
        document = next((d for d in documents if d.source == source.source), None)
        self.passage.show_source(source, document)
