"""Two settings of the product on the same asks, side by side: ``loss_table.py --against`` rows, paired.

``benchmarks/loss_table.py --set A --against B`` asks every question in every wording twice, right after each
other (the plain RAG once); this script reads the two row files and writes, per family and wording and in
all: right answers and wrong facts stated under each setting and the plain RAG, the asks each setting won
from the other, the paired difference in right answers with its bootstrap 95% interval (asks resampled), and
prompt tokens a read.

Usage:
    .venv/bin/python benchmarks/loss_pairs.py OUT.jsonl OUT-against.jsonl --names "opening 0,opening 700" \
        --command "the loss_table.py command that made them" --out benchmarks/results/NAME
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.eval.metrics import bootstrap_interval  # noqa: E402


def load(path: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {(r["family"], r["id"], r["wording"]): r for r in rows}


def wrong(side: dict[str, Any]) -> bool:
    return bool(side["found"]) and not side["right"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--names", default="A,B", help="the two settings' names, comma-separated")
    ap.add_argument("--command", default="", help="the loss_table.py command that wrote the rows")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    name_a, name_b = args.names.split(",")
    a, b = load(args.a), load(args.b)
    keys = [k for k in a if k in b]
    groups: dict[str, list[tuple[str, str, str]]] = {}
    for family in dict.fromkeys(k[0] for k in keys):
        for wording in dict.fromkeys(k[2] for k in keys if k[0] == family):
            groups[f"{family} / {wording}"] = [k for k in keys if k[0] == family and k[2] == wording]
        groups[f"{family} / all wordings"] = [k for k in keys if k[0] == family]
    groups["all"] = keys
    md = [f"# {name_a} against {name_b}, paired on the same asks ({args.out.name})", "",
          f"Rows: `{args.a}` ({name_a}) and `{args.b}` ({name_b}), written by `{args.command}`; this table: "
          f"`python benchmarks/loss_pairs.py {' '.join(sys.argv[1:])}`.", "",
          "Half: **dev**. Each ask was put to both settings right after each other, on the same reader, chunks and "
          "pre-filter; the plain RAG (the loss table's first row) once. Judged by each family's rule on the text a "
          "person reads.", "",
          f"| asks | n | plain RAG right / wrong stated | {name_a} right / wrong stated | "
          f"{name_b} right / wrong stated | {name_b} won / lost | {name_b} - {name_a}, right share [95% CI] | "
          f"prompt tokens a read, {name_a} / {name_b} |", "|---|---|---|---|---|---|---|---|"]
    for label, ks in groups.items():
        if not ks:
            continue
        ra = [a[k]["product"]["right"] for k in ks]
        rb = [b[k]["product"]["right"] for k in ks]
        diffs = [int(y) - int(x) for x, y in zip(ra, rb, strict=True)]
        lo, hi = bootstrap_interval([float(d) for d in diffs]) if diffs else (0.0, 0.0)
        toks_a = [t for k in ks for t in a[k]["product"]["read_prompt_tokens"]]
        toks_b = [t for k in ks for t in b[k]["product"]["read_prompt_tokens"]]
        md.append(f"| {label} | {len(ks)} | {sum(a[k]['plain']['right'] for k in ks)} / "
                  f"{sum(wrong(a[k]['plain']) for k in ks)} | {sum(ra)} / {sum(wrong(a[k]['product']) for k in ks)} | "
                  f"{sum(rb)} / {sum(wrong(b[k]['product']) for k in ks)} | {diffs.count(1)} / {diffs.count(-1)} | "
                  f"{sum(diffs) / len(ks):+.3f} [{lo:+.2f}, {hi:+.2f}] | "
                  f"{sum(toks_a) / max(len(toks_a), 1):.0f} / {sum(toks_b) / max(len(toks_b), 1):.0f} |")
    md += ["", "## Asks whose outcome differs", "", f"| family | kind | wording | question | {name_a} | {name_b} |",
           "|---|---|---|---|---|---|"]
    for k in keys:
        pa, pb = a[k]["product"], b[k]["product"]
        if (pa["right"], wrong(pa)) != (pb["right"], wrong(pb)):
            md.append(f"| {k[0]} | {a[k]['kind']} | {k[2]} | {_cell(a[k]['question'])} | "
                      f"{'R' if pa['right'] else '-'} {_cell(pa['text'] or 'not found')} | "
                      f"{'R' if pb['right'] else '-'} {_cell(pb['text'] or 'not found')} |")
    args.out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


def _cell(text: str, n: int = 80) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= n else text[:n - 1] + "…"


if __name__ == "__main__":
    main()
