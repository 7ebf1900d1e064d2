"""``assistant eval``: the evaluation harness (docs/design.md §10) from the command line, with progress bars.

    assistant eval recall  --task hotpot  [--limit 500] [--out benchmarks/results/recall-hotpot]
    assistant eval answers --task hotpot  [--subset 10] [--stuff-tokens 2048] [--out ...]
    assistant eval report benchmarks/results/recall-hotpot.json   (redraw a recall table and plot)

Each run writes ``OUT.md`` (tables), ``OUT.json`` (every number) and ``OUT-*.png`` (plots, with matplotlib).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.errors import AssistantError

if TYPE_CHECKING:  # the command line imports the evaluation modules only when they run
    from collections.abc import Sequence

    from assistant.eval.hotpot import Question
    from assistant.eval.tasks import Task
    from assistant.ttrag.context import Context

TASK_HELP = ("hotpot: 500 HotpotQA questions against all their paragraphs (~600k tokens); hotpot-1m: the same "
             "padded past 1M tokens; nq: NQ-open questions against all NQ gold passages; kv: 100 key-value "
             "questions; needle: 20 needles in essays; contract: the bundled sample contract's facts; cuad: "
             "questions about 100 real contracts, each asked of its contract alone, judged as a lawyer would")
ANSWER_COLUMNS = ("Columns (means per question): EM, F1 and gold contained score the short answer on answerable "
                  "questions; gold key stated = the short answer holds a gold answer, or is part of one and holds "
                  "its key (its first number, else a capitalised word or half its content words: \"5\" for \"five (5) "
                  "years\"); not found = share of questions answered \"not found\" (answerable: wrongly; unanswerable:"
                  " rightly); supported = share of answers whose short answer stands in the passages they cite; "
                  "first token = seconds until the person sees the answer start; gold R@3 of first read = share of "
                  "gold passages among the passages of the first LLM read; gold ever read = share of gold passages "
                  "in any passages the LLM read (rewrites, fallback); LLM calls and prompt tokens per question; "
                  "end-to-end = retrieval + all LLM calls, seconds.")
HALVES = {"dev": "Half: **dev**, the half settings are chosen on (the test half is read once per round, to report).",
          "test": "Half: **test**; the settings were chosen on the dev half, and this half is read once per round."}
JUDGED = ("Right = what a lawyer would accept (assistant/eval/clauses.py): dates as dates (a label's missing day "
          "or month matches any); durations as numbers with units (\"sixty (60) days\" = \"60 days\", \"1 year\" = "
          "\"12 months\"); an expiry as a date or a term from the effective date; governing law by the first "
          "jurisdiction named; parties by token F1 >= 0.5 with every party named; yes/no kinds by the reply's yes "
          "or no (not found = no); a clause the contract lacks: the reply says the agreement does not say. "
          "Cells: accuracy [bootstrap 95% interval, 1000 resamples of the questions, seeded] (right/n).")
PLAIN = ("bm25", "exact scan", "dense-everything", "dense10", "rrf20")
LEGEND = {
    "bm25": "`bm25` BM25 alone",
    "exact scan": "`exact scan` the needle route's exact scan for the key",
    "dense-everything": "`dense-everything` MiniLM cosine over every chunk (traditional RAG)",
    "dense10": "`dense10` BM25 top 10 re-scored by MiniLM cosine",
    "rrf20": "`rrf20` BM25 top 20 fused with MiniLM ranks by RRF (the product's pre-filter; its default adds "
             "`CE fused.25 maxsim L6`)",
    "CE": "`+ CE <mode> <pooling> <layer>` conditional embeddings re-ranking the pre-filter's 10 (`alone` = the "
          "paper; `fused.w` = (1-w)·z(pre-filter) + w·z(CE); `mean` = the paper's pooling, `maxsim` = late "
          "interaction; `L<n>` = output of transformer layer n, L6 the last of MiniLM's 6 = the paper)",
}


class _Defaults(argparse.ArgumentDefaultsHelpFormatter):
    """Shows defaults, except empty ones (None, False)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


