"""Where each dev question's answer is lost, stage by stage, in several wordings, beside a plain RAG.

For every question of each family's dev half (CUAD, HotpotQA and its unanswerable set, NQ, the sample
contract), asked in each wording of ``benchmarks/wordings.json`` (the benchmark's own, a plain person's, a
terse one, and German for the first few), two systems read with the same bundled reader, side by side:

- **plain RAG**: the same chunks and pre-filter, its top 3 pasted into one plain prompt ("answer in one
  sentence using only the passages; if they do not contain the answer, reply exactly: NOT FOUND"); no
  re-rank, no rewrite, no checks.
- **the product**: :func:`assistant.ttrag.pipeline.ask` with the shipped settings, its trace kept.

Each product ask is put in the first row that holds it (answerable questions): the answer shown is right;
the reader's raw reply was right in some read but the answer shown is not (a check rejected it: which);
the gold passage was not in the pre-filter's short list; not among the passages read; read only in part (a
chunk boundary cut it) and no reply right; read whole and the reader wrong. Each loss is split into
"said not found" and "stated wrong". Questions with no answer (HotpotQA without its gold paragraphs, CUAD
clauses the lawyers found absent) count "said so" (by the reader itself or by a check, which) and
"invented". Both systems are judged on the text a person reads (the product's sentence, the plain RAG's
reply) by the family's own rule: the cuad task's lawyer's judge, the sample contract's key match, gold
contained for HotpotQA and NQ; a HotpotQA question offering two options ("Which genus has more species, Lavatera
or Oplismenus?") by the option the text names first (since round four's session 22: "There are 25 species of
Lavatera, while there are 100 species of Oplismenus" contains the gold and answers Lavatera; tables run before
stand as run).

Every read of the product is also written with its :class:`assistant.ttrag.decision.Signals` and whether its
raw reply was right, for ``benchmarks/fit_decision.py``. LLM replies are cached by request in ``--cache``
(temperature 0: a request made before gives the same reply), so a re-run after a change re-reads only what
the change touched; seconds of replayed calls are the recorded ones.

``--half test`` asks the test half's questions instead (read once per round, for the report; nothing is chosen
on it). ``--against NAME=VALUE`` asks each question a second time, right after the first, with that setting changed
(rows in ``OUT-against.jsonl``; ``benchmarks/loss_pairs.py`` pairs the two), so a change is judged on the same
asks in one run; ``--kinds`` keeps the CUAD questions of some clause kinds only.

Usage:
    .venv/bin/python benchmarks/loss_table.py --n 6 --out benchmarks/results/loss-dev-before
    .venv/bin/python benchmarks/loss_table.py --families cuad --n-cuad 91 --kinds "Parties,Agreement Date" \
        --set opening_chars=0 --against opening_chars=700 --out benchmarks/results/loss-dev-opening-kinds
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import assistant.models  # noqa: E402,F401  (offline environment before transformers loads)
from assistant.config import PipelineOptions, Settings  # noqa: E402
from assistant.eval.hotpot import Question  # noqa: E402
from assistant.eval.metrics import bootstrap_interval, choice_right, contains, key_match  # noqa: E402
from assistant.eval.recall import scored_questions  # noqa: E402
from assistant.eval.tasks import TASKS, Task  # noqa: E402
from assistant.models.base import GenerationRequest, Generator  # noqa: E402
from assistant.records import Chunk, Usage  # noqa: E402
from assistant.ttrag import decision, pipeline  # noqa: E402
from assistant.ttrag.context import Context, build_context  # noqa: E402
from assistant.ttrag.generate import parse_reply, strip_markers  # noqa: E402
from assistant.ttrag.prefilter import prefilter  # noqa: E402
from assistant.ttrag.prompts import SYSTEM, fence  # noqa: E402
from assistant.ttrag.qtype import question_type  # noqa: E402

FAMILIES = ("cuad", "hotpot", "hotpot-unanswerable", "nq", "contract")
WORDINGS = ("benchmark", "plain", "terse", "de")
WORDING_FILE = Path(__file__).with_name("wordings.json")
PLAIN_PROMPT = ("{passages}\nTask: answer the question in one sentence using only the passages; if they do not "
                "contain the answer, reply exactly: NOT FOUND\nQuestion: {question}")


class CachedGenerator(Generator):
    """Wraps a generator; a request made before (in this run or a saved one) replays its reply, its usage and
    the reader's probabilities. ``path`` holds the cache as JSON lines, appended as requests are made."""

    def __init__(self, inner: Generator, path: Path) -> None:
        super().__init__()
        self.inner = inner
        self.path = path
        self.seen: dict[str, dict[str, Any]] = {}
        self.replayed = 0
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    self.seen[row["key"]] = row

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    @property
    def context_window(self) -> int:
        return self.inner.context_window

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        key = json.dumps([request.system, request.user, request.max_tokens, request.json_schema], sort_keys=True)
        self.boolean_probs, self.yes_probs = [], []
        if key in self.seen:
            row = self.seen[key]
            self.replayed += 1
            self.boolean_probs, self.yes_probs = list(row["probs"]), list(row["yes"])
            yield from row["pieces"]
            self.usage.append(dataclasses.replace(Usage(**row["usage"]), purpose=request.purpose))
            return
        pieces: list[str] = []
        start = len(self.inner.usage)
        for piece in self.inner.stream(request):
            pieces.append(piece)
            self.take_probs(self.inner)
            yield piece
        self.take_probs(self.inner)
        usage = self.inner.usage[start] if len(self.inner.usage) > start else Usage(request.purpose, 0, 0, 0, 0)
        row = {"key": key, "pieces": pieces, "probs": list(self.boolean_probs), "yes": list(self.yes_probs),
               "usage": dataclasses.asdict(usage)}
        self.seen[key] = row
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
        self.usage.append(usage)


