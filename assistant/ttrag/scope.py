"""The records a question names: a wide sheet's rows, searched alone when the question names one of them.

A sheet of wide rows (each a record of its own, :func:`assistant.documents.sheet.row_blocks`) is a table of like
records: "Governing Law: ..." stands in each of 100 contracts' rows. Asked "Governing law of the Gunston
Consulting agreement?", the search found the row that names Gunston by its parties' cell, not that row's
governing-law cell (every row's reads alike), and the reader answered from another contract's row
("California"; the row that names Gunston says Virginia). A word of the question written as a name that stands
in a few records only names them (BM25's document frequency, counted over records instead of chunks); the
question is then searched in the records that hold the most of its naming words (by their inverse record
frequency), where that is at most :data:`MAX_NAMED` records, and without those words and the words of those
records' headings: they chose the record, the rest of the question chooses its cell ("Which law governs the
Medalist consulting agreement?" found the parties' cells by "Medalist", "consulting" and "agreement"; "law
governs the" finds the governing-law cell).
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.records import Chunk, Document
from assistant.ttrag.context import Context
from assistant.ttrag.lexical import stop_words

#: Records a question may name and still be searched in them alone; more, and the whole text is searched.
MAX_NAMED = 3
#: A word in more than this share of the records (and more than MAX_NAMED) names none of them ("governing").
NAMING_SHARE = 0.1
_WORD = re.compile(r"\w{3,}")
_QUESTION_WORDS = frozenset("what which who whom whose when where why how does did can could should would will".split())


Record = tuple[frozenset[str], frozenset[str], list[int]]


def records(documents: Sequence[Document], chunks: Sequence[Chunk]) -> list[Record]:
    """Each record of ``documents`` (a segment with a :attr:`~assistant.records.Segment.heading`) as (its words of
    three letters or more, lower-cased, heading included; its heading's words; the ids of the chunks that start
    in it), in document order. Linear in the chunks (a sheet of 10,000 wide rows holds some 30,000)."""
    spans: dict[str, tuple[list[int], list[int], list[tuple[frozenset[str], frozenset[str]]]]] = {}
    for doc in documents:
        for seg, at in zip(doc.segments, doc.offsets, strict=True):
            if seg.heading:
                starts, ends, words = spans.setdefault(doc.source, ([], [], []))
                starts.append(at)
                ends.append(at + len(seg.text))
                heading = frozenset(w.lower() for w in _WORD.findall(seg.heading))
                words.append((heading | {w.lower() for w in _WORD.findall(seg.text)}, heading))
    found: dict[tuple[str, int], Record] = {}
    for c in chunks:
        if c.source not in spans:
            continue
        starts, ends, words = spans[c.source]
        i = bisect.bisect_right(starts, c.start) - 1
        if i >= 0 and c.start < ends[i]:
            found.setdefault((c.source, starts[i]), (*words[i], []))[2].append(c.id)
    return [found[k] for k in sorted(found)]


@dataclass(frozen=True)
class Scope:
    """The ids of the chunks of the records a question names, the words of the question that name them (and those
    their headings hold: "consulting agreement" of "...-CONSULTING AGREEMENT.PDF"), and all
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


def _names(question: str) -> set[str]:
    """The words of ``question`` written as names are (lower-cased): with a capital or a digit ("Gunston", "iBio",
    "1016"), English stop words ("What", "The") left out; a capitalised opening word that every record holds
    ("Governing law of ...") names none, by its frequency (:func:`named`). A content word
    ("certificate", "rotated") may stand in a single record too, but it says what is asked, not of which record:
    a newcomer's "What error code did Cobalt Logistics get when logging in, and who rotated the certificate?" was
    searched in one of Cobalt's three tickets, the one holding "rotated", without the words that asked."""
    stop = stop_words("en") | _QUESTION_WORDS
    return {w.lower() for w in _WORD.findall(question)
            if (any(ch.isupper() or ch.isdigit() for ch in w)) and w.lower() not in stop}


def named(question: str, ctx: Context) -> Scope | None:
    """The records ``question`` names in ``ctx`` (its :func:`records`, found once and kept with it), or None
    where it names none (or more than :data:`MAX_NAMED`), or the text holds fewer than two records.

    A word written as a name (:func:`_names`, three letters or more) names the records it stands in when it
    stands in at least one and in at most :data:`NAMING_SHARE` of them (or :data:`MAX_NAMED`); the named records
    are those holding the largest sum of their naming words' inverse record frequencies (log N/n)."""
    if ctx.records is None:
        ctx.records = records(ctx.documents, ctx.chunks)
    table = ctx.records
    if len(table) < 2:
        return None
    words = {w.lower() for w in _WORD.findall(question)}
    holding = {w: [i for i, (held, _, _) in enumerate(table) if w in held] for w in words}
    most = max(MAX_NAMED, int(NAMING_SHARE * len(table)))  # a customer of 3 of a small export's 5 tickets
    naming = {w: holding[w] for w in _names(question) if 1 <= len(holding[w]) <= most}
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
    titled = frozenset().union(*(table[i][1] for i in chosen))
    return Scope(frozenset(c for i in chosen for c in table[i][2]),
                 frozenset(w for w, ids in naming.items() if set(ids) & set(chosen)) | (words & titled),
                 frozenset(w for w, ids in holding.items() if set(ids) & set(chosen)))
