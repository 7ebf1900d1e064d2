"""Answer accuracy of each system with the LLM on a seeded subset (TTRAG §4 baselines, docs/design.md §10).

Systems, all reading with the same answer prompt (answer or NOT FOUND) and the same model:

- ``stuff``: the pre-filter's top 10 backfilled with random chunks up to ``stuff_tokens``, shuffled, one
  read (the paper's "stuff the context window" baseline).
- ``retrieval top-3``: the pre-filter's top 3, one read ("CE filtering only" = traditional retrieval).
- ``dense-everything top-3``: cosine over every chunk, top 3, one read (traditional RAG).
- ``+ CE (paper)``: the pre-filter's 10 re-ranked by conditional embeddings alone, top 3, one read.
- ``+ CE + rewrite (paper)``: the method without routing: CE alone, rewrite loop, top-10 fallback.
- ``+ rewrite (<defaults>, no router)``: the product's settings without the router.
- ``full pipeline (<defaults>)``: the product as shipped: router, pre-filter, CE as configured, rewrites.

Reads are deterministic (temperature 0), so an LLM call whose request was already made replays the
recorded reply and its recorded seconds (:class:`ReplayGenerator`): systems that read the same passages
share the work, and every system's LLM time is still the time that call took. The full pipeline runs
first, so its per-stage timings are all measured, none replayed.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from assistant.config import PipelineOptions
from assistant.eval.hotpot import Question, is_gold
from assistant.eval.metrics import contains, exact_match, gold_ranks, key_match, latency_stats, token_f1
from assistant.models.base import GenerationRequest, Generator
from assistant.records import Chunk, Usage
from assistant.ttrag import conditional, decision, grounding, pipeline
from assistant.ttrag.context import Context
from assistant.ttrag.generate import stream_answer
from assistant.ttrag.pipeline import Models  # generator (a ReplayGenerator here), embedder, encoder
from assistant.ttrag.prefilter import chunk_embeddings, prefilter


class ReplayGenerator(Generator):
    """Wraps a generator; a request seen before replays its reply, its recorded :class:`Usage` and the
    reader's P(true) at each JSON boolean and P(yes) at each yes or no (:attr:`Generator.boolean_probs`,
    :attr:`Generator.yes_probs`)."""

    def __init__(self, inner: Generator) -> None:
        super().__init__()
        self.inner = inner
        self.seen: dict[str, tuple[list[str], Usage, list[float], list[float]]] = {}
        self.replayed = 0

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    @property
    def context_window(self) -> int:
        """The wrapped reader's: without it the evaluation's reads were never cut to fit (a CUAD fallback read
        of ten long clauses asked for 4,540 tokens of a 4,096-token window)."""
        return self.inner.context_window

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        key = json.dumps([request.system, request.user, request.max_tokens, request.json_schema], sort_keys=True)
        self.boolean_probs, self.yes_probs = [], []
        if key in self.seen:
            pieces, usage, probs, yes = self.seen[key]
            self.replayed += 1
            self.boolean_probs = list(probs)  # known before the reply, as a live read knows them by then
            self.yes_probs = list(yes)
            yield from pieces
            self.usage.append(dataclasses.replace(usage, purpose=request.purpose))
            return
        pieces = []
        start = len(self.inner.usage)
        for piece in self.inner.stream(request):
            pieces.append(piece)
            self.take_probs(self.inner)
            yield piece
        usage = self.inner.usage[start] if len(self.inner.usage) > start else Usage(request.purpose, 0, 0, 0, 0)
        self.take_probs(self.inner)
        self.seen[key] = (pieces, usage, list(self.boolean_probs), list(self.yes_probs))
        self.usage.append(usage)


@dataclass
class Outcome:
    """One system's reply to one question, with what it read and what it cost."""

    question: str
    reply: str
    found: bool
    answerable: bool
    supported: bool  # every content word of the short answer stands in a passage the answer cites
    first_token_s: float
    em: float
    f1: float
    contained: float
    first_read_gold: list[int]  # gold ranks within the first passages read (0 = not read)
    any_read_gold: list[int]    # 1 when a gold passage was in any passages read, else 0
    llm_calls: int
    prompt_tokens: int
    retrieval_s: float
    llm_s: float
    stages: dict[str, Any] = field(default_factory=dict)  # seconds per stage, and "route"
    key: float = 0.0  # the short answer states the gold's key (metrics.key_match)

    @property
    def total_s(self) -> float:
        return self.retrieval_s + self.llm_s


