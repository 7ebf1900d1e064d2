"""Frozen value records passed between the stages: documents, chunks, hits, answers, events."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePath
from typing import ClassVar, Literal

_MARKER = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")  # an answer's source markers: [2], [1, 3]
# a cached message's own text: ``account:folder:UID`` (assistant.mail.cache.CachedRef.id), and its signature or
# quoted earlier messages as documents of their own (`` (signature)``, `` (earlier messages)``)
_MESSAGE_SOURCE = re.compile(r"[^/\\\s:]+:[^\\]+:\d+(?P<part> \([a-z ]+\))?")

Route = Literal["question_answering", "needle_lookup", "counting", "summarization", "table"]
# the router's choices; "table" is taken where a question asks to compute over a sheet's rows
ROUTES: tuple[Route, ...] = ("question_answering", "needle_lookup", "counting", "summarization")


def source_name(source: str) -> str:
    """A document's source as a person reads it in a list of sources or a progress line: a file's name without
    its folders (``contract.pdf``; an attachment ``account:INBOX:7/contract.pdf`` too), a cached message's own
    text ``the message`` (``account:INBOX:7``; ``the message (signature)``, ``the message (earlier
    messages)`` for those parts), not its cache key."""
    m = _MESSAGE_SOURCE.fullmatch(source)
    if m and not re.search(r":\d+/", source):  # not an attachment (``account:INBOX:7/scan:3``)
        return f"the message{m['part'] or ''}"
    return PurePath(source).name or source


@dataclass(frozen=True)
class SheetRows:
    """The cells behind a sheet's segment: the ``sheet``'s name, its ``header`` row's cells, and ``rows`` as
    ``(row number, cells)`` (1-based as the sheet numbers them; the header row is not among them).
    :data:`SEPARATOR` joins a row's cells into its line of the segment's text, a line a row where ``lines`` is
    True (a block of rows; a record's segment names each cell by its column instead)."""

    sheet: str
    header: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]
    lines: bool = True
    SEPARATOR: ClassVar[str] = " | "

    def language_text(self, limit: int = 3000, *, repeated: bool = False) -> str:
        """The words the sheet is written in, to judge its language by: its column names and its cells of text
        (a cell with a word in small letters, or of four words or more), each once, up to ``limit`` characters;
        with ``repeated``, also the cells of words that stand in two rows or more (a status, a department). A
        name, a code or a figure says nothing of it: a staff sheet headed "Name | Department" whose rows are
        "Anna Schneider | Sales | Leipzig" was taken for German, and its English questions were translated into
        German to be searched."""
        seen: dict[str, None] = dict.fromkeys(c for c in self.header if c.strip())
        counts: dict[str, int] = {}
        for _, cells in self.rows:
            for cell in cells:
                text = " ".join(cell.split())
                words = re.findall(r"[^\W\d_]{2,}", text)
                if len(words) >= 4 or any(w[0].islower() for w in words):
                    seen.setdefault(text)
                elif words and repeated:
                    counts[text] = counts.get(text, 0) + 1
        seen.update(dict.fromkeys(t for t, n in counts.items() if n >= 2))
        out, size = [], 0
        for text in seen:
            if size >= limit:
                break
            out.append(text)
            size += len(text) + 1
        return "\n".join(out)


@dataclass(frozen=True)
class Segment:
    """A run of extracted text with its location: ``page`` is 1-based (None when the format has none).
    ``heading`` is what each chunk of the segment is read under, where its text cannot say it (a wide sheet
    row's number and key: ``orders row 7: ACME-0042``); '' when none. ``sheet``: the cells of a sheet's rows
    under a header row, for answers computed over the table (:mod:`assistant.ttrag.compute.table`)."""

    text: str
    page: int | None = None
    section: str | None = None
    heading: str = ""
    sheet: SheetRows | None = None

    def language_text(self, *, repeated: bool = False) -> str:
        """The text the segment's language is judged from: a sheet's words (:meth:`SheetRows.language_text`),
        else its text."""
        return self.sheet.language_text(repeated=repeated) if self.sheet is not None else self.text


