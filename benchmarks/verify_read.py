"""A verification read as a signal of the answer decision: does the sentence a reply cites state its answer?

For every read of ``benchmarks/loss_table.py``'s rows where the reader offered an answer, the cited passage is
rebuilt (the same dev question, context and chunks; widened to whole sentences as the reader read it), its
sentence that best matches the reply is taken (:func:`assistant.ttrag.generate.cite`, as the product shows it),
and the reader reads that sentence alone with one yes/no question (:func:`pointcheck.check_point`): P(the
sentence states the reply's answer to the question). Written into each read's ``signals`` as ``verify_logit``
(a copy of the rows, ``--out``), with a table of how well each signal alone separates right replies from wrong
ones (AUROC over offered reads, per family and pooled) and what a bar on the verification read alone would
have done to the answers the product showed.

Usage:
    .venv/bin/python benchmarks/verify_read.py benchmarks/results/loss-dev-after.jsonl \
        --n 4 --n-cuad 8 --n-of nq=3,hotpot-unanswerable=4 --out benchmarks/results/verify-read-dev
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import assistant.models  # noqa: E402,F401  (offline environment before transformers loads)
from assistant.config import PipelineOptions, Settings  # noqa: E402
from assistant.documents.chunk import sentence_spans  # noqa: E402
from assistant.eval.recall import scored_questions  # noqa: E402
from assistant.eval.tasks import TASKS  # noqa: E402
from assistant.ttrag import passages  # noqa: E402
from assistant.ttrag.compute.summarize import pointcheck  # noqa: E402
from assistant.ttrag.context import Context, build_context  # noqa: E402
from assistant.ttrag.generate import cite  # noqa: E402

CHECK = "Does this sentence state that the answer to the question “{question}” is “{answer}”?"


def window(text: str, short: str) -> str:
    """The sentence of ``text`` that holds ``short`` word for word (case folded; else the one sharing most of its
    words) with the sentence before it (a name the sentence refers to as "she" stands there)."""
    spans = sentence_spans(text) or [(0, len(text))]
    words = set(short.lower().split())
    best = max(range(len(spans)), key=lambda i: (short.lower() in text[spans[i][0]:spans[i][1]].lower(),
                                                 len(words & set(text[spans[i][0]:spans[i][1]].lower().split()))))
    start = spans[max(best - 1, 0)][0]
    return " ".join(text[start:spans[best][1]].split())[:900]


def auroc(pairs: list[tuple[float, bool]]) -> float:
    """Area under the ROC curve of score against label (ties count half); NaN with one class only."""
    pos = [s for s, y in pairs if y]
    neg = [s for s, y in pairs if not y]
    if not pos or not neg:
        return math.nan
    won = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return won / (len(pos) * len(neg))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows", type=Path)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("-n", "--n", type=int, default=4)
    ap.add_argument("--n-cuad", type=int, default=8)
    ap.add_argument("--n-of", type=lambda s: {k: int(v) for k, v in (kv.split("=") for kv in s.split(","))},
                    default={})
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--window", action="store_true",
                    help="read the sentence holding the short answer (else the best-matching one) with the one "
                         "before it, instead of the cited sentence alone")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/verify-read-dev"))
    ap.add_argument("--render", action="store_true", help="ROWS already hold the verification reads: tables only")
    args = ap.parse_args()

    rows = [json.loads(line) for line in args.rows.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not args.render:
        read_all(rows, args)
    render(rows, args)


def read_all(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """Each offered read's verification read, written into ``rows`` and to ``args.out``'s .jsonl."""
    from assistant.service import ModelStore

    opts = PipelineOptions()
    store = ModelStore(Settings(pipeline=opts))
    gen, tokenizer = store.generator(), store.tokenizer()
    families = list(dict.fromkeys(r["family"] for r in rows))
    tasks = {f: TASKS[f](args.data) for f in families}
    questions = {(f, q.id): q for f, task in tasks.items()
                 for q in scored_questions(task, args.n_cuad if f == "cuad" else args.n_of.get(f, args.n),
                                           args.seed, "dev")}
    shared: dict[str, Context] = {}
    for row in rows:
        f = row["family"]
        task, q = tasks[f], questions[(f, row["id"])]
        if task.read is not None:
            doc, q = task.read(q)
            ctx = shared.setdefault(q.source, build_context([doc], tokenizer))
        else:
            ctx = shared.setdefault(f, build_context([task.haystack.document], tokenizer))
        by_id = {c.id: c for c in ctx.chunks}
        for r in row["reads"]:
            r["signals"]["verify_logit"] = None
            if not r["raw_found"] or not r["chunks"]:
                continue
            read = passages.whole(ctx.documents, [by_id[i] for i in r["chunks"]])
            rank = int(r["signals"]["cited_rank"])
            chunk = read[rank - 1] if 1 <= rank <= len(read) else read[0]
            sentence = window(chunk.text, r["raw_short"]) if args.window else \
                cite([chunk], r["raw_text"], row["question"], max_chars=600)[0].snippet
            t0 = time.perf_counter()
            p = pointcheck.check_point(gen, sentence, CHECK.format(question=row["question"],
                                                                  answer=r["raw_short"] or r["raw_text"]))
            r["verify_s"] = time.perf_counter() - t0
            r["verify_p"] = p
            r["verify_sentence"] = sentence
            if p is not None:
                q_ = min(max(p, 1e-4), 1 - 1e-4)
                r["signals"]["verify_logit"] = math.log(q_ / (1 - q_))
            print(f"{f:20} {row['wording']:9} right={r['raw_right']!s:5} P={p if p is None else round(p, 2)} "
                  f"{r['raw_short'][:50]!r}", file=sys.stderr, flush=True)
    out = args.out.with_suffix(".jsonl")
    out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def render(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    families = list(dict.fromkeys(r["family"] for r in rows))
    seconds = sorted(r["verify_s"] for row in rows for r in row["reads"] if "verify_s" in r)
    offered = [(row, r) for row in rows for r in row["reads"] if r["raw_found"] and r.get("verify_p") is not None]
    md = [f"# A verification read as a signal ({args.out.name})", "",
          "Command: `python benchmarks/verify_read.py " + " ".join(shlex.quote(a) for a in sys.argv[1:]) + "`", "",
          f"Half: **dev** (the loss table's reads, {args.rows}). The check read: `{CHECK}` over "
          + ("the sentence holding the short answer and the one before it" if args.window else
             "the cited sentence alone") + "; "
          + (f"{seconds[len(seconds) // 2]:.2f} s p50 a read." if seconds else "its seconds are not in this file "
             "(1.5 s p50 a read in the run that made it).") + " Chosen on nothing: a measurement.", "",
          "## How well each signal alone separates right replies from wrong (AUROC, offered reads)", "",
          "| family | reads | right | verify P | P(found) | coverage | overlap | verbatim |",
          "|---|---|---|---|---|---|---|---|"]
    for fam in [*families, "all"]:
        sel = [(row, r) for row, r in offered if fam in ("all", row["family"])]

        def a(key: str, sel: list = sel) -> str:
            v = auroc([(float(r["signals"][key] if r["signals"][key] is not None else 0.0), bool(r["raw_right"]))
                       for _, r in sel])
            return "-" if math.isnan(v) else f"{v:.2f}"

        md.append(f"| {fam} | {len(sel)} | {sum(r['raw_right'] for _, r in sel)} | {a('verify_logit')} | "
                  f"{a('found_logit')} | {a('coverage')} | {a('overlap')} | {a('verbatim')} |")
    md += ["", "## A bar on the verification read over the answers the product showed", "",
           "Of the reads the shipped checks let through: right ones a bar would withhold, wrong ones it would stop.",
           "", "| bar | right withheld | wrong stopped |", "|---|---|---|"]
    shown = [r for _, r in offered if r["shown"]]
    for bar in (0.1, 0.15, 0.2, 0.3, 0.5):
        kept_wrong = sum(not r["raw_right"] and r["verify_p"] < bar for r in shown)
        md.append(f"| {bar:.2f} | {sum(r['raw_right'] and r['verify_p'] < bar for r in shown)} of "
                  f"{sum(r['raw_right'] for r in shown)} | {kept_wrong} of {sum(not r['raw_right'] for r in shown)} |")
    md += ["", "## Every offered read", "", "| family | wording | question | short answer | right | shown | verify P |",
           "|---|---|---|---|---|---|---|"]
    for row, r in offered:
        md.append(f"| {row['family']} | {row['wording']} | {row['question'][:60]} | {r['raw_short'][:40]} | "
                  f"{'R' if r['raw_right'] else '-'} | {'y' if r['shown'] else '-'} | {r['verify_p']:.2f} |")
    args.out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md[:30]))


if __name__ == "__main__":
    main()
