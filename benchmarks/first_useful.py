"""Seconds to the first useful thing a person sees for a question, warm: the best-matching passage (the
:class:`~assistant.records.Preview` the app opens beside the answer as soon as the re-rank ends), the
answer's first streamed text, and the whole answer; and how often the reader's prompt reports its progress
(prefill slices) so the bar moves. The sample contract and a handful of questions a person asks of it
(nothing is chosen here: it reports what the app shows).

    .venv/bin/python benchmarks/first_useful.py [--llm bundled] [--out benchmarks/results/first-useful]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import ModelSettings, Settings
from assistant.documents import extract
from assistant.eval.report import machine, write
from assistant.records import Event, Preview, Progress, TokenText
from assistant.service import ModelStore, Session
from assistant.ttrag.pipeline import ask

SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "samples" / "supply-agreement.md"
QUESTIONS = (
    "What is the penalty for late delivery?",
    "Which law governs this agreement?",
    "How long is the warranty on the products?",
    "Is there a cap on liability?",
    "How can the agreement be terminated?",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--llm", default="bundled")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/first-useful"))
    args = ap.parse_args()
    store = ModelStore(Settings(models=ModelSettings(llm=args.llm)))
    session = Session(store, [extract(SAMPLE)])
    models = store.models()
    ask(session.context, "Who are the parties?", models, store.settings.pipeline)  # warm: models loaded
    rows = []
    for question in QUESTIONS:
        seen: dict[str, float] = {}
        reports = [0]
        t0 = time.perf_counter()

        def emit(event: Event, seen: dict[str, float] = seen, reports: list[int] = reports,
                 t0: float = t0) -> None:
            now = time.perf_counter() - t0
            if isinstance(event, Preview):
                seen.setdefault("preview", now)
            elif isinstance(event, TokenText):
                seen.setdefault("text", now)
            elif isinstance(event, Progress) and event.unit == "tokens":
                reports[0] += 1

        answer = ask(session.context, question, models, store.settings.pipeline, emit=emit)
        total = time.perf_counter() - t0
        rows.append({"question": question, "preview_s": round(seen.get("preview", total), 2),
                     "first_text_s": round(seen.get("text", total), 2), "total_s": round(total, 2),
                     "prefill_reports": reports[0], "found": answer.found, "answer": answer.text[:120]})
        print(rows[-1], flush=True)
    med = {k: statistics.median(r[k] for r in rows) for k in ("preview_s", "first_text_s", "total_s")}
    md = ["# Seconds to the first useful thing shown, warm", "",
          f"Command: `.venv/bin/python benchmarks/first_useful.py --llm {args.llm}`  ",
          f"Machine: {machine()}  ",
          f"Date: {time.strftime('%Y-%m-%d %H:%M')}; reader `{args.llm}`, default settings, the sample "
          f"contract ({SAMPLE.name}). Nothing chosen here.", "",
          "| measure | p50 |", "|---|---|",
          f"| seconds to the best passage shown (Preview) | {med['preview_s']:.1f} |",
          f"| seconds to the answer's first text | {med['first_text_s']:.1f} |",
          f"| seconds to the whole answer | {med['total_s']:.1f} |", "",
          "| question | passage shown, s | first text, s | whole answer, s | prefill reports | found |",
          "|---|---|---|---|---|---|"]
    md += [f"| {r['question']} | {r['preview_s']} | {r['first_text_s']} | {r['total_s']} | "
           f"{r['prefill_reports']} | {r['found']} |" for r in rows]
    for path in write(args.out, md, {"rows": rows, "median": med}):
        print(path)


if __name__ == "__main__":
    main()
