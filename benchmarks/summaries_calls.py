"""Earnings-call summaries built from what a call is read for (its figures and its outlook), on real calls: a
trial of points for the kind ``call`` (:func:`assistant.ttrag.compute.summarize.points.summary_kind`). The
product gives calls no points of their own (the central-passage summary): most calls got no point in this trial.
The trial's points are :data:`CALL_POINTS` here, installed for the run.

    .venv/bin/python benchmarks/summaries_calls.py

Documents: the distinct earnings-call transcripts of L-Eval's ``financial_qa`` (``qa/leval-dev/financial_qa.jsonl``
under the data root; six calls). No summary written by people comes with them, so nothing here is a recall:
per call, the points the product states (:func:`assistant.ttrag.pipeline.summarize_by_kind`, the kind ``call``),
whether each is supported by the passages it cites (:func:`~assistant.ttrag.compute.summarize.supported_by`),
whether every figure it states stands in those passages, seconds to the first point and to the whole summary
(warm, bundled 1.5B reader). The texts are written out to be read.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.eval.report import machine, write
from assistant.models.base import GenerationRequest
from assistant.records import Document, Event, Segment, TokenText
from assistant.service import ModelStore
from assistant.ttrag.compute import summarize as summ
from assistant.ttrag.compute.summarize import points
from assistant.ttrag.compute.summarize.points import PointQuestion
from assistant.ttrag.context import build_context
from assistant.ttrag.pipeline import summarize_by_kind
from assistant.ttrag.prompts import SYSTEM

HERE = Path(__file__).resolve().parent

#: The trial's points of an earnings call: the figures reported and the outlook given (what an analyst's call
#: notes lead with).
CALL_POINTS: tuple[PointQuestion, ...] = (
    PointQuestion("Results", "What financial results were reported for the period, such as revenue, earnings "
                  "or growth?", "search", gist=True,
                  check="Does this sentence report a financial figure for the period, such as revenue or earnings?"),
    PointQuestion("Outlook", "What outlook or guidance was given for the coming period?", "search", gist=True,
                  check="Does this sentence give an outlook, a forecast or guidance for a future period?"),
)


DATA = Path(os.environ.get("ASSISTANT_TEST_DATA") or HERE.parent.parent / "shared" / "data")
_FIGURE = re.compile(r"\d[\d,.]*")


def calls(data: Path) -> list[tuple[str, str]]:
    """(name, transcript) of each distinct call: its name is the welcome line's company and period."""
    seen: dict[str, str] = {}
    for line in (data / "qa" / "leval-dev" / "financial_qa.jsonl").read_text(encoding="utf-8").splitlines():
        text = json.loads(line)["input"]
        seen.setdefault(text[:300], text)
    out = []
    for text in seen.values():
        m = re.search(r"(?:welcome to|Welcome to)(?: the)? (.{5,90}?)(?:Conference Call|Earnings Call|Call)", text)
        out.append(((m.group(1).strip() if m else text[:60]).rstrip("'s ").strip(), text))
    return out


def figures_stand(sentence: str, cited: list[str]) -> bool:
    """Whether every figure of ``sentence`` (digits, with their commas and points) stands in a cited passage."""
    hay = " ".join(cited)
    return all(f.rstrip(".,") in hay for f in _FIGURE.findall(sentence))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "summaries-calls")
    args = ap.parse_args()
    points.KIND_POINTS["call"] = CALL_POINTS
    store = ModelStore(Settings())
    tokenizer = store.tokenizer()
    models = store.models()
    models.generator.complete(GenerationRequest(SYSTEM, "Say OK.", max_tokens=2, purpose="warm-up"))
    rows: list[dict[str, Any]] = []
    for name, text in calls(args.data):
        doc = Document("call.txt", text, (Segment(text, page=1),), (0,))
        ctx = build_context([doc], tokenizer)
        t0 = time.perf_counter()
        first: list[float] = []

        def on_event(e: Event, t0: float = t0, first: list[float] = first) -> None:
            if isinstance(e, TokenText) and not first:
                first.append(time.perf_counter() - t0)

        summary = summarize_by_kind(ctx, models, store.settings.pipeline, emit=on_event, cancel=threading.Event())
        seconds = time.perf_counter() - t0
        stated = []
        for b in summary.bullets if summary else ():
            label, _, sentence = b.text.partition(": ")
            cited = [summary.passages[n - 1].text for n in b.cites] if summary else []
            stated.append({"label": label, "sentence": sentence,
                           "supported": bool(summ.supported_by(sentence, [summary.passages[n - 1] for n in b.cites]))
                           if summary else False, "figures_stand": figures_stand(sentence, cited)})
        rows.append({"call": name, "kind": points.summary_kind(doc), "points": stated,
                     "text": summary.text if summary else "(no point found: the central-passage summary is shown)",
                     "seconds": round(seconds, 1), "first_s": round(first[0], 1) if first else None,
                     "load": round(os.getloadavg()[0], 1)})
        print(f"{name}: {len(stated)} points, {seconds:.1f} s", flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    n_points = sum(len(r["points"]) for r in rows)
    md = ["# Earnings-call summaries: the figures and the outlook", "",
          "Command: `.venv/bin/python benchmarks/summaries_calls.py`  ",
          f"Commit: {commit} (plus the working tree). Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. "
          "Bundled 1.5B reader, default settings, warm.  ",
          "**Settings chosen on:** nothing is chosen here (no reference summaries): a report of what is stated, "
          "for the choice of whether calls get points of their own (the product: not; the central-passage "
          "summary). "
          "The calls are L-Eval's financial_qa transcripts (their questions are not used).", "",
          "| measure | value |", "|---|---|",
          f"| calls | {len(rows)} |",
          f"| Results stated | {sum(any(p['label'] == 'Results' for p in r['points']) for r in rows)} of {len(rows)} |",
          f"| Outlook stated | {sum(any(p['label'] == 'Outlook' for p in r['points']) for r in rows)} of {len(rows)} |",
          f"| points supported by their passages | {sum(p['supported'] for r in rows for p in r['points'])} of "
          f"{n_points} |",
          f"| points whose every figure stands in their passages | "
          f"{sum(p['figures_stand'] for r in rows for p in r['points'])} of {n_points} |",
          f"| seconds to the first point, p50 | {sorted(r['first_s'] or 0 for r in rows)[len(rows) // 2]} |",
          f"| seconds a summary, p50 | {sorted(r['seconds'] for r in rows)[len(rows) // 2]} |", "",
          "| call | points | supported | figures stand | first point s | s | load |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append(f"| {r['call']} | {', '.join(p['label'] for p in r['points']) or '-'} | "
                  f"{sum(p['supported'] for p in r['points'])}/{len(r['points'])} | "
                  f"{sum(p['figures_stand'] for p in r['points'])}/{len(r['points'])} | {r['first_s'] or '-'} | "
                  f"{r['seconds']} | {r['load']} |")
    md += ["", "## The summaries", ""]
    for r in rows:
        md += [f"### {r['call']}", "", "```", r["text"], "```", ""]
    write(args.out, md, {"machine": machine(), "commit": commit, "rows": rows})


if __name__ == "__main__":
    main()