def add_eval_command(sub: Any) -> None:
    p = sub.add_parser("eval", help="evaluate retrieval and answers on real long-context data",
                       description="The evaluation harness: builds long-context tasks from the evaluation data "
                                   "at run time (never copied), runs every system on identical inputs and writes "
                                   "Markdown, JSON and PNG results.")
    actions = p.add_subparsers(dest="eval_action", metavar="ACTION", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--task", default="hotpot", choices=["hotpot", "hotpot-1m", "nq", "kv", "needle",
                                                                "hotpot-unanswerable", "contract", "cuad"],
                        help=TASK_HELP)
    env = os.environ.get("ASSISTANT_EVAL_DATA")
    common.add_argument("--data", type=Path, default=Path(env) if env else None,
                        help="evaluation data folder (the one with qa/, needle/ and cuad/), relative to the current "
                             "folder; default: $ASSISTANT_EVAL_DATA")
    common.add_argument("--seed", type=int, default=0, help="seed of the question sample, split and stuffing")
    common.add_argument("--out", type=Path,
                        help="output path without suffix (default: benchmarks/results/<action>-<task>)")
    fmt = _Defaults
    r = actions.add_parser("recall", parents=[common], formatter_class=fmt,
                           help="recall@1/3/10 and MRR of every retrieval system and CE variant (no LLM)",
                           description="Every retrieval system on the sampled questions, split into seeded dev "
                                       "and test halves. hotpot with all 500 questions takes ~25 min here.")
    r.add_argument("--limit", type=int, default=500,
                   help="questions scored (a seeded sample; capped at the task's size)")
    r.add_argument("--no-dense-everything", action="store_true",
                   help="skip dense-everything (embedding every chunk: ~6 min at 600k tokens)")
    r.add_argument("--no-ce", action="store_true", help="skip the conditional-embedding variants")
    r.add_argument("--layers", default="-1,-2,-4",
                   help="comma-separated hidden-state indices for CE (-1 = last layer, the paper; shown as "
                        "L6, L5, L3 for MiniLM's 6 layers)")
    a = actions.add_parser("answers", parents=[common], formatter_class=fmt,
                           help="answer accuracy and latency per system with the LLM on a seeded subset",
                           description="EM, token F1, gold containment, NOT FOUND share, latency per stage and "
                                       "prompt tokens of every system with the bundled 1.5B model. 10 questions "
                                       "take ~40 min here.")
    a.add_argument("-n", "--subset", type=int, default=40, help="questions, the first of the seeded half")
    a.add_argument("--half", choices=("test", "dev"), default="test",
                   help="the seeded half the questions come from (dev to choose settings, test to report; the "
                        "contract task scores all its questions; cuad's halves are halves of its contracts)")
    a.add_argument("--systems", help="comma-separated name prefixes of the systems to run (e.g. full,retrieval); "
                                     "default: all")
    a.add_argument("--vary", action="append", default=[], metavar="OPTION=V1,V2",
                   help="an ablation: add the full pipeline with one pipeline option changed, once per value "
                        "(e.g. max_rewrites=1,0 or router=false), scored against it question by question; "
                        "repeatable")
    a.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", dest="base",
                   help="run every pipeline system with this pipeline option (the base the --vary changes are "
                        "made to, e.g. min_found_p=0.9 --vary max_rewrites=0); repeatable")
    a.add_argument("--stuff-tokens", type=int, default=2048,
                   help="context filled by the stuffing baseline (the model's window is 4096)")
    rep = actions.add_parser("report", help="redraw a recall table and plot from its JSON",
                             description="Rewrite OUT.md, OUT.json and OUT-recall.png from OUT.json of `eval recall`.")
    rep.add_argument("json", type=Path, help="a recall JSON file")


