"""Side matter a summary leaves out: advertising, navigation and sharing lines, lines repeated on many pages
(running headers, footers), transcript noise (a turn that is only ``{vocalsound}`` or "Um, okay."), legal
boilerplate sentences wherever they stand (a forward-looking statements notice, an e-mail's confidentiality
footer) and a call's logistics (being recorded, listen-only mode, the replay), the sections nobody
summarizes (references, related applications, acknowledgements, contents, the list of drawings) and, under
any heading, a list of sources (a bibliography's entries, links)."""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence

from assistant.documents.chunk import sentence_spans
from assistant.records import Document
from assistant.ttrag.compute.summarize.structure import (
    SPEAKER_LINE,
    TRANSCRIPT_TAG,
    Heading,
    document_kind,
    is_transcript,
    section_end,
)

# a line that advertises, navigates, asks to share or subscribe, or states the publisher's rights
_PROMO = re.compile(r"^\W*(?:advertisement\b|advertising\b|sponsored(?: content| by)?\b|paid (?:content|post)\b|"
                    r"subscribe\b|sign up\b|newsletter\b|log ?in\b|sign in\b|we use cookies|cookie (?:policy|settings|"
                    r"preferences)|read more\b|related(?: articles| stories| content| coverage)?\s*:?$|"
                    r"recommended (?:for you|articles|stories|reading)|"
                    r"more from\b|share (?:this|on|via)\b|follow us\b|click here\b|skip to\b|back to top\b|"
                    r"all rights reserved|copyright\b|\u00a9|download (?:our|the) app|buy now\b|shop now\b|"
                    r"order now\b|limited time\b|free shipping\b|\d+% off\b|home\s*[|>\u203a\u00bb/])", re.I)
# a paragraph that sells: prices, offers and calls to act together
_OFFER = re.compile(r"\b(?:buy|order|shop|subscribe|offer|discount|sale|coupon|deal|free trial|visit|call now|"
                    r"limited time|only \$|\$\d+(?:\.\d\d)?|% off|www\.|https?://)", re.I)
# a patent's or filing's priority claim: "This application is a continuation of U.S. Ser. No. ..."
_PRIORITY = re.compile(r"^\W*(?:\[\d+\]\s*)?this (?:application|patent)s? (?:is a (?:continuation|divisional)|"
                       r"claims? (?:the )?(?:priority|benefit)|relates to and claims|incorporates by reference)", re.I)
_SIDE_SECTION = re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?\s+)?(?:references?|bibliography|works cited|acknowledge?ments?|"
                           r"cross[- ]references? to related (?:patent )?applications?|related applications?|"
                           r"statement regarding federally sponsored\b|reference to (?:a )?(?:microfiche|sequence)|"
                           r"sequence listing|(?:table of )?contents|brief description of (?:the )?drawings?|"
                           r"description of (?:the )?(?:figures|drawings)|list of (?:figures|tables)|"
                           r"about the authors?|disclaimer|notes|endnotes|footnotes|figure for publication|"
                           r"incorporation by reference)\b", re.I)
