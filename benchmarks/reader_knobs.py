"""llama.cpp's own settings for the reader, side by side: the same reads, each setting in its own process.

Each configuration loads the bundled reader in a fresh subprocess and makes the same reads: the answer
prompt (JSON schema, greedy) over three real HotpotQA dev-half paragraphs per question, the KV cache
emptied between reads so every read pays its whole prefill, as a first question does. Configurations
run in turn, A B C A B C ..., so a drift in the machine's speed reaches all of them alike; the table
gives each one's median over the rounds and its ratio to the baseline (the first configuration), and
whether its replies are identical to the baseline's (a setting that changes a greedy reply changes
accuracy and is not a free speed-up).

    .venv/bin/python benchmarks/reader_knobs.py [--questions 6] [--rounds 3] [--out FILE]

Figures: prefill tokens/s, time to the first generated token, generation ms a token, the whole read,
peak RSS. The dev half chose nothing here: the replies are compared, not scored.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# name -> keyword arguments for LlamaGenerator (the baseline first)
CONFIGS: dict[str, dict[str, object]] = {
    "baseline (n_batch 256)": {},
    "flash attention": {"flash_attn": True},
    "n_batch 512": {"n_batch": 512},
    "KV cache q8_0 + flash attention": {"flash_attn": True, "kv_type": "q8_0"},
    "n_threads_batch 1 more than cores": {"n_threads_batch": (os.cpu_count() or 1) + 1},
}


def _reads(n: int) -> list[tuple[str, list[dict[str, object]]]]:
    """``n`` dev-half HotpotQA questions with their two gold paragraphs and one distractor (seeded)."""
    import random

    from assistant.eval.hotpot import HOTPOT_FILE

    data = Path(os.environ.get("ASSISTANT_TEST_DATA", ROOT.parent / "shared" / "data"))
    rows = [json.loads(line) for line in (data / HOTPOT_FILE).open()]
    order = list(range(len(rows)))
    random.Random(0).shuffle(order)  # the evaluation's seeded split (assistant.eval.recall.split_questions)
    dev = [rows[i] for i in order[: len(order) // 2]]
    rng = random.Random(7)
    out = []
    for row in rng.sample(dev, n):
        gold = [c for c in row["contexts"] if c["is_supporting"]]
        other = [c for c in row["contexts"] if not c["is_supporting"]][:1]
        paras = gold + other
        rng.shuffle(paras)
        out.append((row["question_text"], [{"title": p["title"], "text": p["paragraph_text"]} for p in paras]))
    return out


def _worker(config: str, reads_file: str) -> dict[str, object]:
    from assistant.models.base import GenerationRequest
    from assistant.models.llama import LlamaGenerator
    from assistant.models.locate import assemble_llm
    from assistant.records import Chunk
    from assistant.ttrag.generate import answer_schema
    from assistant.ttrag.prompts import SYSTEM, answer_prompt
    from assistant.ttrag.qtype import question_type

    reads = json.loads(Path(reads_file).read_text())
    gen = LlamaGenerator(assemble_llm(), n_ctx=4096, **CONFIGS[config])  # type: ignore[arg-type]
    gen.llm.set_cache(None)  # no saved states: every read pays its whole prefill
    rows = []
    for question, paras in reads:
        chunks = [Chunk(id=i, source=f"{p['title']}.txt", page=None, start=0, end=len(p["text"]),
                        text=p["text"], n_tokens=0) for i, p in enumerate(paras)]
        qtype = question_type(question)
        request = GenerationRequest(SYSTEM, answer_prompt(question, chunks, qtype), max_tokens=160,
                                    json_schema=answer_schema(qtype), purpose="bench")
        gen.llm.reset()
        t0 = time.perf_counter()
        reply = "".join(gen.stream(request))
        total = time.perf_counter() - t0
        u = gen.usage[-1]
        rows.append({"reply": reply, "prompt_tokens": u.prompt_tokens, "prefill_s": u.prefill_s,
                     "completion_tokens": u.completion_tokens, "total_s": total})
    return {"rows": rows, "rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated configuration names (the baseline is kept)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(_worker(*args.worker)))
        return
    names = list(CONFIGS)
    if args.only:
        names = [names[0]] + [n for n in names[1:] if n in args.only.split(",")]
    reads_file = Path(os.environ.get("TMPDIR", "/tmp")) / f"reader-knobs-{os.getpid()}.json"
    reads_file.write_text(json.dumps(_reads(args.questions)))
    results: dict[str, list[dict[str, object]]] = {n: [] for n in names}
    load = os.getloadavg()[0]
    for r in range(args.rounds):
        for name in names:
            proc = subprocess.run([sys.executable, __file__, "--worker", name, str(reads_file)],
                                  capture_output=True, text=True, check=True)
            results[name].append(json.loads(proc.stdout.strip().splitlines()[-1]))
            print(f"round {r + 1} {name}: done", file=sys.stderr)
    reads_file.unlink()
    base_replies = [row["reply"] for row in results[names[0]][0]["rows"]]  # type: ignore[index]

    def figure(name: str, key: str) -> float:
        per_round = []
        for run in results[name]:
            rows = run["rows"]  # type: ignore[index]
            if key == "prefill_tok_s":
                per_round.append(sum(x["prompt_tokens"] for x in rows) / sum(x["prefill_s"] for x in rows))
            elif key == "gen_ms":
                gen_s = sum(x["total_s"] - x["prefill_s"] for x in rows)
                per_round.append(1000 * gen_s / max(1, sum(x["completion_tokens"] - 1 for x in rows)))
            elif key == "first_s":
                per_round.append(statistics.median(x["prefill_s"] for x in rows))
            elif key == "total_s":
                per_round.append(statistics.mean(x["total_s"] for x in rows))
            else:
                per_round.append(float(run[key]))  # type: ignore[arg-type]
        return statistics.median(per_round)

    lines = [f"Reader settings side by side (`benchmarks/reader_knobs.py --questions {args.questions} --rounds "
             f"{args.rounds}`; bundled 1.5B, {os.cpu_count()} cores, load average {load:.1f} at the start; "
             "KV cache emptied before each read; medians over rounds, ratio to the baseline)", "",
             "| setting | prefill tok/s | first token s (median read) | generation ms/token | read s (mean) "
             "| peak RSS GB | replies = baseline |", "|---|---|---|---|---|---|---|"]
    base = {k: figure(names[0], k) for k in ("prefill_tok_s", "first_s", "gen_ms", "total_s", "rss_gb")}
    for name in names:
        f = {k: figure(name, k) for k in base}
        same = sum(a["reply"] == b for a, b in zip(results[name][0]["rows"], base_replies, strict=True))  # type: ignore[index]
        lines.append(f"| {name} | {f['prefill_tok_s']:.0f} ({f['prefill_tok_s'] / base['prefill_tok_s']:.2f}x) "
                     f"| {f['first_s']:.2f} ({f['first_s'] / base['first_s']:.2f}x) "
                     f"| {f['gen_ms']:.0f} ({f['gen_ms'] / base['gen_ms']:.2f}x) "
                     f"| {f['total_s']:.2f} ({f['total_s'] / base['total_s']:.2f}x) | {f['rss_gb']:.2f} "
                     f"| {same}/{len(base_replies)} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
