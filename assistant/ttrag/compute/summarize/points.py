"""Summaries built from the questions a document's kind is read for (TTRAG conditional compute: the kind of
document decides the work).

A person who asks for a summary of a contract wants who, what, when, for how long, for how much and which
law: the clause categories lawyers label in CUAD (Hendrycks et al., "CUAD: An Expert-Annotated NLP Dataset
for Legal Contract Review", NeurIPS 2021 Datasets track). Each point of such a summary is one of those
questions, answered through the question-answering path (pre-filter, re-ranker, the reader's checked reply),
so each point is a cited answer and a point the document does not state is left out, not invented.

Two kinds of point need no search:

- the **parties** are the names the preamble defines by a quoted term ("Digicorp, Inc. ... (the
  "Company")"), else names by label ("Party A: ..."), else the companies that sign it, read exactly from the
  text (:func:`contract_parties`); no model call, so the first point is shown at once, and left out where the
  text names fewer than two (the reader, asked instead, named them wrong four times in five);
- the **subject** and the **date** are stated where a contract opens (its title, preamble and recitals):
  both are read from the same opening passages, so the second read reuses the reader's cache of the
  passages (the prompt starts with them) and costs little more than its question.

The rest (term, governing law, payment; ``in detail`` also termination, renewal and the cap on
liability) are each asked through the full question-answering path.

A report is summarised the same way (:data:`KIND_POINTS`, the kind from :func:`summary_kind`): by its purpose
(read from its opening), findings and recommendations. Kinds whose points were measured and lost to the
central-passage summary (patents, papers, earnings calls, e-mails) keep it.

:mod:`assistant.ttrag.pipeline` runs the reads (``_kind_summary``); this module holds what is asked, the parties
and the rendering.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from assistant.records import Chunk, Document
from assistant.text.dates import states_a_date as states_a_date  # a point's ``date`` form
from assistant.text.durations import DurationSpan, durations_in
from assistant.text.places import names_a_jurisdiction
from assistant.ttrag.aliases import DEFINITION_LEAD
from assistant.ttrag.compute.draft_points import is_whole, whole_fragment
from assistant.ttrag.compute.summarize.central import central_sentences
from assistant.ttrag.compute.summarize.sidematter import side_spans
from assistant.ttrag.compute.summarize.structure import Kind, document_kind, headings
from assistant.ttrag.compute.summarize.titles import conversations
from assistant.ttrag.context import Context, chunk_at
from assistant.ttrag.generate import strip_markers

Where = Literal["preamble", "opening", "search"]


@dataclass(frozen=True)
class PointQuestion:
    """One point of a kind's summary: its ``label`` ("Governing law"), the ``question`` asked, ``where`` the answer
    is read (``preamble``: the parties the text names, :func:`contract_parties`, no model call and none asked of the
    reader; ``opening``: the opening passages only; ``search``: the whole question-answering path), whether it is in
    the ``gist`` (a new mail's one line), whether only ``in detail`` asks it, the ``check`` a found point's cited
    sentence is read against (:mod:`~assistant.ttrag.compute.summarize.pointcheck`; '' none), the ``form`` its
    sentence must have (``date``: it states a date, :func:`assistant.text.dates.states_a_date`; ``jurisdiction``: it
    names a country or state, :func:`assistant.text.places.names_a_jurisdiction`; '' any) and, for a searched point,
    the text its passages are ``search``-ed with instead of the question: the clause as the document words it
    (HyDE's idea, Gao et al. 2022, "Precise Zero-Shot Dense Retrieval without Relevance Labels", written once
    instead of generated per ask; '' the question). ``found_p``: a searched point whose read gave a lower P(found)
    (the reader's probability that the passages answer) is left out (0: the ask's own decision alone; a backend that
    reports no probability: no bar). ``other_clause`` matches a cited sentence that belongs to another clause than
    the point's, whatever the reader made of it (the term's :data:`AFTER_THE_END`): the point is left out.
    ``not_asked_by`` matches a person's question that is not for this point however close it is to the point's
    question (the term's :data:`ASKED_AFTER_THE_END`; :func:`assistant.ttrag.opening_route.search_of`).
    ``not_a_notice``: a point whose every duration the cited sentence gives as a notice period is left out
    (:func:`notice_only`)."""

    label: str
    question: str
    where: Where
    gist: bool = False
    detail_only: bool = False
    check: str = ""
    form: Literal["", "date", "jurisdiction"] = ""
    search: str = ""
    found_p: float = 0.0
    other_clause: re.Pattern[str] | None = None
    not_asked_by: re.Pattern[str] | None = None
    not_a_notice: bool = False


#: The Term point searches for its clause as contracts word it: the question's "last" and "expire" are not the
#: clause's words ("The duration of this Venture (the "Term") will begin on March 1, 2020 and continue in full
#: force and effect until ..."), and "expiration" is the word of every survival clause. Of 35 CUAD dev contracts
#: whose term the lawyers labelled, the clause was among the passages read for 19 searched by the question,
#: 30 by this wording (benchmarks/results/point-loss-term-dev-*.md).
TERM_CLAUSE = ("The term of this Agreement shall commence on the Effective Date and shall continue in full force and "
               "effect for a period of years until it expires.")

#: A period that runs after the agreement ends is not its term: a survival clause ("This section will survive for
#: one year after the expiration or termination of this Agreement", "Such obligations will survive the expiration
#: of this Agreement for a period of five (5) years") or a duty kept after it ("nondisclosure shall remain in effect
#: after the termination or expiration of this Agreement"). Of the Term points on every CUAD dev contract, the cited
#: sentence of 5 stated wrong matched it and of none stated right, and no term, renewal or effective date clause
#: the lawyers labelled on the dev half does (0 of 94; benchmarks/results/point-loss-term-dev-survival.md).
AFTER_THE_END = re.compile(r"\bsurviv\w*|\b(?:after|following)\s+(?:the\s+|any\s+|such\s+)?"
                           r"(?:expiration|expiry|termination|end)\b", re.I)
#: A question for such a period is not a question for the term either ("How long do the confidentiality
#: obligations survive after the agreement ends?", "How long after the contract ends do we still have to keep
#: things confidential?": the embedder puts both nearest the Term's question).
ASKED_AFTER_THE_END = re.compile(AFTER_THE_END.pattern + r"|\b(?:after|following|once)\s+(?:the\s+|this\s+)?"
                                 r"(?:agreement|contract)\s+(?:ends|expires|terminates|is\s+(?:over|terminated)|"
                                 r"has\s+(?:ended|expired))\b", re.I)

# a duration that is a notice period: "sixty (60) days written notice", "30 days' prior notice", "notice of at least
# ninety (90) days", "a notice period of three months"
_NOTICE_AFTER = re.compile(r"^[\s'\u2019]*(?:s[\s'\u2019]+)?(?:(?:prior|advance|advanced|written|express)\s+){0,3}"
                           r"notice\b", re.I)
_NOTICE_BEFORE = re.compile(r"\bnotice\s+(?:period\s+)?(?:of\s+)?(?:at\s+least\s+|not\s+less\s+than\s+|"
                            r"no\s+less\s+than\s+|a\s+minimum\s+of\s+)?$", re.I)


def notice_only(sentence: str, cited: str) -> bool:
    """True when ``sentence`` states durations and ``cited`` (the passages it cites) gives each of them only as a
    notice period: "This agreement lasts for 60 days" read from "The Company may terminate this Agreement upon
    sixty (60) days written notice to JHU" (a newcomer's summary of a licence that runs until its last patent
    expires). A duration ``cited`` does not state is not judged here, nor a sentence that states a date (its end
    is there) or gives its durations as notice itself."""
    if states_a_date(sentence):  # "in effect until March 18, 2021, unless terminated upon (30) days written notice"
        return False
    said = [d.duration for d in durations_in(sentence) if not _notice(sentence, d)]  # the ones it gives as a length
    if not said:
        return False
    stated = durations_in(cited)
    for duration in said:
        same = [d for d in stated if d.duration.same(duration)]
        if not same or not all(_notice(cited, d) for d in same):
            return False
    return True


def _notice(text: str, span: DurationSpan) -> bool:
    """Whether ``text`` gives the duration at ``span`` as a notice period."""
    return bool(_NOTICE_AFTER.match(text[span.end:span.end + 40]) or
                _NOTICE_BEFORE.search(text[max(0, span.start - 40):span.start]))


#: The Term is stated only when its read's P(found) is at least this. The reader is surer of a term it read than
#: of one it made up from a cure period, a preamble or a licence's expiry: over the Term point's reads on every CUAD
#: dev contract, in four runs of different searches and question wordings (benchmarks/results/point-loss-term-dev-
#: {before,after,question-term,survival}.json), at 0.95 1 of 68 right points and 29 of 55 wrong ones fell below;
#: at 0.96 10 right ones did. It replaces the term's check read, whose bar (0.3) left out no dev point (P(yes) of
#: every stated term .47-.73): one read fewer. The governing law keeps none: its right points go down to .94, and its
#: form leaves out what a bar would (benchmarks/results/point-loss-term-dev-found.md).
TERM_FOUND_P = 0.95

#: The Subject point's question: what the agreement is for, in words that suggest no kind of deal.
SUBJECT_QUESTION = "What is this agreement about: what does each party provide or do under it?"

#: The points of a contract summary, in the order shown (CUAD clause categories; chosen on CUAD dev
#: contracts, benchmarks/summaries_cuad.py).
CONTRACT_POINTS: tuple[PointQuestion, ...] = (
    PointQuestion("Parties", "Who are the parties to this agreement?", "preamble", gist=True),
    # asked "what does one party supply, license or do for the other?", the reader wrote a licence into 3 of 16 dev
    # contracts that grant none and echoed the question 3 times ("One party supplies, licenses or does for the
    # other"); asked neutrally, 1 and none (benchmarks/results/subject-point-dev.md)
    PointQuestion("Subject", SUBJECT_QUESTION, "opening", gist=True),
    PointQuestion("Date", "What is the date of this agreement?", "opening", form="date"),
    PointQuestion("Term", "How long does this agreement last, and when does it expire?", "search",
                  search=TERM_CLAUSE, found_p=TERM_FOUND_P, other_clause=AFTER_THE_END,
                  not_asked_by=ASKED_AFTER_THE_END, not_a_notice=True),
    PointQuestion("Governing law", "Which law governs this agreement?", "search", form="jurisdiction"),
    PointQuestion("Payment", "What fees or prices does this agreement set, and when are they paid?", "search",
                  detail_only=True),
    PointQuestion("Termination", "How can a party terminate this agreement?", "search", detail_only=True),
    PointQuestion("Renewal", "How is this agreement renewed, and how much notice stops the renewal?", "search",
                  detail_only=True),
    PointQuestion("Liability cap", "Is either party's liability capped, and at what amount?", "search",
                  detail_only=True),
)

#: A report (a government or agency report, a handbook): what its readers' guides ask first, its purpose, what
#: it found and what it recommends (GAO's own highlights page: "Why GAO did this study", "What GAO found",
#: "What GAO recommends").
REPORT_POINTS: tuple[PointQuestion, ...] = (
    PointQuestion("Purpose", "What does this report examine, and why?", "opening", gist=True),
    PointQuestion("Findings", "What are the report's main findings or conclusions?", "search", gist=True),
    PointQuestion("Recommendations", "What does the report recommend, or what options does it set out?", "search",
                  check="Does this sentence state a recommendation, a proposal or an option for action?"),
)

#: The kinds of document whose summary is built from questions (:func:`summary_kind`); any other keeps the
#: central-passage summary. Measured and kept on it (benchmarks/results/summaries-real-dev-points*.md): a patent
#: (asked what the invention provides, what problem it solves and how it works, seven dev patents' points had
#: 1.14x the lead's ROUGE-1 recall, the central passages 1.35x) and a paper (asked its problem, method and result
#: from its abstract, the DPR paper's summary covered 3 of 6 hand-written points, the central one 4) and an
#: earnings call (asked its results and its outlook, most of six real calls got no point at all:
#: benchmarks/results/summaries-calls.md) and an e-mail (asked what it is about, what it asks and by when, ten
#: real messages' points took 21 s p50 against 14.6 s and some were wrong, "by 4:30 PM" for a party's start:
#: benchmarks/results/summaries-emails.md). A meeting (its decisions and actions) has no summaries written by
#: people here to choose on: it keeps it too.
KIND_POINTS: dict[str, tuple[PointQuestion, ...]] = {
    "contract": CONTRACT_POINTS, "report": REPORT_POINTS,
}

#: Central sentences quoted after a kind's points, as "Key passage" lines (not in a gist): a report's purpose
#: often comes alone (an explanatory report states no findings nor recommendations), so its summary also
#: quotes the sentences most like the report as a whole (:func:`central_quotes`). Chosen on the dev government
#: reports (benchmarks/results/summaries-real-dev-points-quotes.md).
CENTRAL_QUOTES: dict[str, int] = {"report": 2}
QUOTE_LABEL = "Key passage"

# an earnings call's transcript: its opening speaks of the quarter's (or year's) results, earnings or guidance
_CALL = re.compile(r"\b(?:earnings|conference)\s+call\b|\b(?:first|second|third|fourth|1st|2nd|3rd|4th|q[1-4])[\s-]+"
                   r"(?:quarter|fiscal)\b.{0,200}\b(?:results|revenue|earnings)\b", re.I | re.S)

OPENING_CHARS = 2500  # characters of a document's opening read for its subject and date (title, preamble, recitals)
MAX_PARTIES = 4
PREAMBLE_SEARCH = 6000  # characters in which a contract's first definition is looked for
PREAMBLE_CHARS = 3000  # the preamble's length when no recital or first article ends it

# where a contract's preamble ends: its recitals or its first article
_PREAMBLE_END = re.compile(r"\b(?:WHEREAS|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H|RECITALS|Recitals|BACKGROUND|"
                           r"NOW,? THEREFORE|IN CONSIDERATION)\b"
                           r"|\n\s*(?:Section|SECTION|Article|ARTICLE)\s+(?:1|I|One)\b|\n\s*1\.\s")
# a quoted definition: (the "Company"), ("Licensee"), (hereinafter referred to as "Seller"), (herein "Go Call"),
# (hereafter "GINARES"), (herein referred to as "Principal"), in single or curly quotes, "the" inside them
# ("(‘the Manufacturer’)"), an apostrophe in the term ("(“Reed’s”)")
# Or a definition without quotes, as contracts drawn up in Germany and elsewhere in Europe write it: "CREMER OLEO
# GmbH & Co KG, Glockengiesserwall 3, 20095 Hamburg — hereinafter referred to as Cremer — and ...": up to four
# capitalised words after "hereinafter referred to as", "hereinafter called" or "hereafter known as", ended by a
# dash, a bracket, a comma or semicolon, a full stop, the line's end, or "and" / "or". The term is group 1 or 2.
_DEFINITION = re.compile(DEFINITION_LEAD + r"[\"\u201c\u2018'](?:the\s+)?([A-Z][\w .&'\u2019-]{0,40}?)[\"\u201d\u2019']"
                         r"(?=\s*\)|\s*,|\s+and\b|\s+or\b)"
                         r"|\bhere(?:in)?after,?\s+(?:referred\s+to\s+as|called|known\s+as)\s+(?:the\s+)?"
                         r"([A-Z][\w&'\u2019.-]*(?: [A-Z][\w&'\u2019.-]*){0,3})"
                         r"(?=\s*[\u2014\u2013)\],;]|\s+-|\.?[ \t]*\n|\.\s|\.$|\s+and\b|\s+or\b)")


def _term(m: re.Match[str]) -> str:
    """The term a :data:`_DEFINITION` match defines, quoted or not."""
    return m.group(1) or m.group(2)


_LEGAL_FORM = (r"(?:Inc|Incorporated|LLC|L\.L\.C|Ltd|Limited|Co|Corp|Corporation|Company|LP|L\.P|LLP|PLC|S\.A|SA|"
               r"AG|GmbH|B\.V|BV|N\.V|NV|S\.p\.A|SpA|Pty|Pte|AB|Oy|KG|SE|SARL|S\.L|Trust|Bank|University|Association|"
               r"Partnership|Group|Holdings|Funds?)\b\.?")
# "Nanophase", "iBio", "&"; a cover page's "BETWEEN" before a name is not part of it ("... AGREEMENT\nBetween\nCCA
# INDUSTRIES, INC.": the title would run into the name, and a run holding "Agreement" names no party)
_WORD = (r"(?:\b(?!(?:BETWEEN|Between|AMONG|Among)\b)(?:[A-Z][\w&.'\u2019-]*|[a-z]{1,2}[A-Z][\w&.'\u2019-]*)|&)")
# a run of capitalised words ("and", "of" between them), with a legal form after a comma: "Farids & Co. LLC"
_RUN = re.compile(rf"{_WORD}(?:\s+(?:{_WORD}|and|of|de|du|la|von|van|der|for))*(?:,?\s+(?i:{_LEGAL_FORM}))?")
_FORMED = re.compile(rf"\b{_LEGAL_FORM}$", re.I)
_ONLY_FORM = re.compile(rf"^{_LEGAL_FORM}$", re.I)
_CONNECTOR = re.compile(r"\b(?:between|and|by|with|among|amongst)\s*$", re.I)
_COMMA = re.compile(r"(?:^|,)\s*$")
# a name the preamble describes: "Ingram Micro, a corporation organized under the laws of ...", "HOF Village,
# LLC, a Delaware limited liability company"
_DESCRIBED = re.compile(r",?\s+(?:a|an)\s+(?:[\w.-]+\s+){0,4}?(?:corporation|company|partnership|entity|"
                        r"association|bank|trust|organi[sz]ed|incorporated|individual|resident|non-profit)\b", re.I)
# "insured by the Savings Association Insurance Fund", "a Delaware Corporation", "a newly formed Maryland
# corporation" (up to three lower-case words between, none of them a preposition: "a wholly-owned subsidiary of HOF
# Village, LLC" names a party)
_THE = re.compile(r"\b(?:the|an?)\s+(?:(?!(?:of|to|by|for|with|and|or|in|at)\b)[a-z][\w-]*\s+){0,3}$")
_OF = re.compile(r"\b(?:of|at|in)\s+$")  # "an address of 30 Bond Street", "located at", "in New York"
# a definition of the document or its dates, not of a party
_NOT_A_PARTY = re.compile(r"\b(?:agreement|contract|date|part(?:y|ies)|term|territory|products?|services?)\b", re.I)


def has_form(sentence: str, form: str) -> bool:
    """Whether a point's ``sentence`` has the :attr:`PointQuestion.form` its point asks ('' any)."""
    if form == "date":
        return states_a_date(sentence)
    if form == "jurisdiction":
        return names_a_jurisdiction(sentence)
    return True


