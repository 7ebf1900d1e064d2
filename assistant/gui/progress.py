"""Progress widget: renders the event stream of the newest running task (stage, done/total, elapsed, Cancel)."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from assistant.gui.tasks import Task, TaskRunner
from assistant.progress import STAGE_LABELS
from assistant.records import Progress, TraceStep

#: Stage names in a person's words; the engineers' term (:data:`STAGE_LABELS`) goes in the tooltip.
GUI_STAGE_LABELS = {
    **STAGE_LABELS, "sync": "Syncing mail", "fetch": "Fetching messages", "route": "Choosing how to answer",
    "prefilter": "Finding passages", "conditional": "Re-ranking passages", "evidence": "Picking the sentences to read",
    "generate": "Reading",
    "rewrite": "Searching again", "needle_lookup": "Looking up the exact text", "index": "Indexing",
    "chunk": "Splitting into passages", "summarization": "Picking passages to summarize",
    "draft": "Writing the reply", "load_models": "Loading the search models",
}
STAGE_TIPS = {
    "route": "Routing (LLM): the model picks how to handle the question (answer, look up, count, summarize).",
    "prefilter": "Pre-filter: BM25 keyword search fused with embedding similarity picks candidate passages.",
    "conditional": "Conditional re-rank: an encoder reads the question with each candidate passage.",
    "evidence": "Evidence selection: the sentences of the best passages that bear most on the question.",
    "generate": "Generation (LLM): the model reads the best passages and answers from them.",
    "rewrite": "Query rewrite (LLM): nothing answered the question, so the model rewrites the search.",
}


class ProgressPanel(QWidget):
    """Shows what the newest task does; Cancel sets that task's cancel event. Hidden when idle."""

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.task: Task | None = None
        self._t0 = 0.0
        self._attempt = ""
        self.stage = QLabel()
        self.stage.setAccessibleName("Current stage")
        self.bar = QProgressBar()
        self.bar.setAccessibleName("Progress")
        self.bar.setMaximumWidth(220)
        self.elapsed = QLabel()
        self.elapsed.setAccessibleName("Elapsed time")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setAccessibleName("Cancel the running task")
        self.cancel_button.clicked.connect(self.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        for w in (self.stage, self.bar, self.elapsed, self.cancel_button):
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
        self.stage.setText(task.label)
        self.stage.setToolTip("")
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
            self.stage.setText(self._attempt)
            return
        if not isinstance(event, Progress):
            return
        label = GUI_STAGE_LABELS.get(event.stage, event.stage)
        # "Reading files: Reading files" says one thing twice
        head = self._attempt or (task.label if label.lower() not in task.label.lower() else "")
        self.stage.setText(f"{head} \u2014 {label}" if self._attempt else f"{head}: {label}" if head else label)
        self.stage.setToolTip(STAGE_TIPS.get(event.stage, STAGE_LABELS.get(event.stage, "")))
        if event.total > 1:  # a 0/1 "stage started" event says nothing about how far along it is
            self.bar.setRange(0, event.total)
            self.bar.setValue(min(event.done, event.total))
        else:
            self.bar.setRange(0, 0)

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
