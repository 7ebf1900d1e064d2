"""The gist of documents of a kind no summary rule was written for: earnings-call transcripts (L-Eval's
``financial_qa``, six calls of 22-31k characters, read as plain-text attachments). No summaries written by
people exist for them, so the table counts what a reader would object to in a gist:

- *formula title*: the title line is a pleasantry that names nothing ("Hello.", "Thank you for standing
  by.", "Good morning, ladies and gentlemen."), or a speaker's turn line ("Grace Chang Speaking.");
- *side-matter points*: points that state a call's legal notice or logistics: the forward-looking
  statements notice, the replay, the recording, the operator's instructions, a hand-over ("turn the call
  over to"). Checked by :data:`SIDE_TERMS`, a fixed list kept apart from the summarizer's own rules;
- *who-speaks-next points*: points that only say who will speak or give details ("Brian will speak about this
  in more detail later", "Jerry will discuss the impact ..."): :data:`NEXT_SPEAKER`;
- the title line and the points themselves, to be read.

    .venv/bin/python benchmarks/gist_calls.py --label after [--out PATH]
    .venv/bin/python benchmarks/gist_calls.py --rescore benchmarks/results/gist-calls-after.json   # counts again

Nothing here chooses a setting: the six calls are the only ones (no dev / test halves); the summarizer's
side-matter and title rules are general ones (see docs/design.md §8).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import time
from pathlib import Path
from typing import Any

from financial_qa import load
from summaries_real import run_one

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.eval.report import machine, write
from assistant.models.base import GenerationRequest
from assistant.records import Document, Segment
from assistant.service import ModelStore
from assistant.ttrag.context import build_context
from assistant.ttrag.prompts import SYSTEM

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("ASSISTANT_TEST_DATA") or HERE.parent.parent / "shared" / "data")
REQUEST = "Summarize this document"
SIDE_TERMS = re.compile(r"forward[- ]looking|safe harbou?r|\breplay\b|being recorded|listen[- ]only|operator "
                        r"instructions|\bturn(?:ing)? (?:it|the call|the conference) (?:back )?over\b", re.I)
NEXT_SPEAKER = re.compile(r"\b(?:I|we|[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:will|'ll|is going to|are going to) (?:then )?"
                          r"(?:speak|talk|discuss|give|provide|follow|come back|walk|cover|review)\b")
FORMULA = re.compile(r"^(?:hello|hi|good (?:morning|afternoon|evening|day)|thank you|thanks|greetings|welcome)\b"
                     r"[^.!?]{0,40}[.!?]?$|\bSpeaking\.?$", re.I)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--label", default="after")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--rescore", type=Path, default=None, help="count the points of this results JSON again")
    args = ap.parse_args()
    if args.rescore:
        old = json.loads(args.rescore.read_text(encoding="utf-8"))
        report([counted(r) for r in old["rows"]], old["label"], old["commit"], args.out or args.rescore.with_suffix(""),
               old.get("date") or time.strftime("%Y-%m-%d"))
        return
    out = args.out or HERE / "results" / f"gist-calls-{args.label}"
    store = ModelStore(Settings())
    models = store.models()
    models.generator.complete(GenerationRequest(SYSTEM, "Say OK.", max_tokens=2, purpose="warm-up"))
    rows: list[dict[str, Any]] = []
    for i, (_name, text, _questions) in enumerate(load(args.data), 1):
        ctx = build_context([Document(f"call-{i}.txt", text, (Segment(text, page=1),), (0,))], store.tokenizer())
        row = run_one(ctx, REQUEST, models.generator, models.embedder)
        lines = [ln for ln in row["text"].splitlines() if ln.strip()]
        title = re.sub(r"\s*\(call-\d+\.txt\):?$", "", lines[0]) if lines else ""
        points = [ln for ln in lines[1:] if ln.lstrip().startswith("-")]
        rows.append(counted({"call": f"call-{i}", "opening": " ".join(text[:120].split()), "title": title,
                             "points": points, "seconds": row["seconds"], "load": row["load"]}))
        print(f"call-{i} | {title}\n" + "\n".join(points) + "\n", flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    report(rows, args.label, commit, out, time.strftime("%Y-%m-%d"))


def counted(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with its counts (by today's rules of this script)."""
    points = row["points"]
    return {**row, "formula_title": bool(FORMULA.search(row["title"])),
            "side_points": sum(bool(SIDE_TERMS.search(p)) for p in points),
            "next_points": sum(bool(NEXT_SPEAKER.search(p)) and not SIDE_TERMS.search(p) for p in points)}


def report(rows: list[dict[str, Any]], label: str, commit: str, out: Path, date: str) -> None:
    n_points = sum(len(r["points"]) for r in rows)
    md = [f"# The gist of six earnings-call transcripts ({label})", "",
          f"Command: `.venv/bin/python benchmarks/gist_calls.py --label {label}`  ",
          f"Commit: {commit} (plus the working tree). Machine: {machine()}. Date: {date}. "
          "Mode: bundled 1.5B model, warm.  ",
          "**Settings chosen on:** none (no setting is chosen here; the six calls are all there are). "
          "Rules of the counts: see the script's docstring.", "",
          "| calls | formula titles | side-matter points | who-speaks-next points | seconds (mean) |",
          "|---|---|---|---|---|",
          f"| {len(rows)} | {sum(r['formula_title'] for r in rows)}/{len(rows)} | "
          f"{sum(r['side_points'] for r in rows)}/{n_points} | {sum(r['next_points'] for r in rows)}/{n_points} | "
          f"{sum(r['seconds'] for r in rows) / max(1, len(rows)):.1f} |", "",
          "| call | opens with | title line | formula title | side-matter points | who-speaks-next points | s | load |",
          "|---|---|---|---|---|---|---|---|"]
    md += [f"| {r['call']} | {r['opening'][:70]}... | {r['title']} | {'yes' if r['formula_title'] else 'no'} | "
           f"{r['side_points']}/{len(r['points'])} | {r['next_points']}/{len(r['points'])} | {r['seconds']} | "
           f"{r['load']} |" for r in rows]
    md += ["", "## The gists", ""]
    for r in rows:
        md += [f"### {r['call']}", "", "```", r["title"], *r["points"], "```", ""]
    write(out, md, {"label": label, "commit": commit, "date": date, "rows": rows})
    print(f"wrote {out}.md")


if __name__ == "__main__":
    main()
