"""Progress widget: renders the event stream of the newest running task (stage, done/total, elapsed, Cancel)."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from assistant.gui.labels import ElidedLabel
from assistant.gui.tasks import Task, TaskRunner
from assistant.progress import DECIDING_ANSWER, STAGE_LABELS, WRITING_ANSWER, stage_text
from assistant.records import Progress, TokenText, TraceStep

#: The app's own stages (mail), in the same plain words as :data:`STAGE_LABELS`.
GUI_STAGE_LABELS = {**STAGE_LABELS, "sync": "Syncing mail", "fetch": "Fetching messages"}
#: A line more on what a stage does, for the curious (the status bar's tooltip).
STAGE_TIPS = {
    "route": "The model decides whether the question asks to count something, to find an exact text, for a "
             "summary or for an answer.",
    "prefilter": "Keyword search and search by meaning pick the passages that may answer the question.",
    "conditional": "A second model reads the question with each passage found and puts the best first.",
    "evidence": "The sentences of the best passages that bear most on the question are kept for reading.",
    "generate": "The model reads the best passages and answers from them alone.",
    "rewrite": "Nothing read answered the question, so the model words the search differently.",
    "translate": "The question and the documents are in different languages: the model translates the "
                 "question into the documents' language to search them.",
    "translate_answer": "The answer came out in the documents' language: the model translates it into the "
                        "question's, keeping its names and numbers as they stand.",
    "standalone": "The question refers to an earlier answer: the model writes it out in full before searching.",
}
#: Tasks whose panel has a Stop button of its own beside them: the status bar's would be a second one.
STOPPED_IN_PANEL = ("ask", "draft")


class ProgressPanel(QWidget):
    """Shows what the newest task does; Stop sets that task's cancel event (hidden for a task whose panel has
    its own Stop: one control per task). Hidden when idle."""

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.task: Task | None = None
        self._t0 = 0.0
        self._attempt = ""
        self._within = ""  # the point of a draft or summary under way ("Point 2 of 4: ...")
        self._stage = ""
        self._tip = ""  # what the running stage does (STAGE_TIPS)
        self.stage = ElidedLabel()  # a long file name is shortened in the middle, the line whole in the tooltip
        self.stage.setAccessibleName("Current stage")
        self.bar = QProgressBar()
        self.bar.setAccessibleName("Progress")
        self.bar.setMaximumWidth(220)
        self.elapsed = QLabel()
        self.elapsed.setAccessibleName("Elapsed time")
        self.stop_button = QPushButton("Stop")
        self.stop_button.setAccessibleName("Stop the running task")
        self.stop_button.setToolTip("Stop what is running (Esc)")
        self.stop_button.clicked.connect(self.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        for w in (self.stage, self.bar, self.elapsed, self.stop_button):
            layout.addWidget(w)
        self._clock = QTimer(self)
        self._clock.setInterval(250)
        self._clock.timeout.connect(self._tick)
        runner.started.connect(self._started)
        runner.progressed.connect(self._progressed)
        runner.ended.connect(self._ended)
        self.setVisible(False)

    @property
    def idle(self) -> bool:
        return self.task is None

    def cancel(self) -> None:
        if self.task is not None:
            self.runner.cancel(self.task.id)

    def _started(self, task: Task) -> None:
        self.task = task
        self._t0 = task.started_at  # the same start as the elapsed time shown with the result
        self._attempt = ""
        self._within = ""
        self._stage = ""
        self._tip = ""
        self._set_stage(task.label)
        self.stop_button.setVisible(task.key not in STOPPED_IN_PANEL)
        self.bar.setRange(0, 0)
        self._tick()
        self._clock.start()
        self.setVisible(True)

    def _progressed(self, task: Task, event: object) -> None:
        if task is not self.task:
            return
        if isinstance(event, TraceStep) and event.stage == "rewrite" and "attempt" in event.detail:
            query = str(event.detail.get("query", ""))
            query = query if len(query) <= 60 else query[:57] + "\u2026"
            self._attempt = (f"Attempt {event.detail['attempt']} of {event.detail['attempts']}: "
                             f"searching again with \u2018{query}\u2019")
            self._set_stage(" \u2014 ".join(p for p in (self._within, self._attempt) if p))
            return
        if isinstance(event, TokenText) and self._stage == "generate":  # the answer streams: it is being written
            self._stage = "writing"
            self._show(WRITING_ANSWER)
            return
        if not isinstance(event, Progress) or event.total == event.done == 1:
            return  # the end of a one-step stage says nothing new (after the answer streamed, a wrong thing)
        if event.stage == "generate" and event.unit == "tokens" and 1 < event.total <= event.done:
            self._stage = "generate"  # the whole prompt is read: a full bar would look stuck until the text comes
            self._tip = STAGE_TIPS.get(event.stage, "")
            self._show(DECIDING_ANSWER)
            self.bar.setRange(0, 0)
            return
        if event.unit == "points" and event.total:  # a draft's or summary's next point: the stages inside it
            self._within = event.detail if event.done < event.total else ""  # follow under its name
            self._attempt = ""  # the search's tries are the point's own
            self._stage = event.stage
            self._set_stage(self._within or GUI_STAGE_LABELS.get(event.stage, event.stage))
            self.bar.setRange(0, event.total)
            self.bar.setValue(min(event.done, event.total))
            return
        self._stage = event.stage
        self._tip = STAGE_TIPS.get(event.stage, "")
        label = stage_text(event.stage, event.detail) if event.detail else \
            GUI_STAGE_LABELS.get(event.stage, event.stage)
        # "Reading files: Reading files" says one thing twice; a stage that names what it works on says enough
        self._show(label, "" if event.detail or label.lower() in task.label.lower() else task.label)
        if event.total > 1:  # a 0/1 "stage started" event says nothing about how far along it is
            self.bar.setRange(0, event.total)
            self.bar.setValue(min(event.done, event.total))
        else:
            self.bar.setRange(0, 0)

    def _show(self, label: str, head: str = "") -> None:
        """``label``, after the point under way and the attempt under way when the search was tried again,
        else after ``head``."""
        within = " \u2014 ".join(p for p in (self._within, self._attempt) if p)
        if within:
            self._set_stage(f"{within} \u2014 {label[:1].lower()}{label[1:]}")
        else:
            self._set_stage(f"{head}: {label}" if head else label)

    def _set_stage(self, text: str) -> None:
        self.stage.set_line(text, self._tip)

    def _ended(self, task: Task) -> None:
        if task is not self.task:
            return
        others = self.runner.running()
        if others:
            self._started(others[-1])
            return
        self.task = None
        self._clock.stop()
        self.setVisible(False)

    def _tick(self) -> None:
        self.elapsed.setText(f"{time.perf_counter() - self._t0:.1f} s")
