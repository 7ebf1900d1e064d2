"""The conversation view's text: each earlier turn as an HTML paragraph with its sources as links."""

from __future__ import annotations

import html
from collections.abc import Sequence

from assistant.gui.passage_view import short_source
from assistant.ttrag.conversation import Turn


def history_blocks(turns: Sequence[Turn]) -> list[str]:
    """One HTML paragraph a turn of the conversation view: the question, the answer with its line breaks (a
    summary's points one a line: run together, they read as one paragraph), and its sources as links
    ``source:TURN:INDEX``."""
    blocks = []
    for t, turn in enumerate(turns):
        asked = f"<b>{html.escape(turn.question)}</b>"
        if turn.standalone != turn.question:
            asked += f" <span style='color:#666'>(answered as: {html.escape(turn.standalone)})</span>"
        links = []
        for s in turn.answer.cited if turn.answer.found else turn.sources:  # as under the answer
            page = f", p. {s.page}" if s.page else ""
            links.append(f"<a href='source:{t}:{s.n - 1}'>[{s.n}] {html.escape(short_source(s.source))}"
                         f"{page}</a>")
        label = "Sources" if turn.answer.found else "Passages read (no answer found in them)"
        said = html.escape(turn.answer.text).replace("\n", "<br>")
        blocks.append(f"<p>{asked}<br>{said}"
                      + (f"<br><small>{label}: {' '.join(links)}</small>" if links else "") + "</p>")
    return blocks
