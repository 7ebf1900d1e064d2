"""A document's structure as a summary reads it: its kind, its title and its headings and top-level
parts."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from assistant.records import Document
from assistant.text.subjects import base_subject

Kind = Literal["contract", "report", "email", "spreadsheet", "document"]


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
    (Abstract, Introduction, Conclusion). Table-of-contents lines (ending in a page number) are not."""
    out: list[Heading] = []
    pos = 0
    for line in doc.text.splitlines(keepends=True):
        level = heading_level(line)
        if level:
            title = _MD.sub(r"\2", line.strip()).strip("*# \t")
            out.append(Heading(title=re.sub(r"\s+", " ", title), level=level, start=pos, body=pos + len(line)))
        pos += len(line)
    return out


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


def document_kind(doc: Document) -> Kind:
    """``contract``, ``report`` (also papers and handbooks), ``email``, ``spreadsheet`` or ``document``,
    from the file name and the first pages' words."""
    name = doc.source.lower()
    head = doc.text[:6000].lower()
    if name.endswith((".xlsx", ".xls", ".xlsm", ".ods", ".csv", ".tsv")):
        return "spreadsheet"
    if name.endswith((".eml", ".mbox", ".msg")) or len(_MESSAGE.findall(doc.text[:20000])) >= 1 and \
            doc.text.lstrip().startswith("From:"):
        return "email"
    if re.search(r"\b(agreement|contract)\b", head) and re.search(r"\bbetween\b|\bparties\b", head):
        return "contract"
    if re.search(r"\babstract\b|\bintroduction\b|\bfindings\b|\bpurpose\b|\breport\b|\bhandbook\b", head):
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


def title_of(doc: Document) -> str:
    """The document's title: the subject of an email's first message (120 characters at most), or for a
    mailbox of several conversations their count and first three subjects; else the first line (without
    Markdown marks, 120 characters at most)."""
    if document_kind(doc) == "email":
        subjects = [re.sub(r"\s+", " ", m.group(1)).strip() for m in re.finditer(r"^Subject:\s*(.+)$", doc.text, re.M)]
        first: dict[str, str] = {}  # conversation (subject without Re:/Fwd:) -> its first subject as written
        for subject in subjects:
            first.setdefault(base_subject(subject), subject)
        if len(first) > 1:  # a mailbox of separate conversations: name them, not the first alone
            named = list(first.values())
            return (f"{len(named)} conversations: " + "; ".join(s[:70] for s in named[:3]) +
                    ("; ..." if len(named) > 3 else ""))
        if subjects:
            return subjects[0][:120]
    line = next((ln.strip() for ln in doc.text.splitlines() if ln.strip()), "")
    return re.sub(r"[#*]+", "", line).strip()[:120]


_CONTENTS = re.compile(r"^(?:table of )?contents\b", re.I)
_CONNECTORS = {"for", "of", "and", "on", "to", "the", "between", "with", "in", "under"}


def title_page(doc: Document, *, max_chars: int = 220) -> str:
    """A contract's or report's title page as one line: its lines up to the first labelled one ("Agreement
    number: ..."), the table of contents or the first heading after the title (not one that continues a
    line ending in "for", "of", ...: "Handbook for" / "Chapter 13"), Markdown marks removed ("Master Supply
    and Services Agreement between Norhaven Medical Devices GmbH (the "Buyer") and Calder Precision Components Ltd. (the
    "Supplier")"); the title alone when that is longer than ``max_chars``."""
    words: list[str] = []
    for i, line in enumerate(ln.strip() for ln in doc.text.splitlines()):
        if not line:
            continue
        if _CONTENTS.match(line):
            break
        continued = bool(words) and words[-1].rsplit(" ", 1)[-1].lower() in _CONNECTORS  # "Handbook for" / "Chapter 13"
        if words and (":" in line or _MD.match(line) or heading_level(line) and i > 0 and not continued):
            break
        words.append(re.sub(r"[#*]+", "", line).strip())
    line = re.sub(r"\s+", " ", " ".join(words)).strip()
    return line if 0 < len(line) <= max_chars else title_of(doc)
