"""Passages cut from a document for a reading plan: an opening cut at a sentence end, and the most specific
sentence of a contract's part."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import replace

from assistant.documents.chunk import sentence_spans
from assistant.records import Chunk, Document
from assistant.ttrag.compute.summarize.structure import Heading, heading_level
from assistant.ttrag.context import Context, chunk_at
from assistant.ttrag.grounding import terms

_WORD = re.compile(r"[A-Za-z][A-Za-z-]{3,}")


def salient_chunks(chunks: list[Chunk], *, n: int = 6) -> list[Chunk]:
    """The first chunk plus, in each of ``n - 1`` equal stretches of the text, the chunk richest in the
    document's key terms (frequent across the document, rare within single chunks: tf x idf).

    The summarizer before the reading plan, kept for the before/after benchmark (benchmarks/summaries.py)."""
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


def passage_at(ctx: Context, doc: Document, start: int, max_chars: int, *, limit: int | None = None) -> Chunk:
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


def trim_passage(chunk: Chunk, max_chars: int) -> Chunk:
    """``chunk`` cut at the last sentence end within ``max_chars`` (at least one sentence)."""
    if len(chunk.text) <= max_chars:
        return chunk
    end = 0
    for _s, e in sentence_spans(chunk.text):
        if e > max_chars and end:
            break
        end = e
    end = min(end or max_chars, max_chars + 200)
    return replace(chunk, text=chunk.text[:end].rstrip(), end=chunk.start + end, n_tokens=max(1, end // 4))


def _prefix(sentence: str) -> str:
    return " ".join(re.findall(r"[a-z]+", sentence.lower())[:4])


def sentence_starts(doc: Document) -> Counter[str]:
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


def key_passage(ctx: Context, doc: Document, h: Heading, end: int, starts: Counter[str],
                *, scan: int = 40_000, max_chars: int = 300) -> Chunk:
    """The most specific sentence of the part headed ``h`` (up to ``end``, its first ``scan`` characters),
    with the next one when it fits in ``max_chars``: a sentence stating a figure (a number, a duration) in
    the words of the part's heading, whose opening is not a template repeated across the document."""
    want = terms(re.sub(r"^\W*\w+\s+[\dIVXLC]+\b", "", h.title))  # "Article 3 - Term and Renewal": term, renew
    text = doc.text[h.body:min(end, h.body + scan)]
    best, best_score = None, -1e9
    for s, e in sentence_spans(text):
        sentence = text[s:e]
        if len(sentence) < 30 or heading_level(sentence):
            continue
        plain = _SELF_REF.sub("", sentence)  # "Under this Section 3.1 (Initial Term)" states nothing
        have = terms(plain)
        share = sum(any(_related(w, t) for t in have) for w in want) / max(1, len(want))
        score = (2.0 * bool(_FIGURE.search(plain)) + 1.0 * bool(_AMOUNT.search(plain)) + 3.0 * share
                 - math.log(starts.get(_prefix(sentence), 1)))
        if score > best_score:
            best, best_score = s, score
    if best is None:
        return passage_at(ctx, doc, h.start, max_chars)
    return passage_at(ctx, doc, h.body + best, max_chars)
