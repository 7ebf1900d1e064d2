"""The records a question names: a wide sheet's rows, searched alone when the question names one of them.

A sheet of wide rows (each a record of its own, :func:`assistant.documents.sheet.row_blocks`) is a table of like
records: "Governing Law: ..." stands in each of 100 contracts' rows. Asked "Governing law of the Gunston
Consulting agreement?", the search found the row that names Gunston by its parties' cell, not that row's
governing-law cell (every row's reads alike), and the reader answered from another contract's row
("California"; the row that names Gunston says Virginia). A word of the question that stands in a few records
only names them (BM25's document frequency, counted over records instead of chunks); the question is then
searched in the records that hold the most of its naming words (by their inverse record frequency), where
that is at most :data:`MAX_NAMED` records, and without those words: they chose the record, the rest of the
question chooses its cell ("Which law governs the Medalist consulting agreement?" found the parties' cells by
"Medalist", "consulting" and "agreement"; "law governs the agreement" finds the governing-law cell).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.records import Chunk, Document

#: Records a question may name and still be searched in them alone; more, and the whole text is searched.
MAX_NAMED = 3
#: A word in more than this share of the records names none of them ("governing", "agreement").
NAMING_SHARE = 0.1
_WORD = re.compile(r"\w{3,}")


def records(documents: Sequence[Document], chunks: Sequence[Chunk]) -> list[tuple[str, list[int]]]:
    """Each record of ``documents`` (a segment with a :attr:`~assistant.records.Segment.heading`) as (its
    text, lower-cased, heading included; the ids of the chunks that start in it), in document order."""
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for doc in documents:
        for seg, at in zip(doc.segments, doc.offsets, strict=True):
            if seg.heading:
                spans.setdefault(doc.source, []).append((at, at + len(seg.text), f"{seg.heading}\n{seg.text}".lower()))
    if not spans:
        return []
    found: dict[tuple[str, int], tuple[str, list[int]]] = {}
    for c in chunks:
        for start, end, text in spans.get(c.source, ()):
            if start <= c.start < end:
                found.setdefault((c.source, start), (text, []))[1].append(c.id)
                break
    return [found[k] for k in sorted(found)]


@dataclass(frozen=True)
class Scope:
    """The ids of the chunks of the records a question names, the words of the question that name them, and all
    the question's words those records hold (lower-case; "inc" of "iBio Inc. governing law?" names no record,
    a third of them hold it, but the one named does)."""

    chunks: frozenset[int]
    names: frozenset[str]
    held: frozenset[str] = frozenset()

    def query(self, text: str) -> str:
        """``text`` without the words that name the records (any case), its white space made single."""
        if not self.names:
            return text
        pattern = r"\b(?:" + "|".join(re.escape(w) for w in sorted(self.names)) + r")\b"
        kept = " ".join(re.sub(pattern, " ", text, flags=re.I).split())
        return kept if _WORD.search(kept) else text


def named(question: str, documents: Sequence[Document], chunks: Sequence[Chunk]) -> Scope | None:
    """The records ``question`` names, or None where it names none (or more than :data:`MAX_NAMED`), or the
    text holds fewer than two records.

    A word (three letters or more, any case) names the records it stands in when it stands in at least one
    and in at most :data:`NAMING_SHARE` of them; the named records are those holding the largest sum of
    their naming words' inverse record frequencies (log N/n)."""
    table = records(documents, chunks)
    if len(table) < 2:
        return None
    words = {w.lower() for w in _WORD.findall(question)}
    holding = {w: [i for i, (text, _) in enumerate(table) if re.search(rf"\b{re.escape(w)}\b", text)] for w in words}
    most = max(1, int(NAMING_SHARE * len(table)))
    naming = {w: ids for w, ids in holding.items() if 1 <= len(ids) <= most}
    if not naming:
        return None
    score = [0.0] * len(table)
    for ids in naming.values():
        for i in ids:
            score[i] += math.log(len(table) / len(ids))
    best = max(score)
    chosen = [i for i, s in enumerate(score) if s == best]
    if len(chosen) > MAX_NAMED:
        return None
    return Scope(frozenset(c for i in chosen for c in table[i][1]),
                 frozenset(w for w, ids in naming.items() if set(ids) & set(chosen)),
                 frozenset(w for w, ids in holding.items() if set(ids) & set(chosen)))
