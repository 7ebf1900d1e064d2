"""Comparison questions ("Who was born first, A or B?"): the product with and without the comparison method.

Every HotpotQA question of the chosen half that :func:`assistant.ttrag.compute.comparison.parse` takes for a
comparison by a date or a count is asked against the whole HotpotQA haystack (all 500 questions' paragraphs),
in each wording ``benchmarks/wordings.json`` gives it (the benchmark's own always), three ways side by side:
the plain RAG of ``loss_table.py`` (pre-filter top 3, one plain prompt), the product as shipped, and the product
with the comparison method off (``answer_rules_off=["comparison"]``: the reader chooses).

Judged on the option: the gold answer names one of the two options (the one sharing more of its words;
HotpotQA writes "Ulf Dietrich Merbold" for the question's "Ulf Merbold"), and a reply is right when its short
answer, else its text, names that option first (:func:`assistant.eval.metrics.choice_right`: "There are 25
species of Lavatera, while there are 100 species of Oplismenus" answers Lavatera); a question whose gold answer
names neither option is skipped. ``--family hotpot-unanswerable`` asks the same questions of the haystack
without their gold paragraphs: there "not found" is right and any answer is wrong. ``contains`` (gold contained,
the loss table's rule for HotpotQA before this script) is reported beside it. LLM replies are cached by request in
``--cache`` as in ``loss_table.py``.

``--method-only`` asks every question with a reader that never answers: what is stated then is the comparison
method's alone (decided, and right among decided, on both families; no LLM, about two minutes).

Usage:
    .venv/bin/python benchmarks/comparisons.py --half dev --cache /tmp/cmp-cache.jsonl \
        --out benchmarks/results/comparisons-dev
    .venv/bin/python benchmarks/comparisons.py --half dev --method-only
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loss_table import WORDING_FILE, CachedGenerator, _share, plain_rag  # noqa: E402

import assistant.models  # noqa: E402,F401  (offline environment before transformers loads)
from assistant.config import PipelineOptions, Settings  # noqa: E402
from assistant.eval.metrics import bootstrap_interval, choice_right, contains, gold_option  # noqa: E402
from assistant.eval.recall import scored_questions  # noqa: E402
from assistant.eval.tasks import TASKS  # noqa: E402
from assistant.models.base import GenerationRequest, Generator  # noqa: E402
from assistant.ttrag import pipeline  # noqa: E402
from assistant.ttrag.compute import comparison  # noqa: E402
from assistant.ttrag.context import build_context  # noqa: E402
from assistant.ttrag.generate import strip_markers  # noqa: E402

SYSTEMS = ("plain RAG", "product", "product, comparison off")
NOT_FOUND_REPLY = json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})


class AbstainingReader(Generator):
    """A reader that never answers (``--method-only``): what the product then states is the comparison method's
    alone, with no model loaded."""

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        self._record(request.purpose, 0, 0, time.perf_counter(), None)
        yield NOT_FOUND_REPLY


def method_only(args: argparse.Namespace) -> None:
    """Each question and wording asked with the abstaining reader: asks decided, and right among them (on
    ``hotpot-unanswerable`` every decision is wrong). Prints one line per family."""
    from assistant.service import ModelStore

    table = json.loads(WORDING_FILE.read_text(encoding="utf-8")).get("hotpot", {})
    store = ModelStore(Settings())
    models = pipeline.Models(AbstainingReader(), store.embedder(), store.encoder())
    for family in ("hotpot", "hotpot-unanswerable"):
        task = TASKS[family](args.data)
        ctx = build_context([task.haystack.document], store.tokenizer())
        asks = decided = right_ = 0
        for q in scored_questions(task, 1000, args.seed, args.half):
            parsed = comparison.parse(q.text)
            if parsed is None or (family == "hotpot" and not gold_option(parsed.options, q.answers)):
                continue
            for wording, text in wordings_of(q, table, args.wordings).items():
                ans = pipeline.ask(ctx, text, models, PipelineOptions())
                asks += 1
                decided += ans.found
                right_ += ans.found and family == "hotpot" and bool(choice_right(ans.short_answer, parsed.options,
                                                                                   q.answers))
                if ans.found:
                    print(f"  {family} {wording}: {text} -> {strip_markers(ans.text)}", file=sys.stderr)
        print(f"{args.half} {family}: {asks} asks, {decided} decided by the values, {right_} of them right")



def right(row: dict[str, Any], system: str, options: Sequence[str]) -> bool:
    """The system's reply is right: its short answer, else its text, names the gold option first
    (:func:`assistant.eval.metrics.choice_right`)."""
    said = row[system]
    if row.get("unanswerable"):  # the gold paragraphs are not in the haystack: "not found" is right
        return not said["found"]
    return said["found"] and bool(choice_right(said.get("short") or said["text"], options, row["gold"]))


def options_of(rows: Sequence[dict[str, Any]]) -> dict[str, tuple[str, ...]]:
    """Each question's two options, as its benchmark wording writes them (kept in each row since a run of one
    other wording: the German asks have no benchmark row to parse)."""
    out: dict[str, tuple[str, ...]] = {}
    for r in rows:
        parsed = comparison.parse(r["question"]) if r["wording"] == "benchmark" else None
        if parsed is not None:
            out[r["id"]] = parsed.options
        elif r.get("options"):
            out.setdefault(r["id"], tuple(r["options"]))
    return out


def wordings_of(q: Any, table: dict[str, Any], wanted: Sequence[str]) -> dict[str, str]:
    """{wording: text} of ``q`` among ``wanted``: the benchmark's own and those ``wordings.json`` gives it."""
    return {w: t for w, t in {"benchmark": q.text, **table.get(q.id, {})}.items() if w in wanted}


