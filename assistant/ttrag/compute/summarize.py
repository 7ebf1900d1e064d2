"""Summaries that say what a document is and what matters in it (TTRAG conditional compute: the
``summarization`` category; issue 18).

A 1.5B model on two CPU cores reads ~45 prompt tokens/s, so a summary of a 300-page contract cannot read
the contract. It reads a *reading plan* chosen at question time from the document's own structure:

1. the title page (title, parties, subject line) and the parties / recitals;
2. the opening of each top-level part (``# heading``, "Article 3", "CHAPTER 2", "1 Introduction", one
   message of a thread), ranked by what a reader of that kind of document needs first: for a contract the
   subject, the term, the money, the obligations and the remedies; for a report or paper its purpose,
   findings and conclusions; for an email thread the first and the latest messages;
3. the definitions and an outline of the headings (``in detail`` only);
4. representative passages: the medoids of k-means clusters over the chunks (the pre-filter's cached
   embeddings when every chunk has one, else TF-IDF vectors), for documents with few headings;

all within a token budget (:data:`GIST_BUDGET` characters for the 3-bullet gist). With a *focus*
("summarize the termination provisions") the plan is the matching section and the pre-filter's hits for
the focus instead. ``in detail`` reads more of the plan in at most :data:`MAX_MAP_CALLS` calls of the
same size (map), whose bullets are merged in document order without another call (reduce).

Each bullet must cite the passage it states (``[n]``, numbered as the passages were read, shown with
their page like the question-answering path). A bullet is kept only when its numbers stand in the passage
it cites and most of its content words do (:func:`supported_by`); otherwise another passage read that
supports it is cited, or the bullet is dropped. When nothing the model wrote survives, the opening
sentences of the best planned passages are shown instead (extractive, supported by construction).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from assistant.documents.chunk import sentence_spans
from assistant.mail.threads import base_subject
from assistant.models.base import Embedder, GenerationRequest, Generator
from assistant.records import Chunk, Document
from assistant.ttrag import prefilter
from assistant.ttrag.context import Context, chunk_at
from assistant.ttrag.grounding import terms
from assistant.ttrag.prompts import (
    SUMMARY_SLOTS,
    SYSTEM,
    summary_plan_prompt,
    summary_points_prompt,
    summary_points_schema,
)
from assistant.ttrag.window import Fit, fit_read

_WORD = re.compile(r"[A-Za-z][A-Za-z-]{3,}")

GIST_BUDGET = 2400  # characters of passages for the gist (~500 tokens): ~30 s on 2 cores with the 1.5B model
DETAIL_BUDGET = 2000  # characters per map call for "in detail"
MAX_MAP_CALLS = 4  # map calls for "in detail" (each ~the gist's cost)
GIST_BULLETS = 3
DETAIL_BULLETS_PER_CALL = 3
OPENING_CHARS = 420  # characters read from the opening of a part
ABSTRACT_CHARS = 900  # characters read from an abstract or executive summary
MIN_SUPPORT = 0.6  # share of a bullet's content words that must stand in the passage it cites

Form = Literal["bullets", "sentences"]
Kind = Literal["contract", "report", "email", "spreadsheet", "document"]


def salient_chunks(chunks: list[Chunk], *, n: int = 6) -> list[Chunk]:
    """The first chunk plus, in each of ``n - 1`` equal stretches of the text, the chunk richest in the
    document's key terms (frequent across the document, rare within single chunks: tf x idf).

    The summarizer before issue 18, kept for the before/after benchmark (benchmarks/summaries.py)."""
    if len(chunks) <= n:
        return list(chunks)
    df: Counter[str] = Counter()
    tf: Counter[str] = Counter()
    words = []
    for c in chunks:
        ws = [w.lower() for w in _WORD.findall(c.text)]
        words.append(set(ws))
        tf.update(ws)
        df.update(set(ws))
    weight = {w: tf[w] * math.log(len(chunks) / df[w]) for w in df if df[w] < len(chunks) * 0.5}
    key = dict(sorted(weight.items(), key=lambda kv: -kv[1])[:200])
    index = {c.id: i for i, c in enumerate(chunks)}
    picked = [chunks[0]]
    bounds = [1 + round(i * (len(chunks) - 1) / (n - 1)) for i in range(n)]
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        stretch = chunks[lo:hi] or chunks[lo:lo + 1]
        picked.append(max(stretch, key=lambda c: sum(key.get(w, 0.0) for w in words[index[c.id]])))
    return picked


# ---------------------------------------------------------------------------------------------- request

@dataclass(frozen=True)
class SummaryRequest:
    """What the person asked for: ``focus`` (a topic, '' for the whole document), ``detail`` (more than
    the 3-bullet gist) and ``form`` (``bullets``, or ``sentences`` for the draft panel)."""

    focus: str = ""
    detail: bool = False
    form: Form = "bullets"


_DETAIL = re.compile(r"\b(in (more |full |great(er)? )?detail|detailed|in depth|thorough\w*|full summary|"
                     r"long(er)? summary|all the (main|key) points)\b", re.I)
_SENTENCES = re.compile(r"\b(in (plain |full |a few )?sentences|as (a )?(plain )?(text|paragraph|prose)|"
                        r"no bullets|without bullets)\b", re.I)
# "summarize the termination provisions", "what does it say about data protection", "overview of X"
_FOCUS = [
    re.compile(r"\bwhat (?:does|do) (?:it|this|that|they|the \w+(?: \w+)?) (?:say|state|provide|cover)s? "
               r"(?:about|on|regarding|concerning) (?P<f>.+)", re.I),
    re.compile(r"\b(?:summar\w+|overview|gist|main points|key points|outline|tl;?dr)\b(?: of| on| for| about)?"
               r"(?: the| this| that| its)? (?P<f>.+)", re.I),
]
_WHOLE = re.compile(r"^(?:(?:the |this |that |attached |whole |entire |full |)+(?:document|attachment|file|report|"
                    r"email|e-mail|mail|message|thread|email thread|mailbox|inbox|mail folder|conversation|agreement|"
                    r"contract|paper|pdf|handbook|"
                    r"spreadsheet|sheet|workbook|text|deck|presentation|memo|letter|it)s?)?$", re.I)
_TRAIL = re.compile(r"\b(?:in (?:\w+ )?(?:bullets?|bullet points|sentences|detail|depth)|in (?:one|two|three|"
                    r"four|five|\d+) \w+|please|for me|briefly|of (?:this|the|that) (?:document|attachment|"
                    r"file|agreement|contract|report|paper|email|thread)|(?:of |in )?(?:this|the) (?:attached )?"
                    r"(?:document|attachment|file|agreement|contract|report|paper|email|thread)|"
                    r"as (?:a )?(?:plain )?(?:text|paragraph|prose)|detailed|thorough\w*)\b", re.I)


def parse_request(question: str, target: str = "") -> SummaryRequest:
    """The focus, length and form of a summary request.

    ``target`` is the router's target when it gave one. A focus that only names the document ("this
    agreement", "the attached PDF") is no focus. Examples: "Summarize this agreement" -> whole document,
    gist; "Summarize the termination provisions in detail" -> focus "termination provisions", detail.
    """
    focus = ""
    for pattern in _FOCUS:
        m = pattern.search(question)
        if m:
            focus = m.group("f")
            break
    if not focus and target:
        focus = target
    focus = _TRAIL.sub(" ", focus)
    focus = re.sub(r"[\s?.!,;:]+$", "", re.sub(r"\s+", " ", focus)).strip()
    focus = re.sub(r"^(?:(?:the|this|that|its|their|of|on|about)\b\s*)+", "", focus, flags=re.I).strip()
    if _WHOLE.match(focus) or len(focus) < 3:
        focus = ""
    form: Form = "sentences" if _SENTENCES.search(question) else "bullets"
    return SummaryRequest(focus=focus, detail=bool(_DETAIL.search(question)), form=form)


# ---------------------------------------------------------------------------------------------- structure

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


def _heading_level(line: str) -> int:
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
        level = _heading_level(line)
        if level:
            title = _MD.sub(r"\2", line.strip()).strip("*# \t")
            out.append(Heading(title=re.sub(r"\s+", " ", title), level=level, start=pos, body=pos + len(line)))
        pos += len(line)
    return out


def _section_end(hs: Sequence[Heading], i: int, default: int) -> int:
    """Where the section of heading ``hs[i]`` ends: the next heading of its level or above."""
    return next((g.start for g in hs[i + 1:] if g.level <= hs[i].level), default)


def _has_prose(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (its first 1,500 characters) holds a line of running text (8+ words),
    which an outline's entries never are."""
    return any(len(line.split()) >= 8 and _heading_level(line) == 0 for line in text[start:min(end, start + 1500)]
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
                not _is_outline(doc_text[h.body:min(end, h.body + 400)]):
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


# What a reader needs first, by kind of document: heading cues in order of priority.
_CUES: dict[str, list[re.Pattern[str]]] = {
    "contract": [re.compile(p, re.I) for p in (
        r"\bterm\b|duration|renewal", r"price|fees?\b|charges",
        r"payment", r"liquidated|damages|remed|late delivery", r"terminat", r"liabilit|indemn", r"warrant",
        r"governing law|dispute", r"scope|purpose|subject|supply|services")],  # the title page states the subject
    "report": [re.compile(p, re.I) for p in (
        r"abstract|executive summary|summary", r"introduction|purpose|objective|background|overview",
        r"results?|findings|\bexperiments?\b|evaluation", r"conclusions?|recommendations?|discussion",
        r"duties|responsibilit|role", r"method|approach|model")],
}
_PARTIES = re.compile(r"\b(parties|recitals|whereas|(?:made|entered into)\b.{0,40}\bbetween|by and between)\b", re.I)
_ABSTRACT = re.compile(r"^\W*(?:\d+\.?\s+)?(?:abstract|executive summary|summary)\b", re.I)
_CONCLUSION = re.compile(r"^\W*(?:\d+\.?\s+)?(?:conclusions?|concluding remarks|discussion|recommendations?)\b",
                         re.I)
_DEFINITIONS = re.compile(r"\bdefinitions?\b", re.I)


# ---------------------------------------------------------------------------------------------- plan

@dataclass(frozen=True)
class Planned:
    """One passage of a reading plan: why it is read (``role``) and the passage (a chunk, or a piece of the
    document's text carrying the id of the chunk that holds its start)."""

    role: str
    chunk: Chunk


def _passage(ctx: Context, doc: Document, start: int, max_chars: int, *, limit: int | None = None) -> Chunk:
    """``doc.text[start:...]`` cut at the last sentence end within ``max_chars`` (at least one sentence),
    and before ``limit`` (the next part's heading) when given."""
    text = doc.text if limit is None else doc.text[:limit]
    while start < len(text) and text[start].isspace():
        start += 1
    window = text[start:start + max_chars + 200]
    end = 0
    for _s, e in sentence_spans(window):
        if e > max_chars and end:
            break
        end = e
        if e >= max_chars:
            break
    end = min(end or max_chars, max_chars + 200)
    holder = chunk_at(ctx, doc.source, start)
    piece = text[start:start + end].strip()
    return Chunk(id=holder.id, text=piece, source=doc.source, start=start, end=start + len(piece),
                 page=doc.page_at(start), n_tokens=max(1, len(piece) // 4))


def _trim(chunk: Chunk, max_chars: int) -> Chunk:
    if len(chunk.text) <= max_chars:
        return chunk
    end = 0
    for _s, e in sentence_spans(chunk.text):
        if e > max_chars and end:
            break
        end = e
    end = min(end or max_chars, max_chars + 200)
    return replace(chunk, text=chunk.text[:end].rstrip(), end=chunk.start + end, n_tokens=max(1, end // 4))


def _vectors(ctx: Context, chunks: Sequence[Chunk]) -> np.ndarray:
    """Rows for ``chunks``: the pre-filter's cached embeddings when all are cached, else L2-normalised
    TF-IDF over the 2,000 most frequent content words."""
    if chunks and all(c.id in ctx.embeddings for c in chunks):
        return np.stack([ctx.embeddings[c.id] for c in chunks]).astype(np.float32)
    bags = [Counter(w.lower() for w in _WORD.findall(c.text)) for c in chunks]
    df: Counter[str] = Counter()
    for b in bags:
        df.update(b.keys())
    vocab = [w for w, n in df.most_common(2000) if n < 0.5 * len(chunks) or len(chunks) < 4]
    index = {w: i for i, w in enumerate(vocab)}
    m = np.zeros((len(chunks), max(1, len(vocab))), dtype=np.float32)
    for r, b in enumerate(bags):
        for w, n in b.items():
            j = index.get(w)
            if j is not None:
                m[r, j] = (1 + math.log(n)) * math.log(len(chunks) / df[w] + 1)
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)


def representative(ctx: Context, chunks: Sequence[Chunk], k: int, *, max_chunks: int = 1500) -> list[Chunk]:
    """``k`` representative chunks: the medoid of each of ``k`` k-means clusters (k-means++ seeding, fixed
    seed, 12 Lloyd iterations) over :func:`_vectors`, largest cluster first. At most ``max_chunks`` chunks,
    evenly spaced, are clustered."""
    if k <= 0 or not chunks:
        return []
    step = max(1, math.ceil(len(chunks) / max_chunks))
    pool = list(chunks[::step])
    if len(pool) <= k:
        return pool
    x = _vectors(ctx, pool)
    rng = np.random.default_rng(0)
    centres = [x[int(rng.integers(len(pool)))]]
    for _ in range(1, k):
        d = np.min(np.stack([1 - x @ c for c in centres]), axis=0).clip(min=0)
        centres.append(x[int(np.argmax(d))] if d.sum() == 0 else x[int(rng.choice(len(pool), p=d / d.sum()))])
    c = np.stack(centres)
    for _ in range(12):
        assign = np.argmax(x @ c.T, axis=1)
        for j in range(k):
            members = x[assign == j]
            if len(members):
                c[j] = members.mean(axis=0)
    assign = np.argmax(x @ c.T, axis=1)
    sizes = np.bincount(assign, minlength=k)
    picked = []
    for j in np.argsort(-sizes, kind="stable"):
        members = np.flatnonzero(assign == j)
        if len(members):
            picked.append(pool[int(members[np.argmax(x[members] @ c[j])])])
    return picked


@dataclass
class _Budget:
    left: int
    plan: list[Planned] = field(default_factory=list)

    def add(self, role: str, chunk: Chunk) -> bool:
        if self.left <= 80 or any((_overlaps(chunk, p.chunk) and chunk.end > chunk.start) or
                                  chunk.text[:200] == p.chunk.text[:200] for p in self.plan):
            return False
        if len(chunk.text) > self.left:
            chunk = _trim(chunk, self.left)
        self.plan.append(Planned(role, chunk))
        self.left -= len(chunk.text)
        return True


    def add_first(self, role: str, candidates: Sequence[Chunk]) -> bool:
        """Add the first of ``candidates`` that fits (not read already)."""
        return any(self.add(role, c) for c in candidates)


def _overlaps(a: Chunk, b: Chunk) -> bool:
    return a.source == b.source and a.start < b.end and b.start < a.end


def _cue_rank(kind: Kind, title: str) -> int:
    cues = _CUES.get("contract" if kind == "contract" else "report", [])
    for i, cue in enumerate(cues):
        if cue.search(title):
            return i
    return len(cues)


def _ranked(kind: Kind, parts: Sequence[Heading]) -> list[Heading]:
    """The parts in reading order of need: the first part matching each cue of the kind, cue by cue; then
    the rest in document order (read while the budget lasts: a handbook's chapters before cluster medoids)."""
    cues = _CUES.get("contract" if kind == "contract" else "report", [])
    first = []
    for cue in cues:
        h = next((h for h in parts if cue.search(h.title) and h not in first), None)
        if h is not None:
            first.append(h)
    rest = [h for h in parts if h not in first]
    return first + rest


def _prefix(sentence: str) -> str:
    return " ".join(re.findall(r"[a-z]+", sentence.lower())[:4])


def _sentence_starts(doc: Document) -> Counter[str]:
    """How often each sentence opening (first four words) occurs in ``doc``: templated boilerplate
    ("Under this Section ...", "A failure by the Supplier ...") opens many sentences, a stated fact one."""
    return Counter(_prefix(doc.text[s:e]) for s, e in sentence_spans(doc.text))


_FIGURE = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|thirty|sixty|ninety)\b", re.I)


_SELF_REF = re.compile(r"\b(?:Section|Article|Schedule|Clause)\s+S?\d+(?:\.\d+)*(?:\s*\([^)]*\))?", re.I)
_AMOUNT = re.compile(r"\b\d[\d,.]*\s*(?:%|percent|per cent|days?|weeks?|months?|years?)\b|\(\d+\)\s*(?:days?|weeks?|"
                     r"months?|years?)|\b(?:EUR|USD|GBP)\b|[€$£]", re.I)


def _related(a: str, b: str) -> bool:
    """Stems of one word family ("pay", "payment"): equal, or one a prefix of the other by <= 4 letters."""
    short, long_ = sorted((a, b), key=len)
    return a == b or (len(short) >= 3 and long_.startswith(short) and len(long_) - len(short) <= 4)


def _key_passage(ctx: Context, doc: Document, h: Heading, end: int, starts: Counter[str],
                 *, scan: int = 40_000, max_chars: int = 300) -> Chunk:
    """The most specific sentence of the part headed ``h`` (up to ``end``, its first ``scan`` characters),
    with the next one when it fits in ``max_chars``: a sentence stating a figure (a number, a duration) in
    the words of the part's heading, whose opening is not a template repeated across the document."""
    want = terms(re.sub(r"^\W*\w+\s+[\dIVXLC]+\b", "", h.title))  # "Article 3 - Term and Renewal": term, renew
    text = doc.text[h.body:min(end, h.body + scan)]
    best, best_score = None, -1e9
    for s, e in sentence_spans(text):
        sentence = text[s:e]
        if len(sentence) < 30 or _heading_level(sentence):
            continue
        plain = _SELF_REF.sub("", sentence)  # "Under this Section 3.1 (Initial Term)" states nothing
        have = terms(plain)
        share = sum(any(_related(w, t) for t in have) for w in want) / max(1, len(want))
        score = (2.0 * bool(_FIGURE.search(plain)) + 1.0 * bool(_AMOUNT.search(plain)) + 3.0 * share
                 - math.log(starts.get(_prefix(sentence), 1)))
        if score > best_score:
            best, best_score = s, score
    if best is None:
        return _passage(ctx, doc, h.start, max_chars)
    return _passage(ctx, doc, h.body + best, max_chars)


def _doc_chunks(ctx: Context, doc: Document) -> list[Chunk]:
    return [c for c in ctx.chunks if c.source == doc.source]


def _messages(doc: Document) -> list[int]:
    """Start offsets of the messages of an email file or thread (lines "From: ...")."""
    return [m.start() for m in _MESSAGE.finditer(doc.text)] or [0]


def reading_plan(ctx: Context, request: SummaryRequest | None = None, *, embedder: Embedder | None = None,
                 budget: int = GIST_BUDGET) -> list[Planned]:
    """The passages a summary reads, in document order, within ``budget`` characters.

    Args:
        ctx: the session's documents and chunks.
        request: focus and length (default: the whole document, gist).
        embedder: the pre-filter's embedding model, used for a focus (None: BM25 alone).
        budget: characters of passage text (the prompt is about a quarter of that in tokens, plus ~150).

    Returns:
        :class:`Planned` passages with roles ``title``, ``parties``, ``outline``, ``definitions``, ``part``
        (the opening of a top-level part), ``message``, ``focus`` (the section or pre-filter hit for the
        focus) or ``representative`` (a cluster medoid).
    """
    request = request or SummaryRequest()
    docs = [d for d in ctx.documents if d.text.strip()]
    if not docs:
        return []
    if request.focus:
        plan = _focus_plan(ctx, docs, request.focus, embedder, budget)
    else:
        share = max(600, budget // min(len(docs), 4))
        plan = []
        for doc in sorted(docs, key=lambda d: -len(d.text))[:4]:
            plan += _document_plan(ctx, doc, share, request.detail)
    order = {d.source: i for i, d in enumerate(ctx.documents)}
    return sorted(plan, key=lambda p: (order.get(p.chunk.source, 0), p.chunk.start))


def _document_plan(ctx: Context, doc: Document, budget: int, detail: bool) -> list[Planned]:
    kind = document_kind(doc)
    b = _Budget(budget)
    chunks = _doc_chunks(ctx, doc)
    if not chunks:
        return []
    if kind in ("email", "spreadsheet"):
        starts = _messages(doc) if kind == "email" else [0]
        if kind == "email" and len(starts) > 2 and not detail:  # the first and the latest message first
            starts = [starts[0], starts[-1], *starts[1:-1]]
        per = max(300, budget // max(1, min(len(starts), 4)))
        for s in starts:
            b.add("message" if kind == "email" else "part", _passage(ctx, doc, s, per))
        return b.plan
    hs = headings(doc)
    parts = top_level(hs, doc.text)
    first = next((h.start for h in hs if h.start > 80), len(doc.text))  # the title page ends at a heading
    if first > 480:  # no heading near the start: the title passage is the first paragraph
        brk = doc.text.find("\n\n", 80)
        first = brk if 0 < brk < first else first
    b.add("title", _passage(ctx, doc, 0, min(480 if kind == "contract" else 360, max(120, first))))
    if kind == "contract":
        b.add_first("parties", [_passage(ctx, doc, h.start, 560, limit=_section_end(hs, i, len(doc.text)))
                                for i, h in enumerate(hs) if _PARTIES.search(h.title)] +
                    [_passage(ctx, doc, doc.text.rfind("\n", 0, m.start()) + 1, 560)
                     for m in _PARTIES.finditer(doc.text[:max(20_000, len(doc.text) // 20)])
                     if "...." not in doc.text[m.start():doc.text.find("\n", m.start())]])
    if detail and len(parts) >= 3:
        outline = "; ".join(h.title for h in parts)[:700]
        holder = chunk_at(ctx, doc.source, parts[0].start)
        b.add("outline", Chunk(id=holder.id, text=f"Parts: {outline}", source=doc.source, start=parts[0].start,
                               end=parts[0].start, page=doc.page_at(parts[0].start), n_tokens=len(outline) // 4))
    if detail:
        d = next((i for i, h in enumerate(hs) if _DEFINITIONS.search(h.title)), None)
        if d is not None:
            b.add("definitions", _passage(ctx, doc, hs[d].start, 360, limit=_section_end(hs, d, len(doc.text))))
    ranked = _ranked(kind, parts)
    abstract = [h for h in parts if _ABSTRACT.match(h.title)]
    authors_summary = kind == "report" and bool(abstract) and not detail
    if authors_summary:
        # the authors' own summary states purpose, method and findings: the gist reads it and the conclusion,
        # not the introduction's background that the small model otherwise summarizes instead
        ranked = abstract[:1] + [h for h in parts if _CONCLUSION.match(h.title)][:1]
    ends = {h.start: next((g.start for g in parts if g.start > h.start), len(doc.text)) for h in parts}
    openings: Counter[str] = _sentence_starts(doc) if kind == "contract" else Counter()
    for h in ranked:
        if b.left < 200:
            break
        if kind == "contract":  # a contract's parts open with boilerplate: read its most specific sentence
            b.add("part", _key_passage(ctx, doc, h, ends[h.start], openings))
        else:
            # an abstract or executive summary states the findings a 360-character opening cuts off
            b.add("part", _passage(ctx, doc, h.start, ABSTRACT_CHARS if _ABSTRACT.match(h.title) else 360,
                                   limit=ends[h.start]))
    slots = 0 if authors_summary else max(0, b.left // 380)
    if slots:
        for c in representative(ctx, chunks[1:], slots + 3):  # a medoid already read is skipped
            if b.left < 200:
                break
            b.add("representative", _trim(c, 380))
    return b.plan


_TOC_LINE = re.compile(r"(\.{3,}|\s)\s*(page\s*)?[\dIVXivx-]+\s*$|\D\d+-\d+\s*$", re.I)


def _is_outline(text: str) -> bool:
    """Whether ``text`` is mostly table-of-contents lines ("Termination .... page 105")."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return bool(lines) and sum(bool(_TOC_LINE.search(ln)) for ln in lines) * 2 > len(lines)


def _focus_plan(ctx: Context, docs: Sequence[Document], focus: str, embedder: Embedder | None,
                budget: int) -> list[Planned]:
    """The section(s) whose heading names the focus (in a contract, its most specific sentence first: see
    :func:`_key_passage`), then the pre-filter's hits for it."""
    b = _Budget(budget)
    wanted = terms(focus)
    sections = []
    for doc in docs:
        hs = headings(doc)
        for i, h in enumerate(hs):
            overlap = len(wanted & terms(h.title))
            if wanted and overlap * 2 >= len(wanted) and overlap:
                nxt = next((g for g in hs[i + 1:] if g.level <= h.level), None)
                sections.append((-overlap, h.level, doc, h, nxt.start if nxt else len(doc.text)))
    sections.sort(key=lambda s: (s[0], s[1], s[3].start))
    openings: dict[str, Counter[str]] = {}  # per contract, computed once: it reads the whole text
    for _o, _lvl, doc, h, end in sections[:2]:
        if document_kind(doc) == "contract":  # a clause's figures first ("net 45 days"), not its boilerplate
            if doc.source not in openings:
                openings[doc.source] = _sentence_starts(doc)
            b.add("focus", _key_passage(ctx, doc, h, end, openings[doc.source]))
        pos = h.start
        while pos < end and b.left > 200:
            piece = _passage(ctx, doc, pos, min(600, end - pos, b.left))
            if not piece.text or not b.add("focus", piece):
                break
            pos = piece.end
    hits = prefilter.prefilter(ctx, focus, embedder, fusion="rrf" if embedder else "bm25", top_k=8)
    for hit in hits:
        if b.left < 200:
            break
        if not _is_outline(hit.chunk.text):
            b.add("focus", _trim(hit.chunk, 500))
    return b.plan


# ---------------------------------------------------------------------------------------------- grounding

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "").rstrip(".") for n in _NUMBER.findall(text)}


def support_share(statement: str, passage: str) -> float:
    """Share of the statement's content words (stemmed) that stand in ``passage``; 0 when one of its
    numbers does not."""
    if not _numbers(statement) <= _numbers(passage):
        return 0.0
    want = terms(statement)
    if not want:
        return 0.0
    return len(want & terms(passage)) / len(want)


def supported_by(statement: str, passages: Sequence[Chunk], cited: Sequence[int] = (),
                 *, min_share: float = MIN_SUPPORT) -> list[int]:
    """1-based numbers of the passages that support ``statement`` (every number in it, and at least
    ``min_share`` of its content words): a ``cited`` one, else the ``cited`` ones together (up to 3), else
    the best other passage, else (a statement with at most one number) up to 4 passages together
    (:func:`_jointly`); empty when none does."""
    shares = {n: support_share(statement, c.text) for n, c in enumerate(passages, 1)}
    ok = [n for n in cited if 1 <= n <= len(passages) and shares[n] >= min_share]
    if ok:
        return ok[:2]
    joint = list(dict.fromkeys(n for n in cited if 1 <= n <= len(passages)))[:3]
    if len(joint) > 1 and support_share(statement, "\n".join(passages[n - 1].text for n in joint)) >= min_share:
        return joint  # a statement joining two cited passages ("a 5-year term [3], paid in 45 days [5]")
    best = max(shares, key=lambda n: shares[n], default=0)
    if best and shares[best] >= min_share:
        return [best]
    return _jointly(statement, passages, min_share)


def _jointly(statement: str, passages: Sequence[Chunk], min_share: float, *, most: int = 4) -> list[int]:
    """Up to ``most`` passages that together hold ``min_share`` of a statement's content words, chosen
    greedily (each adding at least two words): a statement listing what the parts read cover ("covers the
    appointment, ... budgets, reports and audits"). Only for statements with at most one number, which
    must stand in a passage picked, so that figures of one passage are not joined to the words of others."""
    want = terms(statement)
    if not want or len(_numbers(statement)) > 1:
        return []
    have = [terms(c.text) & want for c in passages]
    got: set[str] = set()
    picked: list[int] = []
    while len(picked) < most:
        n = max(range(len(passages)), key=lambda i: len(have[i] - got), default=-1)
        if n < 0 or len(have[n] - got) < 2:
            break
        picked.append(n + 1)
        got |= have[n]
        if len(got) >= min_share * len(want) and \
                _numbers(statement) <= _numbers("\n".join(passages[i - 1].text for i in picked)):
            return sorted(picked)
    return []


# ---------------------------------------------------------------------------------------------- writing

@dataclass(frozen=True)
class Bullet:
    """One statement of a summary and the passages (1-based, as read) that support it."""

    text: str
    cites: tuple[int, ...]


@dataclass(frozen=True)
class Summary:
    """A finished summary: ``text`` as shown (bullets or sentences, each ending in ``[n]`` markers),
    the passages cited (numbered as in the markers, in order of first citation), the bullets kept (their
    ``cites`` in the same numbering), the statements dropped as not supported by the passage they cite, and
    the reading plan (every passage read)."""

    text: str
    passages: tuple[Chunk, ...]
    bullets: tuple[Bullet, ...]
    dropped: tuple[str, ...]
    plan: tuple[Planned, ...]


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
_MARK = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
_PAGE_NOTE = re.compile(r"\s*\((?:p\.|page)\s*\d+\)", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _statements(text: str, form: Form) -> list[tuple[str, list[int]]]:
    """(statement without markers, cited passage numbers) for each bullet or sentence of a reply."""
    out = []
    lines = [ln for ln in text.splitlines() if ln.strip()]
    pieces: list[str] = []
    for ln in lines:
        ln = _BULLET.sub("", ln).strip()
        pieces.extend(_SENTENCE.split(ln) if form == "sentences" else [ln])
    for p in pieces:
        cites = [int(n) for m in _MARK.finditer(p) for n in m.group(1).split(",")]
        body = _PAGE_NOTE.sub("", _MARK.sub("", p)).strip(" :-")
        if len(body.split()) >= 3 and not body.lower().startswith(("here is", "here are", "summary")):
            out.append((body, cites))
    return out


class _Numbers:
    """Source numbers in order of first citation: the passages a summary cites become [1], [2], ... and
    the passages read but not cited are not listed (a reader shown eight sources for three bullets cannot
    tell why five are there)."""

    def __init__(self) -> None:
        self.new: dict[int, int] = {}

    def __call__(self, cites: Sequence[int]) -> tuple[int, ...]:
        return tuple(dict.fromkeys(self.new.setdefault(n, len(self.new) + 1) for n in cites))


def _render(bullets: Sequence[Bullet], form: Form, numbers: _Numbers) -> str:
    marks = ["".join(f"[{n}]" for n in numbers(b.cites)) for b in bullets]
    if form == "sentences":
        return " ".join(f"{b.text.rstrip('.')}. {m}".strip() for b, m in zip(bullets, marks, strict=True))
    return "\n".join(f"- {b.text} {m}".rstrip() for b, m in zip(bullets, marks, strict=True))


def _extractive(passages: Sequence[Chunk], n: int) -> list[Bullet]:
    """The first real sentence of the first ``n`` passages that have one (supported by construction)."""
    out = []
    for i, c in enumerate(passages, 1):
        for s, e in sentence_spans(c.text):
            sentence = re.sub(r"[#*]+", "", c.text[s:e]).strip()
            if len(sentence.split()) >= 6 and _is_sentence(sentence):
                out.append(Bullet(sentence, (i,)))
                break
        if len(out) >= n:
            break
    return out


def _is_sentence(text: str) -> bool:
    """Running text rather than a heading or a title line: mostly lower-case letters, ending in a full stop
    (or 12 words or more)."""
    letters = [ch for ch in text if ch.isalpha()]
    lower = sum(ch.islower() for ch in letters) >= 0.6 * max(1, len(letters))
    return lower and (text.rstrip().endswith((".", "!", "?", ".)", '."')) or len(text.split()) >= 12)


def _same(a: str, b: str) -> bool:
    ta, tb = terms(a), terms(b)
    return bool(ta and tb) and len(ta & tb) / min(len(ta), len(tb)) >= 0.8


def _write(generator: Generator, passages: Sequence[Chunk], kind: Kind, request: SummaryRequest, n: int,
           purpose: str) -> tuple[list[tuple[str, list[int]]], Fit]:
    """The model's statements with the passage numbers each cites (not yet checked), and the passages as cut
    to fit the reader's window (the numbers count these)."""
    def prompt_for(chunks: Sequence[Chunk]) -> str:
        return summary_plan_prompt(chunks, kind=kind, focus=request.focus, n=n, form=request.form)

    fit = fit_read(generator, passages, prompt_for, max_tokens=40 * n + 30)
    reply = generator.complete(GenerationRequest(SYSTEM, prompt_for(fit.chunks), max_tokens=40 * n + 30,
                                                 purpose=purpose))
    return _statements(reply, request.form)[:n], fit


def gist_slots(passages: Sequence[Chunk], kind: Kind) -> list[str]:
    """What each point of the whole-document gist states (:data:`~assistant.ttrag.prompts.SUMMARY_SLOTS` by
    kind). A mailbox of separate messages (more than one subject, "Re:" aside) gets a point per message
    read, up to :data:`GIST_BULLETS`: "what the message in passage [2] (from Alexandre Julliard) announces
    or asks"."""
    if kind == "email":
        messages = []
        for n, c in enumerate(passages, 1):
            subject = re.search(r"^Subject:\s*(.+)$", c.text, re.M)
            sender = re.search(r"^From:\s*(.+?)\s*(?:<[^>]*>)?\s*$", c.text, re.M)
            if subject:
                messages.append((n, base_subject(subject.group(1)), sender.group(1).strip('" ') if sender else ""))
        if len({m[1] for m in messages}) > 1:
            return [f"what the message in passage [{n}]" + (f" (from {who})" if who else "") +
                    " announces or asks, with its main details" for n, _s, who in messages[:GIST_BULLETS]]
    if kind == "report" and any(_ABSTRACT.match(c.text.lstrip()) for c in passages):
        return list(SUMMARY_SLOTS["paper"])
    return list(SUMMARY_SLOTS.get(kind, SUMMARY_SLOTS["document"]))


_POINT_SENTENCE = re.compile(r'"sentence"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"passage"\s*:\s*(\d+)')


def focus_slots(focus: str) -> list[str]:
    """The points of a summary of one topic ("termination provisions"): what may or must be done and by
    whom, its conditions (notice, period, amount), and what follows from it."""
    return [f"what the passages say about {focus}: what may or must be done, and by whom",
            f"the conditions of {focus}: the notice, period or amount, exactly as written",
            f"what follows from {focus}: its consequences or the steps after it"]


def _write_points(generator: Generator, passages: Sequence[Chunk],
                  slots: Sequence[str]) -> tuple[list[tuple[str, list[int]]], Fit]:
    """A gist as named points, one per slot (:func:`gist_slots`, :func:`focus_slots`), decoded under
    :func:`~assistant.ttrag.prompts.summary_points_schema` (one call), and the passages as cut to fit the
    reader's window. A reply cut short by the token limit keeps its complete points."""
    max_tokens = 60 * len(slots) + 40
    fit = fit_read(generator, passages, lambda chunks: summary_points_prompt(chunks, slots), max_tokens=max_tokens)
    reply = generator.complete(GenerationRequest(SYSTEM, summary_points_prompt(fit.chunks, slots),
                                                 max_tokens=max_tokens, json_schema=summary_points_schema(len(slots)),
                                                 purpose="summary"))
    out = []
    for m in _POINT_SENTENCE.finditer(reply):
        try:
            sentence = json.loads(f'"{m.group(1)}"')
        except ValueError:
            continue
        body = _PAGE_NOTE.sub("", _MARK.sub("", sentence)).strip(" :-")
        marked = [int(n) for k in _MARK.finditer(sentence) for n in k.group(1).split(",")]  # "[3][5]" in the text
        if len(body.split()) >= 3:
            out.append((body, list(dict.fromkeys([*marked, int(m.group(2))]))))
    return out, fit


def summarize(ctx: Context, request: SummaryRequest, generator: Generator, *, embedder: Embedder | None = None,
              on_text: Callable[[str], None] = lambda s: None,
              on_progress: Callable[[int, int], None] = lambda done, total: None,
              note: Callable[..., None] = lambda stage, **detail: None) -> Summary:
    """Summarize the context's documents (or the part ``request.focus`` names).

    Args:
        ctx: the session's context.
        request: focus, length (gist of :data:`GIST_BULLETS` bullets, or ``detail``: up to
            :data:`MAX_MAP_CALLS` map calls of :data:`DETAIL_BULLETS_PER_CALL`) and form.
        generator: the LLM (its ``stream`` may raise :class:`~assistant.errors.Cancelled`).
        embedder: pre-filter embeddings for a focus (None: BM25 alone).
        on_text: receives the summary, one checked bullet at a time.
        on_progress: ``(calls done, calls planned)``.
        note: trace events (``summary_plan``, ``summary_check``).

    Returns:
        The :class:`Summary`. Statements not supported by the passage they cite are dropped (listed in
        ``dropped``); if none is left, the openings of the planned passages are shown.

    Raises:
        Cancelled: the generator was cancelled.
        ModelError: the model failed.
    """
    calls = MAX_MAP_CALLS if request.detail else 1
    budget = (DETAIL_BUDGET * calls) if request.detail else GIST_BUDGET
    plan = reading_plan(ctx, request, embedder=embedder, budget=budget)
    passages = [p.chunk for p in plan]
    note("summary_plan", passages=[{"role": p.role, "chunk": p.chunk.id, "page": p.chunk.page,
                                    "chars": len(p.chunk.text), "text": p.chunk.text[:60]} for p in plan])
    if not passages:
        return Summary("", (), (), (), ())
    kinds = {document_kind(d) for d in ctx.documents if d.source in {c.source for c in passages}}
    kind: Kind = kinds.pop() if len(kinds) == 1 else "document"
    groups = _groups(passages, DETAIL_BUDGET) if request.detail else [list(range(len(passages)))]
    groups = groups[:calls]
    per_call = DETAIL_BULLETS_PER_CALL if request.detail else GIST_BULLETS
    kept: list[Bullet] = []
    dropped: list[str] = []
    shown = 0
    numbers = _Numbers()
    lead = _lead(ctx, passages, request)
    if lead:
        on_text(lead + "\n")
    on_progress(0, len(groups))
    for g, members in enumerate(groups):
        local = [passages[i] for i in members]
        if request.detail:
            replies, fit = _write(generator, local, kind, request, per_call, "summary" if g == 0 else "summary_map")
        else:
            replies, fit = _write_points(generator, local, focus_slots(request.focus) if request.focus else
                                         gist_slots(local, kind))
        if fit.cut:  # checked against the passages as the model read them
            note("summary_fit", call=g + 1, **fit.trace())
            local, members = fit.chunks, members[:len(fit.chunks)]
        for statement, cites in replies:
            support = supported_by(statement, local, cites)
            if not support:
                dropped.append(statement)
                continue
            bullet = Bullet(statement, tuple(members[n - 1] + 1 for n in support))
            if any(_same(bullet.text, k.text) for k in kept):
                continue
            kept.append(bullet)
        if request.form == "bullets":  # show what is checked so far; later groups append
            text = _render(kept[shown:], request.form, numbers)
            if text:
                on_text(("\n" if shown else "") + text)
                shown = len(kept)
        on_progress(g + 1, len(groups))
    note("summary_check", kept=len(kept), dropped=dropped)
    if not kept:
        kept = _extractive(passages, per_call)
        note("summary_check", extractive=len(kept))
        shown = 0
    elif not request.detail and not request.focus and request.form == "bullets" and len(kept) < per_call:
        # the small model often writes one bullet from a plan of several parts (the DOJ handbook: 1 of 3);
        # the parts it left out are shown by their opening sentence, quoted, so the gist still covers them
        cited = {n for b in kept for n in b.cites}
        unused = [c if i not in cited else replace(c, text="") for i, c in enumerate(passages, 1)]
        extra = [b for b in _extractive(unused, len(passages)) if not any(_same(b.text, k.text) for k in kept)]
        extra = extra[:per_call - len(kept)]
        kept += extra
        note("summary_check", extractive=len(extra))
    if request.form == "sentences" or shown < len(kept):
        if shown == 0:
            on_text(_render(kept, request.form, numbers))
        else:
            on_text("\n" + _render(kept[shown:], request.form, numbers))
    text = (lead + "\n" if lead else "") + _render(kept, request.form, numbers)
    cited = sorted(numbers.new, key=numbers.new.__getitem__)
    return Summary(text, tuple(passages[n - 1] for n in cited), tuple(Bullet(b.text, numbers(b.cites)) for b in kept),
                   tuple(dropped), tuple(plan))


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
    first = next((ln.strip() for ln in doc.text.splitlines() if ln.strip()), "")
    return re.sub(r"[#*]+", "", first).strip()[:120]


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
        if words and (":" in line or _MD.match(line) or _heading_level(line) and i > 0 and not continued):
            break
        words.append(re.sub(r"[#*]+", "", line).strip())
    line = re.sub(r"\s+", " ", " ".join(words)).strip()
    return line if 0 < len(line) <= max_chars else title_of(doc)


def _lead(ctx: Context, passages: Sequence[Chunk], request: SummaryRequest) -> str:
    """The line that says what is summarized (bullets only): "<title> (<file>, <n> pages)", with the focus."""
    if request.form != "bullets":
        return ""
    sources = list(dict.fromkeys(c.source for c in passages))
    docs = [d for d in ctx.documents if d.source in sources]
    parts = []
    for d in docs[:3]:
        pages = {s.page for s in d.segments if s.page}
        size = f", {len(pages)} pages" if len(pages) > 1 else ""
        title = title_page(d) if document_kind(d) in ("contract", "report") else title_of(d)
        parts.append(f"{title} ({d.source.rsplit('/', 1)[-1]}{size})")
    lead = "; ".join(parts)
    return f"{lead}, on {request.focus}:" if request.focus else f"{lead}:"


def _groups(passages: Sequence[Chunk], budget: int) -> list[list[int]]:
    """Consecutive passages packed into groups of at most ``budget`` characters (a passage alone may
    exceed it)."""
    groups: list[list[int]] = [[]]
    size = 0
    for i, c in enumerate(passages):
        if groups[-1] and size + len(c.text) > budget:
            groups.append([])
            size = 0
        groups[-1].append(i)
        size += len(c.text)
    return groups
