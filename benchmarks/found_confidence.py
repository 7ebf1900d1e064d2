"""Can the reader's own P(found) tell an answer from a guess? One read per case, answered share against
accuracy for every threshold.

For ``n`` HotpotQA questions of the seeded DEV half (the evaluation's split, seed 0), two reads of three
passages each, as the pipeline's first read gives them: *answerable* (the question's two gold paragraphs
and one of its distractors) and *unanswerable* (three of its distractors: the same entities, no answer).
Each read goes through the product's answer path (:func:`assistant.ttrag.generate.stream_answer`: the
JSON reply, its grounding checks); the reading's ``found_p`` is P(true) at the reply's ``found`` token.
The table gives, for each threshold t (an answer is kept only when found and ``found_p`` >= t): the
share of answerable reads answered, their gold-contained accuracy, the share of unanswerable reads
answered "not found", and the balanced score (mean of answerable-correct and unanswerable-not-found),
each with a bootstrap 95% interval. The threshold is chosen on this dev half only.

    .venv/bin/python benchmarks/found_confidence.py [-n 30] [--out benchmarks/results/found-confidence.md]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

THRESHOLDS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99)


def _cases(data: Path, n: int) -> list[dict[str, object]]:
    from assistant.eval.hotpot import HOTPOT_FILE

    rows = [json.loads(line) for line in (data / HOTPOT_FILE).open()]
    order = list(range(len(rows)))
    random.Random(0).shuffle(order)  # the evaluation's seeded split (assistant.eval.recall.split_questions)
    dev = [rows[i] for i in order[: len(order) // 2]]
    rng = random.Random(11)
    cases: list[dict[str, object]] = []
    for row in dev:
        gold = [c for c in row["contexts"] if c["is_supporting"]]
        other = [c for c in row["contexts"] if not c["is_supporting"]]
        answers = [s for a in row["answers_objects"] for s in a["spans"]]
        if len(gold) != 2 or len(other) < 3 or not answers or answers[0].lower() in ("yes", "no"):
            continue
        pick = rng.sample(other, 3)
        answerable = gold + pick[:1]
        rng.shuffle(answerable)
        for kind, paras in (("answerable", answerable), ("unanswerable", pick)):
            cases.append({"id": row["question_id"], "question": row["question_text"], "answers": answers,
                          "kind": kind, "paras": [(p["title"], p["paragraph_text"]) for p in paras]})
        if len(cases) >= 2 * n:
            break
    return cases


def _run(cases: list[dict[str, object]]) -> list[dict[str, object]]:
    from assistant.eval.metrics import contains
    from assistant.models.base import CancellableGenerator
    from assistant.models.llama import LlamaGenerator
    from assistant.models.locate import assemble_llm
    from assistant.records import Chunk
    from assistant.ttrag.generate import stream_answer

    gen = CancellableGenerator(LlamaGenerator(assemble_llm(), n_ctx=4096), threading.Event())
    out = []
    for k, case in enumerate(cases):
        chunks = [Chunk(id=i, source=f"{title}.txt", page=None, start=0, end=len(text), text=f"{title}. {text}",
                        n_tokens=0) for i, (title, text) in enumerate(case["paras"])]  # type: ignore[arg-type]
        t0 = time.perf_counter()
        reading = stream_answer(gen, str(case["question"]), chunks, max_tokens=160, on_text=lambda _t: None)
        right = reading.found and contains(reading.short_answer, case["answers"])  # type: ignore[arg-type]
        out.append({**{key: case[key] for key in ("id", "kind")}, "found": reading.found,
                    "found_p": reading.found_p, "right": bool(right), "short": reading.short_answer,
                    "s": round(time.perf_counter() - t0, 2)})
        print(f"{k + 1}/{len(cases)} {case['kind']}: found={reading.found} p={reading.found_p} right={right}",
              file=sys.stderr)
    return out


def _interval(values: list[float], seed: int = 0) -> tuple[float, float, float]:
    from assistant.eval.metrics import bootstrap_interval

    mean = sum(values) / len(values) if values else float("nan")
    lo, hi = bootstrap_interval(values, seed=seed) if values else (float("nan"), float("nan"))
    return mean, lo, hi


def table(results: list[dict[str, object]]) -> list[str]:
    ans = [r for r in results if r["kind"] == "answerable"]
    una = [r for r in results if r["kind"] == "unanswerable"]
    lines = ["| threshold t | answerable: answered | answerable: right (of all) | right among answered "
             "| unanswerable: \"not found\" | balanced |", "|---|---|---|---|---|---|"]
    for t in THRESHOLDS:
        def kept(r: dict[str, object], t: float = t) -> bool:
            return bool(r["found"]) and (r["found_p"] is None or float(r["found_p"]) >= t)  # type: ignore[arg-type]
        answered = [float(kept(r)) for r in ans]
        right = [float(kept(r) and bool(r["right"])) for r in ans]
        among = [float(bool(r["right"])) for r in ans if kept(r)]
        refused = [float(not kept(r)) for r in una]
        balanced = [(a + b) / 2 for a, b in zip(right, refused, strict=True)]
        cells = []
        for values in (answered, right, among, refused, balanced):
            m, lo, hi = _interval(values)
            cells.append(f"{m:.3f} [{lo:.2f}, {hi:.2f}]" if values else "-")
        lines.append(f"| {t:.2f} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=30, help="questions (each read answerable and unanswerable)")
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("ASSISTANT_TEST_DATA",
                                                                          ROOT.parent / "shared" / "data")))
    parser.add_argument("--out", type=Path, help="markdown file; the per-read rows go beside it as .json")
    args = parser.parse_args()
    t0 = time.time()
    results = _run(_cases(args.data, args.n))
    load = os.getloadavg()[0]
    lines = [f"# The reader's P(found) as the found decision (HotpotQA dev half, {args.n} questions)", "",
             f"Command: `benchmarks/found_confidence.py -n {args.n}`; bundled 1.5B, temperature 0; "
             f"{time.time() - t0:.0f} s, load average {load:.1f} at the end. Settings chosen on: the dev half "
             "(this table); the test half was not read.", "",
             "Each question read twice through the product's answer path (grounding checks on): with its two gold "
             "paragraphs and a distractor (answerable), and with three of its distractors (unanswerable). An "
             "answer is kept when the path finds it and P(found) >= t. Means with bootstrap 95% intervals.", "",
             *table(results)]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)
        args.out.with_suffix(".json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
