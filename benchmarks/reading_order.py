"""Whether the PDF reader keeps a contract's sentences in reading order, on a CUAD half (no model read).

Two measures of the text :func:`assistant.documents.extract` gives for each contract's filed PDF:

- **clauses read whole**: of every clause the lawyers labelled (all 41 categories, each piece between
  ``<omitted>`` marks of 8 or more letters and digits), the share whose letters and digits stand in the
  extracted text in one run, in order (:func:`assistant.eval.cuad._folded` on both sides: case, spacing,
  quotes and line breaks do not count). A clause cut by a column read in the wrong order, or by a cell
  separator `` | ``, is not whole;
- **word 8-grams in order**: the share of the CUAD plain text's runs of 8 words (letters and digits) that
  stand in the extracted text (the plain text is the filing's own text, so a page read in its order holds
  nearly all of them);

and the lines holding a cell separator `` | `` (a table's row, or prose cut at a wide space).

    .venv/bin/python benchmarks/reading_order.py [--half dev] [--data ../shared/data] [--label NAME] [--out PATH]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import time
from pathlib import Path

import assistant
from assistant.eval.cuad import PDFS, _clauses, _folded, halves, load_rows, read_pdf
from assistant.eval.report import machine, summary_table, write

HERE = Path(__file__).resolve().parent
_WORD = re.compile(r"[^\W_]+")


def _grams(text: str, n: int = 8) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--label", default="")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    rows = load_rows(args.data)
    pdfs = {p.name.lower(): p for p in (args.data / PDFS).iterdir()}
    half = halves([pdfs[r["Filename"].lower()].name for r in rows])
    out = []
    for row in rows:
        path = pdfs[row["Filename"].lower()]
        if half[path.name] != args.half:
            continue
        text = read_pdf(path).text
        hay = _folded(text)[0]
        pieces = [_folded(p)[0] for col, cell in row.items() if col != "Filename" and not col.endswith("-Answer")
                  for c in _clauses(cell) for p in c.split("<omitted>")]
        pieces = [p for p in pieces if len(p) >= 8]
        whole = sum(1 for p in pieces if p in hay)
        plain = path.parent.parent / "txt" / (path.stem + ".txt")
        gold = _grams(plain.read_text(encoding="utf-8", errors="replace")) if plain.is_file() else set()
        grams = len(gold & _grams(text)) / len(gold) if gold else 1.0
        bars = sum(1 for line in text.splitlines() if " | " in line)
        out.append({"contract": path.name, "clauses": len(pieces), "whole": whole, "grams": round(grams, 4),
                    "bar_lines": bars, "lines": text.count("\n") + 1})
    n_pieces = sum(r["clauses"] for r in out)
    n_whole = sum(r["whole"] for r in out)
    summary = {"contracts": len(out), "clauses read whole": f"{n_whole} of {n_pieces} ({n_whole / n_pieces:.3f})",
               "word 8-grams in order (mean over contracts)": f"{sum(r['grams'] for r in out) / len(out):.4f}",
               "contracts below .95 of 8-grams": sum(1 for r in out if r["grams"] < 0.95),
               "lines with a cell separator": sum(r["bar_lines"] for r in out)}
    label = f" ({args.label})" if args.label else ""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(assistant.__file__).parent).stdout.strip()
    md = [f"# PDF reading order on CUAD {args.half} contracts{label}, no model read", "",
          f"Command: `.venv/bin/python benchmarks/reading_order.py --half {args.half}"
          + (f" --label {args.label}" if args.label else "") + "`  ",
          f"Code: the `assistant` package of commit {commit} (plus its working tree).  ",
          f"Machine: {machine()}  ", f"Date: {time.strftime('%Y-%m-%d %H:%M')}; the {args.half} half.", ""]
    md += summary_table(summary)
    md += ["", "| contract | clauses | read whole | 8-grams in order | lines with ` \\| ` |", "|---|---|---|---|---|"]
    md += [f"| {r['contract'][:50]} | {r['clauses']} | {r['whole']} | {r['grams']:.3f} | {r['bar_lines']} |"
           for r in sorted(out, key=lambda r: r["grams"])]
    print("\n".join(md))
    name = f"reading-order-{args.half}" + (f"-{args.label}" if args.label else "")
    for p in write(args.out or HERE / "results" / name, md, {"rows": out}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
