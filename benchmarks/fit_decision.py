"""Fit the answer decision (:mod:`assistant.ttrag.decision`) on the loss table's dev reads, and show its curves.

Reads the rows ``benchmarks/loss_table.py`` wrote (dev halves, every family and wording): each read of the
product with its signals and whether the reader's raw reply was right. A logistic regression over the
standardised signals (scikit-learn) is fit on the reads where the reader offered an answer; its
probabilities, predicted for each family by a model fit on the other families only (leave one family out),
give per family a selective-accuracy curve (share of asks answered against right among the answered) and
a reliability table. One operating point for all families is chosen on those held-out probabilities: the
threshold that maximises right answers minus ``--wrong-cost`` times wrong facts stated, pooled over the
families. The model fit on all reads and that threshold are written to ``assistant/ttrag/decision.json``.

An ask is replayed read by read: its first read whose probability reaches the threshold is stated; when none
does it is "not found". A read the shipped product never made (it stated an earlier one) counts as no answer.

Usage:
    .venv/bin/python benchmarks/fit_decision.py benchmarks/results/loss-dev-before.jsonl \
        --out benchmarks/results/decision-fit
    .venv/bin/python benchmarks/fit_decision.py benchmarks/results/loss-dev-*.jsonl --one-per-ask \
        --out benchmarks/results/decision-fit-all
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.eval.metrics import bootstrap_interval  # noqa: E402
from assistant.ttrag.decision import MODEL_FILE, DecisionModel, names  # noqa: E402

GRID = [round(x, 2) for x in np.arange(0.0, 1.0, 0.05)]


def load(paths: Sequence[Path]) -> list[dict[str, Any]]:
    rows = []
    for p in paths:
        rows += [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows


def offered(rows: list[dict[str, Any]]) -> list[tuple[int, int, dict[str, Any]]]:
    """(row index, read index, read) of every read where the reader offered an answer."""
    return [(i, j, r) for i, row in enumerate(rows) for j, r in enumerate(row["reads"]) if r["raw_found"]]


def matrix(reads: Sequence[dict[str, Any]]) -> np.ndarray:
    """The signals of ``reads``, one row each; a signal not known (null) is NaN."""
    return np.array([[np.nan if r["signals"][n] is None else r["signals"][n] for n in names()] for r in reads],
                    dtype=float)


def fit(x: np.ndarray, y: np.ndarray, c: float) -> tuple[Any, np.ndarray, np.ndarray]:
    from sklearn.linear_model import LogisticRegression

    mean, scale = np.nanmean(x, axis=0), np.nanstd(x, axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=c, max_iter=1000).fit(standard(x, mean, scale), y)
    return model, mean, scale


def standard(x: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """``x`` standardised, a signal not known at 0 (its mean), as :meth:`DecisionModel.p_right` takes it."""
    return np.nan_to_num((x - mean) / scale, nan=0.0)


def held_out(rows: list[dict[str, Any]], c: float) -> dict[tuple[int, int], float]:
    """P(right) of each offered read from a model fit on the other families' reads."""
    picks = offered(rows)
    fams = sorted({rows[i]["family"] for i, _, _ in picks})
    out: dict[tuple[int, int], float] = {}
    for fam in fams:
        train = [(i, j, r) for i, j, r in picks if rows[i]["family"] != fam]
        test = [(i, j, r) for i, j, r in picks if rows[i]["family"] == fam]
        y = np.array([r["raw_right"] for _, _, r in train], dtype=int)
        if len(set(y)) < 2 or not test:
            continue
        model, mean, scale = fit(matrix([r for _, _, r in train]), y, c)
        p = model.predict_proba(standard(matrix([r for _, _, r in test]), mean, scale))[:, 1]
        out |= {(i, j): float(v) for (i, j, _), v in zip(test, p, strict=True)}
    return out


