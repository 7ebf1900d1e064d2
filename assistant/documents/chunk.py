"""Documents to ~200-token chunks, measured with the encoder's tokenizer, cut at sentence boundaries."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from typing import Any

from assistant.documents.tokens import token_lengths
from assistant.records import Chunk, Document

# A sentence ends after . ! ? (and closing quotes/brackets) followed by space, or at a line break.
_BOUNDARY = re.compile(r"([.!?][\"')\]]?)[ \t]+|\n+")
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_MD_HEADING = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$", re.M)
HEADING_PATH = " > "


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


def chunk_document(doc: Document, tokenizer: Any, *, chunk_tokens: int = 200, first_id: int = 0,
                   progress: Callable[[int, int], None] | None = None) -> list[Chunk]:
    """Cut ``doc`` into chunks of at most ``chunk_tokens`` tokens (of ``tokenizer``, special tokens excluded).

    Sentences are packed greedily; a paragraph break ends the chunk unless it is shorter than 1/8 of the
    budget (a heading or a one-liner joins the next paragraph); a sentence
    longer than a chunk is cut at token boundaries. Chunks never cross a document. Ids run from
    ``first_id``. ``progress(done, total)`` counts sentences.

    Returns:
        Chunks in document order, each with character offsets into ``doc.text`` and its page.
    """
    spans = sentence_spans(doc.text)
    headings = markdown_headings(doc.text)
    lengths = token_lengths(tokenizer, [doc.text[s:e] for s, e in spans], progress=progress)
    chunks: list[Chunk] = []
    cur_start: int | None = None
    cur_end = 0
    cur_tokens = 0

    heading_at = set(headings[0])
    only_headings = True  # the current chunk holds nothing but heading lines so far

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
        if new_paragraph and (cur_tokens >= chunk_tokens // 8 or is_heading and not only_headings):
            flush()
        only_headings = only_headings and is_heading
        if n > chunk_tokens:
            flush()
            for s, e, k in _split_long(doc.text, start, end, tokenizer, chunk_tokens):
                chunks.append(_make(doc, first_id + len(chunks), s, e, k,
                                    _heading(headings, s)))
            continue
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
                 page=doc.page_at(start), n_tokens=n_tokens, heading=heading)


def _split_long(text: str, start: int, end: int, tokenizer: Any,
                chunk_tokens: int) -> list[tuple[int, int, int]]:
    """Cut ``text[start:end]`` every ``chunk_tokens`` tokens, at token boundaries; (start, end, n)."""
    enc = tokenizer(text[start:end], add_special_tokens=False, return_offsets_mapping=True,
                    verbose=False)  # a long text is cut here, never fed whole to the model: no length warning
    offsets = enc["offset_mapping"]
    out = []
    for i in range(0, len(offsets), chunk_tokens):
        piece = offsets[i:i + chunk_tokens]
        out.append((start + piece[0][0], start + piece[-1][1], len(piece)))
    return out
