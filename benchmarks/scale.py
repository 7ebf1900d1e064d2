"""Retrieval-stage time and memory as the attachment grows: the hierarchical pre-filter vs dense-everything.

Texts of ~10k, 100k, 1M and 4M tokens are cut from (and, past 1M, repeated from) the HotpotQA haystack
padded with NQ passages and essays. For each size: the cold build (chunking + BM25 index), the
pre-filter for a few questions (BM25 top 10 re-scored by MiniLM, the default), and the memory the
context holds. Dense-everything (embed every chunk, the "traditional RAG" reference) is timed for real
up to ``--dense-max`` tokens and extrapolated linearly (marked so) above it: it grows with the chunk
count by construction.

    .venv/bin/python benchmarks/scale.py [--dense-max 100000] [--out benchmarks/results/scale.md]
    .venv/bin/python benchmarks/scale.py --plot-only --out benchmarks/results/scale.md   (redraw from the JSON)

Writes the table (``--out``), every figure as JSON beside it and a log-log plot (``scale.png``).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import assistant.models  # noqa: E402,F401
from assistant.config import PipelineOptions, Settings  # noqa: E402
from assistant.eval.filler import essays, nq_passages  # noqa: E402
from assistant.eval.hotpot import build_haystack  # noqa: E402
from assistant.eval.report import line_plot, machine  # noqa: E402
from assistant.records import Document, Segment  # noqa: E402
from assistant.service import ModelStore  # noqa: E402
from assistant.ttrag.conditional import rerank  # noqa: E402
from assistant.ttrag.context import build_context  # noqa: E402
from assistant.ttrag.prefilter import prefilter  # noqa: E402

SIZES = (10_000, 100_000, 1_000_000, 4_000_000)
CHARS_PER_TOKEN = 4.6  # measured on this haystack (4.67M characters, 1.02M MiniLM tokens)


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--dense-max", type=int, default=100_000, help="largest size embedded for real")
    ap.add_argument("--questions", type=int, default=5)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--plot-only", action="store_true", help="redraw the PNG from the JSON beside --out")
    args = ap.parse_args()
    if args.plot_only:
        plot(json.loads(args.out.with_suffix(".json").read_text()), args.out.with_suffix(".png"))
        return

    hay = build_haystack(args.data, extra_texts=nq_passages(args.data) + essays(args.data))
    base = hay.document.text
    opts = PipelineOptions()  # the product's defaults: pre-filter and CE as shipped
    store = ModelStore(Settings(pipeline=opts))
    tokenizer, embedder, encoder = store.tokenizer(), store.embedder(), store.encoder()
    assert embedder is not None
    questions = [q.text for q in hay.questions[:args.questions]]
    rows = []
    dense_rate = None  # seconds per chunk, measured
    for size in SIZES:
        chars = int(size * CHARS_PER_TOKEN)
        text = (base * (chars // len(base) + 1))[:chars]
        doc = Document(f"haystack-{size}.txt", text, (Segment(text),), (0,))
        before = rss_mb()
        t0 = time.perf_counter()
        ctx = build_context([doc], tokenizer)
        build_s = time.perf_counter() - t0
        held = rss_mb() - before
        pre = []
        for q in questions:
            t0 = time.perf_counter()
            hits = prefilter(ctx, q, embedder, shortlist=opts.shortlist, fusion=opts.fusion,
                             top_k=opts.prefilter_top_k)
            rerank(q, hits, encoder, mode=opts.ce_mode, weight=opts.ce_weight, top_k=opts.ce_top_k,
                   pooling=opts.ce_pooling)
            pre.append(time.perf_counter() - t0)
        if size <= args.dense_max:
            t0 = time.perf_counter()
            embedder.embed([c.text for c in ctx.chunks])
            dense_s = time.perf_counter() - t0
            dense_rate = dense_s / len(ctx.chunks)
            dense = f"{dense_s:.1f}"
        else:
            assert dense_rate is not None
            dense = f"~{dense_rate * len(ctx.chunks):.0f} (extrapolated)"
            dense_s = dense_rate * len(ctx.chunks)
        pipeline_s = build_s + statistics.median(pre)
        rows.append((size, ctx.n_tokens, len(ctx.chunks), build_s, statistics.median(pre), pipeline_s, held,
                     dense, dense_s / pipeline_s, dense_s, size <= args.dense_max))
        print(rows[-1], file=sys.stderr, flush=True)
        del ctx
    lines = [f"# Retrieval stage vs attachment size ({platform.machine()}, Python {platform.python_version()}, "
             "2 cores, no GPU)", "", f"Command: `python {' '.join(sys.argv)}`  ", f"Machine: {machine()}", "",
             "| target tokens | MiniLM tokens | chunks | chunk+index s | pre-filter + CE s (median) | **pipeline "
             "retrieval s** | RSS held by the context MB | dense-everything s | dense / pipeline |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r[0]:,} | {r[1]:,} | {r[2]:,} | {r[3]:.2f} | {r[4]:.2f} | {r[5]:.2f} | {r[6]:.0f} | "
                     f"{r[7]} | {r[8]:.0f}x |")
    lines += ["", f"Pre-filter ({opts.fusion}, shortlist {opts.shortlist}) and CE ({opts.ce_mode}, "
              f"{opts.ce_pooling}) over {len(questions)} HotpotQA questions, cold (no cached embeddings). "
              f"Dense-everything embeds every chunk with the same MiniLM model (batch 32); measured up to "
              f"{args.dense_max:,} tokens, linear above (the cost is per chunk). Texts past the haystack's "
              "1.02M tokens repeat it."]
    text_out = "\n".join(lines)
    print(text_out)
    if args.out:
        args.out.write_text(text_out + "\n")
        keys = ("target_tokens", "tokens", "chunks", "chunk_index_s", "prefilter_s", "pipeline_s", "context_rss_mb",
                "dense_label", "dense_over_pipeline", "dense_s", "dense_measured")
        data = {"machine": machine(), "command": " ".join(sys.argv), "rows": [dict(zip(keys, r, strict=True))
                                                                            for r in rows]}
        args.out.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")
        plot(data, args.out.with_suffix(".png"))


def plot(data: dict, path: Path) -> None:
    """Log-log plot of retrieval-stage seconds vs tokens: pipeline and dense-everything (dashed where
    extrapolated: the plot marks measured points only)."""
    rows = data["rows"]
    xs = [r["tokens"] for r in rows]
    line_plot(path, "Retrieval stage vs attachment size (" + data["machine"].split(",")[1].strip() + ")", xs,
              {"pipeline (chunk + BM25 index + pre-filter + CE)": [r["pipeline_s"] for r in rows],
               "dense-everything (embed every chunk)" + ("" if all(r["dense_measured"] for r in rows)
                                                          else "; largest sizes extrapolated"):
                   [r["dense_s"] for r in rows]},
              "tokens in the attachment", "seconds (cold, one question)")


if __name__ == "__main__":
    main()