@dataclass(frozen=True)
class Document:
    """Text of one file. ``segments[i]`` starts at character ``offsets[i]`` of ``text``.

    ``problems`` names the parts that could not be read (``source/part: reason``), e.g. a corrupt
    attachment, a refused archive member or a scanned page without OCR; the rest was read. ``title`` is the
    title the file declares in its metadata (a PDF's or a DOCX's title property), '' when it declares none.
    """

    source: str
    text: str
    segments: tuple[Segment, ...]
    offsets: tuple[int, ...]
    problems: tuple[str, ...] = ()
    title: str = ""

    def segment_at(self, offset: int) -> int:
        """Index of the segment holding character ``offset`` of ``text``; -1 before the first."""
        return bisect.bisect_right(self.offsets, offset) - 1

    def page_at(self, offset: int) -> int | None:
        """Page (1-based) holding character ``offset`` of ``text``, or None."""
        i = self.segment_at(offset)
        return self.segments[i].page if i >= 0 else None

    def section_at(self, offset: int) -> str:
        """The section of the segment holding character ``offset`` (an mbox's "message 2: Subject", a sheet's
        rows, an archive's member, a clause heading), white space collapsed; '' when it has none."""
        i = self.segment_at(offset)
        return " ".join((self.segments[i].section or "").split()) if i >= 0 else ""

    def heading_at(self, offset: int) -> str:
        """The :attr:`Segment.heading` of the segment holding character ``offset``; '' when it has none."""
        i = self.segment_at(offset)
        return self.segments[i].heading if i >= 0 else ""


@dataclass(frozen=True)
class Chunk:
    """~200-token piece of a document. ``start``/``end`` are character offsets in the document text;
    ``heading`` is the path of the Markdown section the chunk lies in ("Article 7 - Payment Terms > 7.3 Late
    Payment Interest"), less a title the chunk starts with, else its segment's :attr:`Segment.heading`; '' when
    there is none."""

    id: int
    text: str
    source: str
    start: int
    end: int
    page: int | None = None
    n_tokens: int = 0
    heading: str = ""

    @property
    def indexed_text(self) -> str:
        """What retrieval reads: the chunk's section path on a line above its text, so a paragraph deep in
        "7.3 Late Payment Interest" is found by those words."""
        return f"{self.heading}\n{self.text}" if self.heading else self.text


@dataclass(frozen=True)
class Hit:
    """A chunk with the scores each stage gave it (higher is better)."""

    chunk: Chunk
    score: float
    scores: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Source:
    """A cited passage: file, page, chunk offsets, a short quoted snippet and the section of the file it stands
    in ('' when none: see :meth:`Document.section_at`)."""

    n: int
    source: str
    page: int | None
    start: int
    end: int
    snippet: str
    chunk_id: int
    section: str = ""

    def section_note(self, most: int = 60) -> str:
        """", SECTION" as a source line shows it after the file and page (cut to ``most`` characters), '' when
        the passage has no section."""
        if not self.section:
            return ""
        return ", " + (self.section if len(self.section) <= most else self.section[:most - 1].rstrip() + "\u2026")


@dataclass(frozen=True)
class Usage:
    """Token counts and times of one LLM call (seconds; prefill = time to the first token)."""

    purpose: str
    prompt_tokens: int
    completion_tokens: int
    prefill_s: float
    total_s: float