def summary_kind(doc: Document) -> str:
    """The kind whose points summarise ``doc``: its :func:`~.structure.document_kind`, a meeting whose opening
    speaks of an earnings or conference call or a quarter's results being ``call`` and a file of e-mails on
    more than one subject (Re:/Fwd: aside) ``mailbox`` (no points: the central-passage summary names each
    conversation)."""
    kind = document_kind(doc)
    if kind == "meeting" and _CALL.search(doc.text[:5000]):
        return "call"
    if kind == "email" and len(conversations(doc)) > 1:
        return "mailbox"  # several conversations: no one sender's request; a point per conversation instead
    return kind


def points_for(kind: Kind | str, *, detail: bool = False, gist: bool = False) -> tuple[PointQuestion, ...]:
    """The points a summary of a document of ``kind`` (:func:`summary_kind`) states (empty: the kind has none,
    the central-passage summary stands); ``gist`` the few of a new mail's line, ``detail`` all of them."""
    points = KIND_POINTS.get(kind, ())
    if gist:
        return tuple(p for p in points if p.gist)
    return tuple(p for p in points if detail or not p.detail_only)


@dataclass(frozen=True)
class Party:
    """A party as the preamble introduces it: its ``name``, the ``term`` it is called by and the character
    ``start`` of its name in the document text."""

    name: str
    term: str
    start: int