def run(args: argparse.Namespace) -> None:
    from assistant.service import ModelStore

    out_jsonl = args.out.with_suffix(".jsonl")
    if out_jsonl.exists():
        out_jsonl.unlink()
    table = json.loads(WORDING_FILE.read_text(encoding="utf-8")).get("hotpot", {})
    opts = PipelineOptions()
    off = PipelineOptions(answer_rules_off=("comparison",))
    store = ModelStore(Settings(pipeline=opts))
    models = pipeline.Models(CachedGenerator(store.generator(), args.cache), store.embedder(), store.encoder())
    task = TASKS[args.family](args.data)
    unanswerable = args.family == "hotpot-unanswerable"
    asked = [q for q in scored_questions(task, 1000, args.seed, args.half) if comparison.parse(q.text)][:args.n]
    ctx = build_context([task.haystack.document], store.tokenizer())
    for q in asked:
        options = comparison.parse(q.text).options  # type: ignore[union-attr]
        if not unanswerable and not gold_option(options, q.answers):
            print(f"{q.id[:24]} skipped: the gold answer names neither option ({q.answers[0][:60]})", file=sys.stderr)
            continue
        for wording, text in wordings_of(q, table, args.wordings).items():
            row: dict[str, Any] = {"id": q.id, "wording": wording, "question": text, "gold": list(q.answers[:1]),
                                   "unanswerable": unanswerable,
                                   "gold_option": gold_option(options, q.answers), "options": list(options),
                                   "parsed": comparison.parse(text) is not None}
            t0 = time.perf_counter()
            plain = plain_rag(ctx, text, models, opts)
            row["plain RAG"] = {**plain, "short": "", "contains": plain["found"] and bool(contains(plain["text"],
                                                                                                   q.answers))}
            for name, o in (("product", opts), ("product, comparison off", off)):
                start = len(models.generator.usage)
                t1 = time.perf_counter()
                ans = pipeline.ask(ctx, text, models, o)
                used = models.generator.usage[start:]
                shown = strip_markers(ans.text) if ans.found else ""
                decided = any(s.get("stage") == "comparison" and s.get("decided") for s in ans.trace)
                row[name] = {"text": shown, "found": ans.found, "short": ans.short_answer, "decided": decided,
                             "contains": ans.found and bool(contains(shown, q.answers)),
                             "seconds": sum(u.total_s for u in used) + (time.perf_counter() - t1 if not used else 0),
                             "llm_calls": len(used)}
            with out_jsonl.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
            print(f"{q.id[:24]} {wording:9} " + " ".join(f"{'R' if right(row, s, options) else '-'}"
                                                         for s in SYSTEMS) +
                  f" decided={row['product']['decided']} ({time.perf_counter() - t0:.0f} s) {text[:60]}",
                  file=sys.stderr, flush=True)
    render(args.out, args)


