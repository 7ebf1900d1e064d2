"""A document's structure as a summary reads it: its kind, its title and its headings and top-level
parts."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from assistant.records import Document

Kind = Literal["contract", "report", "paper", "patent", "meeting", "news", "email", "spreadsheet", "document"]


@dataclass(frozen=True)
class Heading:
    """A heading of ``source``: its text, nesting ``level`` (1 = outermost), character ``start`` of its line
    and ``body`` (the character where its text begins) in the document text."""

    title: str
    level: int
    start: int
    body: int


_MD = re.compile(r"^(#{1,6})\s+(.+?)\s*#*$")
_NAMED = re.compile(r"^(?:article|chapter|part|section|schedule|annex|appendix|exhibit|title)\s+[\dIVXLC]+[A-Z]?\b",
                    re.I)
_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+([A-Z][^\n]{1,80})$")
_LETTERED = re.compile(r"^[A-Z]\.\s+[A-Z]")
_KNOWN = re.compile(r"^(abstract|introduction|background|summary|executive summary|conclusions?|results|findings|"
                    r"recommendations|discussion|related work|references|acknowledg\w+|methods?|purpose|scope|"
                    r"recitals|definitions)\s*:?$", re.I)
_MESSAGE = re.compile(r"^From: .+$", re.M)
# an abstract or executive summary, as a heading or as the opening of a passage
ABSTRACT = re.compile(r"^\W*(?:\d+\.?\s+)?(?:abstract|executive summary|summary)\b", re.I)
# the authors' own summary of the whole: a paper's abstract, a report's summary or findings ("What GAO
# Found"), a patent's summary or disclosure of the invention, a meeting's decisions and action items, a
# conclusion
AUTHORS_SUMMARY = re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?\s+)?(?:abstract|executive summary|(?:brief |aspects and )?"
                             r"summary(?: of (?:the )?(?:invention|disclosure|findings|the report))?$|summary:|"
                             r"(?:general )?disclosure of (?:the )?invention|what gao found|key findings|"
                             r"(?:main |principal )?findings|highlights|decisions?(?: taken| made)?|action items?|"
                             r"actions|resolutions?|conclusions?|concluding (?:remarks|observations))\b", re.I)


def heading_level(line: str) -> int:
    """Nesting level of ``line`` as a heading (1 outermost), 0 when it is not one."""
    s = line.strip()
    m = _MD.match(s)
    if m:
        return len(m.group(1))
    if not s or len(s) > 90 or s.endswith((".", ",", ";")) or len(s.split()) > 14:
        return 0
    if re.search(r"(\.{3,}|\s)\s*(page\s*)?[\d-]+$|\D\d+-\d+$", s, re.I) and not (_NAMED.match(s) and
                                                                               not re.search(r"\d+-\d+$", s)):
        return 0  # a table-of-contents line ("Term .... page 11", "A. PURPOSE 1-1")
    if _NAMED.match(s):
        return 2 if s.lower().startswith("section") else 1
    m = _NUMBERED.match(s)
    if m and not re.search(r"\d\s*$", s) and len(m.group(2).split()) <= 10:
        return 1 + m.group(1).count(".")
    if _KNOWN.match(s):
        return 1
    letters = [ch for ch in s if ch.isalpha()]
    if len(letters) >= 4 and all(ch.isupper() for ch in letters):
        return 2 if _LETTERED.match(s) else 1
    return 0


def headings(doc: Document) -> list[Heading]:
    """The headings of ``doc`` in order: Markdown ``#`` lines, "Article/Chapter/Part/Schedule N" lines,
    numbered ("3", "3.1") and lettered titles, all-capitals lines and the usual section names of papers
    (Abstract, Introduction, Conclusion). Table-of-contents lines (ending in a page number) are not.

    Text extracted without markup marks its headings by layout alone: a short line standing between blank
    lines before a paragraph of running text ("\tBackground and History", "\t\tHow are FMAGs Requested?").
    Those count too (nested by their leading tabs) in a text that indents such lines or has fewer than 3
    headings of the other kinds, and never in a Markdown text."""
    lines = doc.text.splitlines(keepends=True)
    out: list[Heading] = []
    spaced: list[Heading] = []
    pos = 0
    for i, line in enumerate(lines):
        level = heading_level(line)
        if level:
            title = _MD.sub(r"\2", line.strip()).strip("*# \t")
            out.append(Heading(title=re.sub(r"\s+", " ", title), level=level, start=pos, body=pos + len(line)))
        elif _spaced(lines, i):
            tabs = len(line) - len(line.lstrip("\t"))
            spaced.append(Heading(title=re.sub(r"\s+", " ", line.strip()), level=max(1, tabs), start=pos,
                                  body=pos + len(line)))
        pos += len(line)
    markdown = any(_MD.match(ln.strip()) for ln in lines[:2000])
    indented = any(ln.startswith("\t") for ln in (doc.text[h.start:h.body] for h in spaced))
    if spaced and not markdown and (indented or len(out) < 3):
        if indented:  # the tabs give every heading's level, the ones the rules found too ("\tIntroduction")
            out = [Heading(h.title, max(1, len(t) - len(t.lstrip("\t"))), h.start, h.body)
                   for h, t in ((h, doc.text[h.start:h.body]) for h in out)]
        out = sorted(out + spaced, key=lambda h: h.start)
    return out


def _spaced(lines: Sequence[str], i: int) -> bool:
    """Whether ``lines[i]`` is a heading by layout alone: at most 12 words and 90 characters, opening with a
    capital or a digit, not ending like a sentence, between blank lines, before a line of 12+ words."""
    s = lines[i].strip()
    if not s or len(s) > 90 or len(s.split()) > 12 or not (s[0].isupper() or s[0].isdigit()) or \
            s.endswith((".", ",", ";", ":", '"', "'")) or (i > 0 and lines[i - 1].strip()):
        return False
    if i + 1 >= len(lines) or lines[i + 1].strip():
        return False
    nxt = next((ln for ln in lines[i + 2:i + 6] if ln.strip()), "")
    return len(nxt.split()) >= 12


def section_end(hs: Sequence[Heading], i: int, default: int) -> int:
    """Where the section of heading ``hs[i]`` ends: the next heading of its level or above."""
    return next((g.start for g in hs[i + 1:] if g.level <= hs[i].level), default)


def _has_prose(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (its first 1,500 characters) holds a line of running text (8+ words),
    which an outline's entries never are."""
    return any(len(line.split()) >= 8 and heading_level(line) == 0 for line in text[start:min(end, start + 1500)]
               .splitlines())


