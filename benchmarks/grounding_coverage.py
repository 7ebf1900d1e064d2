"""How often the passages of the first read mention every name of the question, answerable vs not.

The grounding check (``assistant.ttrag.grounding``) counts an answer only when the passages read mention at
least ``pipeline.min_coverage`` of the question's key terms (its names, numbers and quoted words). This
script measures, without the LLM, what each threshold would let through at the first read (the re-ranker's
top 3) and at the fallback (the pre-filter's top 10), on HotpotQA questions whose gold paragraphs are in the
haystack (answerable), the same questions with them removed (unanswerable) and the sample contract.

A second table asks whether a retrieval score would tell the two apart where the names cannot: each
threshold pair lets an answer through only when the first read meets the coverage *and* its best passage's
dense cosine with the question (the pre-filter's MiniLM) reaches the given value.

    python benchmarks/grounding_coverage.py --n 40 --out benchmarks/results/grounding_coverage.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

THRESHOLDS = (0.5, 0.75, 1.0)
DENSE = (0.0, 0.4, 0.45, 0.5, 0.55)


def main() -> int:
    from assistant.config import PipelineOptions, Settings
    from assistant.eval.recall import scored_questions
    from assistant.eval.report import machine
    from assistant.eval.tasks import TASKS
    from assistant.service import ModelStore
    from assistant.ttrag import aliases, conditional, grounding, prefilter
    from assistant.ttrag.context import build_context

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--n", type=int, default=40, help="questions per task (the first of the seeded test half)")
    ap.add_argument("--tasks", default="hotpot,hotpot-unanswerable,contract")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    store = ModelStore(Settings())
    embedder, encoder, o = store.embedder(), store.encoder(), PipelineOptions()
    lines = [
        "# Key-term coverage of the passages read: answerable vs unanswerable", "",
        f"Command: `python benchmarks/grounding_coverage.py --n {args.n}`  ", f"Machine: {machine()}  ",
        f"Date: {time.strftime('%Y-%m-%d %H:%M')}; default pipeline (rrf20 + CE fused .25 maxsim), no LLM.", "",
        "Share of questions whose passages mention at least the given share of the question's key terms: "
        "an answer can only count as found above the threshold (`pipeline.min_coverage`, default 0.5). "
        "For unanswerable questions a low share is what we want; for answerable ones a high share.", "",
        "| task | n | no key terms | first read ≥ .5 | ≥ .75 | = 1 | fallback top 10 ≥ .5 | ≥ .75 | = 1 |",
        "|---|---|---|---|---|---|---|---|---|"]
    gates: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for name in args.tasks.split(","):
        task = TASKS[name](args.data)
        ctx = build_context([task.haystack.document], store.tokenizer())
        sample = scored_questions(task, args.n)
        first, fallback, dense, empty = [], [], [], 0
        for q in sample:
            # the pipeline's own query and parties (a party named by its name is searched by its term too)
            search = aliases.search_query(q.text, ctx.terms)
            equivalents = [(t.name, t.term) for t in aliases.named_in(q.text, ctx.terms)]
            hits = prefilter.prefilter(ctx, search, embedder, shortlist=o.shortlist, fusion=o.fusion,
                                       top_k=o.prefilter_top_k)
            top = conditional.rerank(search, hits, encoder, mode=o.ce_mode, weight=o.ce_weight, top_k=o.ce_top_k,
                                     pooling=o.ce_pooling)
            first.append(grounding.coverage(q.text, [h.chunk for h in top], equivalents))
            dense.append(max(h.scores.get("dense", 0.0) for h in top))
            fallback.append(grounding.coverage(q.text, [h.chunk for h in hits], equivalents))
            empty += not grounding.key_terms(q.text)
        a, b = np.array(first), np.array(fallback)
        cells = [f"{(a >= t - 1e-9).mean():.2f}" for t in THRESHOLDS] + [f"{(b >= t - 1e-9).mean():.2f}"
                                                                         for t in THRESHOLDS]
        lines.append(f"| {name} | {len(sample)} | {empty / len(sample):.2f} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
        gates[name] = (a, np.array(dense))
    if {"hotpot", "hotpot-unanswerable"} <= gates.keys():
        lines += gate_table(gates["hotpot"], gates["hotpot-unanswerable"])
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


def gate_table(answerable: tuple[np.ndarray, np.ndarray], unanswerable: tuple[np.ndarray, np.ndarray]) -> list[str]:
    """Markdown rows: for each (coverage, dense cosine) threshold pair, the share of answerable questions whose
    first read passes both (their answer could count) and of unanswerable ones it stops (a right "not found")."""
    out = ["", "First read gated by key-term coverage and the best passage's dense cosine (HotpotQA, the same "
           "questions with and without their gold paragraphs):", "",
           "| coverage ≥ | dense cosine ≥ | answerable passed | unanswerable stopped |", "|---|---|---|---|"]
    for c in THRESHOLDS:
        for d in DENSE:
            passed = float(np.mean((answerable[0] >= c - 1e-9) & (answerable[1] >= d)))
            stopped = 1.0 - float(np.mean((unanswerable[0] >= c - 1e-9) & (unanswerable[1] >= d)))
            out.append(f"| {c:.2f} | {d:.2f} | {passed:.2f} | {stopped:.2f} |")
    return out


if __name__ == "__main__":
    raise SystemExit(main())