def preamble_parties(doc: Document) -> list[Party]:
    """The parties ``doc`` introduces where it opens: the quoted definitions before the recitals or the first
    article (:data:`_PREAMBLE_END`), and at most :data:`PREAMBLE_CHARS` after the first definition (an
    e-business agreement with no recitals and its first article "1.0" defined "IBM Agreement for Exchange of
    Confidential Information ("AECI")" 11,000 characters on, and "IBM" was its third party), first :data:`MAX_PARTIES`,
    each name once. The name defined is looked for between the definition before and this one: the first
    capitalised run there that ends in a legal form ("XYBERNAUT CORPORATION, a Virginia corporation having an
    address of ... ("XC")"), else the first of two capitalised words or more after "between", "and", "by"
    or a comma (a person, "Lloyds Register FNMA, acting through ..."). A name the text introduces with a
    lower-case "the" is a body the contract refers to, not a party ("insured by the Savings Association
    Insurance Fund ("SAIF")"); a definition of the agreement itself or of its dates names no party."""
    text = doc.text
    first = _DEFINITION.search(text, 0, PREAMBLE_SEARCH)
    if not first:
        return []
    end = _PREAMBLE_END.search(text, first.start(), first.start() + PREAMBLE_CHARS)
    limit = end.start() if end else first.start() + PREAMBLE_CHARS
    out: list[Party] = []
    previous = max(0, first.start() - 600)
    for m in _DEFINITION.finditer(text, 0, limit):
        lo = max(previous, m.start() - 600)
        window = text[lo:m.start()].replace("|", " ")  # a PDF table's cell marks inside a name
        previous = m.end()
        if _NOT_A_PARTY.search(_term(m)):
            continue
        # a run naming the agreement or its subject is no party ("This Agreement"), unless a legal form ends
        # it ("PreCheck Health Services, Inc.")
        runs = [r for r in _RUN.finditer(window) if not _THE.search(window, max(0, r.start() - 40), r.start())
                and (not _NOT_A_PARTY.search(r.group()) or _FORMED.search(r.group()))]
        formed = [r for r in runs if (_FORMED.search(r.group()) or _FORMED.search(_first_line(r.group())))
                  and not _ONLY_FORM.match(r.group())]
        plain = [r for r in runs if len(re.findall(r"\b[A-Z]", r.group())) <= 8 and
                 not _OF.search(window, max(0, r.start() - 4), r.start())]
        described = [r for r in plain if len(re.findall(r"\b[A-Z]", r.group())) >= 2 and
                     _DESCRIBED.match(window, r.end())]
        after_word = [r for r in plain if _CONNECTOR.search(window, 0, r.start())]  # "and CyberShop, a ..."
        after_comma = [r for r in plain if len(re.findall(r"\b[A-Z]", r.group())) >= 2 and
                       _COMMA.search(window, 0, r.start())]
        candidates = formed or described or after_word or after_comma
        if not candidates:
            continue
        best = candidates[0]
        said = _own_line(window, best)
        if best in formed and not _FORMED.search(best.group()):  # "... HOLDING LIMITED" over its address's "Unit"
            said = _first_line(best.group())
        name = re.sub(r"^(?:And|By|Between|With)\s+", "", re.sub(r"\s+", " ", said).strip(" ,"))
        if any(p.name == name or p.term == _term(m) for p in out):
            continue
        out.append(Party(name, _term(m), lo + best.start()))
        if len(out) >= MAX_PARTIES:
            break
    return out