def top_level(hs: Sequence[Heading], doc_text: str) -> list[Heading]:
    """The headings of the document's top-level parts: the outermost level that occurs at least 3 times
    (a title heading used once is not a part), each with some text of its own before the next heading of
    its level or above (a heading with none is a table-of-contents entry): see :func:`_has_prose`."""
    counts = Counter(h.level for h in hs)
    levels = sorted(level for level, n in counts.items() if n >= 3)
    if not levels:
        return []
    level = levels[0]
    named = [h for h in hs if _NAMED.match(h.title) and not h.title.lower().startswith("section")]
    if len(named) >= 3:  # "Article 1".."Article 33", "CHAPTER 1".."CHAPTER 9": the parts, whatever the markup
        level = min(h.level for h in named)
    picked: dict[str, Heading] = {}
    for i, h in enumerate(hs):
        if h.level != level or (len(named) >= 3 and not _NAMED.match(h.title)):
            continue
        # a named part ("CHAPTER 5") runs to the next named part, not to its own "1. DUTY" of the same level
        nxt = next((g for g in hs[i + 1:] if g.level <= level and (len(named) < 3 or _NAMED.match(g.title))), None)
        end = nxt.start if nxt else h.body + 10_000
        m = _NAMED.match(h.title) if len(named) >= 3 else None  # "CHAPTER 5" and "CHAPTER 5 - BUDGETS": one part
        key = re.sub(r"\W+", " ", m.group(0) if m else h.title).strip().lower()
        # the same title twice (an outline, then the body, or a document repeated): the first that opens
        # running text, not the table of contents' lines under an outline's entry ("1. DUTY5-1")
        if key not in picked and _has_prose(doc_text, h.body, end) and \
                not is_outline(doc_text[h.body:min(end, h.body + 400)]):
            picked[key] = h
    return sorted(picked.values(), key=lambda h: h.start)


