"""E-mail summaries by what a message is read for (what it is about, what it asks, by when) beside the
central-passage summary, side by side on real messages: a trial of points for the kind ``email`` (the product
gives e-mails no points of their own: in this trial they were slower and not better). The trial's points are
:data:`EMAIL_POINTS` here, installed for the run.

    .venv/bin/python benchmarks/summaries_emails.py [--limit 12]

Messages: the real ham of SpamAssassin's test corpus (``emails/sa_nice/`` under the data root) whose message is
one e-mail (:func:`assistant.ttrag.compute.summarize.points.summary_kind` ``email``) of 300 characters or more.
No summary written by people comes with them, so nothing here is a recall: per message, the points the product
states (:func:`assistant.ttrag.pipeline.summarize_by_kind`) and the central-passage summary
(:func:`~assistant.ttrag.compute.summarize.summarize`), each timed (warm, bundled 1.5B reader, one after the
other on the same message), with how many statements the passages they cite support
(:func:`~assistant.ttrag.compute.summarize.supported_by`). The texts are written out to be read.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.documents import read_many
from assistant.eval.report import machine, write
from assistant.models.base import GenerationRequest
from assistant.service import ModelStore
from assistant.ttrag.compute import summarize as summ
from assistant.ttrag.compute.summarize import points
from assistant.ttrag.compute.summarize.points import PointQuestion
from assistant.ttrag.context import build_context
from assistant.ttrag.pipeline import summarize_by_kind
from assistant.ttrag.prompts import SYSTEM

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("ASSISTANT_TEST_DATA") or HERE.parent.parent / "shared" / "data")

#: The trial's points of an e-mail or thread: what it is about (read from its opening: the message itself, or a
#: thread's first), what is asked of the reader, and by when. The first is stated for a message that asks nothing
#: too (an announcement), so its summary is never the reads spent and then the central-passage summary as well.
EMAIL_POINTS: tuple[PointQuestion, ...] = (
    PointQuestion("About", "What is this message about?", "opening", gist=True),
    PointQuestion("Request", "What does the sender ask the recipient to do or to answer?", "search", gist=True),
    PointQuestion("Deadline", "By when does the sender need this done or answered?", "search", gist=True,
                  check="Does this sentence give a date or a time by which something must be done or answered?"),
)


def _supported(summary: summ.Summary | None) -> tuple[int, int]:
    if summary is None:
        return 0, 0
    ok = sum(bool(summ.supported_by(b.text.split(": ", 1)[-1], [summary.passages[n - 1] for n in b.cites]))
             for b in summary.bullets)
    return ok, len(summary.bullets)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--limit", type=int, default=12)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "summaries-emails")
    args = ap.parse_args()
    points.KIND_POINTS["email"] = EMAIL_POINTS
    store = ModelStore(Settings())
    tokenizer = store.tokenizer()
    models = store.models()
    models.generator.complete(GenerationRequest(SYSTEM, "Say OK.", max_tokens=2, purpose="warm-up"))
    rows: list[dict[str, Any]] = []
    for path in sorted((args.data / "emails" / "sa_nice").iterdir()):
        if len(rows) >= args.limit:
            break
        docs = read_many([path]).documents[:1]
        if not docs or points.summary_kind(docs[0]) != "email" or len(docs[0].text) < 300:
            continue
        ctx = build_context(docs, tokenizer)
        t0 = time.perf_counter()
        by_points = summarize_by_kind(ctx, models, store.settings.pipeline, cancel=threading.Event())
        points_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        central = summ.summarize(ctx, summ.SummaryRequest(), models.generator, embedder=models.embedder)
        central_s = time.perf_counter() - t0
        rows.append({"message": path.name, "chars": len(docs[0].text),
                     "points": [b.text.split(":", 1)[0] for b in by_points.bullets] if by_points else [],
                     "points_supported": _supported(by_points), "points_s": round(points_s, 1),
                     "central_supported": _supported(central), "central_s": round(central_s, 1),
                     "points_text": by_points.text if by_points else "(no point found)", "central_text": central.text,
                     "load": round(os.getloadavg()[0], 1)})
        print(f"{path.name}: points {rows[-1]['points']} {points_s:.1f} s | central {central_s:.1f} s", flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    n = len(rows)

    def p50(key: str) -> float:
        return sorted(r[key] for r in rows)[n // 2] if rows else 0.0

    def count(label: str) -> int:
        return sum(label in r["points"] for r in rows)

    md = ["# E-mail summaries: what a message is about, asks and by when, beside the central-passage summary", "",
          f"Command: `.venv/bin/python benchmarks/summaries_emails.py --limit {args.limit}`  ",
          f"Commit: {commit} (plus the working tree). Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. "
          "Bundled 1.5B reader, default settings, warm; both summaries of a message one after the other.  ",
          "**Settings chosen on:** these messages (no reference summaries, no test half): a report of what each "
          "way states and how long it takes, for the choice of whether e-mails get points of their own (the "
          "product: not; the central-passage summary).", "",
          "| measure | points | central passages |", "|---|---|---|",
          f"| messages | {n} | {n} |",
          f"| a summary stated | {sum(bool(r['points']) for r in rows)} of {n} | {n} of {n} |",
          f"| statements supported by their passages | {sum(r['points_supported'][0] for r in rows)} of "
          f"{sum(r['points_supported'][1] for r in rows)} | {sum(r['central_supported'][0] for r in rows)} of "
          f"{sum(r['central_supported'][1] for r in rows)} |",
          f"| seconds a summary, p50 | {p50('points_s')} | {p50('central_s')} |", "",
          f"Points stated: About {count('About')}, Request {count('Request')}, Deadline {count('Deadline')} of {n}.",
          "", "| message | chars | points | points s | central s | load |", "|---|---|---|---|---|---|"]
    for r in rows:
        md.append(f"| {r['message']} | {r['chars']} | {', '.join(r['points']) or '-'} | {r['points_s']} | "
                  f"{r['central_s']} | {r['load']} |")
    md += ["", "## The summaries", ""]
    for r in rows:
        md += [f"### {r['message']}", "", "By its points:", "", "```", r["points_text"], "```", "",
               "By central passages:", "", "```", r["central_text"], "```", ""]
    write(args.out, md, {"machine": machine(), "commit": commit, "rows": rows})


if __name__ == "__main__":
    main()