# --- judging: the family's own rule, on the text a person reads --------------------------------------------

def judge_for(task: Task, family: str) -> Callable[[Question, str, bool], bool]:
    """``judge(q, text, found)``: right or not, by the family's rule (see the module docstring)."""
    if task.judge is not None:
        return task.judge
    if family == "hotpot-unanswerable":
        return lambda q, text, found: not found
    if family == "contract":
        return lambda q, text, found: found and bool(key_match(text, q.answers))

    def judge(q: Question, text: str, found: bool) -> bool:
        qtype = question_type(q.text)
        if qtype.kind == "choice":  # the option named first ("25 species of Lavatera, while ... 100 of Oplismenus")
            return found and bool(choice_right(text, qtype.options, q.answers))
        return found and bool(contains(text, q.answers))

    return judge


# --- where the gold stands among the chunks ------------------------------------------------------------------

def gold_cover(chunks: Sequence[Chunk], spans: Sequence[tuple[int, int]]) -> float:
    """The largest share of one gold span that the union of ``chunks`` covers (0 when none overlaps)."""
    best = 0.0
    for s, e in spans:
        if e <= s:
            continue
        covered = 0
        for lo, hi in _union([(c.start, c.end) for c in chunks]):
            covered += max(0, min(hi, e) - max(lo, s))
        best = max(best, covered / (e - s))
    return best


def _union(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1] + 2:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


# --- one question, one wording ---------------------------------------------------------------------------------

def plain_rag(ctx: Context, question: str, models: pipeline.Models, opts: PipelineOptions) -> dict[str, Any]:
    """The plain RAG row: the pre-filter's top 3 in one plain prompt, the reply as it comes."""
    t0 = time.perf_counter()
    hits = prefilter(ctx, question, models.embedder, shortlist=opts.shortlist, fusion=opts.fusion,
                     top_k=opts.prefilter_top_k)
    chunks = [h.chunk for h in hits[:opts.ce_top_k]]
    gen = models.generator
    start = len(gen.usage)
    reply = gen.complete(GenerationRequest(SYSTEM, PLAIN_PROMPT.format(passages=fence(chunks), question=question),
                                           max_tokens=96, purpose="plain_rag")).strip()
    used = gen.usage[start:]
    found = bool(reply) and "NOT FOUND" not in reply.upper()
    return {"text": reply, "found": found, "seconds": time.perf_counter() - t0 if not used else
            sum(u.total_s for u in used) + 0.0, "prompt_tokens": sum(u.prompt_tokens for u in used),
            "chunks": [c.id for c in chunks]}