# a party named by its label, as contracts drawn up in China and elsewhere do: "Party A: JingWei HengTong
# Technology (ShenZhen) Co., Ltd."
_LABELLED = re.compile(r"\bParty\s+([A-D]|One|Two|Three|I{1,3})\s*[:\uff1a]\s*")
# where the parties sign: "IN WITNESS WHEREOF, the parties hereto have caused this Agreement to be executed ..."
WITNESS = re.compile(r"\bIN\s+WITNESS\s+WHEREOF\b", re.I)
SIGNATURE_CHARS = 1500  # characters after "IN WITNESS WHEREOF" in which the signing parties are named
_CAPS_WORD = r"\b[A-Z][A-Z0-9&.'\u2019-]+(?![a-z])"
# a name in capitals, a legal form of any case after it: "SEATTLE SOFTWARE DEVELOPERS, Inc."
_CAPITALS = re.compile(rf"{_CAPS_WORD}(?:,?[ \t]+(?:{_CAPS_WORD}|&))*(?:,?\s+(?i:{_LEGAL_FORM}))?$")


def contract_parties(doc: Document) -> list[Party]:
    """The parties of a contract, read from its text with no model call: the quoted definitions of its preamble
    (:func:`preamble_parties`) with any party a form leaves blank (:func:`blank_parties`), else the parties it
    names by label ("Party A: ..."), else the companies that sign it (:func:`signing_parties`); the first of
    these that names two or more (empty: none does)."""
    named = preamble_parties(doc)
    if named and len(named) < 2:
        named = sorted([*named, *blank_parties(doc)], key=lambda p: p.start)[:MAX_PARTIES]
    for parties in (named, labelled_parties(doc), signing_parties(doc)):
        if len(parties) >= 2:
            return parties
    return []