@dataclass(frozen=True)
class Read:
    """What a system returned: its short answer ('' when not found), the passages each LLM read saw,
    the passages its answer cites, retrieval seconds, seconds to the first token shown, and stages."""

    short_answer: str
    found: bool
    reads: list[list[Chunk]]
    cited: list[Chunk]
    retrieval_s: float
    first_token_s: float
    stages: dict[str, Any] = field(default_factory=dict)


System = Callable[[Context, Question, Models, PipelineOptions], Read]


def _read(ctx: Context, q: Question, m: Models, opts: PipelineOptions, chunks: list[Chunk],
          retrieval_s: float) -> Read:
    t0 = time.perf_counter()
    first: list[float] = []
    reading = stream_answer(m.generator, q.text, chunks, max_tokens=opts.max_answer_tokens,
                            on_text=lambda s: first.append(time.perf_counter() - t0) if not first else None,
                            min_coverage=opts.min_coverage, min_found_p=opts.min_found_p, min_yes_p=opts.min_yes_p,
                            rules_off=opts.answer_rules_off,
                                decision_model=decision.active(opts.answer_decision),
                                decision_threshold=opts.decision_threshold)
    cited = [chunks[n - 1] for n in reading.supported_by]
    return Read(reading.short_answer if reading.found else "", reading.found, [chunks], cited, retrieval_s,
                retrieval_s + (first[0] if first else time.perf_counter() - t0))


def retrieval_top3(ctx: Context, q: Question, m: Models, opts: PipelineOptions) -> Read:
    t0 = time.perf_counter()
    hits = prefilter(ctx, q.text, m.embedder, shortlist=opts.shortlist, fusion=opts.fusion,
                     top_k=opts.prefilter_top_k)
    return _read(ctx, q, m, opts, [h.chunk for h in hits[:opts.ce_top_k]], time.perf_counter() - t0)


def ce_top3(ctx: Context, q: Question, m: Models, opts: PipelineOptions) -> Read:
    t0 = time.perf_counter()
    hits = prefilter(ctx, q.text, m.embedder, shortlist=opts.shortlist, fusion=opts.fusion,
                     top_k=opts.prefilter_top_k)
    top = conditional.rerank(q.text, hits, m.encoder, mode="alone", top_k=opts.ce_top_k)
    return _read(ctx, q, m, opts, [h.chunk for h in top], time.perf_counter() - t0)


def dense_everything_top3(ctx: Context, q: Question, m: Models, opts: PipelineOptions) -> Read:
    t0 = time.perf_counter()
    assert m.embedder is not None, "dense-everything needs the embedding model"
    matrix = chunk_embeddings(ctx, list(range(len(ctx.chunks))), m.embedder)
    sims = matrix @ m.embedder.embed([q.text])[0]
    top = np.argsort(-sims, kind="stable")[:opts.ce_top_k]
    return _read(ctx, q, m, opts, [ctx.chunks[i] for i in top], time.perf_counter() - t0)