def product(ctx: Context, question: str, models: pipeline.Models, opts: PipelineOptions,
            judge: Callable[[str, bool], bool], spans: Sequence[tuple[int, int]]) -> tuple[dict[str, Any], list[dict]]:
    """The product's ask: its answer, where it stands in the loss table, and one record per read."""
    gen = models.generator
    start = len(gen.usage)
    t0 = time.perf_counter()
    ans = pipeline.ask(ctx, question, models, opts)
    wall = time.perf_counter() - t0
    used = gen.usage[start:]
    by_id = {c.id: c for c in ctx.chunks}
    candidates: list[Chunk] = []
    reads: list[dict[str, Any]] = []
    read_chunks: list[list[Chunk]] = []
    last: list[Chunk] = []
    for step in ans.trace:
        d: dict[str, Any] = dict(step)
        if d["stage"] == "prefilter" and not candidates:
            candidates = [by_id[int(h["chunk"])] for h in d["hits"]]
        elif d["stage"] == "conditional":
            last = [by_id[int(h["chunk"])] for h in d["hits"]]
        elif d["stage"] == "needle_lookup":
            last = [by_id[s.chunk_id] for s in ans.sources]
        elif d["stage"] == "answer" and "(same passages" not in str(d.get("reply", "")):
            fields = parse_reply(str(d.get("reply", "")))
            raw_short = str(fields.get("short_answer") or "").strip()
            raw_found = fields.get("found") is not False and bool(raw_short)
            raw_text = strip_markers(str(fields.get("answer") or "")) or raw_short
            cited = fields.get("passage")
            qtype = question_type(question)
            sig = decision.signals(question, qtype, raw_short, cited if isinstance(cited, int) else None, last,
                                   found_p=d.get("found_p"), yes_p=d.get("yes_p"),
                                   read_before=[c for r in read_chunks for c in r if c not in last])
            reads.append({"attempt": d.get("attempt"), "raw_found": raw_found, "raw_short": raw_short,
                          "raw_text": raw_text, "raw_right": judge(raw_text, raw_found),
                          "raw_short_right": judge(raw_short, raw_found), "shown": bool(d.get("found")),
                          "reason": d.get("reason", ""), "found_p": d.get("found_p"), "yes_p": d.get("yes_p"),
                          "signals": dataclasses.asdict(sig), "chunks": [c.id for c in last],
                          "cover": gold_cover(last, spans)})
            read_chunks.append(list(last))
    text = strip_markers(ans.text) if ans.found else ""
    right = judge(text, ans.found)
    seen = [c for r in read_chunks for c in r]
    out = {"text": text, "found": ans.found, "right": right, "route": ans.route, "short": ans.short_answer,
           "seconds": wall, "first_token_s": ans.timings.get("first_token"),
           "llm_calls": len(used), "prompt_tokens": sum(u.prompt_tokens for u in used),
           "read_prompt_tokens": [u.prompt_tokens for u in used if u.purpose.startswith("answer")],
           "in_candidates": gold_cover(candidates, spans) > 0, "read_cover": gold_cover(seen, spans),
           "rewrites": list(ans.rewrites)}
    return out, reads


def loss_row(answerable: bool, prod: dict[str, Any], reads: list[dict[str, Any]]) -> str:
    """The loss table row the product's ask falls in (see the module docstring)."""
    if not answerable:
        if prod["right"]:
            stopped = [r for r in reads if r["raw_found"] and not r["shown"]]
            return "said so: " + (f"check ({_reason(stopped[0]['reason'])})" if stopped else "by the reader")
        return "invented"
    if prod["right"]:
        return "right"
    how = "stated wrong" if prod["found"] else "said not found"
    rejected = [r for r in reads if r["raw_right"] and not r["shown"]]
    if rejected:
        return f"reader right, a check rejected it ({_reason(rejected[0]['reason'])})"
    if not prod["in_candidates"]:
        return f"gold not in the pre-filter's short list; {how}"
    if prod["read_cover"] <= 0:
        return f"gold not in the passages read; {how}"
    if prod["read_cover"] < 0.98:
        return f"gold read only in part (cut); {how}"
    return f"gold read whole, reader wrong; {how}"