# a party a form leaves blank: "and _________________ (hereinafter referred to as the "Professional")"
_BLANK_PARTY = re.compile(r"_{3,}[\s,]*" + DEFINITION_LEAD +
                          r"[\"\u201c\u2018']([A-Z][\w .&'\u2019-]{0,40}?)[\"\u201d\u2019']")


def blank_parties(doc: Document) -> list[Party]:
    """The parties ``doc``'s preamble defines by a term with their name left blank (a form: "and ________
    (hereinafter referred to as the "Professional")"), each with an empty ``name``; within
    :data:`PREAMBLE_SEARCH` characters and before the recitals."""
    end = _PREAMBLE_END.search(doc.text, 0, PREAMBLE_SEARCH)
    return [Party("", m.group(1), m.start()) for m in _BLANK_PARTY.finditer(doc.text, 0, end.start() if end else
                                                                             PREAMBLE_SEARCH)
            if not _NOT_A_PARTY.search(m.group(1))]


def labelled_parties(doc: Document) -> list[Party]:
    """The parties ``doc`` names by label where it opens ("Party A: Xi'an Zhonghong New Energy Technology Co.,
    Ltd."; within :data:`PREAMBLE_SEARCH`), each label once, its term the label ("Party A"). The name runs to
    the last legal form of the label's line ("Party A: JingWei HengTong Technology (ShenZhen) Co., Ltd. (...)")."""
    out: list[Party] = []
    for m in _LABELLED.finditer(doc.text, 0, PREAMBLE_SEARCH):
        term = f"Party {m.group(1)}"
        line = doc.text[m.end():m.end() + 150].split("\n")[0]
        forms = [f for f in re.finditer(rf"\b{_LEGAL_FORM}(?=\s|\(|,|;|$)", line, re.I)
                 if not re.search(r"[:;]", line[:f.start()])]
        name = re.sub(r"\s+", " ", line[:forms[-1].end()]).strip(" ,") if forms else ""
        if re.match(r"[A-Z]", name) and not _ONLY_FORM.match(name) and \
                all(p.term != term and p.name != name for p in out):
            out.append(Party(name, term, m.end()))
    return out[:MAX_PARTIES]


