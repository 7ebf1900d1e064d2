"""A title that names the document: its metadata title, an e-mail's subject, else its title line (the
first line that is neither side matter, a transcript's speaker or tag, a bare section name nor a label),
else its first sentence."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from assistant.documents.chunk import whole_sentence_spans
from assistant.records import Document
from assistant.text.subjects import base_subject
from assistant.ttrag.compute.summarize.sidematter import noise_only, side_share, side_spans
from assistant.ttrag.compute.summarize.structure import (
    _MD,
    TRANSCRIPT_TAG,
    document_kind,
    heading_level,
    headings,
    speakers,
)

MAX_TITLE = 120  # characters of a title line or first sentence shown

# names of sections, not of documents: "1 INTRODUCTION" says nothing of what the paper is
_GENERIC = re.compile(r"^\W*(?:(?:\d+(?:\.\d+)*|[IVX]+|[A-Z])[.)]?\s+)?(?:abstract|introduction|"
                      r"background(?: and history)?|(?:executive )?summary|overview|contents|table of contents|"
                      r"preface|foreword|purpose|scope|"
                      r"methods?|results|discussion|conclusions?|references|appendix|recitals|definitions|"
                      r"technical field|background art|field of the invention|background of the invention|"
                      r"(?:brief )?summary of the invention|(?:detailed )?description(?: of the invention)?|"
                      r"cross[- ]references? to related applications?|figure for publication|minutes|agenda|"
                      r"transcript|untitled|document\d*|page \d+)\W*$", re.I)
_LABEL = re.compile(r"^[A-Za-z][\w -]{0,30}:\s")  # "Date: ...", "Marketing: ...", "Attendees: ..."
_FIELD = re.compile(r"^(?:date|from|to|subject|cc|bcc|re|attendees|present|absent|apologies|time|location|venue|"
                    r"place|authors?|by|tel|phone|e-?mail|fax|page|version|status|chair|minutes taken by)\b.{0,40}?:",
                    re.I)
_BYLINE = re.compile(r"^(?:by\s|posted\b|published\b|updated\b|last (?:updated|modified)\b|photo\b|image\b)", re.I)
_DATE = re.compile(r"^\W*(?:\w+day,?\s+)?(?:\d{1,2}\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\.?\s+"
                   r"\d{1,2}(?:,\s*\d{4})?\W*$|^\W*\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\W*$", re.I)
_META_NOISE = re.compile(r"^(?:microsoft (?:word|powerpoint|excel) - |untitled|document\d*$|slide \d+$)", re.I)


def _clean(line: str) -> str:
    """``line`` without Markdown marks and a patent's paragraph number ("[0002]")."""
    line = re.sub(r"^\[\d{3,5}\]\s*", "", _MD.sub(r"\2", line.strip()))
    return re.sub(r"\s+", " ", line.replace("*", "").replace("#", "")).strip(" -|")


def _cut(text: str, limit: int = MAX_TITLE) -> str:
    """``text`` cut at the last word boundary within ``limit`` characters, marked with an ellipsis."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "\u2026"


def title_line(line: str) -> bool:
    """Whether ``line`` (stripped) can be a document's title: a few words (at most 20), not a section's
    generic name, a field ("Date: ..."), a transcript's tag, a byline, a date or a bare number."""
    words = line.split()
    if not words or len(words) > 20 or len(line) > 160 or line.endswith((",", ";", ":")):
        return False
    if _GENERIC.match(line) or _FIELD.match(line) or _BYLINE.match(line) or _DATE.match(line):
        return False
    if TRANSCRIPT_TAG.search(line) or not re.search(r"[A-Za-z]{3}", line) or _META_NOISE.match(line):
        return False
    return not (len(words) >= 12 and line.endswith("."))  # a sentence, not a title


def _subjects(doc: Document) -> list[str]:
    return [re.sub(r"\s+", " ", m.group(1)).strip() for m in re.finditer(r"^Subject:\s*(.+)$", doc.text, re.M)]