def _reason(reason: str) -> str:
    """A rejection reason without its numbers ("the reader was unsure ... (P(found) 0.62 < 0.80)")."""
    return reason.split(" (")[0] or "?"


# --- the run ---------------------------------------------------------------------------------------------------

def wordings_of(family: str, q: Question, table: dict[str, Any], wanted: Sequence[str], de_first: int,
                index: int) -> dict[str, str]:
    """{wording: question text} for ``q``: the benchmark's own, and those ``wordings.json`` gives (CUAD by clause
    kind, the rest by question id); German only for the first ``de_first`` questions of a family."""
    out = {"benchmark": q.text}
    own = table.get(family.removesuffix("-unanswerable"), {}).get(q.kind if family == "cuad" else q.id, {})
    for w in wanted:
        if w == "benchmark" or w not in own:
            continue
        if w == "de" and index >= de_first:
            continue
        out[w] = own[w]
    return {w: t for w, t in out.items() if w in wanted}


def run(args: argparse.Namespace) -> None:
    from assistant.service import ModelStore

    out_jsonl = args.out.with_suffix(".jsonl")
    done: set[tuple[str, str, str]] = set()
    if out_jsonl.exists() and not args.fresh:
        for line in out_jsonl.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done.add((row["family"], row["id"], row["wording"]))
    elif out_jsonl.exists():
        out_jsonl.unlink()
    table = json.loads(WORDING_FILE.read_text(encoding="utf-8"))
    opts = PipelineOptions(**{k: _value(v) for k, v in (kv.split("=", 1) for kv in args.set)})
    other = dataclasses.replace(opts, **{k: _value(v) for k, v in (kv.split("=", 1) for kv in args.against)}) \
        if args.against else None
    other_jsonl = Path(f"{args.out}-against.jsonl")
    if args.fresh and other_jsonl.exists():
        other_jsonl.unlink()
    store = ModelStore(Settings(pipeline=opts))
    models = pipeline.Models(CachedGenerator(store.generator(), args.cache), store.embedder(), store.encoder())
    tokenizer = store.tokenizer()
    tasks = {family: TASKS[family](args.data) for family in args.families}
    samples = {family: [q for q in scored_questions(task, args.n_cuad if family == "cuad" else
                                                    args.n_of.get(family, args.n), args.seed, args.half)
                        if not args.kinds or q.kind in args.kinds] for family, task in tasks.items()}
    # families advance side by side, each in proportion to its sample, so a run cut short covers them all
    order = sorted(((i / len(sample), family, i) for family, sample in samples.items() for i in range(len(sample))))
    shared: dict[str, Context] = {}
    for _, family, i in order:
        task, q = tasks[family], samples[family][i]
        judge = judge_for(task, family)
        if task.read is not None:
            doc, q = task.read(q)
            if q.source not in shared:
                shared[q.source] = build_context([doc], tokenizer)
            ctx = shared[q.source]
        else:
            if family not in shared:
                shared[family] = build_context([task.haystack.document], tokenizer)
            ctx = shared[family]
        answerable = bool(q.answers)
        for wording, text in wordings_of(family, q, table, args.wordings, args.de_first, i).items():
            if (family, q.id, wording) in done:
                continue
            t0 = time.perf_counter()
            plain = plain_rag(ctx, text, models, opts)
            plain["right"] = judge(q, plain["text"], plain["found"])
            prod, reads = product(ctx, text, models, opts, lambda t, f, q=q, judge=judge: judge(q, t, f),
                                  q.gold_spans)
            row = {"family": family, "id": q.id, "kind": q.kind, "wording": wording, "question": text,
                   "answerable": answerable, "gold": list(q.answers)[:3], "plain": plain, "product": prod,
                   "reads": reads, "row": loss_row(answerable, prod, reads)}
            with out_jsonl.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
            if other is not None:  # the same ask under the other settings, right after: the two runs stay paired
                prod_b, reads_b = product(ctx, text, models, other, lambda t, f, q=q, judge=judge: judge(q, t, f),
                                          q.gold_spans)
                row_b = {**row, "product": prod_b, "reads": reads_b, "row": loss_row(answerable, prod_b, reads_b)}
                with other_jsonl.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row_b) + "\n")
            print(f"{family} {q.id[:40]:40} {wording:9} plain={'R' if plain['right'] else '-'} "
                  f"product={'R' if prod['right'] else '-'} {row['row'][:60]} ({time.perf_counter() - t0:.0f} s)",
                  file=sys.stderr, flush=True)
    render(args.out, args)