def signing_parties(doc: Document) -> list[Party]:
    """The companies that sign ``doc``: the names a legal form ends (:data:`_LEGAL_FORM`) in the signature block
    after its last "IN WITNESS WHEREOF" (at most :data:`SIGNATURE_CHARS`, up to a schedule or exhibit that
    follows), each once, in order, with no term; empty when more than :data:`MAX_PARTIES` sign or signature lines
    go on past what is read (a part of the list is not "the parties"). A name is read from its own line ("By:
    PPD GP, LLC" signs for a party, a title on the line before is no part of it) or from its table column (a
    two-column block "SEATTLE SOFTWARE | PELICAN DELIVERS INC." over "DEVELOPERS, Inc. | By: ..."); a page's
    running header or footer is not a name (:func:`~.sidematter.side_spans`)."""
    starts = [m.end() for m in WITNESS.finditer(doc.text)]
    if not starts:
        return []
    start = starts[-1]
    window = doc.text[start:start + SIGNATURE_CHARS]
    end = _AFTER_SIGNATURES.search(window)
    if end is None and _SIGNING.search(doc.text, start + SIGNATURE_CHARS, start + SIGNATURE_CHARS + 500):
        return []  # the block runs on past what is read: some who sign would be missed
    furniture = side_spans(doc)
    lines = []
    pos = start
    for raw in window[:end.start() if end else len(window)].splitlines(keepends=True):
        if not any(a <= pos < b for a, b in furniture):
            lines.append(raw.strip())
        pos += len(raw)
    out: list[Party] = []
    for block in _columns(lines):
        for m in _RUN.finditer(block):
            if _SIGNS_FOR.search(block, max(0, m.start() - 12), m.start()):
                continue
            name = _formed_name(_name_lines(m.group()))
            if name is None or _THE.search(block, max(0, m.start() - 5), m.start()) or \
                    any(_fold_name(p.name) == _fold_name(name) for p in out):
                continue
            at = doc.text.find(name.split()[0], start)
            out.append(Party(name, "", at if at >= 0 else start))
    return out if len(out) <= MAX_PARTIES else []


# where a signature block ends: a schedule, exhibit or annex after it
_AFTER_SIGNATURES = re.compile(r"^\s*(?:SCHEDULE|EXHIBIT|APPENDIX|ANNEX|ATTACHMENT|Schedule|Exhibit|Appendix|Annex|"
                               r"Attachment)\b", re.M)
# a signature line
_SIGNING = re.compile(r"\bBy\s*:|/s/|\bon behalf of\b", re.I)
# one who signs for a party, not a party: "By: PPD GP, LLC", "Its: General Partner"
_SIGNS_FOR = re.compile(r"\b(?:By|Its|Name|Title)\s*:?\s*$")


