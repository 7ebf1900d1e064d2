"""How often a contract's text holds printed page numbers, and how often one stands inside a sentence, on
a CUAD half (no model read): the lines :func:`assistant.ttrag.compute.summarize.sidematter.page_number_spans`
takes for page numbers, and among them those with no full stop before them and a lower-case word after (a
sentence that runs on across the number, as where a filing prints two pages on each PDF page).

Usage:
    .venv/bin/python benchmarks/page_numbers.py --half dev --out benchmarks/results/page-numbers-dev.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))


def main() -> int:
    from assistant.eval.cuad import PDFS, load_items, read_pdf
    from assistant.ttrag.compute.summarize.sidematter import page_number_spans

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parents[2] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    names = list(dict.fromkeys(it.contract for it in load_items(args.data) if it.question.half == args.half))
    rows = []
    for name in names:
        doc = read_pdf(args.data / PDFS / name)
        lines, pos = [], 0
        for raw in doc.text.splitlines(keepends=True):
            lines.append((pos, pos + len(raw.rstrip("\r\n")), raw.strip()))
            pos += len(raw)
        spans = page_number_spans(lines)
        inside = [(a, b) for a, b in spans if doc.text[:a].rstrip()[-1:] not in ("", ".", ":", ";", "!", "?")
                  and doc.text[b:].lstrip()[:1].islower()]
        example = repr(doc.text[inside[0][0] - 50:inside[0][1] + 30]) if inside else ""
        rows.append((name, len(doc.segments), len(spans), len(inside), example))
    md = [f"# Printed page numbers in CUAD {args.half} contracts", "",
          f"Command: `.venv/bin/python benchmarks/page_numbers.py --half {args.half}`. No model read. "
          "Settings chosen on: the dev half.", "",
          "| measure | value |", "|---|---|",
          f"| contracts | {len(rows)} |",
          f"| with printed page numbers (lines) | {sum(1 for r in rows if r[2])} ({sum(r[2] for r in rows)}) |",
          f"| with one inside a sentence (lines) | {sum(1 for r in rows if r[3])} ({sum(r[3] for r in rows)}) |", "",
          "| contract | PDF pages | page-number lines | inside a sentence | first inside a sentence |",
          "|---|---|---|---|---|"]
    md += [f"| {n[:40]} | {p} | {k} | {i} | {e.replace('|', '/')[:120]} |" for n, p, k, i, e in rows if k]
    text = "\n".join(md) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
