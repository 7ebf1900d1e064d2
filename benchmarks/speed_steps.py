"""Every step tried to make answers faster, side by side in one run: the whole pipeline, each step alone
against today's defaults, on the same dev questions.

    .venv/bin/python benchmarks/speed_steps.py [--questions 8] [--absent 4] [--only NAME,...] [--out FILE]

Each question is one document, as a person attaches a page: the ten HotpotQA paragraphs of a dev-half
question (the distractor setting: two gold, eight others), or, for ``--absent`` questions, the eight others
alone (the right reply is "not found": the path that reads most). Every step is a configuration of the
same process: a change of the pipeline's settings (:class:`assistant.config.PipelineOptions`) or of
llama.cpp's (a reader of its own, loaded once). Per question the steps run in a rotated order (question i
starts at step i), each with the reader's saved states emptied first, so every ask is a first question
about a new document with the models warm, and a drift in the machine's speed reaches every step alike.

Figures per step: time to the first visible token (p50; a "not found" reply counts its whole time), end to
end (mean), a "not found" reply (mean), LLM calls and prompt tokens a question, answerable questions
answered with the gold contained, absent ones said "not found", and answers identical to today's defaults
(a step that changes a greedy answer changes accuracy: it is not a free speed-up). Ratios are to today's
defaults (the first step). The dev half chose the defaults; this table only times them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# name -> (llama.cpp keyword arguments of the reader, PipelineOptions changes, what became of it)
STEPS: dict[str, tuple[dict[str, Any], dict[str, Any], str]] = {
    "today's defaults": ({}, {}, "1 rewrite, no fallback read, P(found) >= 0.8, whole chunks, router on"),
    "round 9 defaults": ({}, {"max_rewrites": 3, "fallback_top_k": 10, "min_found_p": 0.0},
                         "before: 3 rewrites, top-10 fallback read, no P(found) bar"),
    "3 rewrites (paper)": ({}, {"max_rewrites": 3},
                           "dropped: 1 rewrite gave the same dev answers at 0.89-0.97x the time"),
    "top-10 fallback read (paper)": ({}, {"fallback_top_k": 10},
                                     "dropped: invented answers on absent questions (dev)"),
    "evidence 300 tokens a chunk": ({}, {"evidence_tokens": 300},
                                    "not default: cost 2 of 40 HotpotQA answers (EM .450 -> .400)"),
    "router off": ({}, {"router": False}, "router kept: it routes counting and summaries"),
    "chunks as cut (round 3)": ({}, {"whole_sentences": False},
                                "before: passages widened to whole sentences and a clause's heading (round 4)"),
    "flash attention": ({"flash_attn": True}, {}, "not default: 0.93-0.94x, but a greedy answer changed"),
    "n_batch 512": ({"n_batch": 512}, {}, "not default: doubles each saved state's logits copy"),
    "KV cache q8_0 + flash attention": ({"flash_attn": True, "kv_type": "q8_0"}, {},
                                        "not default: 0.97-0.98x, answers changed"),
}
NOT_RUN = ("prompt-lookup decoding / a draft model: not run; llama-cpp-python's draft_model forces logits_all, "
           "a 4096 x 151,936 float32 scores buffer (2.49 GB) copied by every saved state, against the < 3 GB "
           "target")


def questions(n_answerable: int, n_absent: int, data: Path) -> list[dict[str, Any]]:
    """Seeded dev-half HotpotQA questions (the evaluation's split: seed 0, first half of the shuffled order),
    each with its document's paragraphs; the absent ones lack their gold paragraphs."""
    from assistant.eval.hotpot import HOTPOT_FILE
    from assistant.eval.recall import split_questions

    rows = [json.loads(line) for line in (data / HOTPOT_FILE).open(encoding="utf-8")]
    dev = [row for row, half in split_questions(rows, len(rows), 0) if half == "dev"]  # type: ignore[arg-type]
    picked = random.Random(11).sample(dev, n_answerable + n_absent)
    out = []
    for k, row in enumerate(picked):
        absent = k >= n_answerable
        paras = [c for c in row["contexts"] if not (absent and c["is_supporting"])]
        answers = [s for a in row["answers_objects"] for s in a["spans"]]
        out.append({"id": row["question_id"], "question": row["question_text"], "answers": answers,
                    "absent": absent, "text": "\n\n".join(f"{p['title']}\n{p['paragraph_text']}" for p in paras)})
    return out


def run(names: list[str], asked: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Each question asked under each step (rotated order); one record per step and question."""
    import dataclasses

    from assistant.config import PipelineOptions, Settings
    from assistant.documents import read_many
    from assistant.models import locate
    from assistant.models.llama import BoundedRAMCache, LlamaGenerator
    from assistant.service import ModelStore
    from assistant.ttrag.context import build_context
    from assistant.ttrag.generate import strip_markers
    from assistant.ttrag.pipeline import Models, ask

    store = ModelStore(Settings())
    base = store.models()
    m = store.settings.models
    readers: dict[str, Any] = {}
    for name in names:
        knobs = STEPS[name][0]
        key = json.dumps(knobs, sort_keys=True)
        if key not in readers:  # the store's reader, or one loaded as the store loads it with the step's knobs
            readers[key] = base.generator if not knobs else \
                LlamaGenerator(locate.llm_path(m), n_ctx=m.n_ctx, threads=m.threads, **knobs)
    out: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    with tempfile.TemporaryDirectory() as tmp:
        for i, q in enumerate(asked):
            path = Path(tmp) / f"page-{i}.txt"
            path.write_text(q["text"], encoding="utf-8")
            ctx = build_context(read_many([path]).documents, store.tokenizer())
            for name in names[i % len(names):] + names[:i % len(names)]:
                knobs, changes, _ = STEPS[name]
                gen = readers[json.dumps(knobs, sort_keys=True)]
                gen.llm.set_cache(BoundedRAMCache(capacity_bytes=640 << 20))  # a new document: no saved state
                gen.llm.reset()
                calls = len(gen.usage)
                opts = dataclasses.replace(PipelineOptions(), **changes)
                t0 = time.perf_counter()
                answer = ask(ctx, q["question"], Models(gen, base.embedder, base.encoder), opts)
                total = time.perf_counter() - t0
                usage = gen.usage[calls:]
                shown = strip_markers(answer.text).lower()
                out[name].append({"id": q["id"], "absent": q["absent"], "found": answer.found, "text": answer.text,
                                  "right": (not answer.found) if q["absent"] else
                                  answer.found and any(a.lower() in shown for a in q["answers"]),
                                  "first_s": answer.timings.get("first_token", total), "total_s": total,
                                  "calls": len(usage), "prompt_tokens": sum(u.prompt_tokens for u in usage)})
                r = out[name][-1]
                print(f"q{i + 1}/{len(asked)} {name}: {r['total_s']:.1f} s, {r['calls']} calls, "
                      f"{'right' if r['right'] else 'wrong'}", file=sys.stderr, flush=True)
    return out


def table(results: dict[str, list[dict[str, Any]]]) -> list[str]:
    names = list(results)
    base = results[names[0]]

    def stats(rows: list[dict[str, Any]]) -> dict[str, float]:
        nf = [r["total_s"] for r in rows if not r["found"]]
        return {"first": statistics.median(r["first_s"] for r in rows),
                "total": statistics.mean(r["total_s"] for r in rows),
                "nf": statistics.mean(nf) if nf else float("nan"),
                "calls": statistics.mean(r["calls"] for r in rows),
                "tokens": statistics.mean(r["prompt_tokens"] for r in rows)}

    b = stats(base)
    lines = ["| step | first token p50 s | end to end mean s | \"not found\" reply mean s | LLM calls / prompt "
             "tokens a question | answerable: gold in answer | absent: \"not found\" | answers = today's | "
             "what became of it |", "|---|---|---|---|---|---|---|---|---|"]
    for name in names:
        rows = results[name]
        s = stats(rows)
        ans = [r for r in rows if not r["absent"]]
        absent = [r for r in rows if r["absent"]]
        same = sum(r["text"] == x["text"] for r, x in zip(rows, base, strict=True))
        nf = f"{s['nf']:.1f} ({s['nf'] / b['nf']:.2f}x)" if s["nf"] == s["nf"] and b["nf"] == b["nf"] else "-"
        lines.append(f"| {name} | {s['first']:.1f} ({s['first'] / b['first']:.2f}x) | {s['total']:.1f} "
                     f"({s['total'] / b['total']:.2f}x) | {nf} | {s['calls']:.1f} / {s['tokens']:.0f} | "
                     f"{sum(r['right'] for r in ans)}/{len(ans)} | {sum(r['right'] for r in absent)}/{len(absent)} | "
                     f"{same}/{len(rows)} | {STEPS[name][2]} |")
    return lines + ["", f"Not run: {NOT_RUN}."]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--questions", type=int, default=8, help="answerable dev questions")
    ap.add_argument("--absent", type=int, default=4, help="dev questions asked without their gold paragraphs")
    ap.add_argument("--only", default="", help="comma-separated step names (today's defaults always run)")
    ap.add_argument("--data", type=Path, default=Path(os.environ.get("ASSISTANT_TEST_DATA",
                                                                     ROOT.parent / "shared" / "data")))
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    names = list(STEPS)
    if args.only:
        wanted = {n.strip() for n in args.only.split(",")}
        unknown = wanted - set(names)
        if unknown:
            ap.error(f"unknown steps {sorted(unknown)}; known: {names}")
        names = [names[0]] + [n for n in names[1:] if n in wanted]
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    results = run(names, questions(args.questions, args.absent, args.data))
    from assistant.eval.report import machine

    command = "python benchmarks/speed_steps.py " + " ".join(sys.argv[1:])
    text = "\n".join([
        "# Speed steps side by side", "", f"Command: `{command.strip()}`  ", f"Machine: {machine()}  ",
        f"Date: {time.strftime('%Y-%m-%d %H:%M')}; load average {load:.1f} at the start; run "
        f"{time.perf_counter() - t0:.0f} s; {args.questions} answerable and {args.absent} absent dev questions "
        "(HotpotQA, one page each), bundled 1.5B reader; ratios to today's defaults.", "", *table(results), ""])
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        args.out.with_suffix(".json").write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
