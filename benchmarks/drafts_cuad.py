"""Draft replies to e-mails that attach a real contract (CUAD's filed PDFs) and ask two or three of the
questions a person asks of one, judged as a lawyer would.

    .venv/bin/python benchmarks/drafts_cuad.py [--half test] [--emails 20] [--out benchmarks/results/drafts-cuad]

One e-mail per contract of the half, in the order the cuad task takes them: its first two or three
questions of distinct kinds (alternately), worded as a person writes them (a list, or one sentence). The
draft is written by the product (:func:`assistant.ttrag.compute.draft.write_draft`, signer "Alice Meyer").
Each question is matched to the draft's point whose request shares the most content words with it, and
that point's answer is judged by the cuad task's rule (:mod:`assistant.eval.cuad`): a stated clause
answered right, an absent one said to be not stated (or "no"). A **wrong fact** is a point stated as found
that the rule does not accept: a wrong value, or a clause claimed that the lawyers found absent. A question
with no matching point counts as not right. Intervals: 95% bootstrap over questions (points) and over
e-mails (wrong facts). No setting was chosen on these e-mails.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.eval.cuad import Item, contract_set, load_items
from assistant.eval.metrics import bootstrap_ci, content_words
from assistant.eval.report import machine, summary_table, write
from assistant.service import ModelStore
from assistant.ttrag.compute.draft import Point, write_draft
from assistant.ttrag.context import build_context
from assistant.ttrag.generate import strip_markers

HERE = Path(__file__).resolve().parent


def emails(items: Sequence[Item], count: int) -> list[tuple[str, list[Item]]]:
    """(contract, its 2 or 3 items of distinct kinds) for the first ``count`` contracts with two or more."""
    by_contract: dict[str, list[Item]] = {}
    for it in items:
        kinds = {x.kind.name for x in by_contract.get(it.contract, [])}
        if it.kind.name not in kinds:
            by_contract.setdefault(it.contract, []).append(it)
    picked = []
    for contract, its in by_contract.items():
        if len(its) >= 2 and len(picked) < count:
            picked.append((contract, its[:2 + len(picked) % 2]))
    return picked


def email_text(items: Sequence[Item], n: int) -> str:
    """The e-mail asking ``items``' questions: one sentence in e-mails 0 and 1 of every four, a list in 2 and 3
    (so both forms ask two and three questions)."""
    qs = [it.kind.question for it in items]
    if (n // 2) % 2:
        asked = "before we go on with the attached agreement, could you check:\n" + "\n".join(f"- {q}" for q in qs)
    else:
        tail = [q[0].lower() + q[1:] for q in qs[1:]]
        asked = "I attached the agreement. " + qs[0][:-1] + ", and " + "? And ".join(tail)
    return f"From: Bob Miller <bob@example.com>\nSubject: Questions about the agreement\n\nHi Alice,\n\n{asked}\n\n" \
           "Thanks,\nBob"


def match(item: Item, points: Sequence[Point]) -> Point | None:
    """The point whose request shares the most content words with ``item``'s question (None: none shares)."""
    words = content_words(item.kind.question)
    scored = [(len(words & content_words(p.request)), -i, p) for i, p in enumerate(points)]
    best = max(scored, key=lambda s: s[:2], default=None)
    return best[2] if best and best[0] else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="test")
    ap.add_argument("--emails", type=int, default=20)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "drafts-cuad")
    args = ap.parse_args()
    contracts, _ = contract_set(args.data)
    picked = emails([it for it in load_items(args.data) if it.question.half == args.half], args.emails)
    store = ModelStore(Settings())
    models = store.models()
    results = []
    t_start = time.perf_counter()
    for n, (contract, items) in enumerate(picked):
        doc, _ = contracts.read(items[0].question)
        ctx = build_context([doc], store.tokenizer())
        text = email_text(items, n)
        t0 = time.perf_counter()
        draft = write_draft(ctx, text, models, store.settings.pipeline, signer="Alice Meyer")
        seconds = time.perf_counter() - t0
        judged = []
        for it in items:
            p = match(it, draft.points)
            found = bool(p and p.answer.found)
            reply = p.answer.short_answer if p else ""
            right = bool(p) and it.accepts(reply, found)
            judged.append({"question": it.kind.question, "label": it.label if it.present else "(absent)",
                           "request": p.request if p else "", "found": found, "short_answer": reply,
                           "answer": strip_markers(p.answer.text) if p else "", "right": right,
                           "wrong_fact": found and not right})
        results.append({"contract": contract, "email": text, "seconds": seconds, "points": judged,
                        "draft_points": len(draft.points), "body": draft.body})
        print(f"{n + 1}/{len(picked)} {contract[:40]}: {sum(j['right'] for j in judged)}/{len(judged)} right, "
              f"{sum(j['wrong_fact'] for j in judged)} wrong facts, {seconds:.0f} s", flush=True)
    points = [j for r in results for j in r["points"]]
    absent = [j for j in points if j["label"] == "(absent)"]
    secs = sorted(r["seconds"] for r in results)
    summary = {"e-mails": len(results), "questions (points)": len(points),
               "points right": bootstrap_ci([float(j["right"]) for j in points]),
               "wrong facts stated (points)": sum(j["wrong_fact"] for j in points),
               "e-mails with a wrong fact": bootstrap_ci([float(any(j["wrong_fact"] for j in r["points"]))
                                                          for r in results]),
               "absent clauses said not stated": bootstrap_ci([float(j["right"]) for j in absent]),
               "stated clauses right": bootstrap_ci([float(j["right"]) for j in points if j["label"] != "(absent)"]),
               "seconds a draft, mean": sum(secs) / len(secs), "seconds a draft, p50": secs[len(secs) // 2]}
    md = ["# Drafts over real contracts (CUAD), judged as a lawyer would", "",
          f"Command: `.venv/bin/python benchmarks/drafts_cuad.py --half {args.half} --emails {args.emails}`  ",
          f"Machine: {machine()}  ",
          f"Date: {time.strftime('%Y-%m-%d %H:%M')}; bundled 1.5B reader, default settings, warm; run "
          f"{time.perf_counter() - t_start:.0f} s. The {args.half} half's contracts; no setting was chosen on "
          "these e-mails. Intervals: 95% bootstrap.", ""]
    md += summary_table(summary)
    md += ["", "| contract | question | lawyers' label | right | wrong fact | answer shown |", "|---" * 6 + "|"]
    md += [f"| {r['contract'][:40]} | {j['question']} | {j['label'][:60]} | {'yes' if j['right'] else 'no'} | "
           f"{'**yes**' if j['wrong_fact'] else '-'} | "
           f"{(j['answer'] if j['found'] else 'not stated')[:120].replace('|', '/')} |"
           for r in results for j in r["points"]]
    for p in write(args.out, md, {"machine": machine(), "summary": summary, "emails": results}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