def conversations(doc: Document) -> dict[str, str]:
    """The conversations of an e-mail file: each subject without Re:/Fwd: (:func:`base_subject`) -> its first
    subject as written, in order of first appearance."""
    first: dict[str, str] = {}
    for subject in _subjects(doc):
        first.setdefault(base_subject(subject), subject)
    return first


def _email_title(doc: Document) -> str | None:
    subjects = _subjects(doc)
    first = conversations(doc)
    if len(first) > 1:  # a mailbox of separate conversations: name them, not the first alone
        named = list(first.values())
        return (f"{len(named)} conversations: " + "; ".join(s[:70] for s in named[:3]) +
                ("; ..." if len(named) > 3 else ""))
    return subjects[0][:MAX_TITLE] if subjects else None


def _named_by_metadata(title: str, source: str) -> bool:
    """Whether a metadata title names the document: two words or more, not the file's own name ("fake-memo",
    "zen_of_python.txt"), nor "Untitled" or a section's name."""
    stem = re.sub(r"[\W_]+", " ", source.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]).strip().lower()
    plain = re.sub(r"[\W_]+", " ", title).strip().lower()
    return len(title.split()) >= 2 and plain != stem and not re.search(r"\.\w{2,4}$", title) and \
        not _META_NOISE.match(title) and not _GENERIC.match(title)


def title_of(doc: Document, *, limit: int = MAX_TITLE) -> str:
    """The document's title, in this order: its metadata title (``Document.title``: a PDF's or DOCX's title
    property), an e-mail's subject (for a mailbox of several conversations their count and first three
    subjects), its title line (see :func:`title_line`) among its first lines, else for a transcript the
    speakers, else its first sentence; ``limit`` characters at most (a longer one is cut at a word, with an
    ellipsis)."""
    meta = re.sub(r"^microsoft (?:word|powerpoint|excel) - ", "", _clean(doc.title), flags=re.I)
    if _named_by_metadata(meta, doc.source):
        return _cut(meta, limit)
    kind = document_kind(doc)
    if kind == "email":
        subject = _email_title(doc)
        if subject:
            return subject
    side = side_spans(doc, headings(doc))
    if kind == "contract":
        named = _agreement_title(doc, side)
        if named:
            return _cut(named, limit)
    lines = doc.text[:20000].splitlines(keepends=True)
    pos = 0
    first_prose = -1
    for n, raw in enumerate(lines):
        line = raw.strip()
        at, pos = pos, pos + len(raw)
        if not line or noise_only(line) and (TRANSCRIPT_TAG.search(line) or kind == "meeting"):
            continue
        if side_share(side, at, at + len(raw.rstrip()) or at + 1) >= 0.5:
            if first_prose < 0 and _opening_sentence(doc.text, at, side, at + len(raw)):  # "Thank you for standing
                first_prose = at  # by. Welcome to ... Call." before "this call is being recorded" and the rest
            continue
        if n > 40 or first_prose >= 0:
            break
        clean = _clean(line)
        labelled = _FIELD.match(line) or kind == "meeting" and _LABEL.match(line)
        if title_line(clean) and not labelled:
            nxt = _clean(lines[n + 1]) if n + 1 < len(lines) else ""
            if nxt and len(nxt.split()) <= 8 and not re.search(r"[,\d@]", nxt) and title_line(nxt) and \
                    not clean.endswith((".", "?", "!")):
                clean = f"{clean} {nxt}"  # a title set on two lines ("LayoutParser: A Unified Toolkit for Deep")
            return _cut(clean, limit)
        if len(line.split()) >= 8 and not labelled and not heading_level(line):
            first_prose = at
    opening = _opening_sentence(doc.text, first_prose, side) if first_prose >= 0 else ""
    if kind == "meeting" and not _names_something(opening):  # else the opening names it (a call)
        who = [w for w, _n in speakers(doc.text[:20000]).most_common(4)]
        if who:
            return f"Meeting transcript ({', '.join(who)})"
    if opening:
        return _cut(_clean(opening), limit)
    return _cut(next((_clean(ln) for ln in lines if ln.strip()), ""), limit)


