"""The title a contract summary's heading and a new mail's gist start with, on every CUAD contract of a half
(:func:`assistant.ttrag.compute.summarize.titles.title_of`; no model read): how many name an agreement, and how
many are a filing's label or notice instead ("Exhibit 10.1", "CONFIDENTIAL TREATMENT ...", "[LOGO]").

    .venv/bin/python benchmarks/contract_titles.py [--half dev] [--data ../shared/data] [--txt] [--out PATH]

``--txt`` reads each contract from CUAD's text version (``cuad/txt``: the filing's text on one line, no line
breaks, as a newcomer opened it) instead of its PDF.
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from assistant.documents import extract
from assistant.eval.cuad import contract_set, load_items
from assistant.eval.report import machine, summary_table, write
from assistant.ttrag.compute.summarize.titles import title_of

HERE = Path(__file__).resolve().parent
#: the instrument's own patterns, written apart from the code's
NAMES_AN_AGREEMENT = re.compile(r"\b(?:agreement|contract)\b", re.I)
FILING = re.compile(r"^exhibit\b|confidential|quicklinks|\[logo\]|securities and exchange|execution copy|regulation",
                    re.I)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--txt", action="store_true", help="read CUAD's .txt versions instead of the PDFs")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    contracts, _ = contract_set(args.data)
    seen: set[str] = set()
    rows = []
    for it in load_items(args.data):
        if it.question.half != args.half or it.contract in seen:
            continue
        seen.add(it.contract)
        if args.txt:
            doc = extract(args.data / "cuad" / "txt" / f"{Path(it.question.source).stem}.txt")
        else:
            doc, _ = contracts.read(it.question)
        rows.append((it.contract, title_of(doc)))
        print(f"{rows[-1][1][:70]:72} {it.contract[:45]}", flush=True)
    summary = {"contracts": len(rows),
               "titles naming an agreement": sum(bool(NAMES_AN_AGREEMENT.search(t)) for _, t in rows),
               "titles that are a filing's label or notice": sum(bool(FILING.search(t)) for _, t in rows)}
    md = ["# A contract's title (CUAD), no model read", "",
          f"Command: `.venv/bin/python benchmarks/contract_titles.py --half {args.half}"
          f"{' --txt' if args.txt else ''}`  ",
          f"Machine: {machine()}  ", f"Date: {time.strftime('%Y-%m-%d %H:%M')}; the {args.half} half.", ""]
    md += summary_table(summary)
    md += ["", "| contract | title |", "|---|---|"] + [f"| {c[:45]} | {t.replace('|', '/')} |" for c, t in rows]
    out = args.out or HERE / "results" / f"contract-titles-{args.half}{'-txt' if args.txt else ''}"
    for p in write(out, md, {"rows": rows}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
