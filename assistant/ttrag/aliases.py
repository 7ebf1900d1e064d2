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
# a word no party is looked up by: "The Johns Hopkins University" is "johns"
_NOT_A_NAME = frozenset("the this that these each any all such an a in on by for if it its our we you your".split())


@dataclass(frozen=True)
class DefinedTerm:
    """``name`` ("Calder Precision Components Ltd.") is called ``term`` ("Supplier") in ``source``; a
    question names the party by ``key``, the name's first word ("calder"), lower-cased."""

    name: str
    term: str
    key: str
    source: str
    start: int = -1  # character offset of the party's name in the document text


def defined_terms(documents: Sequence[Document], *, limit: int = 20) -> list[DefinedTerm]:
    """The parties each document defines by a quoted term where it opens, as its summary names them
    (:func:`assistant.ttrag.compute.summarize.points.preamble_parties`: the preamble's definitions, before the
    recitals or the first article), at most ``limit`` per document; the key is the name's first word that can
    name it ("calder"), and a party whose key is its term ("NETGEAR, Inc." called "NETGEAR") needs no alias.

    The party's name is read as the summary reads it, not as the run its line opens with: that was
    "AGREEMENT" for "AGREEMENT dated as of June 24, 2020, between PFS Funds (the "Trust")", so every question
    about "this agreement" was searched "(the Trust)" too, and the governing-law clause was not read.
    """
    from assistant.ttrag.compute.summarize.points import preamble_parties  # that module builds on this one

    out: list[DefinedTerm] = []
    for doc in documents:
        for party in preamble_parties(doc)[:limit]:
            words = (w.lower().strip(".,'\u2019()") for w in party.name.split())
            key = next((w for w in words if len(w) >= 3 and w not in _NOT_A_NAME), "")
            if key and key != party.term.lower() and party.name.lower() != party.term.lower():
                out.append(DefinedTerm(name=party.name, term=party.term, key=key, source=doc.source,
                                       start=party.start))
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
