"""The contract summary's Date point on the CUAD dev half, before and after dates are matched in any written
form (assistant.text.dates): the same reader reply judged by the checks of each, side by side in one run.

    .venv/bin/python benchmarks/date_point.py [--half dev] [--contracts N] [--form-check | --file-names | --found-p]

``--file-names`` compares the point read with its passages' file name in their headers (as before round four's
session 11) against the product's read without it (:func:`~assistant.ttrag.compute.summarize.points.as_read`).
``--form-check`` compares instead the point as read (dates matched, as the product) with the point kept only
when its sentence states a calendar date (:func:`assistant.text.dates.states_a_date`,
``PointQuestion.form``), judged on the same reply. ``--found-p`` reads the point once as the product does and
prints each verdict with the read's P(found), and the P(found) of the right and of the wrong points: whether a
bar on it (as the Term's, ``PointQuestion.found_p``) would separate them.

For each contract with an Agreement Date row (present or absent), the Date point is read from the opening
passages as the summary reads it (:func:`assistant.ttrag.pipeline._point`); **before** swaps the date
matching out of the grounding and sentence checks. Verdicts by the cuad task's judge: right / wrong /
left out. Prints one line per contract and a count table.
"""

from __future__ import annotations

import argparse
import threading
from collections import Counter
from dataclasses import replace
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
import assistant.text.dates as dates
from assistant.config import Settings
from assistant.eval.cuad import contract_set, load_items
from assistant.service import ModelStore
from assistant.ttrag import generate, grounding, pipeline
from assistant.ttrag.compute.summarize import points
from assistant.ttrag.context import build_context

HERE = Path(__file__).resolve().parent
_as_read = points.as_read


def _dates_matched(on: bool) -> None:
    grounding.without_shared_dates = dates.without_shared_dates if on else (lambda t, o: t)  # type: ignore
    grounding.dates_in = dates.dates_in if on else (lambda t: [])  # type: ignore
    generate.without_shared_dates = dates.without_shared_dates if on else (lambda t, o: t)  # type: ignore


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--contracts", type=int, default=1000)
    ap.add_argument("--form-check", action="store_true", help="as read vs. kept only when it states a date")
    ap.add_argument("--file-names", action="store_true", help="passages read with their file's name vs. without")
    ap.add_argument("--found-p", action="store_true", help="each point's verdict with its read's P(found)")
    args = ap.parse_args()
    contracts, _ = contract_set(args.data)
    store = ModelStore(Settings())
    models, opts = store.models(), store.settings.pipeline
    point_opts = pipeline.point_options(opts)
    date = next(p for p in points.CONTRACT_POINTS if p.label == "Date")
    items = [it for it in load_items(args.data) if it.kind.name == "Agreement Date" and it.question.half == args.half]
    counts: Counter[tuple[str, str]] = Counter()
    found_ps: dict[str, list[float]] = {}
    for it in items[:args.contracts]:
        doc, _ = contracts.read(it.question)
        ctx = build_context([doc], store.tokenizer())
        verdicts: list[str] = []
        sentences: list[str] = []
        if args.form_check:
            _dates_matched(True)
            found = pipeline._point(ctx, replace(date, form=""), models, point_opts,
                                    pipeline._Run(lambda e: None, threading.Event()))
            for when, keep in (("as read", True), ("date form", found is not None and
                                                   points.states_a_date(found.sentence))):
                verdict = "left out" if not found or not keep else \
                    "right" if it.accepts(found.sentence, True) else "wrong"
                counts[(when, verdict)] += 1
                verdicts.append(verdict)
            print(f"{it.contract[:40]} {it.label or '(absent)'}: as read {verdicts[0]}, date form {verdicts[1]}"
                  f" | {found.sentence if found else ''}", flush=True)
            continue
        if args.found_p:
            run = pipeline._Run(lambda e: None, threading.Event())
            found = pipeline._point(ctx, date, models, point_opts, run)
            p = next((s.get("found_p") for s in run.trace if s.get("stage") == "answer"), None)
            verdict = "left out" if not found else "right" if it.accepts(found.sentence, True) else "wrong"
            counts[("as read", verdict)] += 1
            if isinstance(p, float):
                found_ps.setdefault(verdict, []).append(p)
            print(f"{it.contract[:40]} {it.label or '(absent)'}: {verdict}, P(found) {p} | "
                  f"{found.sentence[:80] if found else ''}", flush=True)
            continue
        if args.file_names:
            for when, named in (("file named", True), ("no file name", False)):
                points.as_read = _as_read if not named else (  # type: ignore[assignment]
                    lambda c, spans: points.without_spans(c, spans))
                found = pipeline._point(ctx, date, models, point_opts,
                                        pipeline._Run(lambda e: None, threading.Event()))
                verdict = "left out" if not found else "right" if it.accepts(found.sentence, True) else "wrong"
                counts[(when, verdict)] += 1
                verdicts.append(verdict)
                sentences.append(found.sentence if found else "")
            print(f"{it.contract[:40]} {it.label or '(absent)'}: named {verdicts[0]}, nameless {verdicts[1]}"
                  f" | {sentences[0][:70]} | {sentences[1][:70]}", flush=True)
            continue
        for when, on in (("before", False), ("after", True)):
            _dates_matched(on)
            found = pipeline._point(ctx, date, models, point_opts, pipeline._Run(lambda e: None, threading.Event()))
            verdict = "left out" if not found else "right" if it.accepts(found.sentence, True) else "wrong"
            counts[(when, verdict)] += 1
            verdicts.append(verdict)
        print(f"{it.contract[:40]} {it.label or '(absent)'}: before {verdicts[0]}, after {verdicts[1]}", flush=True)
    print("\n| | right | wrong | left out |\n|---|---|---|---|")
    whens = ("as read", "date form") if args.form_check else ("file named", "no file name") if args.file_names \
        else ("as read",) if args.found_p else ("before", "after")
    for when in whens:
        print(f"| {when} | " + " | ".join(str(counts[(when, v)]) for v in ("right", "wrong", "left out")) + " |")
    for verdict, ps in sorted(found_ps.items()):
        print(f"\nP(found) of the points {verdict}: " + ", ".join(f"{p:.4f}" for p in sorted(ps)))


if __name__ == "__main__":
    main()