# a line that names an agreement: "SERVICES OUTSOURCING AGREEMENT", "Project Cooperation Agreement"; a filed
# exhibit's label before it is none of its name ("Exhibit 10.1", "EXHIBIT 99.2")
_AGREEMENT = re.compile(r"\b(?:agreement|contract)\b", re.I)
_EXHIBIT_LABEL = re.compile(r"^(?:exhibit|execution\s+copy)\b[\s\w().-]{0,12}?(?=\s+[A-Z]{2}|$)\s*", re.I)
# "COOPERATION AGREEMENT made by and between": the parties follow, not the title
_BETWEEN = re.compile(r"\s+(?:made\s+)?(?:by\s+and\s+)?(?:between|among)\b.*$", re.I)
_CAPS_TITLE = re.compile(r"[A-Z][A-Z&-]+(?: [A-Z][A-Z&-]+){0,3}")  # a title's line in capitals, no digits
_PROSE_START = re.compile(r"^(?:this|the|these|each|any|all|whereas|in|by|if)\b", re.I)
# A filing's text without line breaks runs its title on into the preamble on one line ("Exhibit 10.18 MAINTENANCE
# AGREEMENT MAINTENANCE AGREEMENT (this "Agreement"), dated as of July 23, 2003, made by ..."): the preamble's
# naming of its agreement ('This Recipe Development Agreement (this "Agreement")'), else the first run of words
# in capitals that names one, is its title.
_SELF_NAMED = re.compile(r"\b[Tt][Hh][Ii][Ss]\s+((?:[A-Z][\w&.-]*\s+(?:(?:and|of|for|&)\s+)?){1,8}?"
                         r"(?:Agreement|AGREEMENT|Contract|CONTRACT))\s*,?\s*\(\s*(?:this|the)?\s*"
                         r"[\"\u201c](?:Agreement|Contract)[\"\u201d]")
_CAPS_AGREEMENT = re.compile(r"(?<![\w-])((?:[A-Z][A-Z&-]+\s+|AND\s+|OF\s+|[-&]\s+){0,6}?(?:AGREEMENT|CONTRACT))"
                             r"(?![\w-])(?!\s*:)")
_RUN_ON = 12  # words: a line longer than this that names an agreement runs on into the preamble


def _agreement_title(doc: Document, side: Sequence[tuple[int, int]], lines: int = 40) -> str:
    """A contract's title: the first of its first ``lines`` lines (side matter aside) that names an agreement
    and reads as a title, not a sentence ("This Agreement is made ..."), less a filed exhibit's label before
    it ("Exhibit 10.18 MAINTENANCE AGREEMENT" -> "MAINTENANCE AGREEMENT"); '' when none does. The filing's
    label alone ("Exhibit 10.1") or its notices ("CONFIDENTIAL TREATMENT ...") name no contract."""
    pos = 0
    kept: list[str] = []
    for raw in doc.text[:20000].splitlines(keepends=True):
        at, pos = pos, pos + len(raw)
        line = _clean(raw.strip().replace("|", " "))
        if not line or side_share(side, at, at + len(raw.rstrip()) or at + 1) >= 0.5:
            continue
        if len(kept) >= lines:
            break
        if len(line.split()) > _RUN_ON:
            named = _run_on_title(line)
            if named:
                return named
        line = _BETWEEN.sub("", _EXHIBIT_LABEL.sub("", line)).strip()
        kept.append(line)
        if _AGREEMENT.search(line) and title_line(line) and len(line.split()) <= 12 and \
                not _PROSE_START.match(line) and not line.endswith((".", ")")) and not re.search(r"[\"\u201c]", line):
            if len(line.split()) == 1:  # "AGREEMENT" under "SOFTWARE" / "DEVELOPMENT": a title set on its lines
                above = list(itertools.takewhile(lambda x: bool(_CAPS_TITLE.fullmatch(x)), kept[-2::-1]))[:2]
                line = " ".join([*reversed(above), line])
            return line
    return ""


