"""What a whole document is about: its sentences ranked by centrality (the TF-IDF cosine of each sentence
to the centroid of all of them, so a sentence about what many sentences discuss ranks high and an advert or
an aside ranks low), with a mild preference for the opening, chosen with diversity (maximal marginal
relevance) so that three picks state three things."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from assistant.documents.chunk import whole_sentence_spans
from assistant.records import Document
from assistant.ttrag.compute.summarize.sidematter import side_share
from assistant.ttrag.compute.summarize.structure import TRANSCRIPT_TAG, Heading, heading_level, is_outline
from assistant.ttrag.grounding import terms

POSITION_WEIGHT = 0.3  # share of a sentence's score that depends on its place (chosen on the dev half)
POSITION_SCALE = 10.0  # sentences after which the place's part of the score has halved
DIVERSITY = 0.3  # maximal marginal relevance: weight of the similarity to a sentence picked (dev half)
MAX_SENTENCES = 6000  # sentences scored at most (evenly spaced beyond: an 800-page handbook)
VOCABULARY = 4000  # most frequent stems kept as features


def _prose(sentence: str) -> bool:
    """A sentence of running text: 8-80 words, mostly letters, not a heading or a contents line."""
    words = sentence.split()
    if not 8 <= len(words) <= 80 or heading_level(sentence) or is_outline(sentence):
        return False
    letters = sum(ch.isalpha() for ch in sentence)
    return letters >= 0.6 * len(sentence.replace(" ", "")) and len(TRANSCRIPT_TAG.findall(sentence)) <= 1


def candidate_sentences(doc: Document, side: Sequence[tuple[int, int]] = (),
                        hs: Sequence[Heading] = ()) -> list[tuple[int, int]]:
    """The spans of ``doc``'s sentences of running text outside side matter and headings (``hs``: a heading
    set by layout alone can read like a sentence, "Is Mitigation Funding Included in an FMAG Declaration?")."""
    lines = sorted((h.start, h.body) for h in hs)
    out = []
    for s, e in whole_sentence_spans(doc.text):
        if _prose(doc.text[s:e]) and side_share(side, s, e) < 0.5 and side_share(lines, s, e) < 0.5:
            out.append((s, e))
    if len(out) > MAX_SENTENCES:
        step = len(out) / MAX_SENTENCES
        out = [out[int(i * step)] for i in range(MAX_SENTENCES)]
    return out


def _matrix(texts: Sequence[str]) -> np.ndarray:
    """L2-normalised TF-IDF rows over stemmed content words (words in over half the rows dropped)."""
    bags = [terms(re.sub(r"\d+", " ", t)) for t in texts]
    df: Counter[str] = Counter()
    for b in bags:
        df.update(b)
    n = len(texts)
    vocab = [w for w, k in df.most_common(VOCABULARY) if k <= max(1, n // 2) or n < 4]
    index = {w: i for i, w in enumerate(vocab)}
    m = np.zeros((n, max(1, len(vocab))), dtype=np.float32)
    for r, b in enumerate(bags):
        for w in b:
            j = index.get(w)
            if j is not None:
                m[r, j] = math.log(n / df[w]) + 1.0
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)


def central_sentences(doc: Document, *, side: Sequence[tuple[int, int]] = (), hs: Sequence[Heading] = (), n: int = 6,
                      position_weight: float = POSITION_WEIGHT, diversity: float = DIVERSITY) -> list[tuple[int, int]]:
    """The ``n`` most central sentences of ``doc`` (spans, most central first), side matter left out.

    Args:
        doc: the document.
        side: side-matter spans (:func:`~.sidematter.side_spans`).
        hs: the document's headings (:func:`~.structure.headings`), never picked.
        n: sentences wanted.
        position_weight: how much a sentence's place counts: its score is the cosine to the centroid times
            ``1 - w + w / (1 + i / POSITION_SCALE)`` for the ``i``-th candidate sentence.
        diversity: the maximal-marginal-relevance penalty on the similarity to sentences already picked.
    """
    spans = candidate_sentences(doc, side, hs)
    if not spans:
        return []
    x = _matrix([doc.text[s:e] for s, e in spans])
    centroid = x.mean(axis=0)
    centroid /= max(float(np.linalg.norm(centroid)), 1e-9)
    place = np.array([1 - position_weight + position_weight / (1 + i / POSITION_SCALE) for i in range(len(spans))])
    score = (x @ centroid) * place
    picked: list[int] = []
    closest = np.zeros(len(spans), dtype=np.float32)
    for _ in range(min(n, len(spans))):
        value = score - diversity * closest
        if picked:
            value[picked] = -np.inf
        best = int(np.argmax(value))
        picked.append(best)
        closest = np.maximum(closest, x @ x[best])
    return [spans[i] for i in picked]