_PATENT = re.compile(r"^\W*(?:(?:brief )?(?:field|background|summary|description|disclosure) of (?:the )?(?:invention|"
                     r"disclosure)|technical field|background art|cross[- ]references? to related applications?|"
                     r"detailed description\b)", re.I | re.M)
_ABSTRACT_LINE = re.compile(r"^\W*(?:abstract)\b", re.I | re.M)
_PAPER_PART = re.compile(r"^\W*(?:\d+\.?\s+)?(?:references|bibliography|related work|introduction)\s*:?\s*$",
                         re.I | re.M)
# a line opening with who speaks ("Marketing: ...", "Project Manager: ...", "JOHN SMITH:") or a transcript's tag
_SPEAKER = re.compile(r"^[ \t]*([A-Z][\w.'-]*(?: [A-Za-z][\w.'-]*){0,3}):[ \t]+\S", re.M)
# or a line of its own naming who speaks next, as call and meeting transcripts are often exported: "Grace Chang
# Speaking.", "Jim Fanucchi - Darrow Associates Speaking.", "Speaker 1  0:03", "Jane Doe (00:01:12)"
SPEAKER_LINE = re.compile(r"^[ \t]*([A-Z][\w.'\u2019-]*(?: [A-Z0-9][\w.'\u2019-]*){0,3})"
                          r"(?:[ \t]+[-\u2013\u2014]{1,2}[ \t]+[^\n]{2,60}?)?"
                          r"(?:[ \t]+Speaking\.?|[ \t]+[(\[]\d{1,2}:\d{2}(?::\d{2})?[)\]]|(?:[ \t]{2,}|\t)\d{1,2}:\d{2}"
                          r"(?::\d{2})?)[ \t]*$", re.M)
TRANSCRIPT_TAG = re.compile(r"\{[a-z_]+\}|\[(?:laughter|laughs|inaudible|crosstalk|pause|noise|applause|music|"
                            r"silence|unintelligible)\]", re.I)
_MINUTES = re.compile(r"\bminutes\b|\bmeeting\b", re.I)
_MINUTES_BODY = re.compile(r"\b(?:present|attendees|absent|agenda|motion|seconded|carried|adjourn\w*|quorum|"
                           r"action items?)\b", re.I)
# "LONDON (Reuters) -", "WASHINGTON, May 3 (AP) —": a news story's dateline; "By Jane Doe": its byline
_DATELINE = re.compile(r"^[A-Z][A-Za-z .,'-]{2,40}(?:\([A-Za-z .]{2,20}\))?\s*[-\u2013\u2014]{1,2}\s|"
                       r"\((?:Reuters|AP|AFP|CNN|BBC)\)", re.M)
_BYLINE = re.compile(r"^\s*By [A-Z][a-z]+(?: [A-Z][a-z.]+){1,3}\s*(?:,.*)?$", re.M)


def speakers(text: str) -> Counter[str]:
    """The labels that open lines of ``text`` ("Marketing: ...", "Project Manager: ...") or stand on a line of
    their own before a turn (:data:`SPEAKER_LINE`: "Grace Chang Speaking."), each with how many turns it opens."""
    found = [m.group(1) for m in _SPEAKER.finditer(text)] + [m.group(1) for m in SPEAKER_LINE.finditer(text)]
    return Counter(w for w in found if w.lower() not in _NOT_SPEAKERS)


