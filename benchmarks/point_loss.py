"""Where a contract summary's searched point is lost, stage by stage, on a CUAD half: the Term point
(the lawyers' Expiration Date) or the Governing law point, for every contract of the half; or the Date point (the
lawyers' Agreement Date), read from the opening (its rows past "right" then say little: no search).

    .venv/bin/python benchmarks/point_loss.py [--point Term] [--half dev] [--contracts N] [--only PREFIX,...]
        [--set NAME=VALUE ...] [--against NAME=VALUE ...] [--retrieval [--asked-as QUESTION]] [--out PATH]
    .venv/bin/python benchmarks/point_loss.py --bars RESULTS.json [RESULTS.json ...] [--signal found_p]

Each point is read as the summary reads it (:func:`assistant.ttrag.pipeline._point`: the point's question
searched, re-ranked, its top passages read once, no rewrite, no fallback; the cited sentence checked), and
falls in the first row that holds it. A contract whose clause the lawyers labelled: right (the point shown is
the lawyers' answer, by the cuad task's judge); the reader's reply was right but a check of the ask withheld it
(which); right but the point's own check read withheld it (P below its bar), or its cited sentence taken for
another clause's (``PointQuestion.other_clause``), or its P(found) below the point's bar
(``PointQuestion.found_p``); the gold clause not
in the pre-filter's short list; not among the passages read; read only in part; read whole and the reader
wrong or silent. Each loss is split into "left out" and "stated wrong". A contract without the clause:
"left out" (right) or "invented".

``--retrieval`` reads nothing: for each contract whose clause is labelled, whether the gold clause is in the
pre-filter's short list and in the re-ranked passages, searched with the point's question, with its clause's
wording (``PointQuestion.search``) and with both (the question re-ranks the candidates of the two searches),
in seconds a contract.

``--bars RESULTS.json ...`` reads nothing: each point's verdict at several bars of its check read's P(yes)
(``point_check_p``), counted from runs made with every point shown (``--set point_check_p=1e-9``) or at the
shipped bar (a point the check withheld is counted as its row says: right or not); with ``--signal found_p``,
at several bars of its read's P(found) (``PointQuestion.found_p``), of the points each run stated.

``--against`` reads each point a second time with those settings changed, right after the first, so a
change is judged on the same contracts in one run: a column each, per contract too.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import PipelineOptions, Settings
from assistant.eval.ablation import parse_variations
from assistant.eval.cuad import Item, contract_set, gold_spans, load_items
from assistant.eval.report import machine, write
from assistant.records import Chunk, Hit
from assistant.service import ModelStore
from assistant.ttrag import conditional, pipeline, prefilter
from assistant.ttrag.compute.summarize import points
from assistant.ttrag.context import Context, build_context
from assistant.ttrag.generate import parse_reply, strip_markers

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loss_table import CachedGenerator, gold_cover  # noqa: E402

HERE = Path(__file__).resolve().parent
#: summary point -> the CUAD category whose label judges it
CATEGORY = {"Term": "Expiration Date", "Governing law": "Governing Law", "Date": "Agreement Date"}


def read_point(ctx: Context, point: points.PointQuestion, models: pipeline.Models, opts: PipelineOptions,
               it: Item) -> dict[str, Any]:
    """One point read, judged and placed in its loss row."""
    run = pipeline._Run(lambda e: None, threading.Event())
    run.t0 = time.perf_counter()
    found = pipeline._point(ctx, point, models, opts, run)
    seconds = time.perf_counter() - run.t0
    by_id = {c.id: c for c in ctx.chunks}
    candidates: list[Chunk] = []
    read: list[Chunk] = []
    raw_text, raw_found, reason, found_p, other, unsure = "", False, "", None, "", ""
    for step in run.trace:
        if step["stage"] == "point_other_clause":  # the cited sentence is another clause's (PointQuestion.other_clause)
            other = str(step["snippet"])
        elif step["stage"] == "point_unsure":  # P(found) below the point's bar (PointQuestion.found_p)
            unsure = strip_markers(str(step["sentence"]))
        elif step["stage"] == "prefilter":  # every search's short list (the question's, a worded clause's)
            candidates += [by_id[int(h["chunk"])] for h in step["hits"]]  # type: ignore[attr-defined]
        elif step["stage"] == "conditional":
            read = [by_id[int(h["chunk"])] for h in step["hits"]]  # type: ignore[attr-defined]
        elif step["stage"] == "answer":
            fields = parse_reply(str(step.get("reply", "")))
            short = str(fields.get("short_answer") or "").strip()
            raw_found = fields.get("found") is not False and bool(short)
            raw_text = strip_markers(str(fields.get("answer") or "")) or short
            reason, found_p = str(step.get("reason", "")), step.get("found_p")
    shown = found is not None and (found.check_p is None or found.check_p >= opts.point_check_p)
    sentence = found.sentence if found is not None else ""
    right = shown and it.accepts(sentence, True)
    spans = gold_spans(ctx.documents[0].text, it.clauses) if it.present else ()
    if not it.present:
        row = "absent: left out" if not shown else "absent: invented"
    elif right:
        row = "right"
    else:
        how = "stated wrong" if shown else "left out"
        if found is not None and not shown and it.accepts(sentence, True):
            row = "reader right, the point's check withheld it"
        elif other and raw_found and it.accepts(raw_text, True):
            row = "reader right, its cited sentence taken for another clause's"
        elif unsure and it.accepts(unsure, True):
            row = "reader right, its P(found) below the point's bar"
        elif raw_found and it.accepts(raw_text, True) and found is None:
            row = f"reader right, a check of the ask withheld it ({reason.split(' (')[0] or '?'})"
        elif spans and gold_cover(candidates, spans) <= 0:
            row = f"gold not in the pre-filter's short list; {how}"
        elif spans and gold_cover(read, spans) <= 0:
            row = f"gold not in the passages read; {how}"
        elif spans and gold_cover(read, spans) < 0.98:
            row = f"gold read only in part; {how}"
        elif not spans:
            row = f"gold not located in the text; {how}"
        else:
            row = f"gold read whole, reader wrong; {how}"
    return {"row": row, "verdict": "left out" if not shown else "right" if right else "wrong",
            "sentence": sentence, "other_clause": other, "unsure": unsure,
            "cited": [[c.start, c.end, c.id] for c in found.cited] if found is not None else [],
            "raw": raw_text[:300], "raw_found": raw_found, "found_p": found_p,
            "check_p": None if found is None else found.check_p, "seconds": round(seconds, 1),
            "read": [c.id for c in read], "gold_read": round(gold_cover(read, spans), 2) if spans else None}


def retrieval(ctx: Context, point: points.PointQuestion, models: pipeline.Models, opts: PipelineOptions,
              spans: tuple[tuple[int, int], ...], asked_as: str = "") -> dict[str, tuple[bool, bool]]:
    """(gold in the short list, gold in the re-ranked passages) for each way of searching; ``asked_as``: the
    question searched and re-ranking "both" instead of the point's (a person's wording of it)."""
    question = asked_as or point.question
    def search(text: str) -> list[Hit]:
        return prefilter.prefilter(ctx, text, models.embedder, shortlist=opts.shortlist, fusion=opts.fusion,
                                   top_k=opts.prefilter_top_k)

    def top(query: str, hits: list[Hit]) -> list[Chunk]:
        ranked = conditional.rerank(query, hits, models.encoder, mode=opts.ce_mode, weight=opts.ce_weight,
                                    top_k=opts.ce_top_k, pooling=opts.ce_pooling)
        return pipeline._whole(ctx, [h.chunk for h in ranked], opts)

    asked, worded = search(question), search(point.search or question)
    both = asked + [h for h in worded if h.chunk.id not in {a.chunk.id for a in asked}]
    out = {}
    for name, hits, query in (("question", asked, question), ("clause", worded, point.search),
                              ("both", both, question), ("both, clause re-ranks", both, point.search)):
        out[name] = (gold_cover([h.chunk for h in hits], spans) > 0, gold_cover(top(query, hits), spans) > 0)
    return out


CHECK_BARS = (0, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55)
FOUND_BARS = (0, 0.8, 0.85, 0.9, 0.93, 0.94, 0.95, 0.955, 0.96, 0.97)


def bar_table(paths: list[Path], bars: tuple[float, ...] = CHECK_BARS, signal: str = "check_p") -> list[str]:
    """Right / wrong / left out (labelled) and invented (absent) of each run's points at each bar of ``signal``
    (``check_p``: the check read's P(yes), a point the run's own bar withheld counted as its row says;
    ``found_p``: the point's read's P(found), of the points the run stated), and in all."""
    runs = {p.stem: json.loads(p.read_text())["rows"] for p in paths}
    lines = ["| bar | " + " | ".join(f"{name}: right / wrong / left out, invented" for name in runs) +
             " | right, all | wrong facts, all |", "|---" * (3 + len(runs)) + "|"]
    for bar in bars:
        cells, right, wrong = [], 0, 0
        for rows in runs.values():
            c: Counter[tuple[bool, str]] = Counter()
            for r in rows:
                g = r["base"]
                verdict = g["verdict"]
                if signal == "check_p" and verdict == "left out" and g["sentence"] and g["check_p"] is not None:
                    verdict = "right" if g["row"].startswith("reader right, the point's check") else "wrong"
                if verdict != "left out" and g[signal] is not None and g[signal] < bar:
                    verdict = "left out"
                c[(r["label"] != "(absent)", verdict)] += 1
            invented = c[(False, "wrong")] + c[(False, "right")]
            cells.append(f"{c[(True, 'right')]} / {c[(True, 'wrong')]} / {c[(True, 'left out')]}, {invented}")
            right += c[(True, "right")]
            wrong += c[(True, "wrong")] + invented
        lines.append(f"| {bar} | " + " | ".join(cells) + f" | {right} | {wrong} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--point", choices=tuple(CATEGORY), default="Term")
    ap.add_argument("--contracts", type=int, default=1000)
    ap.add_argument("--only", default="", metavar="PREFIX,...",
                    help="only the contracts whose file names start with one of these (case ignored)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a setting for both reads")
    ap.add_argument("--against", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting changed for a second read of each point")
    ap.add_argument("--retrieval", action="store_true", help="no reads: where the gold clause is found, per search")
    ap.add_argument("--asked-as", default="", metavar="QUESTION",
                    help="with --retrieval: this question searched instead of the point's (a person's wording)")
    ap.add_argument("--bars", nargs="+", type=Path, default=None, metavar="RESULTS.json",
                    help="no reads: the verdicts of these runs' points at several bars of --signal")
    ap.add_argument("--signal", choices=("check_p", "found_p"), default="check_p",
                    help="the P a --bars table bars: the check read's P(yes) or the point read's P(found)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=None, metavar="FILE.jsonl",
                    help="replay reader replies saved there (loss_table.py's cache); new ones are appended")
    args = ap.parse_args()
    if args.bars:
        print("\n".join(bar_table(args.bars, FOUND_BARS if args.signal == "found_p" else CHECK_BARS, args.signal)))
        return
    contracts, _ = contract_set(args.data)
    store = ModelStore(Settings())
    models = store.models()
    if args.cache is not None:
        models = dataclasses.replace(models, generator=CachedGenerator(models.generator, args.cache))
    base = store.settings.pipeline
    for change in parse_variations(args.set, flag="--set").values():
        base = dataclasses.replace(base, **change)
    against = base
    for change in parse_variations(args.against, flag="--against").values():
        against = dataclasses.replace(against, **change)
    runs = {"base": base} | ({"against": against} if args.against else {})
    point = next(p for p in points.CONTRACT_POINTS if p.label == args.point)
    items = [it for it in load_items(args.data) if it.kind.name == CATEGORY[args.point]
             and it.question.half == args.half][:args.contracts]
    if args.only:
        prefixes = tuple(p.strip().lower() for p in args.only.split(","))
        items = [it for it in items if it.contract.lower().startswith(prefixes)]
    t_start = time.perf_counter()
    if args.retrieval:
        found: Counter[tuple[str, str]] = Counter()
        n = 0
        for it in items:
            doc, _ = contracts.read(it.question)
            spans = gold_spans(doc.text, it.clauses) if it.present else ()
            if not spans:
                continue
            n += 1
            ctx = build_context([doc], store.tokenizer())
            got = retrieval(ctx, point, models, base, spans, args.asked_as)
            for name, (listed, ranked) in got.items():
                found[(name, "listed")] += listed
                found[(name, "ranked")] += ranked
            print(f"{it.contract[:40]}: " + ", ".join(f"{k} {int(a)}{int(b)}" for k, (a, b) in got.items()),
                  flush=True)
        print(f"\n{n} contracts with the clause located; seconds {time.perf_counter() - t_start:.0f}")
        print("| search | gold in the short list | gold in the passages read |\n|---|---|---|")
        for name in ("question", "clause", "both", "both, clause re-ranks"):
            print(f"| {name} | {found[(name, 'listed')]} | {found[(name, 'ranked')]} |")
        return
    rows: list[dict[str, Any]] = []
    for it in items:
        doc, _ = contracts.read(it.question)
        ctx = build_context([doc], store.tokenizer())
        got = {name: read_point(ctx, point, models, pipeline.point_options(opts), it) for name, opts in runs.items()}
        rows.append({"contract": it.contract, "label": it.label if it.present else "(absent)", **got})
        print(f"{it.contract[:40]} {rows[-1]['label'][:30]}: " + "; ".join(
            f"{n} {g['verdict']} [{g['row']}] {g['sentence'][:80]}" for n, g in got.items()), flush=True)
    counts = {name: Counter(r[name]["row"] for r in rows) for name in runs}
    verdicts = {name: Counter((r["label"] != "(absent)", r[name]["verdict"]) for r in rows) for name in runs}
    command = (f"`.venv/bin/python benchmarks/point_loss.py --point '{args.point}' --half {args.half}"
               + (f" --contracts {args.contracts}" if args.contracts < 1000 else "")
               + (f" --only '{args.only}'" if args.only else "")
               + "".join(f" --set '{s}'" for s in args.set) + "".join(f" --against '{s}'" for s in args.against)
               + "`")
    md = [f"# Where the summary's {args.point} point is lost (CUAD {args.half} half)", "",
          f"Command: {command}  ", f"Machine: {machine()}  ",
          f"Date: {time.strftime('%Y-%m-%d %H:%M')}; bundled 1.5B reader, warm; run "
          f"{time.perf_counter() - t_start:.0f} s. Settings chosen on: the dev half (this table is an instrument "
          f"for choosing them).  ", f"Base settings: {args.set or 'the shipped ones'}; against: "
          f"{args.against or '-'}.", ""]
    names = list(runs)
    md += ["| | " + " | ".join(names) + " |", "|---" * (1 + len(names)) + "|"]
    for label, key in (("clause labelled: right", (True, "right")), ("clause labelled: wrong", (True, "wrong")),
                       ("clause labelled: left out", (True, "left out")),
                       ("no clause: invented", (False, "wrong")), ("no clause: left out", (False, "left out"))):
        if key == (False, "wrong"):
            md.append(f"| {label} | " + " | ".join(str(verdicts[n][key] + verdicts[n][(False, 'right')])
                                                   for n in names) + " |")
        else:
            md.append(f"| {label} | " + " | ".join(str(verdicts[n][key]) for n in names) + " |")
    md.append("| seconds a point, mean | " + " | ".join(
        f"{sum(r[n]['seconds'] for r in rows) / max(len(rows), 1):.1f}" for n in names) + " |")
    md += ["", "## Loss rows", "", "| row | " + " | ".join(names) + " |", "|---" * (1 + len(names)) + "|"]
    for row in sorted({k for c in counts.values() for k in c}):
        md.append(f"| {row} | " + " | ".join(str(counts[n][row]) for n in names) + " |")
    md += ["", "## Per contract", "", "| contract | label | " + " | ".join(
        f"{n} verdict | {n} row | {n} check P | {n} point" for n in names) + " |",
        "|---" * (2 + 4 * len(names)) + "|"]
    for r in rows:
        cells = []
        for n in names:
            g = r[n]
            cells += [g["verdict"], g["row"], "" if g["check_p"] is None else f"{g['check_p']:.2f}",
                      g["sentence"][:110].replace("|", "/")]
        md.append(f"| {r['contract'][:40]} | {r['label'][:30].replace('|', '/')} | " + " | ".join(cells) + " |")
    out = args.out or HERE / "results" / f"point-loss-{args.point.split()[0].lower()}-{args.half}"
    for p in write(out, md, {"machine": machine(), "args": vars(args) | {"data": str(args.data)},
                             "rows": json.loads(json.dumps(rows, default=str))}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