def replay(rows: list[dict[str, Any]], probs: dict[tuple[int, int], float], t: float) -> list[tuple[bool, bool]]:
    """(stated, right) per ask at threshold ``t``."""
    out = []
    for i, row in enumerate(rows):
        stated = None
        for j, r in enumerate(row["reads"]):
            if r["raw_found"] and probs.get((i, j), 0.0) >= t:
                stated = r
                break
        if stated is not None:
            out.append((True, bool(stated["raw_right"])))
        else:
            out.append((False, not row["answerable"]))
    return out


FOUND_BARS = (0.8, 0.82, 0.85, 0.88, 0.9)


def chain_at(row: dict[str, Any], bar: float) -> str:
    """The shipped chain's outcome for ``row`` had its P(found) bar been ``bar`` (at least the bar it ran with):
    "right", "wrong" or "not found". A stated read under ``bar`` counts as not found (an approximation: the
    rewrite that would have followed is not replayed)."""
    product = row["product"]
    if product["found"]:
        shown = [r for r in row["reads"] if r.get("shown")]
        p = shown[-1]["found_p"] if shown else None
        if p is None or p >= bar:
            return "right" if product["right"] else "wrong"
        return "right" if not row["answerable"] else "not found"
    return "right" if product["right"] else "not found"


def totals(outcomes: Sequence[tuple[bool, bool]]) -> tuple[int, int, int]:
    right = sum(r for _, r in outcomes)
    wrong = sum(s and not r for s, r in outcomes)
    return right, wrong, sum(s for s, _ in outcomes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows", type=Path, nargs="+", help="loss_table.py .jsonl files (dev halves)")
    ap.add_argument("--c", type=float, default=1.0, help="inverse L2 strength of the logistic regression")
    ap.add_argument("--wrong-cost", type=float, default=2.0, help="a wrong fact stated costs this many right answers")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/decision-fit"))
    ap.add_argument("--write", action="store_true", help=f"write the fitted model to {MODEL_FILE}")
    ap.add_argument("--one-per-ask", action="store_true",
                    help="several runs' files: one row per (family, question, wording), the last file's")
    args = ap.parse_args()
    rows = load(args.rows)
    if args.one_per_ask:  # the same ask under several settings would count its reads more than once
        rows = list({(r["family"], r["id"], r["wording"]): r for r in rows}.values())
    probs = held_out(rows, args.c)
    fams = list(dict.fromkeys(r["family"] for r in rows))
    scores = {t: totals(replay(rows, probs, t)) for t in GRID}
    best = max(GRID, key=lambda t: (scores[t][0] - args.wrong_cost * scores[t][1], t))
    picks = offered(rows)
    model, mean, scale = fit(matrix([r for _, _, r in picks]), np.array([r["raw_right"] for _, _, r in picks]), args.c)
    fitted = DecisionModel(names(), tuple(float(v) for v in mean), tuple(float(v) for v in scale),
                           tuple(float(v) for v in model.coef_[0]), float(model.intercept_[0]), best,
                           f"{len(picks)} offered reads of {len(rows)} dev asks ({', '.join(fams)}; wordings "
                           f"{', '.join(sorted({r['wording'] for r in rows}))}); {', '.join(map(str, args.rows))}")
    if args.write:
        MODEL_FILE.write_text(fitted.to_json(), encoding="utf-8")
    command = "python benchmarks/fit_decision.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    md = [f"# The answer decision fit on the dev reads ({args.out.name})", "", f"Command: `{command}`", "",
          "Half: **dev** (all of it: the loss table's rows). Probabilities in the curves are held out by family "
          "(each family's from a model fit on the others); the model written is fit on every offered read. "
          f"Operating point: the threshold maximising right - {args.wrong_cost:g} x wrong stated over all families: "
          f"**{best:.2f}**.", "",
          f"Fitted on: {fitted.fitted_on}.", "", "## Weights (standardised signals)", "",
          "| signal | mean | sd | weight |", "|---|---|---|---|"]
    for n, m, s, w in zip(fitted.names, fitted.mean, fitted.scale, fitted.coef, strict=True):
        md.append(f"| {n} | {m:.3f} | {s:.3f} | {w:+.3f} |")
    md += [f"| (intercept) | | | {fitted.intercept:+.3f} |", ""]
    md += ["## Per family: the shipped checks, the plain RAG and the fitted decision at the operating point", "",
           "| family | asks | plain RAG right / wrong stated | shipped right / wrong stated | decision right / wrong "
           "stated [95% CI of right] |", "|---|---|---|---|---|"]
    at_best = replay(rows, probs, best)
    for fam in [*fams, "all"]:
        idx = [i for i, r in enumerate(rows) if fam in ("all", r["family"])]
        plain = (sum(rows[i]["plain"]["right"] for i in idx),
                 sum(rows[i]["plain"]["found"] and not rows[i]["plain"]["right"] for i in idx))
        shipped = (sum(rows[i]["product"]["right"] for i in idx),
                   sum(rows[i]["product"]["found"] and not rows[i]["product"]["right"] for i in idx))
        dec = [at_best[i] for i in idx]
        lo, hi = bootstrap_interval([float(r) for _, r in dec])
        r, w, _ = totals(dec)
        md.append(f"| {fam} | {len(idx)} | {plain[0]} / {plain[1]} | {shipped[0]} / {shipped[1]} | {r} / {w} "
                  f"[{lo:.2f}, {hi:.2f}] |")
    md += ["", "## Selective accuracy per family (held-out probabilities)", "",
           "Answered share of asks / right among the answered, at each threshold.", "",
           "| threshold | " + " | ".join(fams) + " | all: right, wrong stated |", "|---|" + "---|" * (len(fams) + 1)]
    for t in GRID:
        cells = []
        for fam in fams:
            out = [o for o, r in zip(replay(rows, probs, t), rows, strict=True) if r["family"] == fam]
            r, w, s = totals(out)
            cells.append(f"{s / len(out):.2f} / {(r - sum(not st and ok for st, ok in out)) / s:.2f}" if s
                         else "0.00 / -")
        md.append(f"| {t:.2f}{' **chosen**' if t == best else ''} | " + " | ".join(cells) +
                  f" | {scores[t][0]}, {scores[t][1]} |")
    md += ["", "## The shipped chain at other P(found) bars (replayed)", "",
           "Right / wrong stated per family and wording, had the reader's P(found) bar been higher; a read stated "
           "under it counts as not found (the rewrite that would have followed is not replayed).", "",
           "| asks | n | " + " | ".join(f"bar {b:.2f}" for b in FOUND_BARS) + " |",
           "|---|---|" + "---|" * len(FOUND_BARS)]
    groups = [("all", rows)] + [(fam, [r for r in rows if r["family"] == fam]) for fam in fams] + \
        [(f"wording {w}", [r for r in rows if r["wording"] == w]) for w in sorted({r["wording"] for r in rows})]
    for name, group in groups:
        cells = []
        for b in FOUND_BARS:
            outs = [chain_at(r, b) for r in group]
            cells.append(f"{outs.count('right')} / {outs.count('wrong')}")
        md.append(f"| {name} | {len(group)} | " + " | ".join(cells) + " |")
    md += ["", "## Reliability (held-out probabilities, offered reads)", "", "| P(right) bin | reads | right share |",
           "|---|---|---|"]
    pairs = [(probs[(i, j)], r["raw_right"]) for i, j, r in picks if (i, j) in probs]
    for lo_b in np.arange(0, 1, 0.2):
        sel = [ok for p, ok in pairs if lo_b <= p < lo_b + 0.2 or (lo_b >= 0.8 and p == 1.0)]
        md.append(f"| {lo_b:.1f}-{lo_b + 0.2:.1f} | {len(sel)} | {sum(sel) / len(sel):.2f} |" if sel else
                  f"| {lo_b:.1f}-{lo_b + 0.2:.1f} | 0 | - |")
    args.out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md[:40]))


if __name__ == "__main__":
    main()
