"""Questions in German, French and Spanish about English documents: retrieval and answers per language.

Three steps, each its own command (the task data is committed, so ``make`` is run once):

    python benchmarks/crosslang.py make     # the picked questions translated by the bundled model
    python benchmarks/crosslang.py recall --out benchmarks/results/crosslang-recall.md [--limit N]
    python benchmarks/crosslang.py answers --n 8 --out benchmarks/results/crosslang-answers.md

``recall``: for every question and language, the passages the pipeline would read first (pre-filter, then
re-rank: the re-ranker's top 3), searched with the question as asked ("before": what main did) and, for a
question not in English, with the translation the pipeline makes ("after"); recall@3 = a gold passage among
them. The seconds of detection and translation are timed per question. ``answers``: the whole pipeline
(:func:`assistant.ttrag.pipeline.ask`) on the first ``--n`` questions of each source task, in each language:
accepted by the source task's rule, the answer's language as detected, and the seconds of the two language
calls (the question's translation, and the answer's when the reader wrote it in the documents' language).
Intervals: 95% bootstrap.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NAMES = {"de": "German", "fr": "French", "es": "Spanish"}


def make(args: argparse.Namespace) -> None:
    """The picked questions translated by the bundled model, one JSON line each, appended to ``--out``
    (default ``benchmarks/data/crosslang-model.jsonl``) as they come; the task data
    (``benchmarks/data/crosslang.jsonl``) is these after a reading by hand (see its ``by`` field)."""
    from assistant.config import Settings
    from assistant.eval.crosslang import DATA_FILE, pick
    from assistant.service import ModelStore
    from assistant.ttrag.rewrite import translate_query

    out = args.out or DATA_FILE.with_name("crosslang-model.jsonl")
    generator = ModelStore(Settings()).generator()
    made: dict[tuple[str, str], str] = {}  # CUAD asks the same questions of several contracts
    for task, q in pick(args.data):
        row: dict[str, Any] = {"id": q.id, "task": task, "answers": list(q.answers), "en": q.text}
        for code, name in NAMES.items():
            if (q.text, code) not in made:
                made[q.text, code] = translate_query(generator, q.text, name)
            row[code] = made[q.text, code]
        with out.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(json.dumps(row, ensure_ascii=False), file=sys.stderr)


def _contexts(sources: Any, rows: list[dict[str, Any]], tokenizer: Any) -> dict[str, Any]:
    from assistant.ttrag.context import build_context

    keys = dict.fromkeys(sources.question(r, "en")[0] for r in rows)
    return {k: build_context([sources.document(k)], tokenizer) for k in keys}


def _top3(ctx: Any, query: str, store: Any, opts: Any) -> list[Any]:
    """The re-ranker's top passages for ``query``, as the pipeline's first read takes them."""
    from assistant.ttrag import aliases, conditional, prefilter

    search = aliases.search_query(query, ctx.terms)
    hits = prefilter.prefilter(ctx, search, store.embedder(), shortlist=opts.shortlist, fusion=opts.fusion,
                               top_k=opts.prefilter_top_k)
    top = conditional.rerank(search, hits, store.encoder(), mode=opts.ce_mode, weight=opts.ce_weight,
                             top_k=opts.ce_top_k, pooling=opts.ce_pooling)
    return [h.chunk for h in top]


def recall(args: argparse.Namespace, store: Any, sources: Any, rows: list[dict[str, Any]]) -> list[str]:
    """Each question in each language searched as asked, with the English original (an oracle translation:
    the bound a perfect translation reaches) and with the pipeline's own translation; one JSON line per
    question and language appended to ``--out``'s ``.jsonl`` as it goes (a rerun goes on from there)."""
    from assistant.config import PipelineOptions
    from assistant.eval.hotpot import is_gold
    from assistant.text.language import language_name, question_language
    from assistant.ttrag.rewrite import translate_query

    opts = PipelineOptions()
    log = args.out.with_suffix(".jsonl") if args.out else None
    done = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()] if log and log.exists() else []
    seen = {(d["id"], d["language"]) for d in done}
    todo = [r for r in rows if any((r["id"], c) not in seen for c in ("en", *NAMES))]
    contexts = _contexts(sources, todo, store.tokenizer()) if todo else {}
    generator = store.generator()
    translations: dict[str, tuple[str, float]] = {}  # a text asked again (CUAD's questions) is not retimed
    for n, row in enumerate(todo, 1):
        for code in ("en", *NAMES):
            if (row["id"], code) in seen:
                continue
            key, q = sources.question(row, code)
            ctx = contexts[key]
            t0 = time.perf_counter()
            mine = question_language(q.text, fallback=ctx.language)
            translated = ""
            if mine != ctx.language:
                if q.text not in translations:
                    text = translate_query(generator, q.text, language_name(ctx.language))
                    translations[q.text] = (text, time.perf_counter() - t0)
                translated = translations[q.text][0]
            added = translations[q.text][1] if translated else time.perf_counter() - t0
            record: dict[str, Any] = {"id": row["id"], "task": row["task"], "language": code, "detected": mine,
                                      "translated": translated, "seconds": round(added, 3)}
            for label, query in (("before", q.text), ("oracle", row["en"]), ("after", translated or q.text)):
                chunks = _top3(ctx, query, store, opts)
                record[label] = float(any(is_gold(c, s) for c in chunks for s in q.gold_spans))
            done.append(record)
            if log:
                with log.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        print(f"{n}/{len(todo)} {row['id']}: " + " ".join(f"{d['language']} {d['before']:.0f}/{d['after']:.0f}"
                                                      for d in done[-4:]), file=sys.stderr)
    return recall_table([d for d in done if d["id"] in {r["id"] for r in rows}])


