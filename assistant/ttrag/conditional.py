"""Conditional embeddings (TTRAG §3.2): re-rank the pre-filter's candidates with a joint query+chunk pass.

``mode="alone"`` ranks by the cosine of the conditional embeddings, as the paper does. docs/design.md §5
measured that, with the bundled MiniLM encoder, this lowers recall@3 on HotpotQA; ``fused`` adds the
z-scored CE similarity to the z-scored pre-filter score with weight ``weight``; ``off`` keeps the
pre-filter order. The default is chosen by the benchmark in ``benchmarks/``.
"""

from __future__ import annotations

import numpy as np

from assistant.models.base import ConditionalEncoder
from assistant.records import Hit


def zscore(x: np.ndarray) -> np.ndarray:
    """(x - mean) / std within the candidates; zeros when all are equal."""
    std = float(np.std(x))
    return np.zeros_like(x) if std < 1e-9 else (x - np.mean(x)) / std


def rerank(query: str, hits: list[Hit], encoder: ConditionalEncoder | None, *, mode: str = "fused",
           weight: float = 0.25, top_k: int = 3, pooling: str = "mean") -> list[Hit]:
    """Order ``hits`` by conditional-embedding similarity with ``query`` and keep ``top_k``.

    Returns:
        Hits, best first, whose ``scores`` add ``ce`` (cosine in [-1, 1]) and ``rerank`` (the final score).
    """
    if not hits:
        return []
    pre = np.array([h.scores.get("prefilter", h.score) for h in hits], dtype=np.float64)
    if mode == "off" or encoder is None:
        order = np.argsort(-pre, kind="stable")
        return [Hit(hits[i].chunk, float(pre[i]), {**hits[i].scores, "rerank": float(pre[i])})
                for i in order[:top_k]]
    ce = encoder.similarities(query, [h.chunk.indexed_text for h in hits], pooling=pooling).astype(np.float64)
    final = ce if mode == "alone" else (1 - weight) * zscore(pre) + weight * zscore(ce)
    order = np.argsort(-final, kind="stable")
    return [Hit(hits[i].chunk, float(final[i]), {**hits[i].scores, "ce": float(ce[i]), "rerank": float(final[i])})
            for i in order[:top_k]]
