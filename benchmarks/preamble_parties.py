"""The contract summary's Parties point read from the contract's text (no model call), on a CUAD half: how
often each way of reading them (the preamble's quoted definitions, labels such as "Party A:", the companies
signing) gives two parties or more, and how often those are the lawyers' parties.

    .venv/bin/python benchmarks/preamble_parties.py [--half dev] [--contracts 60] [--read] [--out PATH]

For each contract with a Parties row, on the filed PDF as the summary reads it, each of
:func:`~assistant.ttrag.compute.summarize.points.preamble_parties`, ``labelled_parties`` and
``signing_parties`` alone, and ``contract_parties`` (the summary's: the first of them giving two parties);
two or more parties are judged by the cuad task's judge (:meth:`assistant.eval.cuad.Item.accepts`) as right or
wrong; fewer are "none" (the summary then asks the reader). Writes a table with every contract's parties.

``--read`` also takes the point as the summary does where the text gives fewer than two parties
(:func:`assistant.ttrag.pipeline._point`; until round four's session 14 it asked the bundled reader there, now it
leaves the point out) and judges it: the whole Parties point's right / wrong / left out over the half.
"""

from __future__ import annotations

import argparse
import threading
import time
from collections import Counter
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.eval.cuad import contract_set, load_items
from assistant.eval.report import machine, summary_table, write
from assistant.service import ModelStore
from assistant.ttrag import pipeline
from assistant.ttrag.compute.summarize import points
from assistant.ttrag.context import build_context

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--contracts", type=int, default=60)
    ap.add_argument("--read", action="store_true",
                    help="take the point as the summary does where the text gives too few parties")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    store = ModelStore(Settings()) if args.read else None
    point = next(p for p in points.CONTRACT_POINTS if p.label == "Parties")
    contracts, _ = contract_set(args.data)
    items = [it for it in load_items(args.data) if it.question.half == args.half and it.kind.name == "Parties"
             and it.present][:args.contracts]
    rows, counts = [], Counter()
    routes = {"preamble": points.preamble_parties, "label": points.labelled_parties,
              "signature": points.signing_parties, "text": points.contract_parties}
    for it in items:
        doc, _ = contracts.read(it.question)
        verdicts, stated = {}, ""
        for name, read in routes.items():  # each way alone, then the summary's (the first with two parties)
            parties = read(doc)
            said = points.parties_sentence(parties) if len(parties) >= 2 else ""
            verdicts[name] = "none" if not said else "right" if it.accepts(said, True) else "wrong"
            counts[(name, verdicts[name])] += 1
            stated = said if name == "text" else stated
        route = "text"
        if store is not None and not stated:  # the point as the summary reads it
            run = pipeline._Run(lambda e: None, threading.Event())
            opts = pipeline.point_options(store.settings.pipeline)
            found = pipeline._point(build_context([doc], store.tokenizer()), point, store.models(), opts, run)
            stated = found.sentence if found is not None else ""
            route = "read"
        whole = "left out" if not stated else "right" if it.accepts(stated, True) else "wrong"
        counts[("point", whole)] += 1
        rows.append([it.contract, it.label, *verdicts.values(), stated] + ([route, whole] if store else []))
        print(" ".join(f"{v:5}" for v in verdicts.values()) + f" {route:4} {whole:8} {it.contract[:40]}: "
              f"{stated[:110]}", flush=True)
    summary: dict[str, object] = {"contracts": len(rows)}
    for name, what in (("preamble", "quoted definitions of the preamble"), ("label", 'labels ("Party A: ...")'),
                       ("signature", 'the companies signing after "IN WITNESS WHEREOF"'),
                       ("text", "the summary's: the first of these three giving two parties")):
        summary[f"{what}: right / wrong / none"] = " / ".join(str(counts[(name, v)])
                                                             for v in ("right", "wrong", "none"))
    if store is not None:
        summary["the point as the summary states it: right / wrong / left out"] = " / ".join(
            str(counts[("point", v)]) for v in ("right", "wrong", "left out"))
    md = ["# Parties read from the contract's text (CUAD), no model call", "",
          "Command: `.venv/bin/python benchmarks/preamble_parties.py"
          f" --half {args.half} --contracts {args.contracts}{' --read' if args.read else ''}`  ",
          f"Machine: {machine()}  ", f"Date: {time.strftime('%Y-%m-%d %H:%M')}; the {args.half} half.", ""]
    md += summary_table(summary)
    extra = ["route", "the point"] if store else []
    heads = ["contract", "lawyers' label", *routes, "parties stated", *extra]
    md += ["", "| " + " | ".join(heads) + " |", "|---" * len(heads) + "|"]
    md += ["| " + " | ".join([r[0][:40], r[1][:60]] + r[2:6] + [r[6][:140]] + r[7:]).replace("\n", " ") + " |"
           for r in ([c.replace("|", "/") for c in row] for row in rows)]
    for p in write(args.out or HERE / "results" / f"preamble-parties-{args.half}", md,
                   {"machine": machine(), "summary": summary, "rows": rows}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
