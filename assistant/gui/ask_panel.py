"""Ask panel: open files, question box, streamed answer, route and rewrites, numbered sources; one Session per
context, and the conversation: earlier turns with their sources, New conversation, Export."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QUrl, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from assistant.gui.attachment_pages import AttachmentPages
from assistant.gui.history import history_blocks
from assistant.gui.open_files import OpenFilesList
from assistant.gui.passage_view import PassageView
from assistant.gui.sources_list import FittedList, OtherPassages, source_item
from assistant.gui.tasks import Emit, Task, TaskRunner
from assistant.progress import ROUTE_NOTES
from assistant.records import Answer, Message, Preview, Retract, Source, TokenText
from assistant.service import Session
from assistant.text.tokens import history_note
from assistant.ttrag.conversation import Conversation, Turn

#: How an answer that is not a plain one was made, in the words shown under it.
SOURCE_ROWS = 4  # rows of cited sources shown before the list scrolls



#: shown where the answer will be until the first one: how to start, with questions to try
START_HINT = ("Answers appear here, with the passages they come from under them.\n\n"
              "To start: open files (Ctrl+O) \u2014 a PDF, Word or text file, or an e-mail \u2014 or select a synced "
              "message, then ask, for example:\n"
              "  \u2022 Summarize this\n  \u2022 Who are the parties?\n  \u2022 What does it say about payment?")

class AskPanel(QWidget):
    """Asks questions about the current :class:`Session` (files or a message); follow-ups reuse it."""

    answered = Signal(object)  # Answer
    failed = Signal(str)

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.session: Session | None = None
        self.answer: Answer | None = None
        self._answer_texts: dict[str, str] = {}  # the documents the answer's sources are in: source -> text
        self.mail: tuple[Message, str] | None = None  # the message asked about, and its id
        self.attachment_pages = AttachmentPages()  # its PDF attachments whose cited pages are shown
        self._task: Task | None = None
        self.elapsed = 0.0  # of the last ask, from the same start as the progress clock
        self._streamed = ""  # the answer text streamed so far, as sent (what a Retract removes)
        self._previewed = False  # a passage shown while the reader read it (replaced by the answer's source)
        self.files = OpenFilesList()
        self.context_label = QLabel("Open a file or select a message, then ask about it.")
        self.context_label.setWordWrap(True)
        self.context_label.setAccessibleName("What the questions are about")
        self.question = QLineEdit()
        self.question.setPlaceholderText("Ask a question (Ctrl+Enter); a follow-up may refer to the answer before")
        self.question.setAccessibleName("Question")
        self.question.returnPressed.connect(self.ask)
        self.ask_button = QPushButton("Ask")
        self.ask_button.setAccessibleName("Ask the question")
        self.ask_button.clicked.connect(self.ask_or_stop)
        runner.ended.connect(self._ended)
        self.answer_text = QTextBrowser()
        self.answer_text.setAccessibleName("Answer")
        # what to do first, where a newcomer saw only an empty box: a wrapped label over the empty answer box, as a
        # placeholder is (Qt draws a QTextEdit's placeholder as one line, cut at the box's edge and its first break)
        self.start_hint = QLabel(START_HINT, self.answer_text.viewport())
        self.start_hint.setWordWrap(True)
        self.start_hint.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.start_hint.setStyleSheet("color: #777")
        self.start_hint.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.answer_text.viewport().installEventFilter(self)
        self.answer_text.textChanged.connect(self._answer_or_hint)
        self.meta = QLabel()
        self.meta.setWordWrap(True)
        self.meta.setStyleSheet("color: #666; font-size: small")
        self.meta.setAccessibleName("Route and rewrites")
        self.sources_label = QLabel("Sources")
        self.sources = FittedList(SOURCE_ROWS)
        self.sources.setAccessibleName("Sources")
        self.sources.itemClicked.connect(self._open_source)
        self.sources.itemActivated.connect(self._open_source)
        self.other_sources = OtherPassages()  # read but not cited: closed, under the cited ones
        self.other_sources.list.itemClicked.connect(self._open_source)
        self.other_sources.list.itemActivated.connect(self._open_source)
        self.passage = PassageView()
        self.conversation = Conversation()
        self._asked_about: frozenset[str] = frozenset()  # documents the conversation's questions were asked of
        self.history = QTextBrowser()
        self.history.setAccessibleName("Conversation so far")
        self.history.setOpenLinks(False)
        self.history.anchorClicked.connect(self._open_history_source)
        self.history.setPlaceholderText("Earlier questions and answers of this conversation appear here; "
                                        "follow-ups may refer to them (“Is there a cap on it?”).")
        self.history.hide()  # shown from the second question on (see _render_history)
        self.history_note = QLabel()
        self.history_note.setWordWrap(True)
        self.history_note.setStyleSheet("color: #8a5a00; font-size: small")
        self.history_note.setAccessibleName("History note")
        self.history_note.hide()
        self.new_button = QPushButton("New conversation")
        self.new_button.setAccessibleName("Start a new conversation")
        self.new_button.setToolTip("Forget the earlier questions: the next question is read on its own")
        self.new_button.clicked.connect(self.new_conversation)
        self.export_button = QPushButton("Export conversation…")
        self.export_button.setAccessibleName("Export the conversation as Markdown")
        self.export_button.setToolTip("Save the questions, answers and sources as a Markdown file (nothing is "
                                      "saved otherwise)")
        self.export_button.clicked.connect(self.export_conversation)
        conversation_row = QHBoxLayout()
        conversation_row.addWidget(QLabel("Conversation"))
        conversation_row.addStretch(1)
        conversation_row.addWidget(self.new_button)
        conversation_row.addWidget(self.export_button)
        self._update_conversation_buttons()
        row = QHBoxLayout()
        row.addWidget(self.question)
        row.addWidget(self.ask_button)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.files)
        column.addWidget(self.context_label)
        column.addLayout(conversation_row)
        column.addWidget(self.history, 1)  # the conversation and the answer share the height; the lists
        column.addWidget(self.history_note)  # around them take only the rows they hold
        column.addLayout(row)
        column.addWidget(self.answer_text, 1)
        column.addWidget(self.meta)
        column.addWidget(self.sources_label)
        column.addWidget(self.sources)
        column.addWidget(self.other_sources)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.passage)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)

    def set_session(self, session: Session | None, description: str, *, new_conversation: bool = False) -> None:
        """A new context: a running ask belongs to the old one and is stopped; an earlier answer stays on
        screen, marked as being about the previous context. The conversation goes on while the context keeps
        one of the documents it was about; ``new_conversation`` starts a new one all the same."""
        for task in self.runner.running("ask"):
            self.runner.cancel(task.id)
        self.session = session
        self.context_label.setText(description)
        if session is not None:
            sources = frozenset(d.source for d in session.context.documents)
            # a file added beside what was open (an amendment beside its contract), or one of two closed or
            # unticked, continues the conversation; a context with none of the documents its questions were
            # asked of (other files, another message, only the file added since) starts a new one: "it" would
            # mean something else
            if self.conversation.turns and (new_conversation or not self._asked_about & sources):
                self.conversation.clear()
                self._render_history(0)
                self._update_conversation_buttons()
            if not self.conversation.turns:
                self._asked_about = frozenset()
        if self.answer is not None and session is not None and self._answer_changed(session):
            self.meta.setText("\u26A0 The files or message changed since this answer: it is about what was "
                              "open before. Ask again to use what is open now.")

    def _answer_changed(self, session: Session) -> bool:
        """Whether a document the answer's sources are in is gone from ``session`` or reads otherwise now (a
        file closed or unticked beside them leaves the answer as true as it was)."""
        texts = {d.source: d.text for d in session.context.documents}
        return any(texts.get(source) != text for source, text in self._answer_texts.items())

    def set_message(self, message: Message | None, message_id: str = "") -> None:
        """The synced message asked about (None: none): a source in one of its PDF attachments shows its page.
        The files written for another message's pages are removed."""
        mail = (message, message_id) if message is not None else None
        if mail is not None and self.mail is not None and mail[1] == self.mail[1]:
            return
        if self.mail is not None and self.passage.page.path:  # its page may be one of the files removed
            self.passage.clear()
        self.attachment_pages.clear()
        self.mail = mail

    def _answer_or_hint(self) -> None:
        """The start hint over the answer box while it is empty."""
        self.start_hint.setVisible(self.answer_text.document().isEmpty())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.answer_text.viewport() and event.type() == QEvent.Type.Resize:
            margin = 6
            width = self.answer_text.viewport().width() - 2 * margin
            self.start_hint.setGeometry(margin, margin, width, self.start_hint.heightForWidth(width))
        return super().eventFilter(watched, event)

    def clear_answer(self) -> None:
        self.answer = None
        self._answer_texts = {}
        self._streamed = ""
        self._previewed = False
        self.answer_text.clear()
        self.meta.clear()
        self.sources.clear()
        self.sources.fit()
        self.other_sources.show_sources(())
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
        self._asked_about |= {d.source for d in session.context.documents}
        self.answer_text.setPlainText("")
        self._render_history(len(self.conversation.turns))
        # the worker reads its own copy: the conversation changes only here, on the GUI thread
        conversation = Conversation(list(self.conversation.turns), self.conversation.max_history_tokens,
                                    self.conversation.carry_sources)

        def work(emit: Emit, cancel: threading.Event) -> Turn:
            return session.ask_followup(conversation, question, emit=emit, cancel=cancel)

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
            self._streamed += event.text
            cursor = self.answer_text.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(event.text)
        elif isinstance(event, Retract):  # the sentence turned out not to be an answer: it leaves the screen
            keep = len(self._streamed) - len(event.text) if self._streamed.endswith(event.text) else 0
            self._streamed = self._streamed[:keep]
            self.answer_text.setPlainText(self._streamed)
        elif isinstance(event, Preview) and not self._streamed:  # seconds in, while the reader reads
            self._show_source(event.source)
            self._previewed = True
            self.meta.setText("The best-matching passage is shown while the model reads it.")

    def _done(self, turn: Turn) -> None:
        answer = turn.answer
        self.conversation.add(turn)
        self._render_history(len(self.conversation.turns) - 1)  # the newest turn is in the answer box
        self._update_conversation_buttons()
        self.answer = answer
        used = {s.source for s in (answer.cited if answer.found else answer.sources)}
        documents = self.session.context.documents if self.session is not None else []
        self._answer_texts = {d.source: d.text for d in documents if d.source in used}
        self.answer_text.setPlainText(answer.text)
        parts = []
        if turn.standalone != turn.question:
            parts.append(f"you asked “{turn.question}”, answered as “{turn.standalone}”")
        if answer.route != "question_answering":
            parts.append(ROUTE_NOTES.get(answer.route, answer.route.replace("_", " ")))
        if answer.rewrites:
            parts.append("rewrites: " + " | ".join(answer.rewrites))
        if not answer.found:
            parts.append("not found in the documents")
        parts.append(f"{self.elapsed:.1f} s")
        self.meta.setText(" \u00b7 ".join(parts))
        if not answer.found:  # what was read is not evidence: it must not look like sources
            self.sources_label.setText("Passages read (no answer found in them)")
            self.sources.setAccessibleName("Passages read")
        # the passages the answer cites by its [n] markers are its sources; the others were only read
        for source in answer.cited if answer.found else answer.sources:
            self.sources.addItem(source_item(source))
        self.sources.fit()
        self.other_sources.show_sources(answer.uncited if answer.found else ())
        if self._previewed:  # the passage shown while the reader read may not be the one the answer cites (a
            # newcomer saw "[1] ..., page 6" beside an answer citing only [2], page 8): its first source, or none
            self._previewed = False
            if answer.found and answer.cited:
                self._show_source(answer.cited[0])
            else:
                self.passage.clear()
        self.answered.emit(answer)

    def _error(self, exc: BaseException) -> None:
        self.meta.setText(f"Could not answer: {exc}")
        self.failed.emit(str(exc))

    def _open_source(self, item: QListWidgetItem) -> None:
        source = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(source, Source):
            self._show_source(source)

    def _show_source(self, source: Source) -> None:
        documents = self.session.context.documents if self.session else []
        document = next((d for d in documents if d.source == source.source), None)
        if self.mail is not None:  # a PDF attachment of the message: its page, the sentence highlighted
            self.passage.show_source(*self.attachment_pages.shown(*self.mail, source, document))
            self.passage.title.setToolTip(source.source)
        else:
            self.passage.show_source(source, document)

    # ---- the conversation ----

    def new_conversation(self) -> None:
        """Forget the earlier turns (a running question is stopped): the next question stands alone."""
        self.stop()
        self.conversation.clear()
        self._asked_about = frozenset()
        self.clear_answer()
        self._render_history(0)
        self._update_conversation_buttons()
        self.meta.setText("New conversation: earlier questions are forgotten.")

    def export_conversation(self) -> None:
        """Ask where to save the conversation, then write it as Markdown with its sources."""
        if not self.conversation.turns:
            self.meta.setText("Nothing to export yet: ask a question first.")
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export conversation", "conversation.md",
                                              "Markdown (*.md);;All files (*)")
        if path:
            self.export_to(Path(path))

    def export_to(self, path: Path) -> bool:
        """Write the conversation to ``path`` (Markdown); the outcome is shown under the answer."""
        about = [d.source for d in self.session.context.documents] if self.session else []
        try:
            path.write_text(self.conversation.to_markdown(about=about), encoding="utf-8")
        except OSError as exc:
            self.meta.setText(f"Could not export to {path}: {exc.strerror or exc}")
            return False
        n = len(self.conversation.turns)
        self.meta.setText(f"Exported {n} question{'s' if n != 1 else ''} with sources to {path}.")
        return True

    def _update_conversation_buttons(self) -> None:
        has_turns = bool(self.conversation.turns)
        self.new_button.setEnabled(has_turns)
        self.export_button.setEnabled(has_turns)

    def _render_history(self, shown: int) -> None:
        """The first ``shown`` turns in the history view, each with its sources as links; the note about
        turns no longer sent to the model."""
        blocks = history_blocks(self.conversation.turns[:shown])
        self.history.setHtml("".join(blocks))
        self.history.moveCursor(QTextCursor.MoveOperation.End)
        self.history.setVisible(bool(blocks))  # no empty box above the first answer: the answer gets the room
        dropped = self._dropped_turns()
        self.history_note.setVisible(dropped > 0)
        if dropped:
            self.history_note.setText(f"\u26A0 {history_note(dropped, self.conversation.max_history_tokens)}")

    def _dropped_turns(self) -> int:
        if not self.conversation.turns or self.session is None:
            return 0
        generator = self.session.store.loaded_generator()  # loaded by the ask that made the turns
        if generator is None:
            return 0
        return self.conversation.dropped_turns(generator.count_tokens)

    def _open_history_source(self, url: QUrl) -> None:
        _, turn, n = (url.toString().split(":") + ["", "", ""])[:3]
        try:
            source = self.conversation.turns[int(turn)].sources[int(n)]
        except (ValueError, IndexError):
            return
        self._show_source(source)