def recall_table(records: list[dict[str, Any]]) -> list[str]:
    """The recall table of the per-question records (questions measured in all four languages only)."""
    from assistant.eval.metrics import bootstrap_ci

    by_id: dict[str, dict[str, dict[str, Any]]] = {}
    for d in records:
        by_id.setdefault(d["id"], {})[d["language"]] = d
    complete = [v for v in by_id.values() if len(v) == 1 + len(NAMES)]
    english = sum(v["en"]["after"] for v in complete) / max(len(complete), 1)
    lines = [f"{len(complete)} questions measured in all four languages.", "",
             "| language | detected right | recall@3 before (searched as asked) | after (the pipeline's "
             "translation) | after - English | oracle (the English question) | seconds added (mean / max) |",
             "|---|---|---|---|---|---|---|"]
    for code in ("en", *NAMES):
        rows = [v[code] for v in complete]
        cells = []
        for label in ("before", "after"):
            m, lo, hi = bootstrap_ci([r[label] for r in rows])
            cells.append(f"{m:.3f} [{lo:.2f}, {hi:.2f}]")
        after = sum(r["after"] for r in rows) / max(len(rows), 1)
        oracle = sum(r["oracle"] for r in rows) / max(len(rows), 1)
        secs = [r["seconds"] for r in rows]
        right = sum(r["detected"] == code for r in rows)
        lines.append(f"| {code} | {right}/{len(rows)} | {cells[0]} | {cells[1]} | {after - english:+.3f} | "
                     f"{oracle:.3f} | {sum(secs) / max(len(secs), 1):.2f} / {max(secs, default=0):.2f} |")
    return lines + _per_task(complete, "after", "After")


def _per_task(complete: list[dict[str, dict[str, Any]]], key: str, title: str) -> list[str]:
    """The share of ``key`` per source task and language."""
    lines = ["", f"{title}, per source task:", "", "| task | n | " + " | ".join(("en", *NAMES)) + " |",
             "|---|---|" + "---|" * (1 + len(NAMES))]
    for task in dict.fromkeys(v["en"]["task"] for v in complete):
        group = [v for v in complete if v["en"]["task"] == task]
        cells = [f"{sum(float(v[c][key]) for v in group) / len(group):.2f}" for c in ("en", *NAMES)]
        lines.append(f"| {task} | {len(group)} | " + " | ".join(cells) + " |")
    return lines


def answers(args: argparse.Namespace, store: Any, sources: Any, rows: list[dict[str, Any]]) -> list[str]:
    """The whole pipeline on the first ``--n`` questions of each source task in each language; one JSON line
    per question and language appended to ``--out``'s ``.jsonl`` as it goes (a rerun goes on from there)."""
    from assistant.config import PipelineOptions
    from assistant.text.language import classify
    from assistant.ttrag.generate import strip_markers
    from assistant.ttrag.pipeline import Models, ask

    tasks = dict.fromkeys(r["task"] for r in rows)
    picked = [r for task in tasks for r in [x for x in rows if x["task"] == task][:args.n]]
    log = args.out.with_suffix(".jsonl") if args.out else None
    done = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()] if log and log.exists() else []
    seen = {(d["id"], d["language"]) for d in done}
    todo = [r for r in picked if any((r["id"], c) not in seen for c in ("en", *NAMES))]
    contexts = _contexts(sources, todo, store.tokenizer()) if todo else {}
    models = Models(store.generator(), store.embedder(), store.encoder()) if todo else None
    for n, row in enumerate(todo, 1):
        for code in ("en", *NAMES):
            if (row["id"], code) in seen:
                continue
            key, q = sources.question(row, code)
            answer = ask(contexts[key], q.text, models, PipelineOptions())
            ok = sources.judge(row, q, answer.short_answer, answer.found)
            said = classify(strip_markers(answer.text))[0] if answer.found else ""
            record = {"id": row["id"], "task": row["task"], "language": code, "question": q.text,
                      "found": answer.found, "short_answer": answer.short_answer, "text": answer.text,
                      "accepted": bool(ok), "answer_language": said,
                      "seconds": round(answer.timings.get("total", 0.0), 2),
                      "translate_s": round(sum(u.total_s for u in answer.usage
                                             if u.purpose in ("translate", "translate_answer")), 2)}
            done.append(record)
            if log:
                with log.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            print(f"{n}/{len(todo)} {row['id']} {code}: {ok} {said} {answer.text[:80]!r}", file=sys.stderr)
    ids = {r["id"] for r in picked}
    return answers_table([d for d in done if d["id"] in ids])


