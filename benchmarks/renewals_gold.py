"""Would the renewal rule (:mod:`assistant.text.renewals`) refuse a right answer? Each period the lawyers' renewal
clauses state (CUAD kinds "Renewal Term" and "Notice Period To Terminate Renewal", clauses found present), offered
as the answer to each wording of its question, judged against the contract's whole text and against the labelled
clause alone; and every other period the contract states, offered the same way: how many of those the rule
refuses (the wrong answers it is for; a period also stated in a renewal clause is not counted). No model is read.

    .venv/bin/python benchmarks/renewals_gold.py [--half dev] [--data ../shared/data] [--reach 250,150 ...]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections import Counter
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
from assistant.eval.cuad import contract_id, load_items
from assistant.text import renewals
from assistant.text.dates import dates_in
from assistant.text.durations import durations, durations_in

HERE = Path(__file__).resolve().parent
KINDS = ("Renewal Term", "Notice Period To Terminate Renewal")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--reach", nargs="*", default=["250,150"],
                    help="characters before,after a period in which a renewal word is looked for (one row each)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    t0 = time.perf_counter()
    table = json.loads((HERE / "wordings.json").read_text(encoding="utf-8"))
    items = [i for i in load_items(args.data) if i.question.half == args.half and i.kind.name in KINDS]
    texts: dict[str, str] = {}
    for item in items:  # each contract read once (two kinds ask of it)
        if item.contract not in texts:
            name = item.contract.rsplit(".", 1)[0] + ".txt"
            texts[item.contract] = (args.data / "cuad" / "txt" / name).read_text(encoding="utf-8", errors="replace")
    asked = Counter(w for i in items if i.present
                    for w, q in {"benchmark": i.question.text, **table["cuad"].get(i.kind.name, {})}.items()
                    if renewals.asks_renewal(q))
    wordings = Counter(w for i in items if i.present
                       for w in {"benchmark": 1, **table["cuad"].get(i.kind.name, {})})
    md = [f"# Would the renewal rule refuse a right answer? (CUAD {args.half} half, the lawyers' renewal clauses)", "",
          f"Command: `.venv/bin/python benchmarks/renewals_gold.py --half {args.half} --reach {' '.join(args.reach)}`"
          "  ",
          f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; no model. "
          f"Settings chosen on: the dev half.  ",
          "Wordings that the rule reads as asking about a renewal (English; a German question is judged on its "
          "English translation): " + ", ".join(f"{w} {asked[w]} of {wordings[w]}" for w in sorted(wordings)) + ".  ",
          "Gold: each labelled clause's periods and dates, offered as the answer, against the contract's whole "
          "text and against the clause alone. Others: each period the contract states that no labelled renewal clause "
          "states, offered as the answer to a renewal question (of every contract of the half, the renewal kinds "
          "present or not).", "",
          "| reach (before, after) | gold periods and dates | refused, whole text | refused, clause alone | "
          "other periods | refused |", "|---|---|---|---|---|---|"]
    refused_rows: list[str] = []
    for reach in args.reach:
        renewals.BEFORE, renewals.AFTER = (int(x) for x in reach.split(","))
        gold = whole = alone = others = caught = 0
        for item in items:
            if not item.present:
                continue
            for clause in item.clauses:
                for said in [clause[s.start:s.end] for s in [*durations_in(clause), *dates_in(clause)]]:
                    gold += 1
                    w = renewals.said_of_renewal(said, texts[item.contract]) is False
                    a = renewals.said_of_renewal(said, clause) is False
                    whole += w
                    alone += a
                    if (w or a) and reach == args.reach[0]:
                        refused_rows.append(f"| {item.kind.name} | {contract_id(item.contract)} | {said} "
                                            f"| {'whole' if w else ''} {'clause' if a else ''} | "
                                            f"{clause[:200].replace('|', '/')} |")
        for contract, text in texts.items():
            labelled = [d for i in items if i.contract == contract and i.present for c in i.clauses
                        for d in durations(c)]
            seen: list = []
            for span in durations_in(text):
                d = span.duration
                if any(d.same(x) for x in labelled) or any(d.same(x) for x in seen):
                    continue
                seen.append(d)
                others += 1
                caught += renewals.said_of_renewal(text[span.start:span.end], text) is False
        md.append(f"| {reach} | {gold} | {whole} | {alone} | {others} | {caught} ({caught / max(others, 1):.2f}) |")
    if refused_rows:
        md += ["", f"## Gold periods refused at {args.reach[0]}", "", "| kind | contract | period | refused against | "
               "clause |", "|---|---|---|---|---|", *refused_rows]
    md += ["", f"{time.perf_counter() - t0:.0f} s."]
    out = args.out or HERE / "results" / f"renewals-gold-{args.half}"
    out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