# a sentence of legal boilerplate: the safe-harbor notice of a call or a press release (Private Securities
# Litigation Reform Act of 1995), an e-mail's confidentiality footer, a filed exhibit's notice that parts were
# left out (SEC Rule 24b-2 confidential treatment, Regulation S-K Item 601(b)(10)(iv) redactions); or of a call's
# logistics
_BOILERPLATE = re.compile(
    r"\bconfidential treatment\b|\b(?:omitted|redacted|excluded) (?:and filed )?(?:separately|from this exhibit)\b|"
    r"\b(?:portions|information) (?:denoted|marked|indicated|identified) (?:with|by)\b|\brule 24b-2\b|"
    r"\blikely cause competitive harm\b|\bindicates? that information has been\b|"
    r"forward[- ]looking (?:statements?|information)|\bsafe harbou?r\b|securities litigation reform act|"
    r"undue reliance|(?:actual|future) results (?:may|could|might|will) differ|"
    r"(?:undertakes?|assumes?|has|have) no (?:obligation|duty) to (?:update|revise)|"
    r"(?:this|the) (?:e-?mail|message|communication|transmission)(?: and any (?:attachments?|files?|documents?))?"
    r"(?: transmitted with it)? (?:is|are|may (?:be|contain)|contains?) (?:strictly )?(?:confidential|privileged|"
    r"intended)|intended (?:only|solely|exclusively) for the (?:use of the )?(?:individual|addressee|recipient|"
    r"named|person|entity)|received this (?:e-?mail|message|communication|transmission) in error|"
    r"if you are not the intended recipient|"
    r"\b(?:unauthori[sz]ed|any) (?:use|review|disclosure|copying|distribution|dissemination)\b[^.]{0,100}\b"
    r"(?:strictly )?(?:prohibited|forbidden)|(?:are|is) subject to (?:a number of |certain |various )?risks,? and "
    r"uncertainties|"
    r"\boperator instructions\b|listen[- ]only mode|\breplay (?:information|of (?:this|the|today's) (?:call|conference|"
    r"webcast))|\b(?:turn|hand)(?:ing)? (?:it|the call|the conference|the meeting|things|the floor) "
    r"(?:back )?over to\b|\b(?:will|is going to|'ll) (?:talk|speak|say|go|walk you|provide|give)\b[^.]{0,50}\b(?:later|"
    r"in a (?:few )?(?:minutes?|moments?)|shortly|in (?:more|greater|further) details?|more details?)\b|"
    r"(?:call|conference|webcast)\b[^.]{0,40}\b(?:is|are|will be) (?:being )?(?:recorded|available for replay)",
    re.I)