def render(out: Path, args: argparse.Namespace | None = None) -> None:
    rows = [json.loads(line) for line in out.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()]
    options = options_of(rows)
    for r in rows:
        for s in SYSTEMS:
            r[s]["right"] = right(r, s, options[r["id"]])
    without = " without their gold paragraphs (right = not found)" if rows and rows[0].get("unanswerable") else ""
    command = "python benchmarks/comparisons.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    md = out.with_suffix(".md")
    if args is None and md.exists():  # --render: the command that ran it stays
        command = next((line[10:-1] for line in md.read_text(encoding="utf-8").splitlines()
                        if line.startswith("Command: `")), command)
    lines = [f"# Comparison questions: the comparison method against the reader's choice ({out.name})", "",
             f"Command: `{command}`", "",
             "Half: **dev** (the half settings are chosen on). HotpotQA questions comparing two options by a date or "
             f"a count, asked of the whole HotpotQA haystack{without}; bundled 1.5B reader; the three systems side "
             "by side in one run. Right = the short answer, else the text, names the gold option first (the "
             "script's docstring); *contains* = gold contained. Intervals: bootstrap 95%.", ""]
    lines += ["| wording | n | system | right | contains | wrong stated | not found | s/question | LLM calls |",
              "|---|---|---|---|---|---|---|---|---|"]
    for wording in dict.fromkeys(r["wording"] for r in rows):
        sub = [r for r in rows if r["wording"] == wording]
        for s in SYSTEMS:
            rights = [r[s]["right"] for r in sub]
            wrong = sum(1 for r in sub if r[s]["found"] and not r[s]["right"])
            nf = sum(1 for r in sub if not r[s]["found"])
            secs = sum(r[s].get("seconds", 0.0) for r in sub) / len(sub)
            calls = sum(r[s].get("llm_calls", 1) for r in sub) / len(sub)
            lines.append(f"| {wording} | {len(sub)} | {s} | {_share(rights)} | "
                         f"{sum(r[s]['contains'] for r in sub)} | {wrong} | {nf} | {secs:.1f} | {calls:.1f} |")
    lines += ["", "## Paired: the product against the product with the comparison method off", "",
              "| wording | n | decided by the values | right among decided (off: same asks) | won | lost | "
              "change in right [95% CI] |", "|---|---|---|---|---|---|---|"]
    for wording in dict.fromkeys(r["wording"] for r in rows):
        sub = [r for r in rows if r["wording"] == wording]
        dec = [r for r in sub if r["product"]["decided"]]
        diffs = [float(r["product"]["right"]) - float(r["product, comparison off"]["right"]) for r in sub]
        lo, hi = bootstrap_interval(diffs)
        won = sum(1 for d in diffs if d > 0)
        lost = sum(1 for d in diffs if d < 0)
        lines.append(f"| {wording} | {len(sub)} | {len(dec)} | {sum(r['product']['right'] for r in dec)}/{len(dec)} "
                     f"({sum(r['product, comparison off']['right'] for r in dec)}/{len(dec)}) | {won} | {lost} | "
                     f"{sum(diffs) / len(diffs):+.3f} [{lo:+.2f}, {hi:+.2f}] |")
    lines += ["", "## Every ask", "", "| id | wording | question | gold option | plain RAG | product | "
              "comparison off |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        cells = [f"{'R' if r[s]['right'] else '-'} {_cell(r[s].get('short') or r[s]['text'] or 'not found')}"
                 for s in SYSTEMS]
        lines.append(f"| {r['id'][:12]} | {r['wording']} | {_cell(r['question'], 70)} | {r['gold_option']} | "
                     + " | ".join(cells) + " |")
    out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[:40]))


def _cell(text: str, n: int = 60) -> str:
    text = " ".join(text.split()).replace("|", "/")
    return text if len(text) <= n else text[:n - 1] + "…"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--half", default="dev", choices=("dev", "test"))
    parser.add_argument("--family", default="hotpot", choices=("hotpot", "hotpot-unanswerable"),
                        help="hotpot-unanswerable: the questions without their gold paragraphs (right = not found)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n", type=int, default=1000, help="comparison questions at most")
    parser.add_argument("--wordings", default="benchmark,plain,terse", type=lambda s: s.split(","))
    parser.add_argument("--cache", type=Path, default=Path("/tmp/comparisons-llm-cache.jsonl"))
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/comparisons-dev"))
    parser.add_argument("--render", action="store_true", help="re-write OUT.md from OUT.jsonl")
    parser.add_argument("--method-only", action="store_true",
                        help="the comparison method alone (a reader that never answers), both families, no LLM")
    args = parser.parse_args()
    if args.method_only:
        method_only(args)
        return
    if args.render:
        render(args.out)
        return
    run(args)


if __name__ == "__main__":
    main()