@dataclass(frozen=True)
class Answer:
    """The result of one question: text, sources, route, rewrites, per-stage timings (s) and LLM usage.

    ``text`` is what the person reads (a sentence ending in ``[n]`` markers that number ``sources``);
    ``short_answer`` is the answer alone (the span a benchmark compares; '' when not found or for
    counting and summaries); ``supported_by`` lists the source numbers whose passages hold it. ``language``
    and ``document_language`` are the ISO 639-1 codes of the question's language and the documents' main
    one (:mod:`assistant.text.language`); when they differ the question was searched in translation.
    """

    question: str
    text: str
    found: bool
    route: str
    sources: tuple[Source, ...]
    rewrites: tuple[str, ...]
    timings: dict[str, float]
    usage: tuple[Usage, ...]
    trace: tuple[dict[str, object], ...] = ()
    short_answer: str = ""
    supported_by: tuple[int, ...] = ()
    language: str = ""
    document_language: str = ""

    @property
    def cited(self) -> tuple[Source, ...]:
        """The sources ``text`` cites by its ``[n]`` markers; every source when it has none (a count, a
        not-found answer): then none is singled out."""
        numbers = {int(n) for m in _MARKER.finditer(self.text) for n in re.findall(r"\d+", m.group(1))}
        cited = tuple(s for s in self.sources if s.n in numbers)
        return cited or self.sources

    @property
    def uncited(self) -> tuple[Source, ...]:
        """The sources read but not cited (see :attr:`cited`), in order."""
        cited = self.cited
        return tuple(s for s in self.sources if s not in cited)


@dataclass(frozen=True)
class Progress:
    """Progress of a long stage: ``done`` of ``total`` units (total 0 = unknown); ``detail`` names what the
    stage works on in a person's words (``passages 1-3 of contract.pdf``; '' when there is nothing to add)."""

    stage: str
    done: int
    total: int
    unit: str = ""
    detail: str = ""


@dataclass(frozen=True)
class TokenText:
    """A piece of the streamed answer."""

    text: str


@dataclass(frozen=True)
class Retract:
    """Streamed answer text withdrawn: ``text`` is what the last :class:`TokenText` pieces sent (their
    concatenation ends with it); a consumer removes it from what it shows. The reader's sentence was
    streamed while it looked grounded, then turned out not to be an answer ("... is not provid")."""

    text: str


@dataclass(frozen=True)
class TraceStep:
    """What one stage did, for ``--trace`` (candidates, scores, rewrites)."""

    stage: str
    detail: dict[str, object]


@dataclass(frozen=True)
class Preview:
    """The passage ranked first for a question, sent as soon as the re-rank ends (seconds in), while the
    reader still reads: ``source`` with the sentence that best matches the question as its snippet. It is
    not an answer; the answer's own sources come with it."""

    source: Source


@dataclass(frozen=True)
class PointAnswered:
    """One point of a reply being drafted, answered: sent as soon as it is, while the next points are still
    read (the reply is written once every point is). ``n`` (1-based) of ``total``; ``whole`` False: the answer
    is part of a sentence that could not be found whole in its source. The finished draft has the same point."""

    n: int
    total: int
    request: str
    answer: Answer
    whole: bool = True


Event = Progress | TokenText | Retract | TraceStep | Preview | PointAnswered


@dataclass(frozen=True)
class Attachment:
    """A file attached to (or a non-text part of) a message. ``size`` is in bytes of the decoded data.

    ``charset`` is the MIME ``charset`` parameter the part declared (text parts), ``None`` when none.
    """

    filename: str
    content_type: str
    size: int
    data: bytes = field(repr=False)
    charset: str | None = None


@dataclass(frozen=True)
class Message:
    """One parsed email (RFC 5322 / MIME). Addresses are display strings such as ``Bob <bob@x.org>``.

    ``text`` is the text/plain body; ``html_text`` is the text/html body converted to text; ``shown`` is
    the body a mail client shows: of a multipart/alternative its last readable alternative (RFC 2046
    §5.1.4), with a note naming an alternative left out that says something else ('' when unknown);
    ``defects`` names what was wrong with broken MIME (parsing never fails); ``raw`` is the exact
    original bytes.
    """

    sender: str
    to: tuple[str, ...]
    cc: tuple[str, ...]
    reply_to: tuple[str, ...]
    date: datetime | None
    subject: str
    message_id: str
    in_reply_to: str
    references: tuple[str, ...]
    text: str
    html_text: str
    attachments: tuple[Attachment, ...]
    defects: tuple[str, ...]
    raw: bytes = field(repr=False)
    shown: str = ""

    @property
    def body(self) -> str:
        """The readable body: ``shown``, else the text part, else the HTML part as text."""
        if self.shown.strip():
            return self.shown
        return self.text if self.text.strip() else self.html_text
