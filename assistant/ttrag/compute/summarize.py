"""Summaries of a whole long document from salient chunks spread over it (no map-reduce over 1M tokens)."""

from __future__ import annotations

import math
import re
from collections import Counter

from assistant.records import Chunk

_WORD = re.compile(r"[A-Za-z][A-Za-z-]{3,}")


def salient_chunks(chunks: list[Chunk], *, n: int = 6) -> list[Chunk]:
    """The first chunk plus, in each of ``n - 1`` equal stretches of the text, the chunk richest in the
    document's key terms (frequent across the document, rare within single chunks: tf x idf)."""
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
