"""Passages read whole: a chunk handed to the reader starts and ends at a sentence, a numbered clause with its heading.

Chunks are cut at "sentences" that include line breaks, and a PDF's text breaks every line: a clause read as
"... construed and enforced in accordance with, the laws of the" | "State of New York, USA, without regard
to ..." gave the reader half a sentence on each side of a chunk boundary. Retrieval keeps its chunks (small,
as ranked); what the reader sees is each chunk widened within its document to the sentence it starts in and
the sentence it ends in (a sentence ends at ``.``, ``!``, ``?`` or ``;`` before a space, not after an
abbreviation such as "Inc." or "No.", or at a blank line), at most ``reach`` characters each way, and, where
the widened start is the first sentence of a numbered clause ("19.1 Governing Law. This Agreement ..."), back
to the clause's number and heading on its line. A chunk whose edges already stand at sentence ends is read as
it is. Nothing is stored: the widening is done per read.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from assistant.records import Chunk, Document
from assistant.text.stops import STOP

REACH = 300  # characters a passage may grow at each end (about 60 tokens)
_END = re.compile(rf"{STOP}[\"'\u201d\u2019)\]]*(?=\s)|\n[ \t]*\n")
# A numbered clause's heading: "19.1 Governing Law.", "Section 4.2 Term", "ARTICLE 7 - PAYMENT", "(b) Notices."
_HEADING = re.compile(r"(?:(?:section|article|clause)\s+)?(?:\d+(?:\.\d+)*\.?|\([a-z0-9]{1,4}\)|[A-Z]\.)"
                      r"\s*[-\u2013:]?\s*[A-Za-z][^\n.;]{0,80}[.:]?", re.I)


def sentence_start(text: str, at: int, reach: int = REACH) -> int:
    """The offset in ``text`` where the sentence holding offset ``at`` starts (``at`` when it already starts
    one, or when no sentence end lies within ``reach`` characters before it), moved back to the clause number
    and heading of its line, or of the line above, when it is a numbered clause's first sentence."""
    before = text[max(0, at - reach):at]
    if at > 0 and before.strip() and not _ends_sentence(before):
        ends = list(_END.finditer(before))
        if ends:
            at = at - len(before) + ends[-1].end()
        elif at <= reach:
            at = 0
        while at < len(text) and text[at].isspace():
            at += 1
    line_start = text.rfind("\n", 0, at) + 1
    lead = text[line_start:at].strip()
    if lead and _HEADING.fullmatch(lead):  # "19.1 Governing Law. |This Agreement ..."
        return line_start + len(text[line_start:at]) - len(text[line_start:at].lstrip())
    if not lead and line_start > 0:  # "19.1 Governing Law" on the line above
        above_start = text.rfind("\n", 0, line_start - 1) + 1
        above = text[above_start:line_start].strip()
        if above and _HEADING.fullmatch(above):
            return above_start + len(text[above_start:line_start]) - len(text[above_start:line_start].lstrip())
    return at


def sentence_end(text: str, at: int, reach: int = REACH) -> int:
    """The offset in ``text`` where the sentence holding offset ``at - 1`` ends (``at`` when it already ends
    one, or when no sentence end lies within ``reach`` characters after it)."""
    if at >= len(text) or _ends_sentence(text[max(0, at - 8):at]):
        return at
    m = _END.search(text, at, min(len(text), at + reach))
    if m is None:
        return len(text) if len(text) - at <= reach else at
    return m.end() if m.group().strip() else m.start()


SHORT_LINE = 40  # characters: a line this short that no sentence end closes is a title or a number ("5.")
_SHORT_LINE = re.compile(rf"(?m)^[^\n]{{1,{SHORT_LINE - 1}}}\n")


def sentence_spans_across_lines(text: str) -> list[tuple[int, int]]:
    """Character spans ``[start, end)`` of the sentences of ``text`` as a person reads them: a line break inside a
    sentence (a PDF breaks every line) does not end it; ``.``, ``!``, ``?`` or ``;`` before a space (not after an
    abbreviation), a blank line, or the end of a line shorter than :data:`SHORT_LINE` characters (a title, "SUPPLY
    AGREEMENT") does. Surrounding white space is left out; white-space-only spans are skipped."""
    ends = sorted([*_END.finditer(text), *(m for m in _SHORT_LINE.finditer(text) if m.group().strip())],
                  key=lambda m: m.start())
    spans, start = [], 0
    for m in [*ends, None]:
        if m is not None and m.end() <= start:
            continue
        end = len(text) if m is None else m.end() if m.group().strip() else m.start()
        piece = text[start:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            spans.append((start + lead, start + len(piece.rstrip())))
        if m is not None:
            start = m.end()
    return spans


def _ends_sentence(before: str) -> bool:
    """True when ``before`` ends a sentence: a closing mark, or a blank line after the last text."""
    if re.search(r"\n[ \t]*\n\s*$", before):
        return True
    return bool(re.search(rf"(?:{STOP}|:)[\"'\u201d\u2019)\]]*$", before.rstrip()))


def whole(documents: Sequence[Document], chunks: Sequence[Chunk], reach: int = REACH) -> list[Chunk]:
    """``chunks`` each widened to whole sentences within its document (see the module docstring); the same ids,
    their ``start``, ``end``, ``text`` and ``page`` updated. A chunk whose document is not in ``documents``, or
    whose text is not its document's text at its offsets (a cut or selected passage), is left as it is."""
    by_source = {d.source: d for d in documents}
    out = []
    for c in chunks:
        doc = by_source.get(c.source)
        if doc is None or doc.text[c.start:c.end] != c.text:
            out.append(c)
            continue
        start = sentence_start(doc.text, c.start, reach)
        end = sentence_end(doc.text, c.end, reach)
        if (start, end) == (c.start, c.end):
            out.append(c)
            continue
        out.append(dataclasses.replace(c, text=doc.text[start:end].strip(), start=start, end=end,
                                       page=doc.page_at(start)))
    return out


def opening(document: Document, chunk_id: int, chars: int, reach: int = REACH) -> Chunk:
    """The opening of ``document`` as a passage: its first ``chars`` characters, to the end of the sentence
    there (at most ``reach`` more), with the id of its first chunk (``chunk_id``). A contract names its parties
    and date there, a letter or report its subject; retrieval ranks the preamble low for "who are the parties?"
    (it shares few words with the question), so the question-answering path reads it beside the passages
    ranked best (:attr:`assistant.config.PipelineOptions.opening_chars`)."""
    end = sentence_end(document.text, min(chars, len(document.text)), reach)
    text = document.text[:end]
    start = len(text) - len(text.lstrip())
    return Chunk(id=chunk_id, text=text.strip(), source=document.source, start=start, end=end,
                 page=document.page_at(start))