def _columns(lines: Sequence[str]) -> list[str]:
    """The text of a signature block's ``lines`` with a table's columns read one after the other: consecutive
    lines of as many ``|``-separated cells are read column by column ("A1 | B1", "A2 | B2" -> "A1 A2", "B1
    B2"); a line outside a table is a block of its own."""
    blocks: list[str] = []
    rows: list[list[str]] = []
    for line in [*lines, ""]:
        cells = [c.strip() for c in line.split("|")]
        if rows and len(cells) != len(rows[0]):
            blocks.extend("\n".join(r[i] for r in rows) for i in range(len(rows[0])))
            rows = []
        if len(cells) > 1:
            rows.append(cells)
        elif line:
            blocks.append(line)
    return blocks


def _name_lines(run: str) -> str:
    """A run of capitalised words that spans lines, from the line the name starts on: lines before the last
    are kept while they are in capitals ("SEATTLE SOFTWARE" over "DEVELOPERS, Inc."), not a title's ("Sr.
    Vice President" over "PPD Development, LP")."""
    lines = run.split("\n")
    first = len(lines) - 1
    while first > 0 and _CAPITALS.fullmatch(lines[first - 1].strip()):
        first -= 1
    return " ".join(lines[first:])


def _formed_name(text: str) -> str | None:
    """The company name ``text`` starts with, up to its last legal form (:data:`_LEGAL_FORM`): "PELICAN
    DELIVERS INC. By: /s/ Dave" -> "PELICAN DELIVERS INC."; its capitals alone where a mixed-case label leads
    ("Developer SEATTLE SOFTWARE DEVELOPERS, Inc." -> "SEATTLE SOFTWARE DEVELOPERS, Inc."); None where no
    legal form ends a capitalised run there, or the run is the form alone."""
    run = _RUN.match(text.strip())
    if run is None:
        return None
    forms = list(re.finditer(rf"\b{_LEGAL_FORM}", run.group(), re.I))
    if not forms:
        return None
    name = run.group()[:forms[-1].end()].strip(" ,")
    caps = _CAPITALS.search(name)
    if caps is not None and caps.start() > 0 and len(caps.group().split()) >= 2:
        name = name[caps.start():]
    return None if _ONLY_FORM.match(name) else re.sub(r"\s+", " ", name)


