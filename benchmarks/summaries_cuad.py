"""Contract summaries judged as a lawyer would: CUAD's filed PDFs, each summarised ("Summarize this
agreement"), each labelled category the summary covers judged right / wrong / left out.

    .venv/bin/python benchmarks/summaries_cuad.py [--half dev] [--contracts 10] [--before] [--out PATH]

The contracts of the half in the order the cuad task takes them (:func:`assistant.eval.cuad.load_items`),
those with a label for at least one of the four categories below. **After**: the summary built from the
contract's questions (:func:`assistant.ttrag.pipeline.summarize_by_kind`); each category's point (Parties,
Date, Governing law, Term) is judged by the cuad task's rule (:meth:`assistant.eval.cuad.Item.accepts`): a
point stated is right or wrong (a **wrong fact**), a category with no point is left out; a point stated for a
clause the lawyers found absent is wrong. **Before** (``--before``): the central-passage summary
(:func:`assistant.ttrag.compute.summarize.summarize`), judged as a whole text for each category (a right
value anywhere in it counts; it has no per-category points, so wrong and left out are not told apart).
Seconds, warm: to the first point shown and to the whole summary. Intervals: 95% bootstrap over points.
"""

from __future__ import annotations

import argparse
import dataclasses
import threading
import time
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.eval.ablation import parse_variations
from assistant.eval.cuad import Item, contract_set, load_items
from assistant.eval.metrics import bootstrap_ci
from assistant.eval.report import machine, summary_table, write
from assistant.records import Event, TokenText, TraceStep
from assistant.service import ModelStore
from assistant.ttrag.compute.summarize import SummaryRequest, summarize
from assistant.ttrag.context import build_context
from assistant.ttrag.pipeline import summarize_by_kind