def run_eval(args: argparse.Namespace) -> int:
    if args.eval_action == "report":
        try:
            data = json.loads(args.json.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise AssistantError(f"cannot read {args.json}: {exc}") from exc
        for p in render_recall(args.json.with_suffix(""), data):
            print(f"wrote {p}", file=sys.stderr)
        return 0
    from tqdm import tqdm

    import assistant.models  # noqa: F401  (offline environment before transformers loads)
    from assistant.config import PipelineOptions, Settings
    from assistant.eval.metrics import latency_stats
    from assistant.eval.report import machine
    from assistant.eval.tasks import REQUIRES, TASKS
    from assistant.service import ModelStore

    if args.data is None:
        raise AssistantError("no evaluation data folder: pass --data DIR (the folder with qa/, needle/ and cuad/) or "
                             "set ASSISTANT_EVAL_DATA")
    data_dir = args.data.resolve()
    if not data_dir.is_dir():
        raise AssistantError(f"evaluation data not found at {data_dir} (from --data {args.data}, relative to "
                             f"{Path.cwd()}): pass --data DIR or set ASSISTANT_EVAL_DATA")
    command = "assistant " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    out = args.out or Path("benchmarks/results") / f"{args.eval_action}-{args.task}"
    missing = [p for p in REQUIRES[args.task] if not (data_dir / p).exists()]
    if missing:
        raise AssistantError(f"{data_dir} does not hold the {args.task} data: {', '.join(missing)} missing "
                             "(--data must be the folder with qa/ and needle/)")
    print(f"building the {args.task} task from {data_dir} ...", file=sys.stderr)
    try:
        task = TASKS[args.task](data_dir)
    except (OSError, KeyError, ValueError) as exc:
        raise AssistantError(f"{data_dir} does not hold the {args.task} data ({exc}); --data must be the "
                             "folder with qa/ and needle/") from exc
    if task.read is not None and args.eval_action == "recall":
        raise AssistantError(f"eval recall ranks one haystack; the {task.name} task asks each question of its own "
                             f"document: run eval answers --task {task.name}")
    from assistant.eval.recall import scored_questions

    store = ModelStore(Settings(pipeline=PipelineOptions(ce_mode="alone")))  # loads the encoder; systems set CE
    t0 = time.perf_counter()
    sample = scored_questions(task, args.subset, args.seed, args.half) if args.eval_action == "answers" else []
    asked, contexts = _asked(task, sample, store.tokenizer())
    build_s = time.perf_counter() - t0
    head = {"command": command, "machine": machine(), "task": task.name,
            "tokens": sum(c.n_tokens for c in contexts.values()),
            "chunks": sum(len(c.chunks) for c in contexts.values()), "questions": len(task.haystack.questions),
            "chunk_index_s": build_s,
            "date": time.strftime("%Y-%m-%d %H:%M")}
    if task.read is not None:
        head["documents"] = len(contexts)
    fixed = [q for q in task.haystack.questions if q.half]
    if fixed:  # the task's own halves: their sizes
        head["halves"] = {h: {"documents": len({q.source for q in fixed if q.half == h}),
                              "questions": sum(q.half == h for q in fixed)} for h in ("dev", "test")}
    if args.eval_action == "recall":
        ctx = contexts[""]  # recall runs on one haystack (checked above)
        from assistant.eval.recall import run_recall, summarize

        layers = [int(x) for x in args.layers.split(",") if x.strip()]
        n = min(args.limit, len(task.haystack.questions))
        with tqdm(total=n, desc=f"recall {task.name}", unit="q", file=sys.stderr) as bar:
            if not args.no_dense_everything:
                bar.set_postfix_str(f"embedding all {len(ctx.chunks):,} chunks for dense-everything")
            run, _ = run_recall(task, ctx, store.embedder(), None if args.no_ce else store.encoder(), limit=n,
                                seed=args.seed, layers=layers, dense_everything=not args.no_dense_everything,
                                tick=lambda: _advance(bar))
        data = {**head, "scored": n, "peak_rss_mb": _peak_rss_mb(), "one_off_s": run.one_off,
                "results": summarize(run), "stage_latency": {k: latency_stats(v) for k, v in run.seconds.items()}}
        paths = render_recall(out, data)
    else:
        from assistant.eval.answers import Models, ReplayGenerator, default_systems, run_answers_each

        systems = default_systems(args.stuff_tokens, args.seed)
        if args.systems:
            wanted = [w.strip().lower() for w in args.systems.split(",") if w.strip()]
            systems = {k: v for k, v in systems.items() if any(k.lower().startswith(w) for w in wanted)}
            if not systems:
                raise AssistantError(f"--systems {args.systems} names none of: {', '.join(default_systems(0, 0))}")
        from assistant.eval.ablation import parse_variations
        from assistant.eval.answers import pipeline_system

        base: dict[str, object] = {}
        try:
            variations = parse_variations(args.vary)
            for changes in parse_variations(args.base, flag="--set").values():
                base |= changes
        except ValueError as exc:
            raise AssistantError(str(exc)) from exc
        systems |= {f"full pipeline, {name}": pipeline_system(**changes) for name, changes in variations.items()}
        if base:
            head["base"] = ", ".join(f"{k}={v}" for k, v in base.items())
        generator = ReplayGenerator(store.generator())
        models = Models(generator, store.embedder(), store.encoder())
        with tqdm(total=len(sample) * len(systems), desc=f"answers {task.name}", unit="read", file=sys.stderr) as bar:
            outcomes = run_answers_each(asked, models, systems, PipelineOptions(**base),  # type: ignore[arg-type]
                                        tick=lambda name: _advance(bar, name[:30]))
        head["replayed_llm_calls"] = generator.replayed
        head["split"] = task.split
        head["scored"] = len(sample)
        paths = _write_answers(out, head, outcomes, args, task, [q for _, q in asked])
    for p in paths:
        print(f"wrote {p}", file=sys.stderr)
    return 0


def _asked(task: Task, questions: Sequence[Question], tokenizer: Any
           ) -> tuple[list[tuple[Context, Question]], dict[str, Context]]:
    """Each question with the context it is asked of, and the contexts by document ("" = the haystack,
    built for a task without ``read`` even when no question is asked: recall ranks it): a question of a
    per-document task is asked of its own document alone, each document read and indexed once."""
    from assistant.ttrag.context import build_context

    if task.read is None:
        ctx = build_context([task.haystack.document], tokenizer)
        return [(ctx, q) for q in questions], {"": ctx}
    contexts: dict[str, Context] = {}
    asked = []
    for q in questions:
        doc, located = task.read(q)
        if q.source not in contexts:
            contexts[q.source] = build_context([doc], tokenizer)
        asked.append((contexts[q.source], located))
    return asked, contexts


def _many(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'s' * (n != 1)}"


def _advance(bar: Any, label: str = "") -> None:
    bar.set_postfix_str(label, refresh=False)
    bar.update(1)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _intro(title: str, head: dict[str, Any]) -> list[str]:
    scored = f"{head['scored']:,} of {head['questions']:,}" if "scored" in head else f"{head['questions']:,}"
    return [f"# {title}", "", f"Command: `{head['command']}`  ", f"Machine: {head['machine']}  ",
            f"Date: {head['date']}; task `{head['task']}`: {head['tokens']:,} MiniLM tokens, {head['chunks']:,} "
            + (f"chunks in {_many(head['documents'], 'document')} (each question asked of its own), "
               if "documents" in head else "chunks, ")
            + f"{scored} questions scored; chunk + index {head['chunk_index_s']:.1f} s; "
            f"peak RSS {head.get('peak_rss_mb', _peak_rss_mb()):,.0f} MB.", ""]


def render_recall(out: Path, data: dict[str, Any]) -> list[Path]:
    """``out``.md, ``out``.json and ``out``-recall.png from the data of one recall run."""
    from assistant.eval.report import bar_plot, latency_table, recall_order, recall_table, write

    res = data["results"]
    systems = recall_order(res)
    # bm25 runs on every question; the exact scan only on those naming a key (it may miss a split: "-")
    split = ("dev", "test") if systems and {"dev", "test"} <= set(res[systems[0]]) else ("all",)
    ce = [s for s in systems if " + CE " in s]
    pick = "dev" if "dev" in split else "all"
    best = max(ce, key=lambda s: (res[s][pick]["R@3"], res[s][pick]["MRR"])) if ce else None
    data["best_ce"] = best
    md = _intro(f"Retrieval recall: {data['task']}", data)
    sizes = {sp: int(res[systems[0]][sp]["n"]) for sp in split} if systems else {}
    md += ["R@k = share of gold passages in the top k; all@3 = questions with every gold passage in the top 3; "
           "MRR of the best-ranked gold passage. " + ("Dev and test are seeded halves of the questions "
           f"({sizes.get('dev', 0)} and {sizes.get('test', 0)}); CE variants are chosen on dev."
           if "dev" in split else f"All {sizes.get('all', 0)} questions together."), ""]
    if min(sizes.values(), default=0) < 20:
        md += [f"**Too few questions per split ({min(sizes.values(), default=0)}) for differences to mean "
               "anything; use this run as a smoke test only.**", ""]
    ran = [LEGEND[s] for s in PLAIN if s in res] + ([LEGEND["CE"]] if ce else [])
    md += ["Systems: " + "; ".join(ran) + ".", ""]
    if data.get("one_off_s"):
        md += ["One-off costs: " + "; ".join(f"{k} {v:.1f} s" for k, v in data["one_off_s"].items()), ""]
    if best:
        base = best.split(" + CE ")[0]
        md += [f"Best CE variant on {pick}: **{best}** (R@3 {pick} {res[best][pick]['R@3']:.3f}"
               + (f", test {res[best]['test']['R@3']:.3f}" if "test" in res[best] else "") + f"); the same "
               f"pre-filter without CE (`{base}`): R@3 {pick} {res[base][pick]['R@3']:.3f}"
               + (f", test {res[base]['test']['R@3']:.3f}" if "test" in res[base] else "") + ". The paper's "
               "literal CE is `dense10 + CE alone mean L6`.", ""]
    md += recall_table(res, systems, split)
    lat = {s: res[s]["latency"] for s in systems if "latency" in res[s]}
    lat.update({k: v for k, v in data.get("stage_latency", {}).items() if k not in lat})
    notes = []
    if ce:
        notes.append("CE variants have no time of their own in the table above: all of them share one joint pass "
                     "per question and pre-filter (the `CE joint pass` row).")
    if "dense-everything" in res:
        notes.append("The pre-filter times exclude chunk embedding: dense-everything ran first and filled the "
                     "session's embedding cache.")
    notes.append("Cold retrieval times are in scale.md.")
    md += ["", "## Time per query (s)", "", " ".join(notes), ""] + latency_table(lat)
    paths = list(write(out, md, data))
    shown: list[str] = [s for s in PLAIN if s in res]
    for extra in ("dense10 + CE alone mean L6", best):
        if extra and extra in res and extra not in shown:
            shown.append(extra)
    key = "test" if "test" in split else "all"
    png = bar_plot(out.parent / f"{out.name}-recall.png",
                   f"{data['task']}: recall on the {key} questions (n = {sizes.get(key, 0)})",
                   {s: {m: res[s][key][m] for m in ("R@1", "R@3", "R@10")} for s in shown}, "recall")
    return paths + ([png] if png else [])


def _write_answers(out: Path, head: dict[str, Any], outcomes: Any, args: argparse.Namespace, task: Task,
                   questions: list[Question]) -> list[Path]:
    summary: dict[str, dict[str, Any]]
    import dataclasses

    from assistant.eval.answers import full_pipeline_name, summarize_answers
    from assistant.eval.report import answers_table, bar_plot, latency_table, write

    summary = summarize_answers(outcomes)
    n = len(next(iter(outcomes.values())))
    md = _intro(f"Answer accuracy: {head['task']}", head)
    which = f"the first {n} of the seeded {args.half} half (seed {args.seed})" if head.get("split", True) else \
        f"all {n} questions of the task"
    md += [f"{n} questions: {which}. Bundled Qwen2.5-Coder-1.5B Q4_K_M, temperature 0. EM / token F1 / gold "
           "contained are SQuAD-normalised; a NOT FOUND reply scores 0. LLM calls already made by an earlier "
           f"system replay their reply and recorded seconds ({head['replayed_llm_calls']} replayed).", ""]
    if head.get("base"):
        md += [f"Every pipeline system here runs with **{head['base']}** (`--set`), the full pipeline too.", ""]
    if head.get("split", True):
        sizes = "; ".join(f"{h}: {_many(v['documents'], 'document')}, {_many(v['questions'], 'question')}"
                          for h, v in head.get("halves", {}).items())
        md += [HALVES[args.half] + (f" The task's halves: {sizes}." if sizes else ""), ""]
    right: dict[str, list[bool]] = {}
    judged: dict[str, dict[str, Any]] = {}
    if task.judge is not None:
        from assistant.eval.judged import judged_tables, summarize_judged, verdicts

        right = verdicts(questions, outcomes, task.judge)
        judged = summarize_judged(questions, right, seed=args.seed)
        md += ["## Accepted as a lawyer would", "", JUDGED, ""] + judged_tables(judged) + \
            ["", "## Every figure", ""]
    if args.vary and full_pipeline_name() in outcomes:
        from assistant.eval.ablation import ablation_table

        md += ["## Ablation: each change against the full pipeline", ""]
        md += ablation_table(full_pipeline_name(), outcomes, right or None, seed=args.seed) + [""]
    md += [ANSWER_COLUMNS, ""]
    md += answers_table(summary)
    full = summary.get(full_pipeline_name())
    if full and full["stages"]:
        md += ["", "## Full pipeline: time per stage (s, measured; no replays)", ""]
        md += latency_table({**full["stages"], "retrieval (pre-filter + CE)": full["retrieval_s"],
                             "LLM (all calls)": full["llm_s"], "end to end": full["total_s"]})
        md += ["", "Routes taken: " + ", ".join(f"{k} {v}" for k, v in full["routes"].items())]
    md += _replies(outcomes, questions, right)
    asked = [{"id": q.id, "half": q.half or args.half, "kind": q.kind, "source": q.source, "stated": bool(q.answers)}
             for q in questions]
    data = {**head, "peak_rss_mb": _peak_rss_mb(), "summary": summary, "judged": judged, "verdicts": right,
            "asked": asked,
            "outcomes": {k: [dataclasses.asdict(o) for o in v] for k, v in outcomes.items()}}
    paths = list(write(out, md, data))
    png = bar_plot(out.parent / f"{out.name}-accuracy.png", f"{head['task']}: answer accuracy ({n} questions)",
                   {k: {m: v[m] or 0.0 for m in ("EM", "F1", "contained")} |
                    ({"accepted": judged[k]["all"]["accuracy"]} if judged else {}) for k, v in summary.items()},
                   "score")
    return paths + ([png] if png else [])


def _replies(outcomes: Any, questions: list[Question], right: dict[str, list[bool]]) -> list[str]:
    """The replies table: ✓ marks a reply the task's judge accepts (else one holding a gold answer); a
    judged task says whether the document states the answer (the labels themselves stay out of results)."""
    md = ["", "## Replies", "", "| question | " + ("answer in the document | " if right else "") +
          " | ".join(outcomes) + " |", "|---" * (1 + bool(right) + len(outcomes)) + "|"]
    for i, q in enumerate(questions):
        row = [q.id] + (["stated" if q.answers else "absent"] if right else [])
        row += [o[i].reply.replace("|", "/").replace("\n", " ")[:60]
                + (" ✓" if (right[name][i] if right else o[i].contained) else "") for name, o in outcomes.items()]
        md.append("| " + " | ".join(row) + " |")
    return md
