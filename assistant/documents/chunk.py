"""Documents to ~200-token chunks, measured with the encoder's tokenizer, cut at sentence boundaries."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from typing import Any

from assistant.documents.tokens import token_lengths
from assistant.records import Chunk, Document
from assistant.text.stops import stops_a_sentence

# A sentence ends after . ! ? (and closing quotes/brackets) followed by space, or at a line break.
_BOUNDARY = re.compile(r"([.!?][\"')\]]?)[ \t]+|\n+")
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_MD_HEADING = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$", re.M)
HEADING_PATH = " > "
# A sentence longer than this (a paragraph with no sentence ends) is tokenized a window at a time: the
# tokenizer given one 10 MiB string took 20 s and 1.6 GB (it grows faster than the text), where windows of
# this size cost what the text's sentences would (benchmarks/results/ask_memory.md).
LONG_SPAN_CHARS = 16_384


def markdown_headings(text: str) -> tuple[list[int], list[str], list[str]]:
    """The Markdown ``#`` heading lines of ``text`` (CommonMark ATX headings), in order: their start
    offsets, their titles (emphasis marks removed) and the titles of the sections around each, outermost
    first and the document's title (level 1) left out ("Article 9 - Late Delivery" around "9.2 Liquidated
    Damages"; at most one)."""
    starts: list[int] = []
    titles: list[str] = []
    parents: list[str] = []
    open_: list[tuple[int, str]] = []  # (level, title) of the sections enclosing the current line
    for m in _MD_HEADING.finditer(text):
        title = m.group(2).replace("**", "").replace("__", "").strip()
        if not title:
            continue
        level = len(m.group(1))
        while open_ and open_[-1][0] >= level:
            open_.pop()
        around = [t for lv, t in open_ if lv > 1][-1:]
        starts.append(m.start())
        titles.append(title)
        parents.append(HEADING_PATH.join(around))
        open_.append((level, title))
    return starts, titles, parents


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans ``[start, end)`` of the sentences (and lines) of ``text``; whitespace-only skipped."""
    spans = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        end = m.end(1) if m.group(1) else m.start()
        if end > start and not text[start:end].isspace():
            spans.append((start, end))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def whole_sentence_spans(text: str) -> list[tuple[int, int]]:
    """:func:`sentence_spans`, with a span that ends at a full stop that ends no sentence joined to the next: an
    abbreviation's, an initial's, a list letter's ("P.L. 113-2", "1600 E. St. Andrew Place";
    :func:`assistant.text.stops.stops_a_sentence`). The sentences a summary quotes, never a fragment."""
    out: list[tuple[int, int]] = []
    begin: int | None = None
    for s, e in sentence_spans(text):
        begin = s if begin is None else begin
        if stops_a_sentence(text[max(0, e - 40):e]):  # the last 40 characters decide (longest abbreviation)
            out.append((begin, e))
            begin = None
    if begin is not None:
        out.append((begin, len(text.rstrip())))
    return out


def chunk_document(doc: Document, tokenizer: Any, *, chunk_tokens: int = 200, first_id: int = 0,
                   progress: Callable[[int, int], None] | None = None) -> list[Chunk]:
    """Cut ``doc`` into chunks of at most ``chunk_tokens`` tokens (of ``tokenizer``, special tokens excluded).

    Sentences are packed greedily; a paragraph break ends the chunk unless it is shorter than 1/8 of the
    budget (a heading or a one-liner joins the next paragraph); a sentence
    longer than a chunk is cut at token boundaries. Chunks never cross a document, nor the edge of a segment
    with a :attr:`~assistant.records.Segment.heading` (a sheet's record is read alone). Ids run from
    ``first_id``. ``progress(done, total)`` counts sentences.

    Returns:
        Chunks in document order, each with character offsets into ``doc.text`` and its page.
    """
    spans = sentence_spans(doc.text)
    headings = markdown_headings(doc.text)
    lengths = _sentence_lengths(doc.text, spans, tokenizer, progress)
    chunks: list[Chunk] = []
    cur_start: int | None = None
    cur_end = 0
    cur_tokens = 0

    heading_at = set(headings[0])
    only_headings = True  # the current chunk holds nothing but heading lines so far
    # a segment read under a heading of its own (a sheet's record) starts a chunk, and so does the one after it
    starts = [at for i, (seg, at) in enumerate(zip(doc.segments, doc.offsets, strict=True))
              if i and seg.heading != doc.segments[i - 1].heading]
    next_start = 0  # the boundaries in starts passed so far

    def flush() -> None:
        nonlocal cur_start, cur_tokens, only_headings
        if cur_start is not None:
            chunks.append(_make(doc, first_id + len(chunks), cur_start, cur_end, cur_tokens,
                                _heading(headings, cur_start)))
        cur_start, cur_tokens, only_headings = None, 0, True

    prev_end = 0
    for (start, end), n in zip(spans, lengths, strict=True):
        # Paragraphs are kept apart: on the HotpotQA haystack, chunks that mix two paragraphs lost
        # .09 R@3 (benchmarks/results/retrieval_mixed_chunks.md). Only a short run (a heading, a one-liner)
        # joins the next. A Markdown heading starts a chunk: it belongs to the text after it, not to the
        # end of the section before (a letter's sign-off used to carry the next letter's title).
        new_paragraph = _PARAGRAPH.search(doc.text, prev_end, start) is not None
        prev_end = end
        is_heading = start in heading_at
        passed = bisect.bisect_right(starts, start)
        crossed, next_start = passed > next_start, passed
        if crossed or new_paragraph and (cur_tokens >= chunk_tokens // 8 or is_heading and not only_headings):
            flush()
        only_headings = only_headings and is_heading
        pieces = None
        if n is None:  # a sentence too long to count whole: cut it, then see whether it fits one chunk
            pieces = _split_long(doc.text, start, end, tokenizer, chunk_tokens)
            if len(pieces) <= 1:
                n, pieces = (pieces[0][2] if pieces else 0), None
        elif n > chunk_tokens:
            pieces = _split_long(doc.text, start, end, tokenizer, chunk_tokens)
        if pieces is not None:
            flush()
            for s, e, k in pieces:
                chunks.append(_make(doc, first_id + len(chunks), s, e, k,
                                    _heading(headings, s)))
            continue
        assert n is not None
        if cur_tokens + n > chunk_tokens:
            flush()
        if cur_start is None:
            cur_start = start
        cur_end, cur_tokens = end, cur_tokens + n
    flush()
    return chunks


def _heading(headings: tuple[list[int], list[str], list[str]], at: int) -> str:
    """The section path of a chunk starting at offset ``at`` ("Article 9 - Late Delivery > 9.2 Liquidated
    Damages"), less a heading the chunk starts with (that title is in its own text); '' when none."""
    starts, titles, parents = headings
    i = bisect.bisect_right(starts, at) - 1
    if i < 0:
        return ""
    if starts[i] == at:
        return parents[i]
    return HEADING_PATH.join(p for p in (parents[i], titles[i]) if p)


def _make(doc: Document, cid: int, start: int, end: int, n_tokens: int, heading: str = "") -> Chunk:
    return Chunk(id=cid, text=doc.text[start:end], source=doc.source, start=start, end=end,
                 page=doc.page_at(start), n_tokens=n_tokens, heading=heading or doc.heading_at(start))


def _sentence_lengths(text: str, spans: list[tuple[int, int]], tokenizer: Any,
                      progress: Callable[[int, int], None] | None) -> list[int | None]:
    """Token count of each span; None for a span over ``LONG_SPAN_CHARS`` characters, which is never handed
    to the tokenizer whole (:func:`_split_long` cuts it a window at a time)."""
    short = [i for i, (s, e) in enumerate(spans) if e - s <= LONG_SPAN_CHARS]
    counted = token_lengths(tokenizer, [text[spans[i][0]:spans[i][1]] for i in short], progress=progress)
    lengths: list[int | None] = [None] * len(spans)
    for i, n in zip(short, counted, strict=True):
        lengths[i] = n
    return lengths


def _split_long(text: str, start: int, end: int, tokenizer: Any,
                chunk_tokens: int) -> list[tuple[int, int, int]]:
    """Cut ``text[start:end]`` every ``chunk_tokens`` tokens, at token boundaries; (start, end, n).

    The text is tokenized in windows of at most ``LONG_SPAN_CHARS`` characters, each ending at a space where
    it has one: tokens never cross a space (BERT's pre-tokenizer splits there), so the cuts are the ones the
    whole text gives; a window without a space is cut where it ends.
    """
    out: list[tuple[int, int, int]] = []
    pending: list[tuple[int, int]] = []  # offsets of the tokens not yet in a chunk
    pos = start
    while pos < end:
        stop = min(end, pos + LONG_SPAN_CHARS)
        if stop < end:
            space = text.rfind(" ", pos + 1, stop + 1)
            stop = space if space > pos else stop
        enc = tokenizer(text[pos:stop], add_special_tokens=False, return_offsets_mapping=True,
                        verbose=False)  # a long text is cut here, never fed whole to the model: no length warning
        pending += [(pos + a, pos + b) for a, b in enc["offset_mapping"]]
        full = len(pending) - len(pending) % chunk_tokens
        out += [(pending[i][0], pending[i + chunk_tokens - 1][1], chunk_tokens) for i in range(0, full, chunk_tokens)]
        del pending[:full]
        pos = stop
    if pending:
        out.append((pending[0][0], pending[-1][1], len(pending)))
    return out
