"""Retrieval recall of every stage and system on a task, without the LLM (docs/design.md §10).

Systems, each ranking the top 10 chunks for a question:

- ``bm25``: BM25 over every chunk (the lexical stage alone).
- ``dense-everything``: MiniLM cosine over every chunk ("traditional RAG", docs/design.md §4); its one-off cost
  of embedding the whole haystack is reported apart.
- ``dense10`` / ``rrf20``: the pre-filter (BM25 top 10 re-scored by MiniLM, the default; or BM25 top 20
  fused with MiniLM ranks by RRF).
- ``<pre-filter> + CE <mode> <pooling> <layer>``: conditional embeddings (TTRAG §3.2) re-ranking the
  pre-filter's 10: ``alone`` (the paper) or ``fused w`` = (1-w)·z(pre-filter) + w·z(CE); pooling ``mean``
  (the paper) or ``maxsim``; hidden layer ``L6`` (last, the paper) or earlier ones.
- ``exact scan``: for key-value tasks, the chunks holding the exact key (the router's needle route).

Questions are split into seeded dev and test halves; variants are chosen on dev and reported on both.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from assistant.eval.hotpot import Question, is_gold
from assistant.eval.metrics import gold_ranks, latency_stats, recall_at, reciprocal_rank
from assistant.eval.tasks import Task
from assistant.models.base import ConditionalEncoder, Embedder, JointStates, pooled_similarities
from assistant.records import Chunk
from assistant.ttrag.compute import needle
from assistant.ttrag.conditional import zscore
from assistant.ttrag.context import Context, chunk_at
from assistant.ttrag.prefilter import bm25_search, chunk_embeddings, prefilter

PREFILTERS = {"dense10": {"fusion": "dense", "shortlist": 10}, "rrf20": {"fusion": "rrf", "shortlist": 20}}
CE_WEIGHTS = {"alone": 1.0, "fused.25": 0.25, "fused.5": 0.5, "fused.75": 0.75}
TOP = 10


@dataclass
class RecallRun:
    """Gold ranks per (system, split) and per-query seconds per system."""

    ranks: dict[tuple[str, str], list[list[int]]] = field(default_factory=lambda: defaultdict(list))
    seconds: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    one_off: dict[str, float] = field(default_factory=dict)

    def add(self, system: str, split: str, ranked: Sequence[Chunk], q: Question, secs: float | None = None) -> None:
        self.ranks[(system, split)].append(gold_ranks(ranked[:TOP], q.gold_spans, is_gold))
        if secs is not None:
            self.seconds[system].append(secs)


def split_questions(questions: Sequence[Question], limit: int, seed: int) -> list[tuple[Question, str]]:
    """A seeded sample of ``limit`` questions, the first half of the shuffled order ``dev``, the rest ``test``."""
    order = list(range(len(questions)))
    random.Random(seed).shuffle(order)
    order = order[:limit]
    return [(questions[i], "dev" if n < len(order) // 2 else "test") for n, i in enumerate(order)]


def scored_questions(task: Task, n: int, seed: int = 0, half: str = "test") -> list[Question]:
    """The first ``n`` questions of ``task``'s seeded ``half`` (:func:`split_questions` over all of them), or
    its first ``n`` when the task is not split (``Task.split`` False: every question is scored). A task
    that puts each question in its half itself (``Question.half``, e.g. by document) keeps its order."""
    pool = task.haystack.questions
    if pool and all(q.half for q in pool):
        return [q for q in pool if q.half == half][:n]
    return [q for q, split in split_questions(pool, len(pool), seed) if split == half or not task.split][:n]


def layer_states(encoder: ConditionalEncoder, query: str, chunks: Sequence[str],
                 layers: Sequence[int]) -> list[JointStates]:
    """Joint states at ``layers`` in one pass when the encoder supports it (else the last layer only)."""
    at = getattr(encoder, "joint_states_at", None)
    if at is not None:
        return list(at(query, chunks, layers))
    return [encoder.joint_states(query, chunks)]


def layer_names(encoder: ConditionalEncoder, layers: Sequence[int]) -> list[str]:
    """``L<n>`` labels (1-based transformer layer; L0 = embedding output) for hidden-state indices."""
    model = getattr(encoder, "model", None)
    n = getattr(getattr(model, "config", None), "num_hidden_layers", None) or \
        getattr(getattr(model, "config", None), "n_layers", None)
    if n is None:
        return ["last"]
    return [f"L{n + 1 + i if i < 0 else i}" for i in layers]


def ce_scores(states: JointStates) -> dict[str, np.ndarray]:
    """CE similarity per candidate for each pooling: ``mean`` (cosine of masked means) and ``maxsim``."""
    return {p: pooled_similarities(states, p).astype(np.float64) for p in ("mean", "maxsim")}


def run_recall(task: Task, ctx: Context, embedder: Embedder | None, encoder: ConditionalEncoder | None, *,
               limit: int = 500, seed: int = 0, layers: Sequence[int] = (-1, -2, -4),
               dense_everything: bool = True, ce_prefilters: Sequence[str] = ("dense10", "rrf20"),
               tick: Callable[[], None] = lambda: None) -> tuple[RecallRun, list[tuple[Question, str]]]:
    """Rank the top 10 for each sampled question with every system and record the gold ranks.

    Args:
        task: the haystack and its questions; ``ctx`` must be built from ``task.haystack.document``.
        embedder: MiniLM (None: BM25 and exact scan only).
        encoder: conditional encoder (None: no CE variants).
        limit: questions (seeded sample); seed: sample and split seed.
        layers: hidden-state indices tried for CE (-1 = last, the paper).
        dense_everything: embed every chunk first (one-off cost recorded in ``one_off``).
        tick: called once per question (progress bar).

    Returns:
        The run and the (question, split) list.
    """
    run = RecallRun()
    sample = split_questions(task.haystack.questions, limit, seed)
    all_ids = list(range(len(ctx.chunks)))
    matrix = None
    if dense_everything and embedder is not None:
        t0 = time.perf_counter()
        matrix = chunk_embeddings(ctx, all_ids, embedder)
        run.one_off["dense-everything: embed every chunk"] = time.perf_counter() - t0
    names = layer_names(encoder, layers) if encoder is not None else []
    for q, split in sample:
        t0 = time.perf_counter()
        lexical = [ctx.chunks[i] for i, _ in bm25_search(ctx, q.text, TOP)]
        run.add("bm25", split, lexical, q, time.perf_counter() - t0)
        if task.key_targets and q.key:
            t0 = time.perf_counter()
            found = needle.find(ctx.documents, q.key, limit=3)
            ranked = list(dict.fromkeys(chunk_at(ctx, m.source, m.start) for m in found))
            run.add("exact scan", split, ranked, q, time.perf_counter() - t0)
        if matrix is not None and embedder is not None:
            t0 = time.perf_counter()
            sims = matrix @ embedder.embed([q.text])[0]
            top = np.argpartition(-sims, TOP)[:TOP] if len(sims) > TOP else np.arange(len(sims))
            ranked = [ctx.chunks[i] for i in top[np.argsort(-sims[top], kind="stable")]]
            run.add("dense-everything", split, ranked, q, time.perf_counter() - t0)
        if embedder is None:
            tick()
            continue
        for pname, kw in PREFILTERS.items():
            t0 = time.perf_counter()
            hits = prefilter(ctx, q.text, embedder, top_k=TOP, **kw)  # type: ignore[arg-type]
            run.add(pname, split, [h.chunk for h in hits], q, time.perf_counter() - t0)
            if encoder is None or pname not in ce_prefilters or not hits:
                continue
            t0 = time.perf_counter()
            per_layer = layer_states(encoder, q.text, [h.chunk.indexed_text for h in hits], layers)
            run.seconds["CE joint pass (10 pairs)"].append(time.perf_counter() - t0)
            pre = np.array([h.score for h in hits])
            for lname, states in zip(names, per_layer, strict=False):
                for pooling, ce in ce_scores(states).items():
                    for mode, w in CE_WEIGHTS.items():
                        score = ce if w == 1.0 else (1 - w) * zscore(pre) + w * zscore(ce)
                        ranked = [hits[j].chunk for j in np.argsort(-score, kind="stable")]
                        run.add(f"{pname} + CE {mode} {pooling} {lname}", split, ranked, q)
        tick()
    return run, sample


def summarize(run: RecallRun) -> dict[str, dict[str, dict[str, float]]]:
    """{system: {split: {R@1, R@3, R@10, both@3, MRR, n}}} with ``all`` = dev + test."""
    out: dict[str, dict[str, dict[str, float]]] = defaultdict(dict)
    systems = sorted({s for s, _ in run.ranks})
    for system in systems:
        for split in ("dev", "test", "all"):
            rs = run.ranks.get((system, "dev"), []) + run.ranks.get((system, "test"), []) if split == "all" \
                else run.ranks.get((system, split), [])
            if rs:
                out[system][split] = recall_metrics(rs)
        if run.seconds.get(system):
            out[system]["latency"] = latency_stats(run.seconds[system])
    return dict(out)


def recall_metrics(per_question: Sequence[Sequence[int]]) -> dict[str, float]:
    """R@1/3/10 over all gold passages, all@3 (every gold passage of a question in the top 3), MRR."""
    flat = [r for q in per_question for r in q]
    return {"R@1": recall_at(flat, 1), "R@3": recall_at(flat, 3), "R@10": recall_at(flat, 10),
            "all@3": sum(all(0 < r <= 3 for r in q) for q in per_question) / len(per_question),
            "MRR": float(np.mean([reciprocal_rank(q) for q in per_question])), "n": float(len(per_question))}