def stuffer(budget_tokens: int, seed: int) -> System:
    """The stuffing baseline: top 10 plus random chunks until ``budget_tokens`` (chunk tokens), shuffled."""

    def stuff(ctx: Context, q: Question, m: Models, opts: PipelineOptions) -> Read:
        t0 = time.perf_counter()
        hits = prefilter(ctx, q.text, m.embedder, shortlist=opts.shortlist, fusion=opts.fusion, top_k=10)
        chosen = [h.chunk for h in hits]
        used = sum(c.n_tokens for c in chosen)
        rng = random.Random(f"{seed}:{q.id}")
        taken = {c.id for c in chosen}
        for i in rng.sample(range(len(ctx.chunks)), min(len(ctx.chunks), 4 * budget_tokens // 100 + 10)):
            c = ctx.chunks[i]
            if i in taken or used + c.n_tokens > budget_tokens:
                continue
            chosen.append(c)
            taken.add(i)
            used += c.n_tokens
        rng.shuffle(chosen)
        return _read(ctx, q, m, opts, chosen, time.perf_counter() - t0)

    return stuff


def pipeline_system(**changes: object) -> System:
    """The TTRAG pipeline (:func:`assistant.ttrag.pipeline.ask`) with option ``changes``."""

    def run(ctx: Context, q: Question, m: Models, opts: PipelineOptions) -> Read:
        o = dataclasses.replace(opts, **changes)  # type: ignore[arg-type]
        ans = pipeline.ask(ctx, q.text, m, o)
        by_id = {c.id: c for c in ctx.chunks}
        reads: list[list[Chunk]] = []
        last_hits: list[Chunk] = []
        for step in ans.trace:
            detail: dict[str, Any] = dict(step)
            if detail["stage"] == "conditional":
                last_hits = [by_id[int(h["chunk"])] for h in detail["hits"]]
            elif detail["stage"] == "answer" and "(same passages" not in str(detail.get("reply", "")):
                reads.append(last_hits)
            elif detail["stage"] == "fallback":
                reads.append([by_id[int(i)] for i in detail["chunks"]])
            elif detail["stage"] == "needle_lookup":
                last_hits = [by_id[s.chunk_id] for s in ans.sources]
        if not reads:
            reads = [[by_id[s.chunk_id] for s in ans.sources]]
        stages = {k: v for k, v in ans.timings.items() if k not in ("total", "first_token")}
        retrieval = sum(v for k, v in stages.items() if k in ("prefilter", "conditional", "needle_lookup"))
        cited = [by_id[ans.sources[n - 1].chunk_id] for n in ans.supported_by]
        return Read(ans.short_answer if ans.found else "", ans.found, reads, cited, retrieval,
                    ans.timings.get("first_token", ans.timings["total"]), {**stages, "route": ans.route})

    return run


def defaults_label(opts: PipelineOptions | None = None) -> str:
    """The shipped retrieval settings in the recall tables' names, e.g. ``rrf20 + CE fused.25 maxsim``."""
    o = opts or PipelineOptions()
    pre = {"rrf": "rrf", "dense": "dense", "bm25": "bm25"}[o.fusion] + str(o.shortlist)
    ce = "CE off" if o.ce_mode == "off" else f"CE {o.ce_mode}" + \
        (f".{round(o.ce_weight * 100):02d}".rstrip("0") if o.ce_mode == "fused" else "") + f" {o.ce_pooling}"
    return f"{pre} + {ce}"


def full_pipeline_name() -> str:
    return f"full pipeline (default: {defaults_label()})"


def default_systems(stuff_tokens: int, seed: int) -> dict[str, System]:
    """Systems in run order (the full pipeline first, so its timings are measured, not replayed)."""
    return {full_pipeline_name(): pipeline_system(),
            "evidence selection (full pipeline, 300 tokens)": pipeline_system(evidence_tokens=300),
            f"+ rewrite ({defaults_label()}, no router)": pipeline_system(router=False),
            "retrieval top-3 (pre-filter)": retrieval_top3,
            "+ CE (paper, alone)": ce_top3,
            "+ CE + rewrite (paper, no router)": pipeline_system(router=False, ce_mode="alone"),
            "dense-everything top-3": dense_everything_top3,
            f"stuff ({stuff_tokens:,} tokens)": stuffer(stuff_tokens, seed)}


def run_answers(ctx: Context, questions: Sequence[Question], models: Models, systems: dict[str, System],
                opts: PipelineOptions | None = None, *,
                tick: Callable[[str], None] = lambda s: None) -> dict[str, list[Outcome]]:
    """Every system on every question; returns {system: [Outcome per question]}."""
    opts = opts or PipelineOptions()
    gen = models.generator
    out: dict[str, list[Outcome]] = {name: [] for name in systems}
    for q in questions:
        for name, system in systems.items():
            start = len(gen.usage)
            r = system(ctx, q, models, opts)
            used = gen.usage[start:]
            first = gold_ranks(r.reads[0] if r.reads else [], q.gold_spans, is_gold)
            seen = [c for read in r.reads for c in read]
            any_read = [1 if rank else 0 for rank in gold_ranks(seen, q.gold_spans, is_gold)]
            text = r.short_answer if r.found else ""
            supported = r.found and bool(supporting(text, r.cited) if r.cited else False)
            out[name].append(Outcome(q.id, text if r.found else "NOT FOUND", r.found, bool(q.answers), supported,
                                     r.first_token_s, exact_match(text, q.answers), token_f1(text, q.answers),
                                     contains(text, q.answers), first, any_read, len(used),
                                     sum(u.prompt_tokens for u in used), r.retrieval_s,
                                     sum(u.total_s for u in used), r.stages, key_match(text, q.answers)))
            tick(name)
    return out


def run_answers_each(asked: Sequence[tuple[Context, Question]], models: Models, systems: dict[str, System],
                     opts: PipelineOptions | None = None, *,
                     tick: Callable[[str], None] = lambda s: None) -> dict[str, list[Outcome]]:
    """:func:`run_answers` for questions each asked of its own context (a contract alone); outcomes in the
    order of ``asked``."""
    out: dict[str, list[Outcome]] = {name: [] for name in systems}
    for ctx, q in asked:
        for name, rows in run_answers(ctx, [q], models, systems, opts, tick=tick).items():
            out[name].extend(rows)
    return out


def supporting(short_answer: str, cited: Sequence[Chunk]) -> bool:
    """True when the cited passages hold every content word of the short answer (yes/no counts as held:
    its words are the question's)."""
    if short_answer.strip().lower() in ("yes", "no"):
        return True
    wanted = grounding.terms(short_answer)
    return bool(wanted) and wanted <= grounding.terms(" ".join(c.text for c in cited))


def summarize_answers(outcomes: dict[str, list[Outcome]]) -> dict[str, dict[str, Any]]:
    """Per system: EM, F1, containment, NOT FOUND share, first-read R@3, gold-ever-read, calls, tokens,
    latency stats (retrieval, LLM, end to end) and, when the system reports them, per-stage stats."""
    res: dict[str, dict[str, Any]] = {}
    for name, rows in outcomes.items():
        if not rows:
            continue
        flat_first = [r for o in rows for r in o.first_read_gold]
        flat_any = [r for o in rows for r in o.any_read_gold]
        stages: dict[str, list[float]] = {}
        for o in rows:
            for k, v in o.stages.items():
                if isinstance(v, float):
                    stages.setdefault(k, []).append(v)
        answerable = [o for o in rows if o.answerable]
        unanswerable = [o for o in rows if not o.answerable]
        found = [o for o in rows if o.found]
        res[name] = {
            "n": len(rows), "EM": _mean([o.em for o in answerable]), "F1": _mean([o.f1 for o in answerable]),
            "contained": _mean([o.contained for o in answerable]),
            "key": _mean([o.key for o in answerable]),
            "not_found": _mean([not o.found for o in answerable]) if answerable else None,
            "not_found_unanswerable": _mean([not o.found for o in unanswerable]) if unanswerable else None,
            "supported": _mean([o.supported for o in found]) if found else None,
            "first_token_s": latency_stats([o.first_token_s for o in rows]),
            "R@3 first read": sum(1 for r in flat_first if 0 < r <= 3) / len(flat_first) if flat_first else 0.0,
            "gold ever read": sum(flat_any) / len(flat_any) if flat_any else 0.0,
            "llm_calls": float(np.mean([o.llm_calls for o in rows])),
            "prompt_tokens": float(np.mean([o.prompt_tokens for o in rows])),
            "retrieval_s": latency_stats([o.retrieval_s for o in rows]),
            "llm_s": latency_stats([o.llm_s for o in rows]),
            "total_s": latency_stats([o.total_s for o in rows]),
            "stages": {k: latency_stats(v) for k, v in stages.items()},
            "routes": {r: sum(1 for o in rows if o.stages.get("route") == r)
                       for r in {str(o.stages.get("route")) for o in rows if "route" in o.stages}},
        }
    return res


def _mean(values: Sequence[float | bool]) -> float | None:
    return float(np.mean([float(v) for v in values])) if values else None
