"""Counting: exact occurrence counts over the whole text, never an LLM guess."""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.records import Document


@dataclass(frozen=True)
class Count:
    """Occurrences of a term in one document, with the offsets of the first few."""

    source: str
    count: int
    first: tuple[int, ...]


def pattern_for(term: str) -> re.Pattern[str]:
    """Case-insensitive pattern for ``term``; whole words where the term starts/ends with a word char."""
    body = r"\s+".join(re.escape(p) for p in term.split())
    left = r"\b" if re.match(r"\w", term) else ""
    right = r"\b" if re.search(r"\w$", term) else ""
    return re.compile(left + body + right, re.IGNORECASE)


def count(documents: list[Document], term: str, *, keep: int = 5) -> list[Count]:
    """Occurrences of ``term`` in each document (whole-word, case-insensitive, any whitespace inside)."""
    pat = pattern_for(term.strip())
    out = []
    for doc in documents:
        starts = [m.start() for m in pat.finditer(doc.text)]
        out.append(Count(doc.source, len(starts), tuple(starts[:keep])))
    return out
