"""Float32 against bfloat16 weights for the pre-filter embedder and the conditional encoder, or (``--compare
length``) the embedder's input cut at 256 against 128 word pieces.

Runs the recall evaluation's retrieval systems (``assistant eval recall``, without dense-everything, last
layer only) twice over the same questions and context, once per variant, and prints recall@k, MRR and
the seconds of the dense and CE stages side by side, plus the cosine of the two variants' embeddings.

    python benchmarks/precision.py --task hotpot --limit 500 --out benchmarks/results/precision.md
    python benchmarks/precision.py --compare length --task hotpot --limit 500 --out benchmarks/results/embed_length.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    from assistant.config import Settings
    from assistant.eval.recall import run_recall, summarize
    from assistant.eval.report import machine
    from assistant.eval.tasks import TASKS
    from assistant.models.precision import native_bf16
    from assistant.service import ModelStore
    from assistant.ttrag.context import build_context

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--task", default="hotpot", choices=sorted(TASKS))
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--limit", type=int, default=500)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--compare", choices=["precision", "length"], default="precision")
    args = ap.parse_args()
    task = TASKS[args.task](args.data)
    store = ModelStore(Settings())
    embedder, encoder = store.embedder(), store.encoder()
    ctx = build_context([task.haystack.document], store.tokenizer())
    rows: dict[str, dict[str, object]] = {}
    vectors = {}
    probe = [c.text for c in ctx.chunks[:200]]
    cut = embedder.max_tokens  # the setting models.embed_max_tokens
    variants = ((("float32", False, cut), ("bfloat16", True, cut)) if args.compare == "precision" else
                (("256 word pieces", native_bf16(), 256), ("128 word pieces", native_bf16(), 128)))
    for name, bf16, max_tokens in variants:
        embedder.bf16 = encoder.bf16 = bf16
        embedder.max_tokens = max_tokens
        ctx.embeddings.clear()
        t0 = time.perf_counter()
        run, _ = run_recall(task, ctx, embedder, encoder, limit=args.limit, layers=(-1,), dense_everything=False,
                            ce_prefilters=("rrf20",))
        wall = time.perf_counter() - t0
        t1 = time.perf_counter()
        vectors[name] = embedder.embed(probe)
        embed_s = time.perf_counter() - t1
        rows[name] = {"summary": summarize(run), "seconds": {k: float(np.mean(v)) for k, v in run.seconds.items()},
                      "wall": wall, "embed200": embed_s}
    first, second = (vectors[v[0]] for v in variants)
    cos = (first * second).sum(1)
    systems = sorted(next(iter(rows.values()))["summary"])  # type: ignore[arg-type]
    title = "Float32 vs bfloat16" if args.compare == "precision" else "Embedder input: 256 vs 128 word pieces"
    lines = [f"# {title}: {args.task}", "",
             f"Command: `python benchmarks/precision.py --compare {args.compare} --task {args.task} --limit "
             f"{args.limit}`  ",
             f"Machine: {machine()}; native bfloat16: {native_bf16()}  ",
             f"Date: {time.strftime('%Y-%m-%d %H:%M')}; {len(ctx.chunks):,} chunks, {args.limit} questions, "
             "same context and questions for both.", "",
             f"Embeddings of 200 chunks, cosine {variants[1][0]} vs {variants[0][0]}: mean {cos.mean():.5f}, "
             f"min {cos.min():.5f}.", "",
             "| system | variant | R@1 | R@3 | R@10 | MRR |", "|---|---|---|---|---|---|"]
    for system in systems:
        for name, row in rows.items():
            s = row["summary"][system]["all"]  # type: ignore[index]
            lines.append(f"| {system} | {name} | {s['R@1']:.3f} | {s['R@3']:.3f} | {s['R@10']:.3f} | "
                         f"{s['MRR']:.3f} |")
    stages = sorted(next(iter(rows.values()))["seconds"])  # type: ignore[arg-type]
    lines += ["", "Mean seconds per question of each stage (dense10 embeds the short list first; rrf20 reuses "
              "what it embedded), the whole run, and embedding 200 chunks:", "",
              "| variant | " + " | ".join(stages) + " | whole run s | embed 200 chunks s |",
              "|---|" + "---|" * (len(stages) + 2)]
    lines += [f"| {name} | " + " | ".join(f"{row['seconds'][k]:.3f}" for k in stages)  # type: ignore[index]
              + f" | {row['wall']:.1f} | {row['embed200']:.2f} |" for name, row in rows.items()]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
