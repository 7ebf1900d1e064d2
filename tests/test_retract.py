"""Streamed text that turns out not to be an answer is withdrawn: the pipeline sends a Retract event for it, and
the command line takes it off the terminal (or, writing to a pipe, says it is withdrawn)."""

from __future__ import annotations

import io
import json
import re

import pytest
from conftest import ScriptedGenerator, visible

from assistant.config import PipelineOptions
from assistant.models.base import GenerationRequest
from assistant.progress import WITHDRAWN, TerminalRenderer
from assistant.records import Chunk, Document, Retract, Segment, TokenText
from assistant.ttrag.context import Context, build_context
from assistant.ttrag.generate import stream_answer
from assistant.ttrag.pipeline import NOT_FOUND_TEXT, Models, ask

FACTS = [f"Warehouse {i} in the town of Place{i} stores {i * 3} crates of tin." for i in range(30)]
FACTS[12] = "Imogen Tallis manages the Northwind account from the Leeds office."
QUESTION = "Who manages the Northwind account?"
# grounded at first ("Imogen Tallis manages ..."), then the sentence says the passages do not give it
HEDGING = json.dumps({"found": True, "passage": 1, "short_answer": "Imogen Tallis",
                      "answer": "Imogen Tallis manages the Northwind account, but her phone number is not provided."})
WITHDRAWN_PART = "Imogen Tallis manages the Northwind account, but her phone number is not provid"


def script(request: GenerationRequest) -> str:
    return "Northwind account manager" if request.purpose == "rewrite" else HEDGING


@pytest.fixture(scope="module")
def ctx(tokenizer: object) -> Context:
    text = "\n".join(FACTS)
    return build_context([Document("staff.txt", text, (Segment(text, page=1),), (0,))], tokenizer, chunk_tokens=30)


def test_a_hedge_found_mid_stream_withdraws_what_was_streamed() -> None:
    events: list[object] = []
    chunk = Chunk(0, FACTS[12], "staff.txt", 0, len(FACTS[12]))
    reading = stream_answer(ScriptedGenerator(script), QUESTION, [chunk], max_tokens=200,
                            on_text=lambda s: events.append(TokenText(s)),
                            on_retract=lambda s: events.append(Retract(s)))
    assert not reading.found and "do not give it" in reading.reason
    streamed = "".join(e.text for e in events if isinstance(e, TokenText))
    assert streamed.startswith("Imogen Tallis manages")  # it was shown while it looked grounded ...
    assert events[-1] == Retract(streamed) and visible(events) == ""  # ... and taken back, all of it
    assert "not provided" not in streamed  # withdrawn as soon as the hedge showed, not at the reply's end


def run_ask(ctx: Context) -> list[object]:
    events: list[object] = []
    answer = ask(ctx, QUESTION, Models(ScriptedGenerator(script), None, None),
                 PipelineOptions(router=False, max_rewrites=1, fallback_top_k=10), emit=events.append)
    assert not answer.found and answer.text == NOT_FOUND_TEXT
    return events


def test_the_ask_shows_only_its_final_text(ctx: Context) -> None:
    events = run_ask(ctx)
    assert sum(isinstance(e, Retract) for e in events) >= 2  # each read's sentence, then the fallback's
    assert WITHDRAWN_PART in "".join(e.text for e in events if isinstance(e, TokenText))
    assert visible(events) == NOT_FOUND_TEXT


class Screen:
    """The text a terminal ``columns`` wide shows after ``feed``: wraps lines, and obeys carriage return,
    cursor up (ESC [ n A) and erase to the end of the screen (ESC [ J)."""

    def __init__(self, columns: int) -> None:
        self.columns = columns
        self.lines: list[list[str]] = [[]]
        self.row = self.col = 0

    def _next_row(self) -> None:
        self.row, self.col = self.row + 1, 0
        if self.row == len(self.lines):
            self.lines.append([])

    def feed(self, data: str) -> None:
        i = 0
        while i < len(data):
            escape = re.match(r"\x1b\[(\d*)([AJ])", data[i:])
            if escape:
                if escape.group(2) == "A":
                    self.row = max(0, self.row - int(escape.group(1) or 1))
                else:
                    del self.lines[self.row][self.col:]
                    del self.lines[self.row + 1:]
                i += escape.end()
                continue
            ch, i = data[i], i + 1
            if ch == "\r":
                self.col = 0
            elif ch == "\n":
                self._next_row()
            else:
                if self.col == self.columns:  # the cursor waits at the right edge; the next character wraps
                    self._next_row()
                line = self.lines[self.row]
                line.extend(" " * (self.col + 1 - len(line)))
                line[self.col] = ch
                self.col += 1

    def text(self) -> str:
        return "\n".join("".join(line).rstrip() for line in self.lines).strip()


class TerminalOut(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_command_line_erases_withdrawn_text_from_the_terminal(ctx: Context,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "24")  # the withdrawn sentence takes several rows
    out = TerminalOut()
    renderer = TerminalRenderer(out=out, err=io.StringIO())
    for event in run_ask(ctx):
        renderer(event)
    renderer.end_answer()
    assert "Imogen" in out.getvalue()  # it was written, then erased
    screen = Screen(24)
    screen.feed(out.getvalue())
    assert "".join(screen.text().split()) == "".join(NOT_FOUND_TEXT.split())  # rows joined, spaces aside
    assert "Imogen" not in screen.text()


def test_the_command_line_marks_withdrawn_text_in_a_pipe(ctx: Context) -> None:
    out = io.StringIO()
    renderer = TerminalRenderer(out=out, err=io.StringIO())
    for event in run_ask(ctx):
        renderer(event)
    renderer.end_answer()
    lines = out.getvalue().splitlines()
    assert lines[-1] == NOT_FOUND_TEXT  # the last line is the answer
    assert lines.count(WITHDRAWN) == sum(line.startswith("Imogen") for line in lines) >= 2  # each one marked
    assert all(lines[i + 1] == WITHDRAWN for i, line in enumerate(lines) if line.startswith("Imogen"))
