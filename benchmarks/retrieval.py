"""Recall of every retrieval stage on the HotpotQA haystack, on a seeded dev/test split (no LLM needed).

Each question is asked against the whole ~600k-token haystack; R@k is the share of the 2 gold
paragraphs in the top k, both@3 the share of questions with both in the top 3, MRR over the gold.
Conditional-embedding (CE) variants re-rank the pre-filter's top 10 and are chosen on the dev half;
the test half is reported for every variant so the choice is not tuned on it.

    .venv/bin/python benchmarks/retrieval.py [--data ../shared/data] [--limit N] [--out results/retrieval.md]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import assistant.models  # noqa: E402,F401
from assistant.config import Settings  # noqa: E402
from assistant.eval.hotpot import build_haystack, is_gold  # noqa: E402
from assistant.eval.metrics import gold_ranks, recall_at, reciprocal_rank  # noqa: E402
from assistant.models.base import _masked_mean, _maxsim, _unit  # noqa: E402
from assistant.service import ModelStore  # noqa: E402
from assistant.ttrag.conditional import zscore  # noqa: E402
from assistant.ttrag.context import build_context  # noqa: E402
from assistant.ttrag.prefilter import bm25_search, prefilter  # noqa: E402

PREFILTERS = {"bm25": dict(fusion="bm25", shortlist=10), "rrf20": dict(fusion="rrf", shortlist=20),
              "dense10": dict(fusion="dense", shortlist=10)}
CE_VARIANTS = {"off": None, "alone": 1.0, "fused.25": 0.25, "fused.5": 0.5, "fused.75": 0.75}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--limit", type=int, default=500, help="questions (seeded sample)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()

    hay = build_haystack(args.data)
    store = ModelStore(Settings())
    t0 = time.perf_counter()
    ctx = build_context([hay.document], store.tokenizer())
    build_s = time.perf_counter() - t0
    embedder, encoder = store.embedder(), store.encoder()
    order = list(range(len(hay.questions)))
    random.Random(args.seed).shuffle(order)
    order = order[:args.limit]
    split = {i: ("dev" if n < len(order) // 2 else "test") for n, i in enumerate(order)}

    ranks: dict[tuple[str, str], list[list[int]]] = defaultdict(list)
    secs: dict[str, list[float]] = defaultdict(list)
    for n, i in enumerate(order):
        q = hay.questions[i]
        t = time.perf_counter()
        lex = [ctx.chunks[c] for c, _ in bm25_search(ctx, q.text, 10)]
        secs["bm25"].append(time.perf_counter() - t)
        ranks[("bm25 only", split[i])].append(gold_ranks(lex, q.gold_spans, is_gold))
        for name, kw in PREFILTERS.items():
            if name == "bm25":
                continue
            t = time.perf_counter()
            hits = prefilter(ctx, q.text, embedder, top_k=10, **kw)  # type: ignore[arg-type]
            secs[name].append(time.perf_counter() - t)
            t = time.perf_counter()
            states = encoder.joint_states(q.text, [h.chunk.text for h in hits])
            qe, ce_emb = _masked_mean(states.hidden, states.query_mask), _masked_mean(states.hidden, states.chunk_mask)
            poolings = {"mean": np.sum(_unit(qe) * _unit(ce_emb), axis=1).astype(np.float64),
                        "maxsim": _maxsim(states).astype(np.float64)}
            secs["ce"].append(time.perf_counter() - t)
            pre = np.array([h.score for h in hits])
            for pooling, ce in poolings.items():
                for ce_name, w in CE_VARIANTS.items():
                    if w is None and pooling != "mean":
                        continue
                    if w is None:
                        score = pre
                    elif w == 1.0:
                        score = ce
                    else:
                        score = (1 - w) * zscore(pre) + w * zscore(ce)
                    ranked = [hits[j].chunk for j in np.argsort(-score, kind="stable")]
                    label = f"{name} + CE {ce_name}" + ("" if pooling == "mean" or w is None else f" {pooling}")
                    ranks[(label, split[i])].append(gold_ranks(ranked, q.gold_spans, is_gold))
        if (n + 1) % 50 == 0:
            print(f"... {n + 1}/{len(order)} questions", file=sys.stderr, flush=True)

    def row(name: str, part: str) -> dict[str, float]:
        rs = ranks[(name, part)]
        flat = [r for q in rs for r in q]
        return {"R@1": recall_at(flat, 1), "R@3": recall_at(flat, 3), "R@10": recall_at(flat, 10),
                "both@3": sum(all(0 < r <= 3 for r in q) for q in rs) / len(rs),
                "MRR": float(np.mean([reciprocal_rank(q) for q in rs])), "n": len(rs)}

    names = sorted({k[0] for k in ranks}, key=lambda s: (s.split(" ")[0], s))
    results = {part: {name: row(name, part) for name in names} for part in ("dev", "test")}
    best_dev = max((n for n in names if "CE" in n), key=lambda n: (results["dev"][n]["R@3"], results["dev"][n]["MRR"]))
    lines = [f"# Retrieval on the HotpotQA haystack ({ctx.n_tokens:,} tokens, {len(ctx.chunks):,} chunks)", "",
             f"Machine: {platform.machine()}, {platform.python_version()}, 2 threads; chunk+index {build_s:.1f} s; "
             f"{len(order)} questions, seed {args.seed}, dev/test halves.", "",
             "| system | dev R@1 | dev R@3 | dev R@10 | dev both@3 | dev MRR | test R@1 | **test R@3** | test R@10 | "
             "test both@3 | test MRR |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name in names:
        d, t = results["dev"][name], results["test"][name]
        lines.append(f"| {name} | " + " | ".join(f"{d[k]:.3f}" for k in ("R@1", "R@3", "R@10", "both@3", "MRR"))
                     + " | " + " | ".join(f"{t[k]:.3f}" for k in ("R@1", "R@3", "R@10", "both@3", "MRR")) + " |")
    lines += ["", f"Best CE variant on dev (R@3, then MRR): **{best_dev}**; on test it scores "
              f"R@3 {results['test'][best_dev]['R@3']:.3f}.", "",
              "Per-query time (median, s): " + ", ".join(f"{k} {np.median(v):.3f}" for k, v in secs.items()),
              "", "CE = conditional embeddings over the pre-filter's top 10 (joint pass, masked mean pooling, "
              "cosine); fused = (1-w)·z(pre-filter) + w·z(CE) within the 10."]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
        args.out.with_suffix(".json").write_text(json.dumps({"results": results, "best_dev": best_dev,
                                                              "build_s": build_s}, indent=1))


if __name__ == "__main__":
    main()
