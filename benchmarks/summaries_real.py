"""Summaries of documents nobody here wrote, scored against summaries written by people, beside the lead
baseline of the same length; then the five-document table of ``summaries.py`` scored the same way.

    .venv/bin/python benchmarks/summaries_real.py --half dev --label before
    .venv/bin/python benchmarks/summaries_real.py --half test --label final      # once, at the end

Documents: L-Eval's US government reports and patents (``qa/leval-dev/*_summ.jsonl`` under the data root,
13 distinct documents each), split into seeded dev and test halves (:mod:`assistant.eval.summaries`;
the split is written into every results file). The summarizer's rules are chosen on ``dev``; ``test`` is
run once with the rules fixed. Each document is asked the data set's own instruction ("Please help me
summarize this government report.") through the product's route and summarizer, models warm.

Per document: ROUGE-1/2/L recall and F (rouge-score, Porter stemmer) and content-word recall (share of
the reference's distinct lower-cased word tokens, stop words out, that the summary contains) of the
summary as shown (its title line and its statements, without the file name, the ``[n]`` markers and the
bullet marks) and of the *lead baseline*: the document's first words, as many as the summary has.
Supported: the share of the summary's statements that
:func:`~assistant.ttrag.compute.summarize.supported_by` finds supported by the passages they cite; model
statements kept: the model's statements that passed that check (the rest were dropped and their place
given to quoted sentences). Means with seeded bootstrap 95% intervals (1,000
resamples of the documents); ratios are of the means, resampled in pairs.

The five-document table (``benchmarks/data/summary_points.json``): the reference is the document's
hand-written points joined, and "points" counts the points covered as ``summaries.py`` does (the whole
reply, title line included). ``--extractive`` skips the LLM: the summary is the reading plan's quoted
opening sentences (the summarizer's fallback), a quick measure of what the plan reads.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from summaries import covered, resolve

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.documents import read_many
from assistant.eval.metrics import bootstrap_ci, content_recall, lead, rouge
from assistant.eval.report import machine, write
from assistant.eval.summaries import FAMILIES, SPLIT_SEED, load_family, split_halves
from assistant.models.base import GenerationRequest, Generator
from assistant.records import Document, Event, Segment, TokenText
from assistant.service import ModelStore
from assistant.ttrag import router
from assistant.ttrag.compute import summarize as summ
from assistant.ttrag.compute.summarize import points
from assistant.ttrag.context import Context, build_context
from assistant.ttrag.pipeline import summarize_by_kind
from assistant.ttrag.prompts import SYSTEM

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("ASSISTANT_TEST_DATA") or HERE.parent.parent / "shared" / "data")
METRICS = ("r1_recall", "r1_f", "r2_recall", "r2_f", "rL_recall", "rL_f", "content_recall")
FIVE_REQUEST = "Summarize this document"


class _Quoting(Generator):
    """No model: every reply is empty, so the summarizer shows the plan's quoted sentences (``--extractive``)."""

    def stream(self, request: GenerationRequest):  # type: ignore[no-untyped-def]
        self._record(request.purpose, len(request.user) // 4, 0, 0.0, None)
        yield "{}"


def scores(summary: str, reference: str) -> dict[str, float]:
    return {**rouge(summary, reference), "content_recall": content_recall(summary, reference)}


def run_one(ctx: Context, question: str, generator: Generator, embedder: Any) -> dict[str, Any]:
    """The product's route and summary of ``ctx`` for ``question``: the reply, its statements, support."""
    notes: list[dict[str, Any]] = []
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    decision = router.route(generator, question)
    result = summ.summarize(ctx, summ.parse_request(question, decision.target), generator, embedder=embedder,
                            note=lambda stage, **d: notes.append({"stage": stage, **d}))
    seconds = time.perf_counter() - t0
    statements = [b.text for b in result.bullets]
    supported = [bool(summ.supported_by(b.text, [result.passages[n - 1] for n in b.cites])) for b in result.bullets]
    quoted = sum(n.get("extractive", 0) for n in notes if n["stage"] == "summary_check")
    return {"route": decision.route, "request": question, "text": result.text, "statements": statements,
            "supported": supported, "model_kept": len(statements) - quoted, "dropped": list(result.dropped),
            "seconds": round(seconds, 1), "load": round((load0 + os.getloadavg()[0]) / 2, 1),
            "plan": [f"{p.role}:{p.chunk.text[:50]}" for p in result.plan]}


_MARKS = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")
_FILE_NOTE = re.compile(r"\s*\([^()]*\.[A-Za-z0-9]{2,5}(?:, \d+ pages)?\)")


def run_points(ctx: Context, models: Any, opts: Any) -> dict[str, Any] | None:
    """The summary built from the questions the document's kind is read for (the product's default where the
    kind has points: :func:`assistant.ttrag.pipeline.summarize_by_kind`), or None when it has none or no point
    was found (the product then shows the central-passage summary)."""
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    first: list[float] = []

    def on_event(e: Event) -> None:
        if isinstance(e, TokenText) and not first:
            first.append(time.perf_counter() - t0)

    summary = summarize_by_kind(ctx, models, opts, emit=on_event, cancel=threading.Event())
    if summary is None:
        return None
    seconds = time.perf_counter() - t0
    statements = [b.text.split(":", 1)[-1].strip() for b in summary.bullets]
    supported = [bool(summ.supported_by(t, [summary.passages[n - 1] for n in b.cites]))
                 for t, b in zip(statements, summary.bullets, strict=True)]
    kinds = sorted({points.summary_kind(d) for d in ctx.documents})
    return {"route": f"points:{','.join(kinds)}", "request": "", "text": summary.text, "statements": statements,
            "supported": supported, "dropped": [], "seconds": round(seconds, 1),
            "model_kept": sum(not b.text.startswith(points.QUOTE_LABEL) for b in summary.bullets),
            "first_s": round(first[0], 1) if first else None,
            "load": round((load0 + os.getloadavg()[0]) / 2, 1), "plan": []}


def shown(text: str) -> str:
    """What a reader sees of a summary, as scored: its title line and its statements, without the file name
    and size, the ``[n]`` markers and the bullet marks."""
    lines = [_FILE_NOTE.sub("", _MARKS.sub("", ln)).strip().removeprefix("- ").rstrip(":") for ln in text.splitlines()]
    return " ".join(ln for ln in lines if ln)


def scored(row: dict[str, Any], doc_text: str, reference: str) -> dict[str, Any]:
    body = shown(row["text"])
    words = len(body.split())
    base = lead(doc_text, words)
    return {**row, "words": words, "summary": scores(body, reference), "lead": scores(base, reference),
            "lead_text": base}


def aggregate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Means with bootstrap intervals; ratios of the summary's mean to the lead's, resampled in pairs."""
    out: dict[str, Any] = {"n": len(rows)}
    for m in METRICS:
        out[m] = bootstrap_ci([r["summary"][m] for r in rows])
        out[f"lead_{m}"] = bootstrap_ci([r["lead"][m] for r in rows])
    for m in ("r1_recall", "content_recall"):
        pairs = [[r["summary"][m], r["lead"][m]] for r in rows]
        out[f"ratio_{m}"] = bootstrap_ci(pairs, statistic=lambda a: float(a[:, 0].mean() / max(a[:, 1].mean(), 1e-9)))
    out["words"] = bootstrap_ci([r["words"] for r in rows])
    out["seconds"] = bootstrap_ci([r["seconds"] for r in rows])
    flat = [s for r in rows for s in r["supported"]]
    out["supported"] = (sum(flat) / len(flat)) if flat else float("nan")
    out["supported_n"] = f"{sum(flat)}/{len(flat)}"
    kept = sum(r["model_kept"] for r in rows)
    out["model_kept"] = f"{kept}/{kept + sum(len(r['dropped']) for r in rows)}"
    return out


def _ci(v: tuple[float, float, float], nd: int = 3) -> str:
    return f"{v[0]:.{nd}f} [{v[1]:.{nd}f}, {v[2]:.{nd}f}]"


def table(groups: dict[str, dict[str, Any]]) -> list[str]:
    md = ["| family (n) | | R-1 recall | R-1 F | R-2 recall | R-2 F | R-L recall | R-L F | content-word recall |",
          "|---|---|---|---|---|---|---|---|---|"]
    for name, a in groups.items():
        md.append(f"| {name} ({a['n']}) | summary | " + " | ".join(_ci(a[m]) for m in METRICS) + " |")
        md.append("| | lead, same length | " + " | ".join(_ci(a[f"lead_{m}"]) for m in METRICS) + " |")
    md += ["", "| family | R-1 recall / lead | content-word recall / lead | words | seconds | supported statements | "
           "model statements kept |", "|---|---|---|---|---|---|---|"]
    for name, a in groups.items():
        md.append(f"| {name} | {_ci(a['ratio_r1_recall'], 2)} | {_ci(a['ratio_content_recall'], 2)} | "
                  f"{_ci(a['words'], 0)} | {_ci(a['seconds'], 1)} | {a['supported']:.3f} ({a['supported_n']}) | "
                  f"{a['model_kept']} |")
    return md


def _doc(source: str, text: str) -> Document:
    return Document(source, text, (Segment(text, page=1),), (0,))


def families_rows(args: argparse.Namespace, tokenizer: Any, summarize_ctx: Callable[..., dict[str, Any]],
                  on_row: Callable[[dict[str, Any]], None]) -> None:
    """Summaries of the chosen half of each family."""
    for family in args.families.split(","):
        for ref in split_halves(load_family(args.data, family))[args.half][:args.limit or None]:
            ctx = build_context([_doc(f"{family}-{ref.id}.txt", ref.text)], tokenizer)
            row = summarize_ctx(ctx, ref.request)
            on_row(scored({"family": family, "id": ref.id, **row}, ref.text, ref.reference))


def five_rows(tokenizer: Any, summarize_ctx: Callable[..., dict[str, Any]],
              on_row: Callable[[dict[str, Any]], None]) -> None:
    spec = json.loads((HERE / "data" / "summary_points.json").read_text())
    for d in spec["documents"]:
        path = resolve(d["path"])
        if not path.exists():
            print(f"skip {d['name']}: {path} absent", flush=True)
            continue
        docs = read_many([path]).documents
        ctx = build_context(docs, tokenizer)
        row = summarize_ctx(ctx, FIVE_REQUEST)
        reference = " ".join(p["point"].rstrip(".") + "." for p in d["points"])
        cov = covered(d["points"], row["text"])
        row = scored({"family": "five", "id": d["name"], **row}, "\n\n".join(x.text for x in docs), reference)
        on_row({**row, "points": f"{sum(cov)}/{len(cov)}"})


def rescore(args: argparse.Namespace, path: Path) -> list[dict[str, Any]]:
    """The rows of an earlier results file scored again by today's rules (no LLM)."""
    refs = {(f, d.id): d for f in FAMILIES for d in load_family(args.data, f)}
    spec = {d["name"]: d for d in json.loads((HERE / "data" / "summary_points.json").read_text())["documents"]}
    rows = []
    for row in json.loads(path.read_text())["rows"]:
        if row["family"] == "five":
            d = spec[row["id"]]
            text = "\n\n".join(x.text for x in read_many([resolve(d["path"])]).documents)
            reference = " ".join(p["point"].rstrip(".") + "." for p in d["points"])
        else:
            ref = refs[(row["family"], row["id"])]
            text, reference = ref.text, ref.reference
        rows.append(scored(row, text, reference))
    return rows


def report(args: argparse.Namespace, rows: list[dict[str, Any]], split: dict[str, list[str]]) -> None:
    fam = [r for r in rows if r["family"] != "five"]
    five = [r for r in rows if r["family"] == "five"]
    groups = {f: aggregate([r for r in fam if r["family"] == f]) for f in dict.fromkeys(r["family"] for r in fam)}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    mode = "extractive (no LLM: the plan's quoted sentences)" if args.extractive else "bundled 1.5B model, warm" + (
        ", the central-passage summary for every document" if args.central else
        ", the points of each document's kind where it has them (route `points:KIND`), else the central-passage "
        "summary")
    chosen = ("the rules were chosen on the dev half; this is the test half, run once with them fixed"
              if args.half == "test" else "dev half: the half the rules are chosen on")
    md = [f"# Summaries against human references: {args.half} half ({args.label})", "",
          f"Command: `.venv/bin/python benchmarks/summaries_real.py --half {args.half} --label {args.label}"
          + (f" --families {args.families or chr(34) * 2}" if args.families != ",".join(FAMILIES) else "")
          + (f" --limit {args.limit}" if args.limit else "") + (" --no-five" if args.no_five else "")
          + (" --extractive" if args.extractive else "") + (" --central" if args.central else "")
          + (f" --rescore {args.rescore}" if args.rescore else "")
          + "`  ",
          f"Commit: {commit} (plus the working tree). Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. "
          f"Mode: {mode}.  ", f"**Settings chosen on:** {chosen}. Split seed {SPLIT_SEED}:  "]
    md += [f"- {f}: " + "; ".join(parts) for f, parts in split.items()]
    md += ["", "Rules of the scores: see the script's docstring. Intervals: bootstrap 95% over documents. Seconds "
           "are wall time on a shared 2-core machine; *load* (per document) is its 1-minute load average.", ""]
    if groups:
        md += ["## Government reports and patents (L-Eval, human reference summaries)", ""] + table(groups) + [""]
    if five:
        a = aggregate(five)
        md += ["## The five documents of `summaries.py` (reference: their hand-written points)", ""]
        md += table({"five documents": a}) + [""]
        md += ["| document | points covered | R-1 recall (lead) | content-word recall (lead) | words | s |",
               "|---|---|---|---|---|---|"]
        for r in five:
            md.append(f"| {r['id']} | {r['points']} | {r['summary']['r1_recall']:.3f} ({r['lead']['r1_recall']:.3f}) "
                      f"| {r['summary']['content_recall']:.3f} ({r['lead']['content_recall']:.3f}) | {r['words']} | "
                      f"{r['seconds']} |")
        md.append("")
    md += ["## Per document", "", "| family | id | R-1 recall (lead) | content-word recall (lead) | words | "
           "supported | s | first point s | load | route |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append(f"| {r['family']} | {r['id']} | {r['summary']['r1_recall']:.3f} ({r['lead']['r1_recall']:.3f}) | "
                  f"{r['summary']['content_recall']:.3f} ({r['lead']['content_recall']:.3f}) | {r['words']} | "
                  f"{sum(r['supported'])}/{len(r['supported'])} | {r['seconds']} | {r.get('first_s') or '-'} | "
                  f"{r.get('load', '-')} | "
                  f"{r['route']} |")
    md += ["", "## The summaries", ""]
    for r in rows:
        md += [f"### {r['family']} {r['id']}", "", "```", r["text"], "```", ""]
    write(args.out, md, {"machine": machine(), "commit": commit, "half": args.half, "label": args.label,
                         "extractive": args.extractive, "split_seed": SPLIT_SEED, "split": split,
                         "families": groups, "five": aggregate(five) if five else None, "rows": rows})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--half", choices=["dev", "test"], default="dev")
    ap.add_argument("--label", default="run", help="names the results file: summaries-real-HALF-LABEL")
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--limit", type=int, default=0, help="documents per family (0: all of the half)")
    ap.add_argument("--no-five", action="store_true", help="leave out the five-document table")
    ap.add_argument("--extractive", action="store_true", help="no LLM: the plan's quoted sentences")
    ap.add_argument("--central", action="store_true",
                    help="the central-passage summary for every document (default: the product's choice: the "
                         "points of the document's kind where it has them, else the central-passage summary)")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--rescore", type=Path, default=None, help="score the rows of this results JSON again")
    args = ap.parse_args()
    args.out = args.out or HERE / "results" / f"summaries-real-{args.half}-{args.label}"
    split = {f: [f"{h}: {', '.join(d.id for d in docs)}" for h, docs in split_halves(load_family(args.data, f)).items()]
             for f in args.families.split(",") if f}
    if args.rescore:
        report(args, rescore(args, args.rescore), split)
        return
    store = ModelStore(Settings())
    tokenizer = store.tokenizer()
    if args.extractive:
        generator: Generator = _Quoting()
        embedder = None
    else:
        models = store.models()
        generator, embedder = models.generator, models.embedder
        generator.complete(GenerationRequest(SYSTEM, "Say OK.", max_tokens=2, purpose="warm-up"))
    rows: list[dict[str, Any]] = []

    def summarize_ctx(ctx: Context, question: str) -> dict[str, Any]:
        if not args.extractive and not args.central:
            row = run_points(ctx, models, store.settings.pipeline)
            if row is not None:
                return {**row, "request": question}
        return run_one(ctx, question, generator, embedder)

    def on_row(row: dict[str, Any]) -> None:
        rows.append(row)
        report(args, rows, split)
        print(f"{row['family']} {row['id']} | R-1 recall {row['summary']['r1_recall']:.3f} (lead "
              f"{row['lead']['r1_recall']:.3f}) | content {row['summary']['content_recall']:.3f} (lead "
              f"{row['lead']['content_recall']:.3f}) | {row['words']} words | {row['seconds']} s\n{row['text']}\n",
              flush=True)

    if args.families:
        families_rows(args, tokenizer, summarize_ctx, on_row)
    if not args.no_five:
        five_rows(tokenizer, summarize_ctx, on_row)
    report(args, rows, split)


if __name__ == "__main__":
    main()
