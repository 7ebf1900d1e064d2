"""The contract summary's Parties point read from the preamble alone (no model call), on a CUAD half: how
often the preamble gives two parties or more, and how often those are the lawyers' parties.

    .venv/bin/python benchmarks/preamble_parties.py [--half dev] [--contracts 60] [--out PATH]

For each contract with a Parties row, :func:`assistant.ttrag.compute.summarize.points.preamble_parties` on
the filed PDF as the summary reads it; two or more parties are judged by the cuad task's judge
(:meth:`assistant.eval.cuad.Item.accepts`) as right or wrong; fewer are "asked" (the summary then asks the
reader). Writes a table with every contract's parties.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from assistant.eval.cuad import contract_set, load_items
from assistant.eval.report import machine, summary_table, write
from assistant.ttrag.compute.summarize import points

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--contracts", type=int, default=60)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    contracts, _ = contract_set(args.data)
    items = [it for it in load_items(args.data) if it.question.half == args.half and it.kind.name == "Parties"
             and it.present][:args.contracts]
    rows, counts = [], Counter()
    for it in items:
        doc, _ = contracts.read(it.question)
        parties = points.preamble_parties(doc)
        stated = points.parties_sentence(parties) if len(parties) >= 2 else ""
        verdict = "asked" if not stated else "right" if it.accepts(stated, True) else "wrong"
        counts[verdict] += 1
        rows.append((it.contract, it.label, verdict, stated))
        print(f"{verdict:6} {it.contract[:50]}: {stated[:120]}", flush=True)
    summary = {"contracts": len(rows), **{f"preamble parties {v}": counts[v] for v in ("right", "wrong", "asked")}}
    md = ["# Parties from the preamble (CUAD), no model call", "",
          "Command: `.venv/bin/python benchmarks/preamble_parties.py"
          f" --half {args.half} --contracts {args.contracts}`  ",
          f"Machine: {machine()}  ", f"Date: {time.strftime('%Y-%m-%d %H:%M')}; the {args.half} half.", ""]
    md += summary_table(summary)
    md += ["", "| contract | lawyers' label | verdict | parties stated |", "|---" * 4 + "|"]
    md += [f"| {c[:40]} | {label[:60].replace('|', '/')} | {v} | {s[:140].replace('|', '/')} |"
           for c, label, v, s in rows]
    for p in write(args.out or HERE / "results" / f"preamble-parties-{args.half}", md,
                   {"machine": machine(), "summary": summary, "rows": rows}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
