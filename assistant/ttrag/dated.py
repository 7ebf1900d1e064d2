"""Which of several documents is the later one: their dates, and the ones that amend another.

A person opens a contract and its amendment and asks "What is the annual maintenance fee?". The contract
says EUR 12,000, the amendment (dated later) replaces that clause with EUR 14,500 from 1 July 2026; a read
that treats the passages as equals may answer either. When the passages a reader reads come from two or
more documents of which one is dated (a labelled date near its top: ``Date: 1 June 2026``, ``dated as of
March 3, 2019``, ``made on ...``, a mail's ``Date:`` header) or amends another (its opening calls it an
amendment, an addendum, a variation, a change order, ...), the reader is told each document's date and kind
and that the later document governs where they disagree (:func:`reader_note`). Read at question time from
the text itself, like the parties' defined terms (:mod:`assistant.ttrag.aliases`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from assistant.records import Chunk, Document
from assistant.text.dates import dates_in

#: Characters at a document's top searched for its date and for what it is (its title, its date line).
OPENING_CHARS = 1500
# A date labelled as the document's own: "Date: 1 June 2026", "Dated: ...", "dated as of", "made on / as of",
# "entered into on / as of", "effective as of", "Sent:" (a forwarded mail's header)
_LABEL = re.compile(r"(?:^|\n)\s*(?:date|dated|sent)\s*:\s*|\b(?:dated|made|entered\s+into|executed|effective)"
                    r"(?:\s+(?:as\s+of|on|this|at))?\s+(?:the\s+)?", re.I)
_AMENDS = re.compile(r"\b(amendment|addendum|variation|change\s+order|side\s+letter|supplement(?:al)?\s+agreement|"
                     r"amending\s+agreement|novation)\b", re.I)
_LABEL_REACH = 60  # characters between a label and its date ("made as of this 2nd day of June, 2008")


@dataclass(frozen=True)
class Dated:
    """What a document says of itself at its top: its own ``date`` (None if it labels none) and whether it
    ``amends`` another document (an amendment, addendum, variation ...)."""

    date: dt.date | None
    amends: bool


def dated(doc: Document) -> Dated:
    """The date ``doc`` gives itself near its top, and whether it calls itself an amendment (see the module
    docstring). An amendment's title often names the amended agreement's date ("AMENDMENT No. 1 TO THE
    AGREEMENT OF 10 JANUARY 2026"): only a labelled date is the document's own."""
    head = doc.text[:OPENING_CHARS]
    spans = dates_in(head)
    own = None
    for label in _LABEL.finditer(head):
        near = [d for d in spans if label.end() <= d.start <= label.end() + _LABEL_REACH]
        if near and len(near[0].days) == 1:  # "3/4/20" read two ways is no date to rank documents by
            own = next(iter(near[0].days))
            break
    title_end = head.find("\n", 200)  # the title: through the line that reaches 200 characters, 300 at least
    return Dated(own, bool(_AMENDS.search(head[:max(title_end if title_end >= 0 else len(head), 300)])))


def document_dates(documents: Iterable[Document]) -> dict[str, Dated]:
    """:func:`dated` of each document with a date or that amends another, by source."""
    out = {}
    for doc in documents:
        d = dated(doc)
        if d.date is not None or d.amends:
            out[doc.source] = d
    return out


def note_for(chunks: Sequence[Chunk], documents: Mapping[str, Document]) -> str:
    """:func:`reader_note` for ``chunks``, reading the dates of their own documents only (``documents`` by
    source: a mailbox's thousands of messages are not read for one question's three passages)."""
    sources = {c.source for c in chunks}
    if len(sources) < 2:
        return ""
    return reader_note(chunks, document_dates(documents[s] for s in sources if s in documents))


def reader_note(chunks: Sequence[Chunk], dates: Mapping[str, Dated]) -> str:
    """The note for the reader of ``chunks`` when they come from two or more documents and one of those is
    dated or amends another: each such document's date and kind, and which governs. '' otherwise (one
    document, or nothing dated: the prompt stays as it is).

    Example: ``The passages come from several documents: contract.txt dated 10 January 2026;
    amendment.txt, an amendment, dated 1 June 2026. Where they disagree, the later document governs
    (an amendment replaces what it amends): answer from it, and say from when it applies.``
    """
    sources = list(dict.fromkeys(c.source for c in chunks))
    if len(sources) < 2 or not any(s in dates for s in sources):
        return ""
    parts = []
    for source in sources:
        d = dates.get(source, Dated(None, False))
        name = PurePath(source).name or source
        kind = ", an amendment," if d.amends else ""
        when = f" dated {d.date.day} {d.date:%B %Y}" if d.date else " (no date)"
        parts.append(f"{name}{kind}{when}")
    return ("The passages come from several documents: " + "; ".join(parts) + ". Where they disagree, the later "
            "document governs (an amendment replaces what it amends): answer from it, and say from when it applies.")
