"""Two contracts open, one question about both: answered once from the passages of both, or for each contract
apart (``PipelineOptions.each_contract``). Pairs of a CUAD half's contracts whose lawyers labelled different
governing laws, each pair asked "Which law governs this agreement?" in the wordings of ``benchmarks/wordings.json``,
both settings side by side on the same reader and context. A contract counts right when the text shown for it
states its law (the cuad task's judge): for one answer, the whole answer; for answers per contract, its own block.

    .venv/bin/python benchmarks/each_contract.py [--half dev] [--pairs 6] [--wordings benchmark,plain]
        [--cache FILE.jsonl] [--out results/each-contract-dev]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loss_table import CachedGenerator  # noqa: E402

import assistant.models  # noqa: E402,F401  (offline environment before transformers loads)
from assistant.config import PipelineOptions, Settings  # noqa: E402
from assistant.eval.cuad import Item, load_items, read_pdf  # noqa: E402
from assistant.eval.metrics import bootstrap_interval  # noqa: E402
from assistant.ttrag import pipeline  # noqa: E402
from assistant.ttrag.compute.summarize.oneline import lead_line  # noqa: E402
from assistant.ttrag.context import build_context  # noqa: E402

HERE = Path(__file__).resolve().parent
KIND = "Governing Law"


def pairs_of(items: list[Item], n: int) -> list[tuple[Item, Item]]:
    """``n`` pairs of contracts, in the items' own (seeded) order, each pair two different labelled laws."""
    out: list[tuple[Item, Item]] = []
    pending: Item | None = None
    for item in items:
        if pending is None:
            pending = item
        elif item.label.lower() != pending.label.lower():
            out.append((pending, item))
            pending = None
        if len(out) == n:
            break
    return out


