"""The contract summary's Subject point on a CUAD half: does it claim a licence the contract does not grant?

A newcomer's summaries said "Cherry Hill licenses Freedom Mortgage to originate ... loans" (no licence: a
strategic alliance), "allows Siemens to license the Products and Services to Accuray" (a distributor agreement,
the roles reversed) and "Party A licenses Party B to supply CDQ" (a cooperation agreement): the point's question
asked "what does one party supply, license or do for the other?". The lawyers' "License Grant" label says whether
a contract grants one; a Subject sentence that says "licen[cs]e" where it does not is counted a wrong fact. The
agreement's kind as the lawyers named it ("Document Name-Answer": "DISTRIBUTOR AGREEMENT") is counted as named
where the sentence holds a word of it other than "agreement" (stemmed).

    .venv/bin/python benchmarks/subject_point.py [--half dev] [--contracts 16] [--against QUESTION] [--out PATH]

Each point is read as the summary reads it (:func:`assistant.ttrag.pipeline._point`), with the shipped
question and, side by side on the same contract, with ``--against``'s.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import threading
import time
from pathlib import Path
from typing import Any

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.eval.cuad import PDFS, _clauses, load_items, load_rows, read_pdf
from assistant.eval.report import machine
from assistant.service import ModelStore
from assistant.ttrag import pipeline
from assistant.ttrag.compute.summarize import points
from assistant.ttrag.context import build_context
from assistant.ttrag.grounding import english_stemmer

HERE = Path(__file__).resolve().parent


def _stems(text: str) -> set[str]:
    return set(english_stemmer().stemWords(re.findall(r"[a-z]{3,}", text.lower()))) - {"agreement", "agreem"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--contracts", type=int, default=16)
    ap.add_argument("--against", default="")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    store = ModelStore(Settings())
    models = store.models()
    opts = pipeline.point_options(store.settings.pipeline)
    shipped = next(p for p in points.CONTRACT_POINTS if p.label == "Subject")
    variants = {"shipped": shipped} | ({"against": dataclasses.replace(shipped, question=args.against)}
                                      if args.against else {})
    labels = {r["Filename"].lower(): r for r in load_rows(args.data)}
    items = [it for it in load_items(args.data) if it.kind.name == "Governing Law"
             and it.question.half == args.half][:args.contracts]
    rows: list[dict[str, Any]] = []
    for it in items:
        row = labels[it.contract.lower()]
        doc = read_pdf(args.data / PDFS / it.question.source)
        ctx = build_context([doc], store.tokenizer())
        out: dict[str, Any] = {"contract": it.contract, "kind": row["Document Name-Answer"],
                               "licence": bool(_clauses(row["License Grant"]))}
        for name, point in variants.items():
            run = pipeline._Run(lambda e: None, threading.Event())
            run.t0 = t0 = time.perf_counter()
            found = pipeline._point(ctx, point, models, opts, run)
            shown = found is not None and (found.check_p is None or found.check_p >= opts.point_check_p)
            sentence = found.sentence if found is not None and shown else ""
            out[name] = {"sentence": sentence, "seconds": round(time.perf_counter() - t0, 1),
                         "licence_claimed": bool(re.search(r"licen[cs]", sentence, re.I)),
                         "kind_named": bool(_stems(out["kind"]) & _stems(sentence))}
        rows.append(out)
        print(f"{it.contract[:40]} [{out['kind'][:30]}; licence {out['licence']}]", flush=True)
        for name in variants:
            print(f"   {name}: {out[name]['sentence'][:150]}", flush=True)
    lines = [f"# Subject point of contract summaries, CUAD {args.half} half ({len(rows)} contracts)", "",
             f"Command: `.venv/bin/python benchmarks/subject_point.py --half {args.half} --contracts {args.contracts}"
             + (f" --against '{args.against}'" if args.against else "") + "`  ", f"Machine: {machine()}  ",
             f"Half: {args.half}; the question is chosen on the dev half. Bundled 1.5B reader.", "",
             "| question | stated | left out | licence claimed, none granted (wrong fact) | licence claimed, granted "
             "| the agreement's kind named | s a point (mean) |", "|---|---|---|---|---|---|---|"]
    for name, point in variants.items():
        got = [r[name] for r in rows]
        stated = sum(bool(g["sentence"]) for g in got)
        wrong = sum(g["licence_claimed"] and not r["licence"] for g, r in zip(got, rows, strict=True))
        right = sum(g["licence_claimed"] and r["licence"] for g, r in zip(got, rows, strict=True))
        named = sum(g["kind_named"] for g in got)
        seconds = sum(g["seconds"] for g in got) / max(len(got), 1)
        lines.append(f"| {name}: \"{point.question}\" | {stated} | {len(got) - stated} | {wrong} | {right} | "
                     f"{named} | {seconds:.1f} |")
    lines += ["", "| contract | kind (lawyers) | licence granted | " + " | ".join(variants) + " |",
              "|---" * (3 + len(variants)) + "|"]
    for r in rows:
        lines.append(f"| {r['contract'][:40]} | {r['kind'][:40]} | {'yes' if r['licence'] else 'no'} | " +
                     " | ".join(r[n]["sentence"][:160].replace("|", "/") or "(left out)" for n in variants) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
