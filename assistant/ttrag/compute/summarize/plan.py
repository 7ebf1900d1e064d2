"""The reading plan: the passages a summary reads, chosen from the document's structure (or for a focus,
its section and the pre-filter's hits) within a budget of characters."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from assistant.models.base import Embedder
from assistant.records import Chunk, Document
from assistant.ttrag import prefilter
from assistant.ttrag.compute.summarize.passages import (
    key_passage,
    passage_at,
    representative,
    sentence_starts,
    trim_passage,
)
from assistant.ttrag.compute.summarize.request import SummaryRequest
from assistant.ttrag.compute.summarize.structure import (
    ABSTRACT,
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
        starts = message_starts(doc) if kind == "email" else [0]
        if kind == "email" and len(starts) > 2 and not detail:  # the first and the latest message first
            starts = [starts[0], starts[-1], *starts[1:-1]]
        per = max(300, budget // max(1, min(len(starts), 4)))
        for s in starts:
            b.add("message" if kind == "email" else "part", passage_at(ctx, doc, s, per))
        return b.plan
    hs = headings(doc)
    parts = top_level(hs, doc.text)
    first = next((h.start for h in hs if h.start > 80), len(doc.text))  # the title page ends at a heading
    if first > 480:  # no heading near the start: the title passage is the first paragraph
        brk = doc.text.find("\n\n", 80)
        first = brk if 0 < brk < first else first
    b.add("title", passage_at(ctx, doc, 0, min(480 if kind == "contract" else 360, max(120, first))))
    if kind == "contract":
        b.add_first("parties", [passage_at(ctx, doc, h.start, 560, limit=section_end(hs, i, len(doc.text)))
                                for i, h in enumerate(hs) if _PARTIES.search(h.title)] +
                    [passage_at(ctx, doc, doc.text.rfind("\n", 0, m.start()) + 1, 560)
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
            b.add("definitions", passage_at(ctx, doc, hs[d].start, 360, limit=section_end(hs, d, len(doc.text))))
    ranked = _ranked(kind, parts)
    abstract = [h for h in parts if ABSTRACT.match(h.title)]
    authors_summary = kind == "report" and bool(abstract) and not detail
    if authors_summary:
        # the authors' own summary states purpose, method and findings: the gist reads it and the conclusion,
        # not the introduction's background that the small model otherwise summarizes instead
        ranked = abstract[:1] + [h for h in parts if _CONCLUSION.match(h.title)][:1]
    ends = {h.start: next((g.start for g in parts if g.start > h.start), len(doc.text)) for h in parts}
    openings: Counter[str] = sentence_starts(doc) if kind == "contract" else Counter()
    for h in ranked:
        if b.left < 200:
            break
        if kind == "contract":  # a contract's parts open with boilerplate: read its most specific sentence
            b.add("part", key_passage(ctx, doc, h, ends[h.start], openings))
        else:
            # an abstract or executive summary states the findings a 360-character opening cuts off
            b.add("part", passage_at(ctx, doc, h.start, ABSTRACT_CHARS if ABSTRACT.match(h.title) else 360,
                                     limit=ends[h.start]))
    slots = 0 if authors_summary else max(0, b.left // 380)
    if slots:
        for c in representative(ctx, chunks[1:], slots + 3):  # a medoid already read is skipped
            if b.left < 200:
                break
            b.add("representative", trim_passage(c, 380))
    return b.plan


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
    for hit in hits:
        if b.left < 200:
            break
        if not is_outline(hit.chunk.text):
            b.add("focus", trim_passage(hit.chunk, 500))
    return b.plan
