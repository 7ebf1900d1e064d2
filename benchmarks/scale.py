"""Retrieval-stage time and memory as the attachment grows: the hierarchical pre-filter vs dense-everything.

Texts of ~10k, 100k, 1M and 4M tokens are cut from (and, past 1M, repeated from) the HotpotQA haystack
padded with NQ passages and essays. For each size: the cold build (chunking + BM25 index), the
pre-filter for a few questions (BM25 top 10 re-scored by MiniLM, the default), and the memory the
context holds. Dense-everything (embed every chunk, the "traditional RAG" reference) is timed for real
up to ``--dense-max`` tokens and extrapolated linearly (marked so) above it: it grows with the chunk
count by construction.

    .venv/bin/python benchmarks/scale.py [--dense-max 100000] [--out benchmarks/results/scale.md]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import assistant.models  # noqa: E402,F401
from assistant.config import Settings  # noqa: E402
from assistant.eval.filler import essays, nq_passages  # noqa: E402
from assistant.eval.hotpot import build_haystack  # noqa: E402
from assistant.records import Document, Segment  # noqa: E402
from assistant.service import ModelStore  # noqa: E402
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
    args = ap.parse_args()

    hay = build_haystack(args.data, extra_texts=nq_passages(args.data) + essays(args.data))
    base = hay.document.text
    store = ModelStore(Settings())
    tokenizer, embedder = store.tokenizer(), store.embedder()
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
            prefilter(ctx, q, embedder)
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
                     dense, dense_s / pipeline_s))
        print(rows[-1], file=sys.stderr, flush=True)
        del ctx
    lines = [f"# Retrieval stage vs attachment size ({platform.machine()}, Python {platform.python_version()}, "
             "2 cores, no GPU)", "",
             "| target tokens | MiniLM tokens | chunks | chunk+index s | pre-filter s (median) | **pipeline "
             "retrieval s** | RSS held by the context MB | dense-everything s | dense / pipeline |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r[0]:,} | {r[1]:,} | {r[2]:,} | {r[3]:.2f} | {r[4]:.2f} | {r[5]:.2f} | {r[6]:.0f} | "
                     f"{r[7]} | {r[8]:.0f}x |")
    lines += ["", f"Pre-filter over {len(questions)} HotpotQA questions, cold (no cached embeddings). "
              f"Dense-everything embeds every chunk with the same MiniLM model (batch 32); measured up to "
              f"{args.dense_max:,} tokens, linear above (the cost is per chunk). Texts past the haystack's "
              "1.02M tokens repeat it."]
    text_out = "\n".join(lines)
    print(text_out)
    if args.out:
        args.out.write_text(text_out + "\n")


if __name__ == "__main__":
    main()