def judged(items: tuple[Item, Item], answer: object, each: bool, docs: list[object]) -> list[str]:
    """right / wrong / not said, for each contract of the pair, on the text shown for it."""
    text, found = answer.text, answer.found  # type: ignore[attr-defined]
    out = []
    for item, doc in zip(items, docs, strict=True):
        if each:
            head = f"{lead_line(doc)}:\n"  # type: ignore[arg-type]
            block = text.split(head, 1)[1].split("\n\n", 1)[0] if head in text else ""
            said = bool(block) and not block.startswith("Not found")
            out.append("right" if said and item.accepts(block, True) else "wrong" if said else "not said")
        else:
            right = found and item.accepts(text, True)
            other = next(o for o in items if o is not item)
            out.append("right" if right else "not said" if not found or other.accepts(text, True) else "wrong")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--wordings", type=lambda s: s.split(","), default=["benchmark", "plain"])
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    t_start = time.perf_counter()
    table = json.loads((HERE / "wordings.json").read_text(encoding="utf-8"))
    own = table.get("cuad", {}).get(KIND, {})
    items = [i for i in load_items(args.data) if i.kind.name == KIND and i.present and i.question.half == args.half]
    from assistant.service import ModelStore

    store = ModelStore(Settings())
    generator = store.generator()
    if args.cache is not None:
        generator = CachedGenerator(generator, args.cache)
    models = pipeline.Models(generator, store.embedder(), store.encoder())
    rows = []
    for a, b in pairs_of(items, args.pairs):
        docs = [read_pdf(args.data / "cuad" / "pdf" / i.contract) for i in (a, b)]
        ctx = build_context(docs, store.tokenizer())
        for wording in args.wordings:
            question = a.question.text if wording == "benchmark" else own[wording]
            row: dict[str, object] = {"pair": [a.contract, b.contract], "labels": [a.label, b.label],
                                      "wording": wording, "question": question}
            for each in (False, True):
                t0 = time.perf_counter()
                answer = pipeline.ask(ctx, question, models, PipelineOptions(each_contract=each))
                key = "each" if each else "one"
                row[key] = {"text": answer.text, "found": answer.found, "seconds": round(time.perf_counter() - t0, 1),
                            "verdicts": judged((a, b), answer, each, docs), "llm_calls": len(answer.usage),
                            "prompt_tokens": sum(u.prompt_tokens for u in answer.usage),
                            "model_s": round(sum(u.total_s for u in answer.usage), 1)}
            rows.append(row)
            print(wording, a.label, "|", b.label, "| one:", row["one"]["verdicts"], "each:",  # type: ignore[index]
                  row["each"]["verdicts"], flush=True)  # type: ignore[index]
    out = args.out or HERE / "results" / f"each-contract-{args.half}"
    out.with_suffix(".jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    md = [f"# Two contracts open, one question: one answer, or one for each contract (CUAD {args.half} half)", "",
          f"Command: `.venv/bin/python benchmarks/each_contract.py --half {args.half} --pairs {args.pairs} "
          f"--wordings {','.join(args.wordings)}`  ",
          f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; bundled 1.5B "
          f"reader; run {time.perf_counter() - t_start:.0f} s (replies replayed from a cache where asked before, "
          f"so the cost is given in model calls and prompt tokens, not seconds). "
          f"Settings chosen on: the dev half.  ",
          "Pairs of contracts with different governing laws labelled by the lawyers, both in one context; each "
          "contract judged on the text shown for it (the whole answer when one answer is given). Intervals: 95% "
          "bootstrap over contracts.", "",
          "| wording | contracts | one answer: right / wrong / not said | each contract: right / wrong / not said | "
          "right share, one -> each | model calls an ask, one / each | prompt tokens an ask, one / each | "
          "model seconds an ask (as the calls were timed when made), one / each |", "|---|---|---|---|---|---|---|---|"]
    for wording in [*args.wordings, "all"]:
        picked = [r for r in rows if wording == "all" or r["wording"] == wording]
        if not picked:
            continue
        counts = {}
        for key in ("one", "each"):
            verdicts = [v for r in picked for v in r[key]["verdicts"]]  # type: ignore[index]
            counts[key] = (verdicts.count("right"), verdicts.count("wrong"), verdicts.count("not said"),
                           bootstrap_interval([v == "right" for v in verdicts]))
        calls = {k: sum(r[k]["llm_calls"] for r in picked) / len(picked) for k in ("one", "each")}  # type: ignore[index]
        tokens = {k: sum(r[k]["prompt_tokens"] for r in picked) / len(picked) for k in ("one", "each")}  # type: ignore[index]
        model_s = {k: sum(r[k]["model_s"] for r in picked) / len(picked) for k in ("one", "each")}  # type: ignore[index]
        n = 2 * len(picked)
        one, each = counts["one"], counts["each"]
        md.append(f"| {wording} | {n} | {one[0]} / {one[1]} / {one[2]} | {each[0]} / {each[1]} / {each[2]} | "
                  f"{one[0] / n:.2f} {fmt(one[3])} -> {each[0] / n:.2f} {fmt(each[3])} | "
                  f"{calls['one']:.1f} / {calls['each']:.1f} | {tokens['one']:.0f} / {tokens['each']:.0f} | "
                  f"{model_s['one']:.1f} / {model_s['each']:.1f} |")
    md += ["", "| pair (labels) | wording | one answer | verdicts | each contract | verdicts |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        md.append(f"| {r['labels'][0]} / {r['labels'][1]} | {r['wording']} | "  # type: ignore[index]
                  f"{cell(r['one']['text'])} | {', '.join(r['one']['verdicts'])} | "  # type: ignore[index]
                  f"{cell(r['each']['text'])} | {', '.join(r['each']['verdicts'])} |")  # type: ignore[index]
    out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


def fmt(interval: tuple[float, float]) -> str:
    return f"[{interval[0]:.2f}, {interval[1]:.2f}]"


def cell(text: str) -> str:
    return " ".join(text.replace("|", "/").split())[:300]


if __name__ == "__main__":
    main()