def _value(text: str) -> Any:
    """A ``--set`` value: JSON where it parses (numbers, true/false, lists), else the string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


# --- the tables ------------------------------------------------------------------------------------------------

def _share(values: Sequence[bool]) -> str:
    if not values:
        return "-"
    lo, hi = bootstrap_interval([float(v) for v in values])
    return f"{sum(values)}/{len(values)} = {sum(values) / len(values):.2f} [{lo:.2f}, {hi:.2f}]"


def render(out: Path, args: argparse.Namespace | None = None) -> None:
    rows = [json.loads(line) for line in out.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()]
    command = "python benchmarks/loss_table.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    half = args.half if args is not None else "dev"
    md = [f"# Loss table: where each answer is lost ({out.name})", "", f"Command: `{command}`", "",
          f"Half: **{half}** (every setting and rule is chosen on dev halves; the test halves are read once per "
          "round). "
          "Each question is asked in each wording; both systems read with the bundled 1.5B reader, side by side in "
          "one run. Right / wrong-stated shares with bootstrap 95% intervals. `benchmarks/loss_table.py`'s "
          "docstring says what each row means.", ""]
    families = list(dict.fromkeys(r["family"] for r in rows))
    wordings = [w for w in WORDINGS if any(r["wording"] == w for r in rows)]
    md += ["## Right answers and wrong facts stated, per family and wording", "",
           "| family | wording | n | plain RAG right | product right | plain RAG wrong stated | product wrong stated "
           "| product s/question |", "|---|---|---|---|---|---|---|---|"]
    for fam in families:
        for w in wordings:
            sel = [r for r in rows if r["family"] == fam and r["wording"] == w]
            if not sel:
                continue
            pw = [r["plain"]["found"] and not r["plain"]["right"] for r in sel]
            qw = [r["product"]["found"] and not r["product"]["right"] for r in sel]
            secs = sum(r["product"]["seconds"] for r in sel) / len(sel)
            md.append(f"| {fam} | {w} | {len(sel)} | {_share([r['plain']['right'] for r in sel])} | "
                      f"{_share([r['product']['right'] for r in sel])} | {sum(pw)} | {sum(qw)} | {secs:.1f} |")
    md += ["", "## Spread between wordings (product right, share)", "", "| family | " + " | ".join(wordings) +
           " | spread |", "|---|" + "---|" * (len(wordings) + 1)]
    for fam in families:
        shares = []
        for w in wordings:
            sel = [r["product"]["right"] for r in rows if r["family"] == fam and r["wording"] == w]
            shares.append(sum(sel) / len(sel) if sel else None)
        got = [s for s in shares if s is not None]
        md.append(f"| {fam} | " + " | ".join("-" if s is None else f"{s:.2f}" for s in shares) +
                  f" | {max(got) - min(got):.2f} |" if got else "")
    flips = Counter()
    for fam in families:
        for qid in {r["id"] for r in rows if r["family"] == fam}:
            outcomes = {r["product"]["right"] for r in rows if r["family"] == fam and r["id"] == qid}
            flips[fam] += len(outcomes) > 1
    md += ["", "Questions whose product outcome flips with the wording: " +
           ", ".join(f"{fam} {flips[fam]} of {len({r['id'] for r in rows if r['family'] == fam})}" for fam in families),
           ""]
    md += ["## The loss table (product), per family, all wordings", ""]
    for fam in families:
        sel = [r for r in rows if r["family"] == fam]
        counts = Counter(r["row"] for r in sel)
        md += [f"### {fam} ({len(sel)} asks)", "", "| row | " + " | ".join(wordings) + " | all |",
               "|---|" + "---|" * (len(wordings) + 1)]
        md.append("| plain RAG right (first row) | " + " | ".join(
            str(sum(r["plain"]["right"] for r in sel if r["wording"] == w)) for w in wordings) +
            f" | {sum(r['plain']['right'] for r in sel)} |")
        md.append("| plain RAG wrong stated | " + " | ".join(
            str(sum(r["plain"]["found"] and not r["plain"]["right"] for r in sel if r["wording"] == w))
            for w in wordings) + f" | {sum(r['plain']['found'] and not r['plain']['right'] for r in sel)} |")
        for name, _ in counts.most_common():
            md.append(f"| {name} | " + " | ".join(str(sum(r["row"] == name for r in sel if r["wording"] == w))
                                                  for w in wordings) + f" | {counts[name]} |")
        md.append("")
    toks = [t for r in rows for t in r["product"]["read_prompt_tokens"]]
    firsts = sorted(r["product"]["first_token_s"] for r in rows if r["product"]["first_token_s"])
    md += [f"Prompt tokens per answer read: mean {sum(toks) / max(len(toks), 1):.0f} over {len(toks)} reads; "
           f"first token p50 {firsts[len(firsts) // 2] if firsts else float('nan'):.1f} s (replayed reads count their "
           "recorded seconds).", ""]
    md += ["## Every ask", "", "| family | id | wording | question | plain RAG | product | row |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append(f"| {r['family']} | {r['id'][:28]} | {r['wording']} | {_cell(r['question'])} | "
                  f"{'R' if r['plain']['right'] else '-'} {_cell(r['plain']['text'])} | "
                  f"{'R' if r['product']['right'] else '-'} {_cell(r['product']['text'] or 'not found')} | "
                  f"{r['row']} |")
    out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print(f"wrote {out.with_suffix('.md')}", file=sys.stderr)


def _cell(text: str, n: int = 90) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= n else text[:n - 1] + "…"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--families", type=lambda s: s.split(","), default=list(FAMILIES))
    ap.add_argument("--wordings", type=lambda s: s.split(","), default=list(WORDINGS))
    ap.add_argument("-n", "--n", type=int, default=6, help="questions per family (the first of the dev half)")
    ap.add_argument("--n-cuad", type=int, default=13, help="CUAD questions (13: one of each clause kind)")
    ap.add_argument("--n-of", type=lambda s: {k: int(v) for k, v in (kv.split("=") for kv in s.split(","))},
                    default={}, help="questions of named families, e.g. nq=3,hotpot-unanswerable=3")
    ap.add_argument("--de-first", type=int, default=2, help="questions of each family also asked in German")
    ap.add_argument("--kinds", type=lambda s: s.split(","), default=[],
                    help="only CUAD questions of these clause kinds, e.g. 'Parties,Agreement Date'")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--half", choices=("dev", "test"), default="dev",
                    help="the half asked: dev (every choice is made there) or test (read once a round, for the report)")
    ap.add_argument("--set", action="append", default=[], help="a pipeline option for the product, NAME=VALUE")
    ap.add_argument("--against", action="append", default=[],
                    help="a pipeline option, NAME=VALUE, the product is also asked with, right after each ask "
                         "(rows in OUT-against.jsonl; render them with --render --out OUT-against)")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/loss-table-llm-cache.jsonl"))
    ap.add_argument("--fresh", action="store_true", help="start the results anew (else resume)")
    ap.add_argument("--render", action="store_true", help="only write the tables from the saved rows")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/loss-dev"))
    args = ap.parse_args()
    if args.render:
        render(args.out, args)
    else:
        run(args)


if __name__ == "__main__":
    main()