def answers_table(records: list[dict[str, Any]]) -> list[str]:
    """The answers table of the per-question records (questions measured in all four languages only): accepted
    per language with its 95% bootstrap interval, the paired change from English with its interval, the share
    of found answers written in the question's language, and the seconds."""
    from assistant.eval.metrics import bootstrap_ci

    by_id: dict[str, dict[str, dict[str, Any]]] = {}
    for d in records:
        by_id.setdefault(d["id"], {})[d["language"]] = d
    complete = [v for v in by_id.values() if len(v) == 1 + len(NAMES)]
    lines = [f"{len(complete)} questions measured in all four languages.", "",
             "| language | n | accepted | accepted - English (paired) | said \"not found\" | found answers in the "
             "question's language | language calls s (mean / p50) | whole answer s (mean / p50) |",
             "|---|---|---|---|---|---|---|---|"]
    english = [float(v["en"]["accepted"]) for v in complete]
    for code in ("en", *NAMES):
        rows = [v[code] for v in complete]
        ok = [float(r["accepted"]) for r in rows]
        a, lo, hi = bootstrap_ci(ok)
        if code == "en":
            change = "-"
        else:
            d, dlo, dhi = bootstrap_ci([x - e for x, e in zip(ok, english, strict=True)])
            change = f"{d:+.3f} [{dlo:+.2f}, {dhi:+.2f}]"
        found = [r for r in rows if r["found"]]
        lang = [float(r["answer_language"] == code) for r in found]
        share = f"{sum(lang) / len(lang):.2f} ({int(sum(lang))}/{len(lang)})" if lang else "-"
        nf = sum(not r["found"] for r in rows)
        secs = sorted(r["seconds"] for r in rows)
        tr = sorted(r["translate_s"] for r in rows)
        lines.append(f"| {code} | {len(rows)} | {a:.3f} [{lo:.2f}, {hi:.2f}] | {change} | {nf} | {share} | "
                     f"{sum(tr) / max(len(tr), 1):.2f} / {tr[len(tr) // 2] if tr else 0:.2f} | "
                     f"{sum(secs) / max(len(secs), 1):.1f} / "
                     f"{secs[len(secs) // 2] if secs else 0:.1f} |")
    return lines + _per_task(complete, "accepted", "Accepted")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=("make", "recall", "answers"))
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--n", type=int, default=8, help="answers: questions per source task")
    ap.add_argument("--tasks", default="contract,cuad,hotpot", help="source tasks to measure")
    ap.add_argument("--limit", type=int, default=0,
                    help="recall: the first N questions (round robin over the tasks); 0 = all")
    ap.add_argument("--out", type=Path, help="a Markdown file (and .json beside it with each question)")
    args = ap.parse_args()
    if args.step == "make":
        make(args)
        return 0
    from assistant.config import Settings
    from assistant.eval.crosslang import Sources, load_rows
    from assistant.eval.report import machine
    from assistant.service import ModelStore

    names = tuple(t.strip() for t in args.tasks.split(",") if t.strip())
    picked = [r for r in load_rows() if r["task"] in names]
    # round robin over the source tasks, so a run stopped early has measured each of them alike
    rows = sorted(picked, key=lambda r: ([x for x in picked if x["task"] == r["task"]].index(r), r["task"]))
    rows = rows[:args.limit] if args.limit else rows
    store = ModelStore(Settings())
    sources = Sources.build(args.data, names=names)
    t0 = time.perf_counter()
    table = recall(args, store, sources, rows) if args.step == "recall" else answers(args, store, sources, rows)
    command = "python benchmarks/crosslang.py " + " ".join(sys.argv[1:])
    text = "\n".join([f"# Cross-language {args.step}: questions in de/fr/es about English documents", "",
                      f"Command: `{command}`  ", f"Machine: {machine()}  ",
                      f"Date: {time.strftime('%Y-%m-%d %H:%M')}; {len(rows)} questions "
                      f"({', '.join(names)}; dev halves), run {time.perf_counter() - t0:.0f} s.", "", *table, ""])
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
