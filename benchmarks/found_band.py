"""Right and wrong among the answers the dev loss tables showed, by the reader's P(found) (no model read).

    .venv/bin/python benchmarks/found_band.py [RESULTS.jsonl ...] [--out PATH]

Every row of ``benchmarks/results/loss-dev-*.jsonl`` (``*-against.jsonl`` too: the second setting's asks) whose
product answer was stated; each distinct answer (question, wording, text) counted once, in the band of the P(found)
of the read it was stated from: right, wrong (the clause stated, another fact given) or invented (no answer in
the document). What a higher ``min_found_p`` would refuse, before any rewrite the refusal would start.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
BANDS = ((0.0, 0.80), (0.80, 0.85), (0.85, 0.90), (0.90, 0.95), (0.95, 1.01))


def name(lo: float, hi: float) -> str:
    return f"{lo:.2f}-{min(hi, 1.0):.2f}"


def band(p: float) -> str:
    return next(name(lo, hi) for lo, hi in BANDS if lo <= p < hi)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="*", type=Path)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    paths = args.results or sorted((HERE / "results").glob("loss-dev-*.jsonl"))
    seen: set[tuple[str, str, str]] = set()
    counts: Counter[tuple[str, str]] = Counter()
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            shown = [r for r in row["reads"] if r.get("shown") and r.get("found_p") is not None]
            if not row["product"]["found"] or not shown:
                continue
            key = (row["id"], row["wording"], row["product"]["text"][:100])
            if key in seen:
                continue
            seen.add(key)
            verdict = "right" if row["product"]["right"] else "wrong" if row["answerable"] else "invented"
            counts[(band(shown[-1]["found_p"]), verdict)] += 1
    lines = ["# Answers shown by the reader's P(found) (dev loss tables)", "",
             "Command: `.venv/bin/python benchmarks/found_band.py`  ", f"Rows: {len(paths)} files, "
             f"{len(seen)} distinct answers shown. Half: **dev**.", "",
             "| P(found) | right | wrong | invented | right share |", "|---|---|---|---|---|"]
    for lo, hi in BANDS:
        r, w, i = (counts[(name(lo, hi), v)] for v in ("right", "wrong", "invented"))
        share = f"{r / (r + w + i):.2f}" if r + w + i else "-"
        lines.append(f"| {name(lo, hi)} | {r} | {w} | {i} | {share} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