def _fold_name(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _first_line(text: str) -> str:
    """``text``'s first line, less a trailing comma."""
    return text.split("\n")[0].rstrip(" ,")


def _own_line(window: str, run: re.Match[str]) -> str:
    """``run``'s text, less a cover page's field value it ran on from the line before ("Term: 1 Year" then
    "Ingram Micro, a corporation ...": the run "Year Ingram Micro" is "Ingram Micro")."""
    text = run.group()
    if "\n" not in text.rstrip():
        return text
    line_start = window.rfind("\n", 0, run.start()) + 1
    head, _, rest = text.partition("\n")
    return rest if ":" in window[line_start:run.start()] and rest.strip() else text


def parties_sentence(parties: Sequence[Party]) -> str:
    """'Digicorp, Inc. (the "Company") and Rudolph Productions LLC (the "Content Provider").'; a party left
    blank is named by its term: 'the "Professional" (name left blank)'."""
    names = [f'the "{p.term}" (name left blank)' if not p.name else
             f'{p.name.rstrip(",")} (the "{p.term}")' if p.term else p.name.rstrip(",") for p in parties]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return joined if joined.endswith(".") else joined + "."


def opening_chunks(chunks: Sequence[Chunk], source: str, limit: int = OPENING_CHARS) -> list[Chunk]:
    """The chunks of ``source`` that start within its first ``limit`` characters (at least its first)."""
    own = [c for c in chunks if c.source == source]
    return [c for c in own if c.start < limit] or own[:1]


def without_spans(chunk: Chunk, spans: Sequence[tuple[int, int]]) -> Chunk:
    """``chunk`` with the text of the document's character ``spans`` (sorted; side matter, e.g. running
    headers and footers) taken out of what the reader is shown; its id and offsets unchanged."""
    text, pos = chunk.text, chunk.start
    kept: list[str] = []
    cut = 0
    for a, b in spans:
        if b <= pos or a >= chunk.end:
            continue
        lo, hi = max(a, pos) - chunk.start, min(b, chunk.end) - chunk.start
        kept.append(text[cut:lo])
        cut = hi
    if not kept:
        return chunk
    kept.append(text[cut:])
    return replace(chunk, text=re.sub(r"\n{3,}", "\n\n", "".join(kept)))


def as_read(chunk: Chunk, spans: Sequence[tuple[int, int]]) -> Chunk:
    """``chunk`` as an opening point's read shows it: :func:`without_spans` of the page furniture ``spans``, and
    without its file's name in the passage's header (``source`` ''). A point reads one document, so the name tells
    the reader nothing it needs, and a filed document's name carries the filing's date: "BLUEFLYINC_03_27_2002-
    EX-10.27 ... .pdf" and "PrecheckHealthServicesInc_20200320_8-K ... .pdf" were read as the agreements' dates."""
    return replace(without_spans(chunk, spans), source="")


@dataclass(frozen=True)
class Point:
    """A point stated: its label, the sentence (no markers), the passages that support it, and P(the cited
    sentence states the point's subject) from its check read (None: not checked)."""

    label: str
    sentence: str
    cited: tuple[Chunk, ...]
    check_p: float | None = None


_MARKERS = re.compile(r"\s*(?:\[\d+(?:\s*,\s*\d+)*\])+")


_BLANK = re.compile(r"_{3,}|\[\s*(?:date|name|\u2022|\*+)\s*\]|\bXX+\b", re.I)


def point_sentence(sentence: str) -> str:
    """The reader's sentence as a point: ``[n]`` markers removed, one full stop at the end; '' when it states
    a blank of the form ("signed on ___________", "[date]"): the value is not in the document."""
    if _BLANK.search(sentence):
        return ""
    text = re.sub(r"\s+", " ", _MARKERS.sub("", sentence)).strip()
    return text if text.endswith((".", "!", "?", '."', ".)")) else text.rstrip(" ,;:") + "."


def without_side(doc: Document, side: Sequence[tuple[int, int]]) -> Document:
    """``doc`` with its ``side`` spans (sorted, merged: :func:`~.sidematter.side_spans`) blanked, not cut: the
    offsets of its chunks still hold, and a sentence widened across a page break reads without the page number
    or the running footer."""
    if not side:
        return doc
    pieces, at = [], 0
    for start, end in side:
        pieces += [doc.text[at:start], " " * (end - start)]
        at = end
    return replace(doc, text="".join([*pieces, doc.text[at:]]))


def whole_point_sentence(sentence: str, doc: Document, cited: Sequence[Chunk],
                         side: Sequence[tuple[int, int]] = ()) -> str:
    """:func:`point_sentence` of the reader's ``sentence`` made whole first. (A copy of a clause whose JSON
    string a quoted definition closed, 'related services (', comes as the words before the definition with a
    full stop: :data:`assistant.ttrag.generate._OPEN_PAREN`.) A copy that stops early elsewhere ('... the
    application of the substantive laws of') is the ``cited`` passages' whole sentence of ``doc`` that holds
    it, where one does (:func:`~assistant.ttrag.compute.draft_points.whole_fragment`, the widening a draft's
    points get), read without the ``side`` spans of ``doc`` (its side matter, :func:`~.sidematter.side_spans`:
    a page number or a running footer inside the sentence)."""
    doc = without_side(doc, side)
    copied = strip_markers(sentence)
    if copied and not is_whole(copied):
        copied = whole_fragment(copied, doc, [(c.start, c.end, c.id) for c in cited]) or copied
    return point_sentence(copied)


class Numbering:
    """Source numbers in order of first citation over a whole summary: ``[1]``, ``[2]``, ... (a passage
    cited by two points keeps its number)."""

    def __init__(self) -> None:
        self.chunks: list[Chunk] = []

    def marks(self, cited: Sequence[Chunk]) -> str:
        out = ""
        for c in cited:
            n = next((i for i, k in enumerate(self.chunks, 1) if k.source == c.source and k.id == c.id), 0)
            if not n:
                self.chunks.append(c)
                n = len(self.chunks)
            out += f"[{n}]"
        return out


def render_point(point: Point, numbering: Numbering) -> str:
    """'- Governing law: This Agreement is governed by the laws of the State of New York. [3]'"""
    return f"- {point.label}: {point.sentence} {numbering.marks(point.cited)}".rstrip()


def left_out_line(labels: Sequence[str]) -> str:
    """The line closing a document's points that names those left out: '- Left out: term, governing law (not
    found clearly stated in the passages read; a question about one searches the whole text again)'. A point is
    left out where the text does not state it or the reader was not sure enough of what it read: the line says
    the summary left it out, not that the document lacks it (a newcomer read "Not stated" as the latter)."""
    named = ", ".join(label.lower() for label in labels)
    return (f"- Left out: {named} (not found clearly stated in the passages read; a question about "
            f"{'it' if len(labels) == 1 else 'one'} searches the whole text again)")


def central_quotes(ctx: Context, doc: Document, kind: str, cited: set[tuple[str, int]]) -> list[Point]:
    """The :data:`CENTRAL_QUOTES` sentences of ``kind`` (``doc``'s :func:`summary_kind`) quoted as points: the
    most central sentences
    (:func:`~.central.central_sentences`, side matter left out), each cited by the chunk of ``ctx`` that holds
    it, none from a chunk in ``cited`` (``(source, chunk id)`` pairs the points already cite) nor two from one
    chunk; [] for a kind that quotes none."""
    wanted = CENTRAL_QUOTES.get(kind, 0)
    if not wanted:
        return []
    out: list[Point] = []
    taken = set(cited)
    for start, end in central_sentences(doc, side=side_spans(doc), hs=headings(doc), n=wanted + 6):
        chunk = chunk_at(ctx, doc.source, start)
        sentence = point_sentence(doc.text[start:end])
        if (chunk.source, chunk.id) in taken or not sentence:
            continue
        taken.add((chunk.source, chunk.id))
        out.append(Point(QUOTE_LABEL, sentence, (chunk,)))
        if len(out) == wanted:
            break
    return out
