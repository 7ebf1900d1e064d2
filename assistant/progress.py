"""Terminal rendering of the pipeline's event stream: tqdm progress bars on stderr, tokens on stdout."""

from __future__ import annotations

import math
import shutil
import sys
import unicodedata
from typing import Any, TextIO

from assistant.records import Event, PointAnswered, Progress, Retract, TokenText, TraceStep

WITHDRAWN = "[withdrawn: the passages do not give that answer]"

#: How an answer other than question answering's was made, in a person's words (the CLI's sources heading and
#: the app's answer line say the same).
ROUTE_NOTES = {"summarization": "Summary", "counting": "Exact count", "needle_lookup": "Found by exact text",
               "table": "Computed over every row"}

#: What each stage does, in a person's words (the CLI's bars and the app's status bar say the same).
STAGE_LABELS = {
    "read": "Reading files", "extract": "Reading files", "chunk": "Splitting into passages",
    "index": "Indexing the words", "route": "Choosing how to answer", "prefilter": "Finding passages",
    "conditional": "Putting the passages in order", "evidence": "Picking the sentences to read",
    "generate": "Reading the passages", "rewrite": "Finding other words to search with",
    "needle_lookup": "Looking up the exact text", "counting": "Counting",
    "table": "Computing over the table's rows",
    "summarization": "Picking passages to summarize", "assemble": "Assembling the model",
    "verify": "Checking the model file", "draft points": "Answering the email's questions",
    "draft": "Writing the reply", "standalone": "Relating the question to the earlier answers",
    "load_models": "Loading the search models", "download": "Downloading",
    "todo": "Looking for what needs your reply",
    "translate": "Translating the question to search with",
    "translate_answer": "Translating the answer into the question's language",
    "point_check": "Checking the point against the sentence it cites",
    "comparison": "Comparing what the passages give each option",
}
#: Stages whose event names what they work on (:attr:`Progress.detail`): the sentence with it filled in.
STAGE_WITH_DETAIL = {
    "generate": "Reading {}", "evidence": "Picking the sentences to read in {}",
    "standalone": "Working out what {} refers to", "todo": "Looking for requests in \u201c{}\u201d",
}
WRITING_ANSWER = "Writing the answer"  # once the answer streams
#: once the reader has read the whole prompt and before its sentence streams (it writes whether the passages
#: answer, which one and the short answer first: seconds on two cores, minutes under load, with a full bar)
DECIDING_ANSWER = "Passages read; deciding the answer"


def stage_text(stage: str, detail: str = "") -> str:
    """What ``stage`` is doing in plain words: ``Reading passages 1-3 of contract.pdf`` with a ``detail``,
    else its :data:`STAGE_LABELS` label (the stage's own name when it has none)."""
    if detail and stage in STAGE_WITH_DETAIL:
        return STAGE_WITH_DETAIL[stage].format(detail)
    return STAGE_LABELS.get(stage, stage)


class TerminalRenderer:
    """Receives events; one bar per running stage on stderr (hidden when stderr is not a terminal)."""

    def __init__(self, *, out: TextIO | None = None, err: TextIO | None = None, trace: bool = False,
                 stream_tokens: bool = True) -> None:
        # the streams in use when the renderer is made (not when this module was imported)
        self.out, self.err = out or sys.stdout, err or sys.stderr
        self.trace, self.stream_tokens = trace, stream_tokens
        self._bar: Any = None
        self._stage = ""
        self._streamed = False
        self._shown = ""  # the answer text written since the answer began

    def __call__(self, event: Event) -> None:
        if isinstance(event, Progress):
            self._progress(event)
        elif isinstance(event, TokenText):
            self.close()
            if self.stream_tokens:
                self.out.write(event.text)
                self.out.flush()
                self._streamed = True
                self._shown += event.text
        elif isinstance(event, Retract):
            self.close()
            if self.stream_tokens:
                self._retract(event.text)
        elif isinstance(event, TraceStep) and self.trace:
            self.close()
            self.err.write(format_trace(event) + "\n")
        elif isinstance(event, PointAnswered) and _is_terminal(self.err):  # a draft's point, as soon as it is
            self.close()
            said = "\u2714" if event.answer.found and event.whole else "\u2026"
            self.err.write(f"{said} Point {event.n} of {event.total}: {event.request}\n")

    def _progress(self, event: Progress) -> None:
        from tqdm import tqdm

        if event.stage != self._stage or self._bar is None:
            self.close()
            self._stage = event.stage
            self._bar = tqdm(total=event.total or None, desc=stage_text(event.stage, event.detail),
                             file=self.err, leave=False, disable=None, unit=event.unit or "it",
                             unit_scale=event.unit == "B", dynamic_ncols=True)
        if event.total:
            self._bar.total = event.total
        self._bar.n = event.done
        self._bar.refresh()
        if event.total and event.done >= event.total:
            self.close()

    def close(self) -> None:
        """Remove the current bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
            self._stage = ""

    def _retract(self, text: str) -> None:
        """Take ``text``, the end of the answer written so far, off the screen: on a terminal the answer's rows
        are erased and what stays is written again; elsewhere (a pipe, a file) nothing written can be taken
        back, so a line says it is withdrawn."""
        keep = self._shown[:len(self._shown) - len(text)] if self._shown.endswith(text) else ""
        if _is_terminal(self.out):
            rows = _rows(self._shown, shutil.get_terminal_size().columns)
            self.out.write("\r" + (f"\x1b[{rows - 1}A" if rows > 1 else "") + "\x1b[J" + keep)
        elif self._shown:
            self.out.write(f"\n{WITHDRAWN}\n{keep}")
        self.out.flush()
        self._shown = keep
        self._streamed = bool(keep)

    def end_answer(self) -> None:
        """Finish the streamed answer line."""
        self.close()
        if self._streamed:
            self.out.write("\n")
            self.out.flush()
            self._streamed = False
        self._shown = ""


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or stand-in stream
        return False


def _rows(text: str, columns: int) -> int:
    """Terminal rows ``text`` takes when written from the start of a row ``columns`` wide (wide East Asian
    characters take two columns)."""
    width = max(columns, 1)
    return sum(max(1, math.ceil(sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line) / width))
               for line in text.split("\n"))


def format_trace(event: TraceStep) -> str:
    """One readable block for a trace step."""
    d = dict(event.detail)
    hits = d.pop("hits", None)
    head = f"[trace] {event.stage}: " + ", ".join(f"{k}={v!r}" for k, v in d.items())
    if not isinstance(hits, list):
        return head
    rows = []
    for h in hits:
        scores = " ".join(f"{k}={v}" for k, v in h.items() if k not in ("chunk", "page", "text"))
        rows.append(f"    #{h['chunk']} p.{h['page']} {scores} | {str(h['text'])!r}")
    return "\n".join([head, *rows])
