"""Stage timings, time to first token and peak RSS for questions over a ~1M-token text (issue: core).

The text is the HotpotQA haystack padded with NQ gold passages and essays from ``../shared/data``.
A cold question (context built from scratch: chunking, BM25 index, then the pipeline) and follow-up
questions on the same session are timed; model loading is reported on its own line.

    .venv/bin/python benchmarks/core_latency.py [--data ../shared/data] [--fast] [--questions 3]

Prints a Markdown table; ``--out FILE`` also writes it (results/core_latency.md is committed).
"""

from __future__ import annotations

import argparse
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import assistant.models  # noqa: E402,F401  (offline switches first)
from assistant.config import ModelSettings, PipelineOptions, Settings  # noqa: E402
from assistant.eval.filler import essays, nq_passages  # noqa: E402
from assistant.eval.hotpot import build_haystack  # noqa: E402
from assistant.records import TokenText  # noqa: E402
from assistant.service import ModelStore, Session  # noqa: E402
from assistant.ttrag.context import build_context  # noqa: E402

RETRIEVAL = ("prefilter", "conditional")


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--fast", action="store_true", help="135M model instead of the bundled 1.5B")
    ap.add_argument("--questions", type=int, default=3, help="questions asked (1 cold + follow-ups)")
    ap.add_argument("--target-tokens", type=int, default=1_000_000)
    ap.add_argument("--rebuilds", type=int, default=5, help="extra timed builds of the context (median)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()

    filler = nq_passages(args.data) + essays(args.data)
    hay = build_haystack(args.data, extra_texts=filler)
    settings = Settings(models=ModelSettings(llm="fast" if args.fast else "bundled"), pipeline=PipelineOptions())
    store = ModelStore(settings)
    t0 = time.perf_counter()
    store.tokenizer()
    store.models()
    load_s = time.perf_counter() - t0
    rss_models = rss_mb()

    rows = []
    session = None
    for i, q in enumerate(hay.questions[:args.questions]):
        first_token: list[float] = []
        t_start = time.perf_counter()

        def emit(event: object, t_start: float = t_start, first_token: list[float] = first_token) -> None:
            if isinstance(event, TokenText) and not first_token:
                first_token.append(time.perf_counter() - t_start)

        build_s = 0.0
        if session is None:
            session = Session(store, [hay.document])
            build_s = session.build_seconds
        answer = session.ask(q.text, emit=emit)
        t = answer.timings
        retrieval = build_s + sum(t.get(k, 0.0) for k in RETRIEVAL)
        prompt_tokens = sum(u.prompt_tokens for u in answer.usage)
        calls = ", ".join(f"{u.purpose} {u.prompt_tokens}t/{u.prefill_s:.1f}s" for u in answer.usage)
        rows.append((("cold" if i == 0 else "follow-up"), build_s, t.get("route", 0.0), t.get("prefilter", 0.0),
                     t.get("conditional", 0.0), retrieval, t.get("rewrite", 0.0), t.get("generate", 0.0),
                     first_token[0] if first_token else float("nan"), time.perf_counter() - t_start,
                     len(answer.rewrites), prompt_tokens, answer.found, calls))
    assert session is not None
    ctx = session.context
    rebuilds = []
    for _ in range(args.rebuilds):  # the cold build again, in the same warm process: the machine is noisy
        t0 = time.perf_counter()
        build_context([hay.document], store.tokenizer())
        rebuilds.append(time.perf_counter() - t0)
    lines = [
        f"# Core latency over a {ctx.n_tokens:,}-token text ({len(ctx.chunks):,} chunks)",
        "",
        f"Machine: {platform.machine()}, {platform.processor() or 'cpu'}, python {platform.python_version()}; "
        f"LLM: {'SmolLM2-135M (fast)' if args.fast else 'Qwen2.5-Coder-1.5B Q4_K_M (bundled)'}; "
        f"model load {load_s:.1f} s ({store.load_seconds}); RSS after load {rss_models:.0f} MB.",
        "",
        "| question | chunk+index s | route s | prefilter s | CE s | **retrieval s** | rewrite s | "
        "generate s | first token s | total s | rewrites | prompt tokens | found |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append("| " + " | ".join(
            [r[0]] + [f"{x:.2f}" for x in r[1:10]] + [str(r[10]), str(r[11]), str(r[12])]) + " |")
    if rebuilds:
        lines += ["", f"Chunk+index rebuilt {len(rebuilds)} more times: min {min(rebuilds):.2f} s, median "
                  f"{statistics.median(rebuilds):.2f} s, max {max(rebuilds):.2f} s."]
    lines += ["", f"Peak RSS: {rss_mb():.0f} MB (ru_maxrss of the whole process).", "",
              "retrieval = chunk+index (cold only) + pre-filter + conditional re-rank, all passes; "
              "first token is measured from the question being asked (route and every LLM prefill included).",
              "", "LLM calls per question:"]
    lines += [f"- {r[0]}: {r[13]}" for r in rows]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