def _run_on_title(line: str, within: int = 600) -> str:
    """The title of a contract whose title line runs on into its preamble (:data:`_SELF_NAMED`,
    :data:`_CAPS_AGREEMENT`, in its first ``within`` characters, a filing's labels aside); '' when none."""
    head = line[:within]
    named = _SELF_NAMED.search(head)
    if named:
        return " ".join(named.group(1).split())
    for m in _CAPS_AGREEMENT.finditer(head):
        title = re.sub(r"^(?:EXECUTION\s+(?:COPY|VERSION)\s+)", "", " ".join(m.group(1).split()))
        # a notice's words are no title ("... WITH RESPECT TO CERTAIN PORTIONS OF THIS AGREEMENT")
        if title not in ("AGREEMENT", "CONTRACT") and not re.search(r"\b(?:THIS|THE|TO|WITH|THAT)\b", title):
            return title
    return ""


# the words of a greeting: a sentence made of these alone ("Hello.", "Thank you for standing by.", "Good
# morning, ladies and gentlemen.") names no document
_GREETING = frozenset("hello hi hey dear good morning afternoon evening day thank thanks you your for standing by "
                      "and everyone everybody all ladies gentlemen greetings welcome okay ok folks again very much "
                      "so well right".split())


def _names_something(sentence: str) -> bool:
    """Whether ``sentence`` can name a document: it has a word that is not a greeting's (:data:`_GREETING`)."""
    return any(w not in _GREETING for w in re.findall(r"[^\W_]+", sentence.lower()))


def _opening_sentence(text: str, at: int, side: Sequence[tuple[int, int]], end: int | None = None) -> str:
    """The sentence that opens the paragraph at ``at`` (up to ``end``), one line: the first outside side
    matter that names something (:func:`_names_something`), else the first outside side matter, else ""."""
    para = text[at:min(end or len(text), at + 1500)].split("\n\n")[0]
    own = [" ".join(para[s:e].split()) for s, e in whole_sentence_spans(para) if side_share(side, at + s, at + e) < 0.5]
    return next((x for x in own if _names_something(x)), own[0] if own else "")


_CONTENTS = re.compile(r"^(?:table of )?contents\b", re.I)
_CONNECTORS = {"for", "of", "and", "on", "to", "the", "between", "with", "in", "under"}


def title_page(doc: Document, *, max_chars: int = 220, limit: int = MAX_TITLE) -> str:
    """A contract's or report's title page as one line: its lines up to the first labelled one ("Agreement
    number: ..."), the table of contents or the first heading after the title (not one that continues a
    line ending in "for", "of", ...: "Handbook for" / "Chapter 13"), Markdown marks removed ("Master Supply
    and Services Agreement between Norhaven Medical Devices GmbH (the "Buyer") and Calder Precision Components
    Ltd. (the "Supplier")"); :func:`title_of` (``limit`` characters at most) when the first line is no title
    line (a section's name, a sentence) or the page is longer than ``max_chars``."""
    words: list[str] = []
    for i, line in enumerate(ln.strip() for ln in doc.text.splitlines()):
        if not line:
            continue
        if not words and not title_line(_clean(line)):
            break
        if _CONTENTS.match(line) or words and len(line.split()) >= 12 and line.endswith("."):
            break
        continued = bool(words) and words[-1].rsplit(" ", 1)[-1].lower() in _CONNECTORS  # "Handbook for" / "Chapter 13"
        if words and (":" in line or _MD.match(line) or heading_level(line) and i > 0 and not continued):
            break
        words.append(re.sub(r"[#*]+", "", line).strip())
    line = re.sub(r"\s+", " ", " ".join(words)).strip()
    return line if 0 < len(line) <= max_chars else title_of(doc, limit=limit)
