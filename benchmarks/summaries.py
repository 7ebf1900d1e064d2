"""Summaries of long documents: reference points covered, statements the document does
not support, and seconds, before (the salient-chunks summarizer) and after (the reading plan).

    .venv/bin/python benchmarks/summaries.py [--only after|before] [--docs NAME] [--out benchmarks/results/summaries]

Documents and points: ``benchmarks/data/summary_points.json`` (5-7 points per document, written by hand
after reading it; paths ``data:`` are under ASSISTANT_TEST_DATA or ../shared/data, ``bug:`` under
../shared/bug-inputs). A point is covered when each group of its keys has one alternative in the summary
(case-insensitive, ``[n]`` markers removed). A statement (a bullet or line; the "after" title line is
left out, it is the document's own first line) is *unsupported* when no single chunk of the document
holds every number in it and at least 60% of its content words, stemmed (the check of
:func:`assistant.ttrag.compute.summarize.supported_by`, run here over the whole document rather than the
passages cited). Seconds: from the request to the finished summary, models warm; "before" includes the
LLM router call it made, "after" skips it (only a summary cue).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.documents import read_many
from assistant.eval.report import machine, write
from assistant.models.base import GenerationRequest
from assistant.service import ModelStore
from assistant.ttrag import pipeline
from assistant.ttrag.compute.summarize import salient_chunks, supported_by
from assistant.ttrag.context import build_context
from assistant.ttrag.prompts import SYSTEM, route_prompt, summary_prompt
from assistant.ttrag.router import ROUTE_SCHEMA

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = Path(os.environ.get("ASSISTANT_TEST_DATA") or ROOT.parent / "shared" / "data")
BUGS = DATA.parent / "bug-inputs"
_MARK = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")


def resolve(path: str) -> Path:
    if path.startswith("data:"):
        return DATA / path[5:]
    if path.startswith("bug:"):
        return BUGS / path[4:]
    return ROOT / path


def covered(points: list[dict], text: str) -> list[bool]:
    hay = re.sub(r"\s+", " ", _MARK.sub("", text)).lower()
    return [all(any(alt.lower() in hay for alt in group) for group in p["keys"]) for p in points]


def statements(text: str, skip_first: bool) -> list[str]:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if skip_first and lines and lines[0].endswith(":"):
        lines = lines[1:]
    out = []
    for ln in lines:
        ln = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", _MARK.sub("", ln)).strip()
        if len(ln.split()) >= 3:
            out.append(ln)
    return out


def unsupported(stmts: list[str], chunks: list) -> list[str]:
    return [s for s in stmts if not supported_by(s, chunks)]


def before(ctx, models, question: str) -> str:
    """The summarizer before the reading plan: LLM router call, salient chunks, 5-bullet prompt."""
    gen = models.generator
    gen.complete(GenerationRequest(SYSTEM, route_prompt(question), max_tokens=64, json_schema=ROUTE_SCHEMA,
                                   purpose="route"))
    chunks = salient_chunks(ctx.chunks)
    return gen.complete(GenerationRequest(SYSTEM, summary_prompt(chunks, ""), max_tokens=256, purpose="summary"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=["before", "after"], default="")
    ap.add_argument("--docs", default="", help="only the documents whose name contains this")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "summaries")
    args = ap.parse_args()
    spec = json.loads((HERE / "data" / "summary_points.json").read_text())
    store = ModelStore(Settings())
    models = store.models()
    tokenizer = store.tokenizer()
    models.generator.complete(GenerationRequest(SYSTEM, "Say OK.", max_tokens=2, purpose="warm-up"))
    rows = []
    cases = [(d, "Summarize this document") for d in spec["documents"]] + \
        [(d, d["request"]) for d in spec.get("focus", [])]
    cases = [(d, q) for d, q in cases if args.docs.lower() in d["name"].lower()]
    contexts = {}
    for doc_spec, _q in cases:
        path = resolve(doc_spec["path"])
        if not path.exists():
            print(f"skip {doc_spec['name']}: {path} absent", flush=True)
        elif doc_spec["path"] not in contexts:
            contexts[doc_spec["path"]] = build_context(read_many([path]).documents, tokenizer)
    methods = [m for m in ("after", "before") if not args.only or m == args.only]  # after first: it matters most
    for method in methods:
        for doc_spec, question in cases:
            if doc_spec["path"] not in contexts:
                continue
            ctx = contexts[doc_spec["path"]]
            used = len(models.generator.usage)
            load0 = os.getloadavg()[0]
            t0 = time.perf_counter()
            if method == "before":
                text = before(ctx, models, question)
            else:
                text = pipeline.ask(ctx, question, models, store.settings.pipeline).text
            seconds = time.perf_counter() - t0
            calls = models.generator.usage[used:]
            load = round((load0 + os.getloadavg()[0]) / 2, 1)
            cov = covered(doc_spec["points"], text)
            stmts = statements(text, method == "after")
            bad = unsupported(stmts, ctx.chunks)
            rows.append({"document": doc_spec["name"], "request": question, "method": method,
                         "points": len(cov), "covered": sum(cov), "per_point": cov, "statements": len(stmts),
                         "unsupported": bad, "seconds": round(seconds, 1), "load": load,
                         "prompt_tokens": sum(u.prompt_tokens for u in calls),
                         "completion_tokens": sum(u.completion_tokens for u in calls),
                         "llm_calls": [u.purpose for u in calls], "summary": text})
            report(args.out, rows)
            print(f"{doc_spec['name']} | {method} | {sum(cov)}/{len(cov)} points | {len(bad)} unsupported of "
                  f"{len(stmts)} | {seconds:.1f} s\n{text}\n", flush=True)


def report(out: Path, rows: list[dict]) -> None:
    """Write the table so far (a run stopped early still leaves its rows)."""
    md = ["# Summaries of long documents (issue 18)", "",
          "Command: `.venv/bin/python benchmarks/summaries.py`  ", f"Machine: {machine()}  ",
          f"Bundled 1.5B model, warm; points: `benchmarks/data/summary_points.json`. Date: "
          f"{time.strftime('%Y-%m-%d')}. Rule: see the script's docstring.", "",
          "Seconds are wall time on a shared machine: *load* is the 1-minute load average (2 cores) during the "
          "summary; prompt/completion tokens show the work independent of load.", "",
          "| document | request | method | points covered | unsupported statements | s | load | prompt + completion "
          "tokens (LLM calls) |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append(f"| {r['document']} | {r['request']} | {r['method']} | {r['covered']}/{r['points']} | "
                  f"{len(r['unsupported'])} of {r['statements']} | {r['seconds']:.1f} | {r['load']} | "
                  f"{r['prompt_tokens']} + {r['completion_tokens']} ({', '.join(r['llm_calls'])}) |")
    for method in ("before", "after"):
        sel = [r for r in rows if r["method"] == method]
        if sel:
            pts = sum(r["covered"] for r in sel) / max(1, sum(r["points"] for r in sel))
            md.append(f"| **all** | | {method} | {pts:.0%} | {sum(len(r['unsupported']) for r in sel)} | "
                      f"{max(r['seconds'] for r in sel):.1f} max |")
    md += ["", "## The summaries", ""]
    for r in rows:
        md += [f"### {r['document']} - {r['method']} ({r['request']})", "", "```", r["summary"], "```", ""]
        if r["unsupported"]:
            md += ["Unsupported: " + " / ".join(r["unsupported"]), ""]
    write(out, md, {"machine": machine(), "rows": rows})


if __name__ == "__main__":
    main()
