"""Needle lookup: an exact, case-insensitive scan of the whole text for the quoted key or phrase."""

from __future__ import annotations

from dataclasses import dataclass

from assistant.documents.chunk import sentence_spans
from assistant.records import Document


@dataclass(frozen=True)
class Match:
    """One occurrence: file, page, offsets of the target and of the sentence around it."""

    source: str
    page: int | None
    start: int
    end: int
    sentence: str
    sent_start: int
    sent_end: int


def find(documents: list[Document], target: str, *, limit: int = 5) -> list[Match]:
    """Up to ``limit`` occurrences of ``target`` (casefolded substring), in document order."""
    needle = target.casefold().strip()
    out: list[Match] = []
    if not needle:
        return out
    for doc in documents:
        hay = doc.text.casefold()  # same length as text for the scripts we expect; checked below
        if len(hay) != len(doc.text):
            hay = doc.text.lower()
        pos = hay.find(needle)
        while pos >= 0 and len(out) < limit:
            s, e = _sentence_around(doc.text, pos, pos + len(needle))
            out.append(Match(doc.source, doc.page_at(pos), pos, pos + len(needle), doc.text[s:e].strip(), s, e))
            pos = hay.find(needle, e)
    return out


def _sentence_around(text: str, start: int, end: int, window: int = 600) -> tuple[int, int]:
    lo = max(0, start - window)
    hi = min(len(text), end + window)
    for s, e in sentence_spans(text[lo:hi]):
        if lo + s <= start and lo + e >= end:
            return lo + s, lo + e
    return max(0, start - 120), min(len(text), end + 120)
