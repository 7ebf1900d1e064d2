"""Can the reader's own P(yes) tell a "yes" the passages state from a "yes" they do not? A threshold on it,
chosen on dev halves.

A yes/no question is answered by a reply constrained to "yes" or "no" (:mod:`assistant.ttrag.qtype`); a
"yes" is supported by the passages about what the question names, so the grounding checks cannot catch a
"yes" to "Does the agreement include liquidated damages?" read from a passage about damages of another kind
(the CUAD draft benchmark showed three). ``Reading.yes_p`` is the reader's P(yes) at its short answer
(renormalised over "yes" and "no", :attr:`assistant.models.base.Generator.yes_probs`); ``min_yes_p`` keeps a
"yes" only when P(yes) >= t. Two families, dev halves only:

- **CUAD** (real contracts, lawyers' labels): the five yes/no clause kinds of :mod:`assistant.eval.cuad` (liquidated
  damages, non-compete, audit rights, termination for convenience, insurance), ``--per`` contracts where the
  lawyers found the clause and ``--per`` where they found none, per kind, in the dev half's seeded order; each
  asked of its own contract through the whole pipeline (:func:`assistant.ttrag.pipeline.ask`, defaults but
  ``min_yes_p`` 0). A
  threshold's row is simulated from the reply: a final "yes" below t becomes "not found" (the rewrites that
  would follow are not run; ``assistant eval answers --vary min_yes_p=t`` runs them).
- **HotpotQA** yes/no questions of the seeded dev half (gold "yes" or "no"), each read once through the answer
  path (:func:`assistant.ttrag.generate.stream_answer`) with its two gold paragraphs and a distractor
  (answerable), and once with three distractors (unanswerable: the right reply is "not found").

Rows are written as they come to ``OUT.jsonl`` (a rerun resumes); the table goes to ``OUT.md``.

    .venv/bin/python benchmarks/yesno_confidence.py [--per 5] [--hotpot 20] --out benchmarks/results/yesno-confidence
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

THRESHOLDS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99)
Row = dict[str, object]


def cuad_cases(data: Path, per: int) -> list[Row]:
    """Up to ``per`` stated and ``per`` absent dev-half items of each yes/no CUAD kind (seeded order)."""
    from assistant.eval import cuad
    from assistant.ttrag.qtype import question_type

    chosen: list[Row] = []
    for kind in cuad.KINDS:
        if kind.rule != "yesno" or question_type(kind.question).kind != "yesno":
            continue
        taken = {True: 0, False: 0}
        for it in cuad.load_items(data, kinds=(kind,)):
            if it.question.half != "dev" or taken[it.present] >= per:
                continue
            taken[it.present] += 1
            chosen.append({"family": "cuad", "id": it.question.id, "kind": kind.name, "question": it.question.text,
                           "contract": it.contract, "stated": it.present})
    return chosen


def hotpot_cases(data: Path, n: int) -> list[Row]:
    """``n`` yes/no questions of the seeded HotpotQA dev half, each as an answerable and an unanswerable read."""
    from assistant.eval.hotpot import HOTPOT_FILE

    rows = [json.loads(line) for line in (data / HOTPOT_FILE).open()]
    order = list(range(len(rows)))
    random.Random(0).shuffle(order)  # the evaluation's seeded split (assistant.eval.recall.split_questions)
    dev = [rows[i] for i in order[: len(order) // 2]]
    rng = random.Random(11)
    cases: list[Row] = []
    for row in dev:
        gold = [c for c in row["contexts"] if c["is_supporting"]]
        other = [c for c in row["contexts"] if not c["is_supporting"]]
        answers = [s for a in row["answers_objects"] for s in a["spans"]]
        if len(gold) != 2 or len(other) < 3 or not answers or answers[0].lower() not in ("yes", "no"):
            continue
        pick = rng.sample(other, 3)
        answerable = gold + pick[:1]
        rng.shuffle(answerable)
        for kind, paras in (("answerable", answerable), ("unanswerable", pick)):
            cases.append({"family": "hotpot", "id": f"{row['question_id']}:{kind}", "kind": kind,
                          "question": row["question_text"], "gold": answers[0].lower(),
                          "paras": [(p["title"], p["paragraph_text"]) for p in paras]})
        if len(cases) >= 2 * n:
            break
    return cases


def _attempts(trace: tuple[dict[str, object], ...]) -> list[dict[str, object]]:
    return [{k: step.get(k) for k in ("attempt", "found", "short_answer", "found_p", "yes_p", "reason")}
            for step in trace if step.get("stage") == "answer" and "found_p" in step]


def run_cases(cases: list[Row], data: Path, done: dict[str, Row], write: Callable[[Row], None]) -> None:
    from assistant.config import PipelineOptions, Settings
    from assistant.eval import cuad
    from assistant.models.base import CancellableGenerator
    from assistant.records import Chunk
    from assistant.service import ModelStore
    from assistant.ttrag import pipeline
    from assistant.ttrag.context import build_context
    from assistant.ttrag.generate import stream_answer

    store = ModelStore(Settings())
    items = {it.question.id: it for it in cuad.load_items(data)}
    contexts: dict[str, object] = {}
    for k, case in enumerate(cases):
        if str(case["id"]) in done:
            continue
        t0 = time.perf_counter()
        if case["family"] == "cuad":
            item = items[str(case["id"])]
            name = str(case["contract"])
            if name not in contexts:
                contexts = {name: build_context([cuad.read_pdf(data / cuad.PDFS / name)], store.tokenizer())}
            models = pipeline.Models(store.generator(), store.embedder(), store.encoder())
            ans = pipeline.ask(contexts[name], str(case["question"]), models,  # type: ignore[arg-type]
                               PipelineOptions(min_yes_p=0.0))  # every "yes" kept: the table applies the bar
            reply = ans.short_answer if ans.found else ""
            row = {**case, "found": ans.found, "short": reply, "right": item.accepts(reply, ans.found),
                   "attempts": _attempts(ans.trace), "label": item.label}
        else:
            gen = CancellableGenerator(store.generator(), threading.Event())
            chunks = [Chunk(id=i, source=f"{title}.txt", page=None, start=0, end=len(text), text=f"{title}. {text}",
                            n_tokens=0) for i, (title, text) in enumerate(case["paras"])]  # type: ignore[arg-type]
            reading = stream_answer(gen, str(case["question"]), chunks, max_tokens=160, on_text=lambda _t: None,
                                    min_found_p=PipelineOptions().min_found_p)
            short = reading.short_answer.strip().lower() if reading.found else ""
            right = (short == case["gold"]) if case["kind"] == "answerable" else not reading.found
            row = {**{k: v for k, v in case.items() if k != "paras"}, "found": reading.found, "short": short,
                   "right": right, "attempts": [{"attempt": 0, "found": reading.found, "short_answer": short,
                                                 "found_p": reading.found_p, "yes_p": reading.yes_p,
                                                 "reason": reading.reason}]}
        row["s"] = round(time.perf_counter() - t0, 2)
        write(row)
        print(f"{k + 1}/{len(cases)} {case['family']} {case['kind']}: {row['short'] or 'NOT FOUND'} "
              f"right={row['right']} yes_p={row['attempts'][-1]['yes_p'] if row['attempts'] else None}",
              file=sys.stderr)


def _final_yes_p(row: Row) -> float | None:
    """P(yes) of the attempt whose reply was kept (the last one found), None when it was no "yes"."""
    if not row["found"] or str(row["short"]).strip().lower() != "yes":
        return None
    found = [a for a in row["attempts"] if a.get("found")]  # type: ignore[union-attr]
    p = found[-1].get("yes_p") if found else None
    return None if p is None else float(p)


def outcome(row: Row, t: float) -> tuple[bool, bool]:
    """(found, right) of ``row`` with a "yes" kept only when its P(yes) >= ``t``."""
    p = _final_yes_p(row)
    if p is None or p >= t:
        return bool(row["found"]), bool(row["right"])
    # the "yes" becomes "not found": right where the clause is absent (CUAD) or the read cannot answer (HotpotQA)
    right = (not row["stated"]) if row["family"] == "cuad" else row["kind"] == "unanswerable"
    return False, bool(right)


def _cell(values: list[float]) -> str:
    from assistant.eval.metrics import bootstrap_interval

    if not values:
        return "-"
    lo, hi = bootstrap_interval(values, seed=0)
    return f"{sum(values) / len(values):.3f} [{lo:.2f}, {hi:.2f}] ({int(sum(values))}/{len(values)})"


def table(rows: list[Row]) -> list[str]:
    stated = [r for r in rows if r["family"] == "cuad" and r["stated"]]
    absent = [r for r in rows if r["family"] == "cuad" and not r["stated"]]
    ans = [r for r in rows if r["family"] == "hotpot" and r["kind"] == "answerable"]
    una = [r for r in rows if r["family"] == "hotpot" and r["kind"] == "unanswerable"]
    lines = ["| P(yes) >= t | CUAD clause stated: right | CUAD clause absent: said so | CUAD all | "
             "HotpotQA answerable: right | HotpotQA unanswerable: \"not found\" | \"yes\" shown that is wrong "
             "(both) |",
             "|---|---|---|---|---|---|---|"]
    for t in THRESHOLDS:
        groups = (stated, absent, stated + absent, ans, una)
        cells = [_cell([float(outcome(r, t)[1]) for r in group]) for group in groups]
        wrong_yes = sum(1 for r in rows if _final_yes_p(r) is not None and _final_yes_p(r) >= t  # type: ignore[operator]
                        and not r["right"])
        lines.append(f"| {t:.2f} | " + " | ".join(cells) + f" | {wrong_yes} |")
    return lines


def yes_rows(rows: list[Row]) -> list[str]:
    lines = ["| family | kind | question | label / gold | P(found) | P(yes) | right |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        p = _final_yes_p(r)
        if p is None:
            continue
        found = [a for a in r["attempts"] if a.get("found")]  # type: ignore[union-attr]
        fp = found[-1].get("found_p") if found else None
        label = ("stated" if r["stated"] else "absent") if r["family"] == "cuad" else r["gold"]
        where = str(r.get("contract", ""))[:28] if r["family"] == "cuad" else str(r["kind"])
        kind = r["kind"] if r["family"] == "cuad" else where
        shown_fp = "-" if fp is None else f"{float(fp):.3f}"  # type: ignore[arg-type]
        lines.append(f"| {r['family']} | {kind} | {str(r['question'])[:60]} | {label} | {shown_fp} | {p:.3f} | "
                     f"{'yes' if r['right'] else '**no**'} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per", type=int, default=5, help="CUAD contracts per kind, stated and absent each")
    parser.add_argument("--hotpot", type=int, default=20, help="HotpotQA yes/no questions (each read twice)")
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("ASSISTANT_TEST_DATA",
                                                                          ROOT.parent / "shared" / "data")))
    parser.add_argument("--out", type=Path, required=True, help="OUT.md and OUT.jsonl are written")
    args = parser.parse_args()
    jsonl = args.out.with_suffix(".jsonl")
    done = {str(r["id"]): r for r in (json.loads(x) for x in jsonl.read_text().splitlines())} if jsonl.exists() else {}
    cases = cuad_cases(args.data, args.per) + hotpot_cases(args.data, args.hotpot)
    t0 = time.time()

    def write(row: Row) -> None:
        done[str(row["id"])] = row
        with jsonl.open("a") as f:
            f.write(json.dumps(row) + "\n")

    run_cases(cases, args.data, done, write)
    rows = [done[str(c["id"])] for c in cases if str(c["id"]) in done]
    seconds = sum(float(r["s"]) for r in rows)  # type: ignore[arg-type]
    lines = ["# The reader's P(yes) as a check on \"yes\" (dev halves)", "",
             f"Command: `.venv/bin/python benchmarks/yesno_confidence.py --per {args.per} --hotpot {args.hotpot} "
             f"--out {args.out}`; bundled 1.5B, temperature 0, default pipeline settings but min_yes_p 0; "
             f"{seconds:.0f} s of reads "
             f"(this run {time.time() - t0:.0f} s), load average {os.getloadavg()[0]:.1f} at the end.  ",
             "**Settings chosen on:** the dev halves (this table); no test half was read.", "",
             f"{sum(1 for r in rows if r['family'] == 'cuad')} CUAD questions (dev contracts, each asked of its own) "
             "and "
             f"{sum(1 for r in rows if r['family'] == 'hotpot')} HotpotQA reads. A \"yes\" is kept when P(yes) >= t, "
             "else it is \"not found\" (simulated from the reply: see the docstring). Means with bootstrap 95% "
             "intervals.",
             "", *table(rows), "", "## Every \"yes\" given (t = 0)", "", *yes_rows(rows)]
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.with_suffix(".md").write_text(text)


if __name__ == "__main__":
    main()
