"""Evidence selection: the sentences of the re-ranked chunks that bear on the question.

The reader prefills every token it is shown, and prefill is most of an answer's time on a CPU (docs/design.md §7:
~40-90 tokens/s here). Each chunk the reader is given is cut to its sentences that score highest for the
question, within a token budget, in their document order; a cut is marked "[...]" so the reader knows
text is missing. A chunk within its share of the budget is kept whole, and what it leaves unused goes to
the others. Markdown heading lines inside a chunk ("### 3.1 Initial Term") are kept: they are short and
say what the sentences under them are about.

Score of a sentence: cosine of its embedding with the question's (the pre-filter's embedder, the use
all-MiniLM-L6-v2 was trained for) plus the share of the question's content words it holds (stemmed,
:func:`assistant.ttrag.grounding.terms`). Nothing is stored: the sentences are embedded at question time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np

from assistant.documents.chunk import sentence_spans
from assistant.models.base import Embedder
from assistant.records import Chunk
from assistant.ttrag import grounding

GAP = " [...] "


def _is_heading(line: str) -> bool:
    return line.lstrip().startswith("#")


def sentence_scores(question: str, sentences: Sequence[str], embedder: Embedder | None) -> np.ndarray:
    """Relevance of each sentence to ``question``, shape (len(sentences),): embedding cosine (0 without an
    embedder) + share of the question's content words the sentence holds (in [0, 1])."""
    if not sentences:
        return np.zeros(0)
    asked = grounding.terms(question)
    lexical = np.array([len(asked & grounding.terms(s)) / max(len(asked), 1) for s in sentences])
    if embedder is None:
        return lexical
    vectors = embedder.embed([question, *sentences])  # unit rows
    return lexical + vectors[1:] @ vectors[0]


def _shares(sizes: Sequence[int], budget: int) -> list[int]:
    """Each chunk's share of ``budget`` tokens: equal shares, where a chunk needing less than its share gives
    the rest to the others (water-filling). A chunk whose share covers its size is kept whole."""
    shares = [0] * len(sizes)
    left, open_ = budget, sorted(range(len(sizes)), key=lambda i: sizes[i])
    while open_:
        each = left // len(open_)
        i = open_[0]
        if sizes[i] <= each:
            shares[i] = sizes[i]
            left -= sizes[i]
            open_.pop(0)
        else:
            for j in open_:
                shares[j] = each
            break
    return shares


def select(question: str, chunks: Sequence[Chunk], embedder: Embedder | None, *, budget: int,
           count_tokens: Callable[[str], int]) -> list[Chunk]:
    """``chunks`` cut to the sentences that score highest for ``question``, in at most ``budget`` tokens in all.

    Args:
        question: what the reader will be asked.
        chunks: the passages it will read, best first; the order and ids are kept.
        embedder: the pre-filter's embedder (None: the lexical share alone scores the sentences).
        budget: tokens of passage text for all chunks together (of ``count_tokens``); 0 keeps them whole.
        count_tokens: the reader's token counter.

    Returns:
        One chunk per input chunk, same id, source and offsets, whose ``text`` is the kept sentences in
        document order joined as in the original, with :data:`GAP` where sentences were left out. The best
        sentence of a chunk is always kept, even past its share.
    """
    if budget <= 0 or not chunks:
        return list(chunks)
    spans = [sentence_spans(c.text) for c in chunks]
    sizes = [count_tokens(c.text) for c in chunks]
    shares = _shares(sizes, budget)
    cut = {i: [c.text[s:e] for s, e in spans[i]] for i, c in enumerate(chunks)
           if shares[i] < sizes[i] and len(spans[i]) > 1}  # chunk index -> its sentences
    scores = iter(sentence_scores(question, [t for sents in cut.values() for t in sents], embedder).tolist())
    out = list(chunks)
    for i, sents in cut.items():
        c = chunks[i]
        score = [next(scores) for _ in sents]
        cost = [count_tokens(s) + 1 for s in sents]
        keep = {k for k, s in enumerate(sents) if _is_heading(s)}
        used = sum(cost[k] for k in keep)
        ranked = [k for k in sorted(range(len(sents)), key=lambda k: -score[k]) if k not in keep]
        for n, k in enumerate(ranked):
            if n == 0 or used + cost[k] <= shares[i]:
                keep.add(k)
                used += cost[k]
        out[i] = dataclasses.replace(c, text=_join(c.text, spans[i], sorted(keep)))
    return out


def _join(text: str, spans: Sequence[tuple[int, int]], kept: Sequence[int]) -> str:
    """The kept sentences with the text between neighbours as it was, and :data:`GAP` over a left-out run."""
    parts: list[str] = []
    for n, k in enumerate(kept):
        s, e = spans[k]
        if n == 0:
            parts.append(GAP.lstrip() if k > 0 else "")
        else:
            prev = kept[n - 1]
            parts.append(text[spans[prev][1]:s] if k == prev + 1 else GAP)
        parts.append(text[s:e])
    if kept and kept[-1] < len(spans) - 1:
        parts.append(GAP.rstrip())
    return "".join(parts).strip()
