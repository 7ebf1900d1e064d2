"""A draft's points as whole sentences: an answer the reader cut mid-sentence is widened to the sentence of the
cited passage it was copied from.

The reader copies its answer sentence out of a passage, and now and then stops early ("... for an additional
Three (3) year period by providing") or starts late ("for an additional Three (3) year period ..."). A reply
states each point as a sentence of its own, so such a fragment is found in its cited source's document and
widened there to whole sentences (:func:`assistant.ttrag.passages.whole`, the widening the reader's passages
get). A fragment that is not in the document as written, or whose sentence does not end within reach, cannot
be made whole: the point keeps its text and is not confirmed (the person checks it against its source).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from assistant.records import Answer, Chunk, Document
from assistant.ttrag import passages
from assistant.ttrag.generate import strip_markers

_MARKERS = re.compile(r"(?:\s*\[\d+(?:\s*,\s*\d+)*\])+\s*$")  # the answer's trailing [n] markers
_ENDS = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$")  # a sentence's last mark, closing quotes or brackets after it
_STARTS = re.compile(r"^[\"'\u201c\u2018(\[]*[A-Z0-9\u00c0-\u00de]")  # a capital or a number, maybe quoted
_CUT = " ,;:\u2026."  # what a cut fragment may trail ("by providing," or "by providing...")
_MARKUP = re.compile(r"^#{1,6}\s+|\*\*|__")  # Markdown heading marks and bold in a document's text


def is_whole(text: str) -> bool:
    """Whether ``text`` (markers removed) reads as whole sentences: it starts with a capital letter or a number
    (quoted or bracketed too) and ends with ``.``, ``!`` or ``?`` (closing quotes or brackets may follow)."""
    text = text.strip()
    return bool(_STARTS.match(text)) and bool(_ENDS.search(text))


def _find(fragment: str, text: str, lo: int, hi: int) -> tuple[int, int] | None:
    """The span of ``fragment``'s words in ``text[lo:hi]``, whatever spaces, line breaks or bold marks lie
    between them and in either case; None when it is not there as written."""
    words = fragment.strip().rstrip(_CUT).split()
    if not words:
        return None
    pattern = r"(?:\s|\*\*|__)+".join(map(re.escape, words))
    found = re.compile(pattern, re.I).search(text, max(0, lo), min(len(text), hi))
    return found.span() if found else None


def _widen(document: Document, start: int, end: int, chunk_id: int, rounds: int = 2) -> str:
    """The whole sentences of ``document`` around ``start:end``, on one line, without Markdown marks. A
    sentence :func:`~assistant.ttrag.passages.whole` ends at ``;`` (a list's item, a clause) is widened on to
    the full stop, at most ``rounds`` more times."""
    text = document.text
    sentences = ""
    for _ in range(rounds + 1):
        piece = Chunk(id=chunk_id, text=text[start:end], source=document.source, start=start, end=end)
        widened = passages.whole([document], [piece])[0]
        sentences = " ".join(_MARKUP.sub("", line).strip() for line in widened.text.splitlines() if line.strip())
        if is_whole(sentences):
            break
        start, end = widened.start, widened.end
        if not _STARTS.match(sentences):  # it starts after a ";": from the word before it
            start = len(text[:start].rstrip()) - 1
        if not _ENDS.search(sentences):  # it ends at a ";": to the word after it
            end = len(text) - len(text[end:].lstrip()) + 1
        if start < 0 or end > len(text):
            break
    return sentences


def whole_fragment(fragment: str, document: Document, spans: Sequence[tuple[int, int, int]], *,
                   reach: int = passages.REACH) -> str | None:
    """The whole sentences of ``document`` that hold ``fragment`` (markers removed) as written, looked for
    around each ``(start, end, chunk id)`` of ``spans`` in turn (the passages it cites, ``reach`` characters
    wider at each end); None when none holds it or its sentence does not end within reach."""
    for start, end, chunk_id in spans:
        span = _find(fragment, document.text, start - reach, end + reach)
        if span is None:
            continue
        sentences = _widen(document, *span, chunk_id=chunk_id)
        if is_whole(sentences):
            return sentences
    return None


def whole_answer(answer: Answer, documents: Sequence[Document], *,
                 reach: int = passages.REACH) -> tuple[Answer, bool]:
    """``answer`` with its text made whole sentences, and whether it is (or was already).

    Args:
        answer: the pipeline's answer to a point; not found, or already whole (:func:`is_whole`): returned as
            it is, True.
        documents: the documents read (the context's); a cited source's document is found by its name.
        reach: the characters a fragment may grow at each end (as a passage read whole).

    Returns:
        The answer whose ``text`` is the cited document's sentences holding the fragment, its ``[n]`` markers
        kept, and True; or ``answer`` unchanged and False when no cited source holds the fragment as written,
        or its sentence does not end within ``reach``.
    """
    if not answer.found or not answer.text.strip():
        return answer, True
    fragment = strip_markers(answer.text)
    if is_whole(fragment):
        return answer, True
    markers = m.group().strip() if (m := _MARKERS.search(answer.text)) else ""
    by_source = {d.source: d for d in documents}
    cited = sorted(answer.cited, key=lambda s: s.n not in answer.supported_by)  # the supporting ones first
    for source in cited:
        document = by_source.get(source.source)
        if document is None:
            continue
        sentences = whole_fragment(fragment, document, [(source.start, source.end, source.chunk_id)], reach=reach)
        if sentences is not None:
            return dataclasses.replace(answer, text=f"{sentences} {markers}".strip()), True
    return answer, False
