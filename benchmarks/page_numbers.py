"""How often a contract's text holds printed page numbers, and how often one stands inside a sentence, on
a CUAD half (no model read): the lines :func:`assistant.ttrag.compute.summarize.sidematter.page_number_spans`
takes for page numbers, and among them those with no full stop before them and a lower-case word after (a
sentence that runs on across the number, as where a filing prints two pages on each PDF page).

    .venv/bin/python benchmarks/page_numbers.py [--half dev] [--data ../shared/data] [--out PATH]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from assistant.eval.cuad import PDFS, load_items, read_pdf
from assistant.eval.report import machine, summary_table, write
from assistant.ttrag.compute.summarize.sidematter import page_number_spans, text_lines

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    rows = []
    for name in dict.fromkeys(it.contract for it in load_items(args.data) if it.question.half == args.half):
        doc = read_pdf(args.data / PDFS / name)
        spans = page_number_spans(text_lines(doc.text))
        inside = [(a, b) for a, b in spans if doc.text[:a].rstrip()[-1:] not in ("", ".", ":", ";", "!", "?")
                  and doc.text[b:].lstrip()[:1].islower()]
        example = repr(doc.text[inside[0][0] - 50:inside[0][1] + 30]) if inside else ""
        rows.append((name, len(doc.segments), len(spans), len(inside), example))
    summary = {"contracts": len(rows),
               "with printed page numbers (lines)": f"{sum(1 for r in rows if r[2])} ({sum(r[2] for r in rows)})",
               "with one inside a sentence (lines)": f"{sum(1 for r in rows if r[3])} ({sum(r[3] for r in rows)})"}
    md = [f"# Printed page numbers in CUAD {args.half} contracts, no model read", "",
          f"Command: `.venv/bin/python benchmarks/page_numbers.py --half {args.half}`  ",
          f"Machine: {machine()}  ", f"Date: {time.strftime('%Y-%m-%d %H:%M')}; the {args.half} half (the rule "
          "was written on the dev half).", ""]
    md += summary_table(summary)
    md += ["", "| contract | PDF pages | page-number lines | inside a sentence | first inside a sentence |",
           "|---|---|---|---|---|"]
    md += [f"| {n[:40]} | {p} | {k} | {i} | {e.replace('|', '/')[:120]} |" for n, p, k, i, e in rows if k]
    print("\n".join(md))
    for path in write(args.out or HERE / "results" / f"page-numbers-{args.half}", md, {"rows": rows}):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
