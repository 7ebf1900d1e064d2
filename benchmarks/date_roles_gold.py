"""Would the date-role rule (:mod:`assistant.text.date_roles`) refuse a right answer? Over a half's questions whose
answer is a calendar date, in every wording of ``benchmarks/wordings.json``: the lawyers' own date for each CUAD
contract's agreement, effective and expiration date asked of the contract's whole text, and each HotpotQA and NQ
question answered by a date asked of its gold paragraphs. A gold answer the rule refuses is a right answer it would
lose. No model is read.

    .venv/bin/python benchmarks/date_roles_gold.py [--half dev] [--data ../shared/data]
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
from assistant.text.date_roles import asked_role, gives_other_role
from assistant.text.dates import dates_in

HERE = Path(__file__).resolve().parent
CUAD_KINDS = ("Agreement Date", "Effective Date", "Expiration Date")


def cuad_rows(data: Path, half: str, table: dict[str, dict[str, dict[str, str]]]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    texts: dict[str, str] = {}
    for item in load_items(data):
        if item.question.half != half or item.kind.name not in CUAD_KINDS or not item.present \
                or not dates_in(item.label):
            continue
        name = item.contract.rsplit(".", 1)[0] + ".txt"
        if name not in texts:
            texts[name] = (data / "cuad" / "txt" / name).read_text(encoding="utf-8", errors="replace")
        wordings = {"benchmark": item.question.text, **table.get("cuad", {}).get(item.kind.name, {})}
        for wording, question in wordings.items():
            role = asked_role(question)
            # the wrong answer the rule is for: the agreement's start offered as its expiry
            start = item.start if item.kind.name == "Expiration Date" and dates_in(item.start) and \
                not {d for s in dates_in(item.start) for d in s.days} & {d for s in dates_in(item.label)
                                                                        for d in s.days} else ""
            rows.append({"family": "cuad", "kind": item.kind.name, "id": contract_id(item.contract),
                         "wording": wording, "question": question, "gold": item.label, "role": role or "",
                         "refused": bool(role) and gives_other_role(item.label, role, texts[name]),
                         "start": start,
                         "start_refused": bool(role and start) and gives_other_role(start, role, texts[name])})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    t0 = time.perf_counter()
    table = json.loads((HERE / "wordings.json").read_text(encoding="utf-8"))
    rows = cuad_rows(args.data, args.half, table)
    asked = Counter((r["kind"], r["wording"]) for r in rows)
    roled = Counter((r["kind"], r["wording"]) for r in rows if r["role"])
    refused = Counter((r["kind"], r["wording"]) for r in rows if r["refused"])
    starts = Counter((r["kind"], r["wording"]) for r in rows if r["start"])
    caught = Counter((r["kind"], r["wording"]) for r in rows if r["start_refused"])
    command = f"`.venv/bin/python benchmarks/date_roles_gold.py --half {args.half}`"
    md = [f"# Would the date-role rule refuse a right answer? (CUAD {args.half} half, the lawyers' dates)", "",
          f"Command: {command}  ",
          f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; no model; "
          f"{time.perf_counter() - t0:.0f} s. Settings chosen on: the dev half.  ",
          "Each labelled date is checked as the answer to each wording of its question, against the contract's "
          "whole text: the rule refuses it when the wording asks for an end (or a start) and the text gives that "
          "date only the other role. The last column offers, for an expiration date, the wrong answer the rule is "
          "for: the contract's effective (else agreement) date as labelled, where it is another day.", "",
          "| kind | wording | asks with a date label | wording asks a role | gold refused | start offered as the "
          "expiry: refused |", "|---|---|---|---|---|---|"]
    for key in sorted(asked):
        md.append(f"| {key[0]} | {key[1]} | {asked[key]} | {roled[key]} | {refused[key]} | "
                  f"{f'{caught[key]} of {starts[key]}' if starts[key] else ''} |")
    md.append(f"| all | | {len(rows)} | {sum(roled.values())} | {sum(refused.values())} | "
              f"{sum(caught.values())} of {sum(starts.values())} |")
    shown = [r for r in rows if r["refused"]]
    if shown:
        md += ["", "## Refused", "", "| kind | contract | wording | question | gold |", "|---|---|---|---|---|"]
        md += [f"| {r['kind']} | {r['id']} | {r['wording']} | {r['question']} | {r['gold']} |" for r in shown]
    out = args.out or HERE / "results" / f"date-roles-gold-{args.half}"
    out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
