"""Questions about earnings-call transcripts, answered by the whole pipeline and scored against the answers
people wrote (L-Eval's ``financial_qa``, its metric: token F1).

    .venv/bin/python benchmarks/financial_qa.py [--limit N] [--out benchmarks/results/financial-qa]

Each transcript (6 calls, 22-31k characters) is written to a text file and read by the product's own reader;
each of its questions is asked of it alone, as a person would ask it (L-Eval's role-play prefix "You are
asked to act as a member of the Financial Results Conference Call and answer the question:" is dropped).
Scores per question: token F1 of the answer shown (markers stripped; a "not found" scores 0) against the
reference answer, the share of the reference's content words the answer holds (recall), and whether the
pipeline found an answer at all. The references are long explanations and the reader writes one or two
sentences, so F1 is bounded well below 1 by length alone; the recall column shows how much of the
reference's content the answer carries. No setting was chosen on these questions (they are read once, as a
test half); intervals are 95% bootstrap over questions.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.documents import read_many
from assistant.eval.metrics import bootstrap_ci, content_words, token_f1
from assistant.eval.report import machine, summary_table, write
from assistant.service import ModelStore
from assistant.ttrag.context import build_context
from assistant.ttrag.generate import strip_markers
from assistant.ttrag.pipeline import ask

HERE = Path(__file__).resolve().parent
FILE = "qa/leval-dev/financial_qa.jsonl"
_PREFIX = re.compile(r"^You are asked to act as .*? and answer the question:\s*", re.I)


def load(data: Path) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(name, transcript, [(question, reference), ...]) per distinct transcript; a question asked twice of
    the same transcript (the file repeats calls under other evaluation labels) is kept once."""
    calls: dict[str, tuple[str, dict[str, str]]] = {}
    for line in (data / FILE).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        text = row["input"]
        _, asked = calls.setdefault(text[:2000], (text, {}))
        for q, ref in zip(row["instructions"], row["outputs"], strict=True):
            asked.setdefault(_PREFIX.sub("", q).strip(), ref)
    return [(f"call{i + 1}.txt", text, list(asked.items())) for i, (text, asked) in enumerate(calls.values())]


def content_recall(answer: str, reference: str) -> float:
    """Share of the reference's distinct content words (not stop words) that the answer holds."""
    ref = content_words(reference)
    return len(ref & content_words(answer)) / len(ref) if ref else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--limit", type=int, default=0, help="questions (0 = all)")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "financial-qa")
    args = ap.parse_args()
    calls = load(args.data)
    store = ModelStore(Settings())
    models = store.models()
    results = []
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, asked in calls:
            path = Path(tmp) / name
            path.write_text(text, encoding="utf-8")
            ctx = build_context(read_many([path]).documents, store.tokenizer())
            for question, reference in asked:
                if args.limit and len(results) >= args.limit:
                    break
                t0 = time.perf_counter()
                calls = len(models.generator.usage)
                answer = ask(ctx, question, models, store.settings.pipeline)
                shown = strip_markers(answer.text) if answer.found else ""
                results.append({"call": name, "question": question, "reference": reference, "found": answer.found,
                                "answer": answer.text, "f1": token_f1(shown, [reference]) if shown else 0.0,
                                "recall": content_recall(shown, reference), "seconds": time.perf_counter() - t0,
                                "stages": answer.timings,
                                "llm_calls": [[u.purpose, u.prompt_tokens, u.completion_tokens, round(u.total_s, 2)]
                                              for u in models.generator.usage[calls:]]})
                r = results[-1]
                print(f"{len(results)} {name} F1 {r['f1']:.2f} recall {r['recall']:.2f} {r['seconds']:.0f} s "
                      f"{answer.text[:90]!r}", flush=True)
    f1 = bootstrap_ci([r["f1"] for r in results])
    rec = bootstrap_ci([r["recall"] for r in results])
    found = bootstrap_ci([float(r["found"]) for r in results])
    answered = [r for r in results if r["found"]]
    f1_found = bootstrap_ci([r["f1"] for r in answered])
    secs = sorted(r["seconds"] for r in results)
    summary = {"questions": len(results), "transcripts": len({r["call"] for r in results}),
               "token F1": f1, "token F1 of the answers found": f1_found, "reference content words held": rec,
               "answer found": found, "seconds mean": sum(secs) / len(secs), "seconds p50": secs[len(secs) // 2]}
    limit = f" --limit {args.limit}" if args.limit else ""
    md = ["# Earnings-call questions (L-Eval financial_qa), answered by the pipeline", "",
          f"Command: `.venv/bin/python benchmarks/financial_qa.py{limit}`  ",
          f"Machine: {machine()}  ",
          f"Date: {time.strftime('%Y-%m-%d %H:%M')}; bundled 1.5B reader, the default pipeline; run "
          f"{time.perf_counter() - t_start:.0f} s. No setting was chosen on these questions (read once, as a test "
          "half). Intervals: 95% bootstrap over questions.", ""]
    md += summary_table(summary)
    md += ["", "| call | question | found | F1 | recall | s | answer |", "|---|---|---|---|---|---|---|"]
    md += [f"| {r['call']} | {r['question'][:90]} | {'yes' if r['found'] else 'no'} | {r['f1']:.2f} | "
           f"{r['recall']:.2f} | {r['seconds']:.0f} | {strip_markers(r['answer'])[:140].replace('|', '/')} |"
           for r in results]
    for p in write(args.out, md, {"machine": machine(), "summary": summary, "questions": results}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
