"""What the side-by-side benchmarks over a table (``table_records.py``, ``table_aggregates.py``) share: a row of
right and wrong counts per system, the seconds line, and the command line (run, or only render again)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from assistant.eval.metrics import bootstrap_interval


def keep(out_jsonl: Path, row: dict[str, Any], systems: Sequence[str], label: str) -> None:
    """Append ``row`` to the results and print its line: R (right), W (a wrong fact) or - per system."""
    with out_jsonl.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")
    print(" ".join("R" if row[s]["right"] else ("W" if row[s]["found"] else "-") for s in systems), label,
          file=sys.stderr, flush=True)


def kept(out: Path) -> list[dict[str, Any]]:
    """The rows :func:`keep` appended to ``out``'s .jsonl."""
    return [json.loads(line) for line in out.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()]


def head(title: str, script: str, args: argparse.Namespace | None, half: str, keys: Sequence[str],
         systems: Sequence[str]) -> list[str]:
    """The lines above the table: the title, the command that ran (when ``args`` are this run's), the half and
    what it holds, and the table's header (``keys`` then each system's right and wrong)."""
    lines = [title, ""]
    if args is not None:
        lines += [f"Command: `.venv/bin/python benchmarks/{script} " + " ".join(
            shlex.quote(a) for a in sys.argv[1:]) + "`", ""]
    return lines + ["Half: " + (args.half if args else "see the command") + f" ({half}; the wordings were written "
                    "once, before any run). Bundled 1.5B reader, this machine (2 cores).", "",
                    "| " + " | ".join(keys) + " | asks | " + " | ".join(f"{s} right | {s} wrong" for s in systems) +
                    " |", "|---" * (len(keys) + 1) + "|" + "---|---|" * len(systems)]


def right_wrong(rows: Sequence[dict[str, Any]], systems: Sequence[str]) -> list[str]:
    """For each system: its share right with the bootstrap 95% interval, and its wrong facts (found, not right)."""
    cells = []
    for s in systems:
        hits = [float(r[s]["right"]) for r in rows]
        lo, hi = bootstrap_interval(hits)
        wrong = sum(r[s]["found"] and not r[s]["right"] for r in rows)
        cells += [f"{sum(hits) / len(hits):.2f} [{lo:.2f}, {hi:.2f}]", str(wrong)]
    return cells


def seconds(rows: Sequence[dict[str, Any]], systems: Sequence[str]) -> str:
    """The median seconds an ask of each system."""
    secs = {s: sorted(r[s]["seconds"] for r in rows) for s in systems}
    return "Seconds an ask (median): " + ", ".join(f"{s} {v[len(v) // 2]:.1f}" for s, v in secs.items())


def main(doc: str, default_out: str, run: Callable[[argparse.Namespace], None],
         render: Callable[[Path], None], arguments: Callable[[argparse.ArgumentParser], None]) -> None:
    """Parse the command line (``--data``, ``--half``, ``--out``, ``--render`` and the script's own
    ``arguments``) and run the benchmark, or only render its table again from ``--out``'s .jsonl."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    arguments(ap)
    ap.add_argument("--out", type=Path, default=Path(default_out))
    ap.add_argument("--render", action="store_true", help="only rewrite the table from --out's .jsonl")
    args = ap.parse_args()
    if args.render:
        render(args.out)
    else:
        run(args)
