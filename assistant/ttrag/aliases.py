"""Defined terms: the party a contract names once and then calls by a term.

A contract introduces each party once, "Calder Precision Components Ltd., a private limited company ...
(the "Supplier")", and from then on says "the Supplier". A person asks about "Calder's contract manager";
the clause says "The Supplier's contract manager is Imogen Tallis". Read at question time from the text
itself (nothing is indexed ahead), the definitions let retrieval search for the term too and tell the
reader which party the term stands for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.records import Document

# how a quoted definition opens: (the "Supplier"), ("Buyer"), (hereinafter the "Licensee"), (hereinafter referred
# to as "Seller"), (herein referred to as "Principal"), (herein "Go Call"), (hereafter "GINARES"); a contract
# summary's parties are read with the same words before the quote (DEFINITION_LEAD, points.preamble_parties)
DEFINITION_LEAD = (r"\((?:here(?:in(?:after)?|after),?\s+(?:(?:referred\s+to|called|known)\s+as\s+|called\s+)?)?"
                   r"(?:the\s+)?")
DEFINITION_OPENING = DEFINITION_LEAD + r"[\"\u201c]"
_DEFINITION = re.compile(DEFINITION_OPENING + r"([A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+)?)[\"\u201d]\)")
# the name a party line starts with: "(2) Calder Precision Components Ltd., a private ..." -> the capitalised run
_NAME = re.compile(r"^\s*(?:\(\w{1,3}\)|\d{1,2}[.)]|[-*\u2022])?\s*\**\s*(?:The\s+)?"
                   r"([A-Z][\w&'.-]*(?:\s+(?:[A-Z][\w&'.-]*|&|and|of|de|von|van))*)")
_NOT_A_NAME = frozenset("this that these each any all such an a in on by for if it its our we you your".split())
# Parties are defined where a contract opens: a quoted definition further on names a concept ("NLS shall ...
# during the period (the "Term")", "(the "Royalties")"), and its term appended to a question about NLS pulled the
# search to the definitions, away from the clause asked about.
PREAMBLE_CHARS = 6000


@dataclass(frozen=True)
class DefinedTerm:
    """``name`` ("Calder Precision Components Ltd.") is called ``term`` ("Supplier") in ``source``; a
    question names the party by ``key``, the name's first word ("calder"), lower-cased."""

    name: str
    term: str
    key: str
    source: str
    start: int = -1  # character offset of the definition in the document text


def defined_terms(documents: Sequence[Document], *, limit: int = 20) -> list[DefinedTerm]:
    """The parties each document defines by a quoted term, first definition of each term per document, among
    the definitions of its first :data:`PREAMBLE_CHARS` characters (where a contract names its parties).

    The name is the capitalised run that opens the definition's line, or, when the term stands on a line of
    its own (a cover page: "**Norhaven Medical Devices GmbH**" then '(the "Buyer")'), the line before it.
    At most ``limit`` per document; a run starting with a function word ("This Agreement") is not a name.
    """
    out: list[DefinedTerm] = []
    for doc in documents:
        text = doc.text
        seen: set[str] = set()
        for m in _DEFINITION.finditer(text, 0, PREAMBLE_CHARS):
            term = m.group(1)
            if term.lower() in seen or len(seen) >= limit:
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            head = text[line_start:m.start()]
            if not head.strip():  # the term alone on its line: the name is the line before
                before = text[:line_start].rstrip()
                head = before[before.rfind("\n") + 1:]
            found = _NAME.match(head)
            if not found:
                continue
            name = found.group(1).rstrip(",")
            first = name.split()[0].lower().strip(".'")
            if len(first) < 3 or first in _NOT_A_NAME or first == term.lower() or name.lower() == term.lower():
                continue
            seen.add(term.lower())
            out.append(DefinedTerm(name=name, term=term, key=first, source=doc.source, start=m.start()))
    return out


def named_in(question: str, terms: Sequence[DefinedTerm]) -> list[DefinedTerm]:
    """The defined parties ``question`` names by their first word ("Calder's", "norhaven") whose term it
    does not already use, each term once."""
    words = {w.lower() for w in re.findall(r"[A-Za-z][\w-]*", question)}
    out: list[DefinedTerm] = []
    for t in terms:
        if t.key in words and t.term.lower() not in words and all(o.term != t.term for o in out):
            out.append(t)
    return out


def search_query(question: str, terms: Sequence[DefinedTerm]) -> str:
    """``question`` with the term of each party it names appended ("Who is Calder's contract manager?
    (the Supplier)"), for the pre-filter and the re-ranker; the question itself when it names none."""
    named = named_in(question, terms)
    return question + "".join(f" (the {t.term})" for t in named)


def reader_note(question: str, terms: Sequence[DefinedTerm]) -> str:
    """One line telling the reader which term stands for each party the question names ('' if none):
    'In the passages, "the Supplier" is Calder Precision Components Ltd.'"""
    named = named_in(question, terms)
    return " ".join(f'In the passages, "the {t.term}" is {t.name.rstrip(".")}.' for t in named)


# a term standing for a party: on its own or after an article ("the Company", "die Company", "le Licencié"), not
# inside a longer name ("Charles Webb & Company") and not a word of another ("Companywide")
_ARTICLE = r"(?:(?:the|The|die|Die|der|Der|das|Das|le|Le|la|La|l')\s*)?"


def with_names(text: str, parties: Sequence[tuple[str, str]]) -> str:
    """``text`` with each party it calls by its defined term stated with its name, first mention only:
    "XC and AJR are the parties." -> 'XYBERNAUT CORPORATION ("XC") and ALEX JOB RACING, INC. ("AJR") are the
    parties.' A term is a label the contract gives a party, not a name a person can look up.

    Args:
        text: a sentence (a reply about the parties).
        parties: (name, term) pairs as a contract's preamble defines them
            (:func:`assistant.ttrag.compute.summarize.points.preamble_parties`).

    Returns:
        ``text`` unchanged where it already states a party's name, never mentions its term, or mentions it
        inside a longer capitalised name.
    """
    out = text
    for name, term in parties:
        if len(term) < 2 or not name or name.lower() in out.lower() or term.lower() == name.lower():
            continue
        for m in re.finditer(rf"(?<![\w&-]){_ARTICLE}{re.escape(term)}(?![\w-])", out):
            if re.search(r"(?:\b[A-Z][\w.]*|&)$", out[:m.start()].rstrip()):  # its article is in the match
                continue  # "Charles Webb & Company": the term inside another name
            out = out[:m.start()] + f'{name} ("{term}")' + out[m.end():]
            break
    return out