# a line that cites a source: an entry of a bibliography or of a list of sources, news articles or hearings
# ('Kime, Patricia. "Lawmakers Act Fast ..." Army Times , May 7, 2013.', "U.S. Congress, ..., 113th Cong., 1st sess.,
# ... (Washington, DC: GPO, 2013).", "... 42 p. http://www.gao.gov/products/GAO-11-579"): a link, or a date with
# the fields of a reference (volume, number, pages, session, a publisher's place) and two commas or more
_LINK = re.compile(r"https?://|www\.", re.I)
_REFERENCE_FIELD = re.compile(
    r"\(\d{4}\)|\b(?:19|20)\d{2}\)?[.,]?\s*$|\bpp?\.\s*\d|\bvol\.\s*\d|\bno\.\s*\d|\bsess\.|\brept\.|"
    r"\b\d+\s*[-\u2013]\s*\d+\.?\s*$|\((?:[A-Z][\w .]+):\s*[^)]*\d{4}\)|\bet al\.|\bretrieved\b|"
    r"\bavailable (?:at|from)\b|\baccessed\b", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
#: words at most of a line that cites a source; a longer one is prose that names its source (a chronology's entry
#: of 63 words ending in a link, among the dev half's government reports)
CITATION_WORDS = 55
CITATION_RUN = 3  # lines that cite a source, at least, among a line and the two non-empty lines each side of it
_GLUED = re.compile(r"(?<=[a-z]{2}[.!?])(?=[A-Z][a-z])")  # "being recorded.I would now": no space after the stop
_FILLER = re.compile(r"\b(?:um+|uh+|hmm+|mm+|ah+|oh|okay|ok|yeah|yes|no|right|so|well|alright|sure|"
                     r"mm-hmm|uh-huh)\b", re.I)
_LABEL = re.compile(r"^[ \t]*[A-Z][\w.'-]*(?: [A-Za-z][\w.'-]*){0,3}:[ \t]*")


def _merged(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1] + 2:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def noise_only(line: str) -> bool:
    """Whether a transcript line says nothing: its speaker label, tags and fillers leave under 3 words
    ("Marketing: {vocalsound}", "Project Manager: Um, okay."), or it only names who speaks next ("Grace Chang
    Speaking.")."""
    if SPEAKER_LINE.match(line):
        return True
    rest = _FILLER.sub(" ", TRANSCRIPT_TAG.sub(" ", _LABEL.sub("", line)))
    return len(re.findall(r"[A-Za-z]{2,}", rest)) < 3


def _unglued_sentences(text: str) -> list[tuple[int, int]]:
    """:func:`~assistant.documents.chunk.sentence_spans` of ``text``, with sentences run together without a
    space after the full stop ("being recorded.I would now", as transcripts and PDF text often have them)
    told apart."""
    out = []
    for s, e in sentence_spans(text):
        cuts = [s, *(s + m.start() for m in _GLUED.finditer(text[s:e])), e]
        out += [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if text[a:b].strip()]
    return out


def is_boilerplate(sentence: str) -> bool:
    """Whether ``sentence`` is legal boilerplate or a call's logistics (:data:`_BOILERPLATE`): side matter
    as a summary's point too ("Brian will speak about this in more detail later.")."""
    return bool(_BOILERPLATE.search(sentence))


def boilerplate_spans(text: str, start: int = 0) -> list[tuple[int, int]]:
    """The spans (offsets from ``start``) of the sentences of ``text`` that are legal boilerplate or a call's
    logistics (:data:`_BOILERPLATE`): "These forward-looking statements include ...", "This e-mail and any
    attachments are confidential ...", "As a reminder, this conference call is being recorded." (sentences
    as :func:`_unglued_sentences` tells them apart)."""
    return [(start + a, start + b) for a, b in _unglued_sentences(text) if is_boilerplate(text[a:b])]


def cites_source(line: str) -> bool:
    """Whether ``line`` (stripped) reads as an entry of a list of sources (:data:`_REFERENCE_FIELD`): at most
    :data:`CITATION_WORDS` words, with a link, or with a year, a reference's field and two commas or more."""
    if len(line) < 20 or len(line.split()) > CITATION_WORDS:
        return False
    return bool(_LINK.search(line)) or (line.count(",") >= 2 and bool(_YEAR.search(line))
                                         and bool(_REFERENCE_FIELD.search(line)))


def source_list_spans(lines: Sequence[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """The spans of ``lines`` ((start, end, stripped text) each) that are entries of a list of sources: lines
    that cite one (:func:`cites_source`) with :data:`CITATION_RUN` or more such lines among it and the two
    non-empty lines on each side (a bibliography under any heading: "Selected Resources", "Related GAO
    Products"; a patent's list of publications); a line that cites a source alone in prose is kept."""
    filled = [(a, b, s) for a, b, s in lines if s]
    cites = [cites_source(s) for _a, _b, s in filled]
    return [(a, b) for i, (a, b, _s) in enumerate(filled)
            if cites[i] and sum(cites[max(0, i - 2):i + 3]) >= CITATION_RUN]


def source_spans(doc: Document, lines: Sequence[tuple[int, int, str]] | None = None) -> list[tuple[int, int]]:
    """:func:`source_list_spans` of ``doc`` (its :func:`text_lines`, or ``lines``); none in a contract, an e-mail,
    a sheet or a transcript: a contract's clause lines sit between its filing's footers ("Source: REED'S, INC.,
    10-Q, 11/13/2019"), which cite a source too, and on CUAD a term clause would have been read as one."""
    if document_kind(doc) in ("contract", "email", "spreadsheet", "meeting"):
        return []
    return source_list_spans(text_lines(doc.text) if lines is None else lines)


def text_lines(text: str) -> list[tuple[int, int, str]]:
    """Each line of ``text`` as (start, end without its line break, stripped text)."""
    lines: list[tuple[int, int, str]] = []
    pos = 0
    for raw in text.splitlines(keepends=True):
        lines.append((pos, pos + len(raw.rstrip("\r\n")), raw.strip()))
        pos += len(raw)
    return lines


def side_spans(doc: Document, hs: Sequence[Heading] = ()) -> list[tuple[int, int]]:
    """The character spans of ``doc.text`` that are side matter, sorted and merged.

    Args:
        doc: the document.
        hs: its headings (:func:`~.structure.headings`): a section whose heading names side matter
            ("REFERENCES", "CROSS-REFERENCE TO RELATED APPLICATIONS") is left out to its end.
    """
    text = doc.text
    spans: list[tuple[int, int]] = []
    lines = text_lines(text)
    repeated = Counter(s for _a, _b, s in lines if 3 <= len(s) and len(s.split()) <= 15)
    transcript = is_transcript(text[:6000])
    advert = 0  # after an "Advertisement" line: 1 until its paragraph starts, 2 within it
    for a, b, s in lines:
        if not s:
            advert = 0 if advert == 2 else advert
            continue
        words = len(s.split())
        promo = words <= 25 and bool(_PROMO.match(s))
        if promo or advert or (repeated[s] >= 3 and words <= 15 and not s.endswith((".", "?", "!"))) or \
                (transcript and noise_only(s)) or len(_OFFER.findall(s)) >= 2 and words <= 60 or _PRIORITY.match(s):
            spans.append((a, b))
        elif is_boilerplate(s):
            spans.extend(boilerplate_spans(text[a:b], a))
        if advert == 1 and not promo:
            advert = 2
        if promo and words <= 3:  # "Advertisement", "Sponsored": the paragraph after it is the advert
            advert = 1
    spans.extend(page_number_spans(lines))
    spans.extend(source_spans(doc, lines))
    for i, h in enumerate(hs):
        if _SIDE_SECTION.match(h.title):
            spans.append((h.start, section_end(hs, i, len(text))))
    return _merged(spans)


# a printed page number on a line of its own: "7", "Page 7", "Page 7 of 12", "- 7 -"
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?(\d{1,3})(?:\s+of\s+\d{1,3})?$|^[-\u2013]\s*(\d{1,3})\s*[-\u2013]$", re.I)
PAGE_NUMBER_GAP = 400  # characters at least between two printed page numbers (a table's column of numbers is closer)


def page_number_spans(lines: Sequence[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """The spans of ``lines`` ((start, end, stripped text) each) that are printed page numbers: lines holding a
    number alone that count up by one, three or more of them, each at least :data:`PAGE_NUMBER_GAP`
    characters after the one before and none beside another number. A filing that prints two pages on each
    PDF page puts "1" in the middle of a sentence ("... for the Trust with respect to the / 1 / Fund and
    ..."), where no running-footer rule finds it: repeated lines are alike, page numbers differ."""
    numbers = [(a, b, m) for a, b, s in lines if (m := _PAGE_NUMBER.match(s))]
    chains: list[list[tuple[int, int, int]]] = []
    for i, (a, b, m) in enumerate(numbers):
        if (i and a - numbers[i - 1][1] < PAGE_NUMBER_GAP // 10) or \
                (i + 1 < len(numbers) and numbers[i + 1][0] - b < PAGE_NUMBER_GAP // 10):
            continue  # a number beside another: a table's column or a list, not a page's number
        n = int(m.group(1) or m.group(2))
        chain = next((c for c in chains if c[-1][2] + 1 == n and a - c[-1][1] >= PAGE_NUMBER_GAP), None)
        if chain is None:
            chains.append([(a, b, n)])
        else:
            chain.append((a, b, n))
    return [(a, b) for c in chains if len(c) >= 3 for a, b, _n in c]


def side_share(spans: Sequence[tuple[int, int]], start: int, end: int) -> float:
    """Share of ``[start, end)`` that lies in the side-matter ``spans`` (sorted, merged)."""
    if end <= start or not spans:
        return 0.0
    i = max(0, bisect.bisect_right(spans, (start, 1 << 62)) - 1)
    covered = 0
    for s, e in spans[i:]:
        if s >= end:
            break
        covered += max(0, min(e, end) - max(s, start))
    return covered / (end - start)