HERE = Path(__file__).resolve().parent
#: CUAD category -> the summary point that states it
CATEGORIES = {"Parties": "Parties", "Agreement Date": "Date", "Governing Law": "Governing law",
              "Expiration Date": "Term"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--contracts", type=int, default=10)
    ap.add_argument("--before", action="store_true", help="also the central-passage summary, judged as a whole")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--point-evidence-tokens", type=int, default=None,
                    help="PipelineOptions.point_evidence_tokens for this run (default: the product's)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a pipeline option for this run, e.g. point_top_k=2 (checked as `eval answers --vary` is)")
    ap.add_argument("--check-thresholds", default="",
                    help="comma-separated P thresholds of the points' check read (pointcheck), judged from one run: "
                         "the check runs on every checked point and each threshold's verdicts are counted")
    args = ap.parse_args()
    thresholds = [float(t) for t in args.check_thresholds.split(",") if t.strip()]
    out = args.out or HERE / "results" / f"summaries-cuad-{args.half}"
    contracts, _ = contract_set(args.data)
    by_contract: dict[str, dict[str, Item]] = {}
    for it in load_items(args.data):
        if it.question.half == args.half and it.kind.name in CATEGORIES:
            by_contract.setdefault(it.contract, {})[it.kind.name] = it
    picked = list(by_contract.items())[:args.contracts]
    store = ModelStore(Settings())
    models = store.models()
    opts = store.settings.pipeline
    if args.point_evidence_tokens is not None:
        opts = dataclasses.replace(opts, point_evidence_tokens=args.point_evidence_tokens)
    for change in parse_variations(args.set, flag="--set").values():
        opts = dataclasses.replace(opts, **change)
    if thresholds:  # every checked point is read and kept; the thresholds are applied below
        opts = dataclasses.replace(opts, point_check_p=1e-9)
    results = []
    t_start = time.perf_counter()
    for n, (contract, items) in enumerate(picked):
        doc, _ = contracts.read(next(iter(items.values())).question)
        ctx = build_context([doc], store.tokenizer())
        t0 = time.perf_counter()
        first: list[float] = []
        point_seconds: dict[str, float] = {}
        check_p: dict[str, float | None] = {}

        def on_event(e: Event, t0: float = t0, first: list[float] = first,
                     point_seconds: dict[str, float] = point_seconds,
                     check_p: dict[str, float | None] = check_p) -> None:
            if isinstance(e, TokenText) and not first:
                first.append(time.perf_counter() - t0)
            if isinstance(e, TraceStep) and e.stage == "summary_point":
                point_seconds[str(e.detail["label"])] = float(e.detail["seconds"])  # type: ignore[arg-type]
                check_p[str(e.detail["label"])] = e.detail.get("check_p")  # type: ignore[assignment]

        summary = summarize_by_kind(ctx, models, opts, emit=on_event, cancel=threading.Event())
        seconds = time.perf_counter() - t0
        bullets = summary.bullets if summary else ()
        stated = {b.text.split(":", 1)[0]: b.text.split(":", 1)[1].strip() for b in bullets}
        judged = []
        for category, it in items.items():
            point = stated.get(CATEGORIES[category], "")
            verdict = "left out" if not point else "right" if it.accepts(point, True) else "wrong"
            judged.append({"category": category, "label": it.label if it.present else "(absent)",
                           "present": it.present, "point": point, "verdict": verdict,
                           "check_p": check_p.get(CATEGORIES[category])})
        row = {"contract": contract, "seconds": round(seconds, 1),
               "first_point_s": round(first[0], 1) if first else None,
               "point_seconds": point_seconds, "summary": summary.text if summary else "", "judged": judged}
        if args.before:
            t0 = time.perf_counter()
            old = summarize(ctx, SummaryRequest(), models.generator, embedder=models.embedder)
            row["before_seconds"] = round(time.perf_counter() - t0, 1)
            row["before_summary"] = old.text
            for j, it in zip(judged, items.values(), strict=True):
                j["before_right"] = it.present and it.accepts(old.text, True)
        results.append(row)
        print(f"{n + 1}/{len(picked)} {contract[:40]}: " + ", ".join(f"{j['category']} {j['verdict']}" for j in judged)
              + f"; first point {row['first_point_s']} s, whole {seconds:.0f} s", flush=True)
    per_point: dict[str, list[float]] = {}
    for r in results:
        for label, sec in r["point_seconds"].items():
            per_point.setdefault(label, []).append(sec)
    points = [j for r in results for j in r["judged"] if j["present"]]
    stated = [j for j in points if j["verdict"] != "left out"]
    summary: dict[str, object] = {
        "contracts": len(results), "labelled categories (present)": len(points),
        "of the points stated, right": bootstrap_ci([float(j["verdict"] == "right") for j in stated] or [0.0]),
        "categories stated (of those the contract has)": bootstrap_ci([float(j["verdict"] != "left out")
                                                                        for j in points]),
        "categories right (of those the contract has)": bootstrap_ci([float(j["verdict"] == "right")
                                                                       for j in points]),
        "wrong facts stated": sum(j["verdict"] == "wrong" for r in results for j in r["judged"]),
    }
    for category in CATEGORIES:
        mine = [j for j in points if j["category"] == category]
        if mine:
            summary[f"{category}: right / wrong / left out"] = "{} / {} / {} of {}".format(
                *(sum(j["verdict"] == v for j in mine) for v in ("right", "wrong", "left out")), len(mine))
    firsts = sorted(r["first_point_s"] for r in results if r["first_point_s"] is not None)
    secs = sorted(r["seconds"] for r in results)
    if firsts:
        summary["seconds to the first point, p50 / max"] = f"{firsts[len(firsts) // 2]} / {firsts[-1]}"
    summary["seconds a summary, p50 / max"] = f"{secs[len(secs) // 2]} / {secs[-1]}"
    for label, values in per_point.items():
        summary[f"seconds a point, {label}, mean"] = sum(values) / len(values)
    if args.before:
        summary["before: categories right (of those the contract has; the text judged as a whole)"] = \
            bootstrap_ci([float(j["before_right"]) for j in points])
        before = sorted(r["before_seconds"] for r in results)
        summary["before: seconds a summary, p50 / max"] = f"{before[len(before) // 2]} / {before[-1]}"
    for t in thresholds:  # a checked point below t is left out
        def at(j: dict[str, object], t: float = t) -> str:
            p = j["check_p"]
            return "left out" if j["verdict"] != "left out" and p is not None and p < t else str(j["verdict"])
        said = [at(j) for j in points if at(j) != "left out"]
        summary[f"check P >= {t}: of the points stated, right"] = bootstrap_ci(
            [float(v == "right") for v in said] or [0.0])
        summary[f"check P >= {t}: categories right / wrong facts stated"] = "{} of {} / {}".format(
            sum(at(j) == "right" for j in points), len(points),
            sum(at(j) == "wrong" for r in results for j in r["judged"]))
        for category in ("Governing Law", "Expiration Date"):
            mine = [j for r in results for j in r["judged"] if j["category"] == category]
            summary[f"check P >= {t}: {category}, right / wrong / left out (absent: said / left out)"] = \
                "{} / {} / {} ({} / {})".format(*(sum(at(j) == v for j in mine if j["present"])
                                                  for v in ("right", "wrong", "left out")),
                                                 *(sum((at(j) == "left out") == b for j in mine if not j["present"])
                                                   for b in (False, True)))
    flags = f" --half {args.half} --contracts {args.contracts}" + (" --before" if args.before else "") + \
        (f" --check-thresholds {args.check_thresholds}" if thresholds else "") + \
        (f" --point-evidence-tokens {args.point_evidence_tokens}" if args.point_evidence_tokens is not None else "") + \
        "".join(f" --set {pair}" for pair in args.set)
    md = ["# Contract summaries (CUAD), judged as a lawyer would", "",
          f"Command: `.venv/bin/python benchmarks/summaries_cuad.py{flags}`  ", f"Machine: {machine()}  ",
          f"Date: {time.strftime('%Y-%m-%d %H:%M')}; bundled 1.5B reader, default settings, warm; run "
          f"{time.perf_counter() - t_start:.0f} s. The {args.half} half's contracts"
          + ("; the points and their questions were chosen on this half." if args.half == "dev" else
             "; read once for the report, nothing chosen on it.") + " Intervals: 95% bootstrap.", ""]
    md += summary_table(summary)
    md += ["", "| contract | category | lawyers' label | verdict | check P | point stated |", "|---" * 6 + "|"]
    md += [f"| {r['contract'][:40]} | {j['category']} | {j['label'][:50].replace('|', '/')} | {j['verdict']} | "
           f"{'' if j.get('check_p') is None else j['check_p']} | {j['point'][:110].replace('|', '/')} |"
           for r in results for j in r["judged"]]
    for p in write(out, md, {"machine": machine(), "summary": summary, "contracts": results}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