def announced_turns(text: str) -> bool:
    """Whether ``text`` announces its speakers' turns on lines of their own (:data:`SPEAKER_LINE`), two
    speakers or more: a call's or a talk's transcript, whose prepared remarks are long turns, each speaker
    perhaps once in its first pages."""
    return len({m.group(1) for m in SPEAKER_LINE.finditer(text)}) >= 2


def is_transcript(text: str) -> bool:
    """Whether ``text`` reads as a transcript: turns announced on lines of their own by 2 speakers or more
    (:data:`SPEAKER_LINE`), or a third of its lines (5 at least) open with a speaker's label, two labels or
    more, one of them recurring (a list of defined terms names each once), or it carries 3 transcript tags
    (``{vocalsound}``, ``[laughter]``)."""
    if announced_turns(text):
        return True
    lines = sum(1 for ln in text.splitlines() if ln.strip())
    who = speakers(text)
    turns = sum(who.values())
    recurring = len(who) >= 2 and who.most_common(1)[0][1] >= 2
    return turns >= max(5, lines // 3) and recurring or len(TRANSCRIPT_TAG.findall(text)) >= 3


_NOT_SPEAKERS = {"note", "notes", "subject", "from", "to", "date", "cc", "re", "fig", "figure", "table", "example",
                 "step", "answer", "question", "warning", "source", "tel", "phone", "email", "fax", "http", "https",
                 "by", "name", "title", "dated", "signature", "attn", "attention", "address", "its"}


def document_kind(doc: Document) -> Kind:
    """The kind of document, from the file name and its first pages' structure: ``spreadsheet`` (its
    suffix), ``email`` (messages), ``meeting`` (a transcript whose lines open with who speaks, or announce
    who speaks next on lines of their own, or carry transcript tags; or minutes), ``patent`` (its sections:
    field, background, summary of the invention), ``contract`` (an agreement named at its head between
    parties), ``paper`` (an abstract, and an introduction or references), ``news`` (a dateline or a
    byline), ``report`` (headings with an introduction, findings or summary) or ``document``."""
    name = doc.source.lower()
    head = doc.text[:6000]
    low = head.lower()
    if name.endswith((".xlsx", ".xls", ".xlsm", ".ods", ".csv", ".tsv")):
        return "spreadsheet"
    if name.endswith((".eml", ".mbox", ".msg")) or len(_MESSAGE.findall(doc.text[:20000])) >= 1 and \
            doc.text.lstrip().startswith("From:"):
        return "email"
    minutes = _MINUTES.search(low[:300]) and len({m.group(0).lower() for m in _MINUTES_BODY.finditer(low)}) >= 2
    if is_transcript(head) or minutes:
        return "meeting"
    if len({m.group(0).strip().lower() for m in _PATENT.finditer(doc.text[:40000])}) >= 2:
        return "patent"
    if re.search(r"\b(agreement|contract)\b", low[:1500]) and re.search(r"\bbetween\b|\bparties\b", low):
        return "contract"
    if _ABSTRACT_LINE.search(head) and _PAPER_PART.search(doc.text):
        return "paper"
    if _DATELINE.search(head[:600]) or _BYLINE.search(head[:600]):
        return "news"
    if re.search(r"\babstract\b|\bintroduction\b|\bfindings\b|\bpurpose\b|\breport\b|\bhandbook\b|\bsummary\b|"
                 r"\bbackground\b", low):
        return "report"
    return "document"


def message_starts(doc: Document) -> list[int]:
    """Start offsets of the messages of an email file or thread (lines "From: ...")."""
    return [m.start() for m in _MESSAGE.finditer(doc.text)] or [0]


_TOC_LINE = re.compile(r"(\.{3,}|\s)\s*(page\s*)?[\dIVXivx-]+\s*$|\D\d+-\d+\s*$", re.I)


def is_outline(text: str) -> bool:
    """Whether ``text`` is mostly table-of-contents lines ("Termination .... page 105")."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return bool(lines) and sum(bool(_TOC_LINE.search(ln)) for ln in lines) * 2 > len(lines)
