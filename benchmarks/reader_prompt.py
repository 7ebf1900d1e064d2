"""What the reader is shown and how it samples, side by side on the same passages.

For seeded questions of the HotpotQA test half and of the sample contract's facts, the pipeline's default
retrieval (pre-filter + conditional re-rank) picks the top 3 chunks once; then each variant reads them with
:func:`assistant.ttrag.generate.stream_answer` and the bundled 1.5B reader:

- ``whole, chain``: whole chunks, llama-cpp-python's sampler chain (round 7);
- ``whole, greedy-grammar``: whole chunks, :class:`assistant.models.llama.GreedyGrammarSampler`;
- ``evidence, greedy-grammar``: chunks cut by :mod:`assistant.ttrag.evidence` (``--budget`` tokens; the
  setting ``evidence_tokens``, off by default).

llama.cpp's KV cache and the RAM cache of saved states are emptied before every read, so each variant
prefills its whole prompt (the system prompt too); the variants take turns in a rotating order on each
question. Per variant: prompt tokens, prefill s, ms per generated token, first visible token s (the
sentence reaches the person), read s, share found, and the short answers that differ from the first
variant's. Means over the questions; ratios against the first variant.

    .venv/bin/python benchmarks/reader_prompt.py --data ../shared/data --out benchmarks/results/reader_prompt.md
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

VARIANTS = ("whole, chain", "whole, greedy-grammar", "evidence, greedy-grammar")


def _questions(data: Path, n_hotpot: int, n_contract: int) -> list[tuple[str, object, list[object]]]:
    from assistant.eval.recall import scored_questions
    from assistant.eval.tasks import TASKS

    out = []
    for name, n in (("hotpot", n_hotpot), ("contract", n_contract)):
        task = TASKS[name](data)
        out.append((name, task, scored_questions(task, n)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--hotpot", type=int, default=10, help="HotpotQA test questions")
    ap.add_argument("--contract", type=int, default=6, help="sample-contract questions")
    ap.add_argument("--budget", type=int, default=300, help="evidence tokens for 3 chunks")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()

    from llama_cpp import Llama

    from assistant.config import PipelineOptions, load_settings
    from assistant.eval.report import machine
    from assistant.models.llama import StoppableLlama
    from assistant.service import ModelStore
    from assistant.ttrag import aliases, conditional, evidence, prefilter
    from assistant.ttrag.context import build_context
    from assistant.ttrag.generate import stream_answer

    opts = PipelineOptions()
    budget = args.budget
    store = ModelStore(load_settings())
    tok, emb, enc, gen = store.tokenizer(), store.embedder(), store.encoder(), store.generator()
    llm = gen.llm  # type: ignore[attr-defined]
    ours = StoppableLlama._init_sampler
    rows: dict[str, list[dict[str, float | str | bool]]] = {v: [] for v in VARIANTS}
    load1 = os.getloadavg()[0]
    turn = 0
    for name, task, questions in _questions(args.data, args.hotpot, args.contract):
        ctx = build_context([task.haystack.document], tok)  # type: ignore[attr-defined]
        for q in questions:
            query = aliases.search_query(q.text, ctx.terms)  # type: ignore[attr-defined]
            hits = prefilter.prefilter(ctx, query, emb, shortlist=opts.shortlist, top_k=opts.prefilter_top_k)
            chunks = [h.chunk for h in conditional.rerank(query, hits, enc, mode=opts.ce_mode, weight=opts.ce_weight,
                                                          top_k=opts.ce_top_k, pooling=opts.ce_pooling)]
            order = VARIANTS[turn % 3:] + VARIANTS[:turn % 3]
            turn += 1
            for variant in order:
                StoppableLlama._init_sampler = Llama._init_sampler if "chain" in variant else ours  # type: ignore[method-assign]
                llm.cache.cache_state.clear()
                llm.reset()
                t0 = time.perf_counter()
                shown = (evidence.select(q.text, chunks, emb, budget=budget, count_tokens=gen.count_tokens)
                         if variant.startswith("evidence") else chunks)
                seen: list[float] = []

                def stamp(_text: str, seen: list[float] = seen, t0: float = t0) -> None:
                    seen.append(time.perf_counter() - t0)

                reading = stream_answer(gen, q.text, shown, max_tokens=opts.max_answer_tokens, on_text=stamp)
                u = gen.usage[-1]
                rows[variant].append({"task": name, "q": q.text, "prompt": u.prompt_tokens, "prefill": u.prefill_s,
                                      "ms_token": 1000 * (u.total_s - u.prefill_s) / max(u.completion_tokens, 1),
                                      "visible": seen[0] if seen else time.perf_counter() - t0,
                                      "read": time.perf_counter() - t0, "found": reading.found,
                                      "short": reading.short_answer if reading.found else ""})
                print(f"{name:8s} {variant:26s} {u.prompt_tokens:5d} tok  prefill {u.prefill_s:5.2f}  "
                      f"visible {rows[variant][-1]['visible']:5.2f}  {reading.short_answer[:30]!r}", flush=True)
    StoppableLlama._init_sampler = ours  # type: ignore[method-assign]

    base = rows[VARIANTS[0]]
    n = len(base)

    def mean(v: str, key: str) -> float:
        return statistics.mean(float(r[key]) for r in rows[v])

    lines = [f"# Reader prompt and sampler, side by side ({machine()})", "",
             f"Command: `python benchmarks/reader_prompt.py --hotpot {args.hotpot} --contract {args.contract}"
             f" --budget {args.budget}`  ",
             f"{n} questions ({args.hotpot} HotpotQA test, {args.contract} sample contract), the same top-3 chunks "
             f"for every variant; caches emptied before each read; evidence budget {budget} tokens; load average "
             f"{load1:.1f} at the start.", "",
             "| variant | prompt tokens | prefill s | ms / generated token | first visible token s (mean / p50) | "
             "read s | found | short answers unlike the first row's |",
             "|---|---|---|---|---|---|---|---|"]
    for v in VARIANTS:
        differ = sum(1 for a, b in zip(rows[v], base, strict=True) if a["short"] != b["short"])
        vis = [float(r["visible"]) for r in rows[v]]
        ratio = "" if v == VARIANTS[0] else f" ({mean(v, 'visible') / mean(VARIANTS[0], 'visible'):.2f}x)"
        lines.append(f"| {v} | {mean(v, 'prompt'):.0f} | {mean(v, 'prefill'):.2f} | {mean(v, 'ms_token'):.0f} | "
                     f"{statistics.mean(vis):.2f} / {statistics.median(vis):.2f}{ratio} | {mean(v, 'read'):.2f} | "
                     f"{sum(bool(r['found']) for r in rows[v])}/{n} | {differ} |")
    lines += ["", "Short answers that differ (question: " + " / ".join(VARIANTS) + "):", ""]
    for i, r in enumerate(base):
        answers = [str(rows[v][i]["short"]) or "(not found)" for v in VARIANTS]
        if len(set(answers)) > 1:
            lines.append(f"- {r['q']}: " + " / ".join(answers))
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
