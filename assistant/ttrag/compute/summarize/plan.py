"""The reading plan: the passages a summary reads within a budget of characters, chosen from the document's
structure (its opening, its authors' own summary, a contract's parts) and from what is central to the whole
of it (:mod:`.central`), side matter left out (:mod:`.sidematter`); for a focus, its section and the
pre-filter's hits."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from assistant.models.base import Embedder
from assistant.records import Chunk, Document
from assistant.ttrag import prefilter
from assistant.ttrag.compute.summarize.central import central_sentences
from assistant.ttrag.compute.summarize.choose import documents_asked
from assistant.ttrag.compute.summarize.passages import key_passage, passage_at, sentence_starts, trim_passage
from assistant.ttrag.compute.summarize.request import SummaryRequest
from assistant.ttrag.compute.summarize.sidematter import side_share, side_spans
from assistant.ttrag.compute.summarize.structure import (
    AUTHORS_SUMMARY,
    Heading,
    Kind,
    document_kind,
    headings,
    is_outline,
    message_starts,
    section_end,
    top_level,
)
from assistant.ttrag.context import Context, chunk_at
from assistant.ttrag.grounding import terms

GIST_BUDGET = 2400  # characters of passages for the gist (~500 tokens): ~30 s on 2 cores with the 1.5B model
DETAIL_BUDGET = 2000  # characters per map call for "in detail"
OPENING_CHARS = 420  # characters read from the opening of a part
LEAD_CHARS = 480  # characters read from the opening of a document other than a contract
CENTRAL_CHARS = 300  # characters read from a central sentence on (the sentence, and the next when it fits)
ABSTRACT_CHARS = 900  # characters read from an abstract or executive summary

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
_CONCLUSION = re.compile(r"^\W*(?:\d+\.?\s+)?(?:conclusions?|concluding remarks|discussion|recommendations?)\b",
                         re.I)
_DEFINITIONS = re.compile(r"\bdefinitions?\b", re.I)


@dataclass(frozen=True)
class Planned:
    """One passage of a reading plan: why it is read (``role``) and the passage (a chunk, or a piece of the
    document's text carrying the id of the chunk that holds its start)."""

    role: str
    chunk: Chunk


@dataclass
class _Budget:
    left: int
    plan: list[Planned] = field(default_factory=list)

    def add(self, role: str, chunk: Chunk) -> bool:
        if self.left <= 80 or any((_overlaps(chunk, p.chunk) and chunk.end > chunk.start) or
                                  chunk.text[:200] == p.chunk.text[:200] for p in self.plan):
            return False
        if len(chunk.text) > self.left:
            chunk = trim_passage(chunk, self.left)
        self.plan.append(Planned(role, chunk))
        self.left -= len(chunk.text)
        return True

    def add_first(self, role: str, candidates: Sequence[Chunk]) -> bool:
        """Add the first of ``candidates`` that fits (not read already)."""
        return any(self.add(role, c) for c in candidates)


def _overlaps(a: Chunk, b: Chunk) -> bool:
    return a.source == b.source and a.start < b.end and b.start < a.end


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


def _doc_chunks(ctx: Context, doc: Document) -> list[Chunk]:
    return [c for c in ctx.chunks if c.source == doc.source]


def reading_plan(ctx: Context, request: SummaryRequest | None = None, *, embedder: Embedder | None = None,
                 budget: int = GIST_BUDGET) -> list[Planned]:
    """The passages a summary reads, in document order, within ``budget`` characters, from the documents
    the request names (:func:`~.choose.documents_asked`; all of them when it names none, each with a share
    of the budget).

    Args:
        ctx: the session's documents and chunks.
        request: focus, length and the document named (default: the whole of every document, gist).
        embedder: the pre-filter's embedding model, used for a focus (None: BM25 alone).
        budget: characters of passage text (the prompt is about a quarter of that in tokens, plus ~150).

    Returns:
        :class:`Planned` passages with roles ``title`` (a contract's title page, another document's
        opening), ``parties``, ``outline``, ``definitions``, ``part`` (a contract's part, or the opening of
        a part ``in detail``), ``summary`` (the authors' own summary: an abstract, "What GAO found", the
        summary of the invention, a meeting's decisions; a conclusion), ``central`` (a central sentence:
        :func:`~.central.central_sentences`), ``message`` or ``focus`` (the section or pre-filter hit for the
        focus).
    """
    request = request or SummaryRequest()
    docs = documents_asked(ctx.documents, request.document)
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
    if not _doc_chunks(ctx, doc):
        return []
    if kind in ("email", "spreadsheet"):
        starts = message_starts(doc) if kind == "email" else [0]
        if kind == "email" and len(starts) > 2 and not detail:  # the first and the latest message first
            starts = [starts[0], starts[-1], *starts[1:-1]]
        per = max(300, budget // max(1, min(len(starts), 4)))
        for s in starts:
            b.add("message" if kind == "email" else "part", passage_at(ctx, doc, s, per))
        return b.plan
    hs = headings(doc)
    parts = top_level(hs, doc.text)
    side = side_spans(doc, hs)
    if kind == "contract":
        _contract_plan(ctx, doc, hs, parts, b, detail)
    else:
        _prose_plan(ctx, doc, kind, hs, parts, side, b, detail)
    if b.left >= 200 and not (kind == "paper" and any(p.role == "summary" for p in b.plan) and not detail):
        for s, _e in central_sentences(doc, side=side, hs=hs, n=max(3, b.left // 150)):
            if b.left < 200:
                break
            b.add("central", passage_at(ctx, doc, s, CENTRAL_CHARS, limit=_side_after(side, s)))
    return b.plan


def _outline(ctx: Context, doc: Document, parts: Sequence[Heading], b: _Budget) -> None:
    if len(parts) >= 3:
        outline = "; ".join(h.title for h in parts)[:700]
        holder = chunk_at(ctx, doc.source, parts[0].start)
        b.add("outline", Chunk(id=holder.id, text=f"Parts: {outline}", source=doc.source, start=parts[0].start,
                               end=parts[0].start, page=doc.page_at(parts[0].start), n_tokens=len(outline) // 4))


def _contract_plan(ctx: Context, doc: Document, hs: Sequence[Heading], parts: Sequence[Heading], b: _Budget,
                   detail: bool) -> None:
    """A contract: its title page and parties, then the most specific sentence of the parts a reader needs
    first (term, money, remedies: :data:`_CUES`); ``in detail`` also its outline and definitions."""
    first = next((h.start for h in hs if h.start > 80), len(doc.text))  # the title page ends at a heading
    if first > 480:  # no heading near the start: the title passage is the first paragraph
        brk = doc.text.find("\n\n", 80)
        first = brk if 0 < brk < first else first
    b.add("title", passage_at(ctx, doc, 0, min(480, max(120, first))))
    b.add_first("parties", [passage_at(ctx, doc, h.start, 560, limit=section_end(hs, i, len(doc.text)))
                            for i, h in enumerate(hs) if _PARTIES.search(h.title)] +
                [passage_at(ctx, doc, doc.text.rfind("\n", 0, m.start()) + 1, 560)
                 for m in _PARTIES.finditer(doc.text[:max(20_000, len(doc.text) // 20)])
                 if "...." not in doc.text[m.start():doc.text.find("\n", m.start())]])
    if detail:
        _outline(ctx, doc, parts, b)
        d = next((i for i, h in enumerate(hs) if _DEFINITIONS.search(h.title)), None)
        if d is not None:
            b.add("definitions", passage_at(ctx, doc, hs[d].start, 360, limit=section_end(hs, d, len(doc.text))))
    ends = {h.start: next((g.start for g in parts if g.start > h.start), len(doc.text)) for h in parts}
    openings = sentence_starts(doc)
    for h in _ranked("contract", parts):
        if b.left < 200:
            break
        b.add("part", key_passage(ctx, doc, h, ends[h.start], openings))  # its parts open with boilerplate


def _prose_plan(ctx: Context, doc: Document, kind: Kind, hs: Sequence[Heading], parts: Sequence[Heading],
                side: Sequence[tuple[int, int]], b: _Budget, detail: bool) -> None:
    """Any other document: its opening (past side matter: a news story's lead, a report's first paragraph,
    a patent's field), then the authors' own summary when it has one (an abstract, an executive summary,
    "What GAO found", the summary of the invention, a meeting's decisions and action items) and a paper's
    conclusion; ``in detail`` also its outline and the opening of each part. The central sentences fill the
    rest (:func:`_document_plan`)."""
    start = opening(doc, side)
    summaries = [h for h in hs if AUTHORS_SUMMARY.match(h.title) and side_share(side, h.start, h.body) < 0.5]
    # the opening stops where the authors' summary starts (a paper's title page, then its abstract)
    stop = next((h.start for h in summaries if h.start > start), None)
    ends = [x for x in (stop, _side_after(side, start)) if x is not None]  # and before the next side matter
    b.add("title", passage_at(ctx, doc, start, LEAD_CHARS, limit=min(ends) if ends else None))
    if detail:
        _outline(ctx, doc, parts, b)
    ends_at = {h.start: section_end(hs, i, len(doc.text)) for i, h in enumerate(hs)}
    summaries.sort(key=lambda h: (bool(_CONCLUSION.match(h.title)), h.start))  # a summary before a conclusion
    for h in summaries[:2]:
        chars = ABSTRACT_CHARS if not _CONCLUSION.match(h.title) else OPENING_CHARS
        b.add("summary", passage_at(ctx, doc, h.start, chars, limit=ends_at[h.start]))
    if detail:
        for h in _ranked(kind, parts):
            if b.left < 200:
                break
            b.add("part", passage_at(ctx, doc, h.start, OPENING_CHARS, limit=ends_at.get(h.start)))


def _side_after(side: Sequence[tuple[int, int]], pos: int) -> int | None:
    """Where the next side matter after ``pos`` starts (a passage read from ``pos`` stops there)."""
    return next((s for s, _e in side if s > pos), None)


def opening(doc: Document, side: Sequence[tuple[int, int]]) -> int:
    """Where a document's own text starts: the first line that is not side matter (navigation, a patent's
    related applications, a transcript's noise) nor blank."""
    pos = 0
    for line in doc.text.splitlines(keepends=True):
        if line.strip() and side_share(side, pos, pos + len(line.rstrip()) or pos + 1) < 0.5:
            return pos
        pos += len(line)
    return 0


def _focus_plan(ctx: Context, docs: Sequence[Document], focus: str, embedder: Embedder | None,
                budget: int) -> list[Planned]:
    """The section(s) whose heading names the focus (in a contract, its most specific sentence first: see
    :func:`key_passage`), then the pre-filter's hits for it."""
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
                openings[doc.source] = sentence_starts(doc)
            b.add("focus", key_passage(ctx, doc, h, end, openings[doc.source]))
        pos = h.start
        while pos < end and b.left > 200:
            piece = passage_at(ctx, doc, pos, min(600, end - pos, b.left))
            if not piece.text or not b.add("focus", piece):
                break
            pos = piece.end
    hits = prefilter.prefilter(ctx, focus, embedder, fusion="rrf" if embedder else "bm25", top_k=8)
    asked = {d.source for d in docs}
    for hit in hits:
        if b.left < 200:
            break
        if hit.chunk.source in asked and not is_outline(hit.chunk.text):
            b.add("focus", trim_passage(hit.chunk, 500))
    return b.plan
