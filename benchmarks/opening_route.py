"""Which questions read the document's opening (``assistant.ttrag.opening_route``), and what that does to answers.

Two parts, neither runs the reader:

1. **Routing per wording.** Every question of ``benchmarks/wordings.json`` that is asked of a contract (the CUAD
   clause kinds and the sample contract's questions, each in the benchmark's, the plain, the terse and, through
   the product's own translation when ``--translate`` is given, the German wording) is matched to the contract
   points; the table gives the closest point, its cosine, and whether the question is routed to the opening at
   each threshold of ``--thresholds``. The CUAD kinds whose clause stands in the opening (Parties, Agreement Date,
   Effective Date) should be routed; the rest should not (a question routed that need not be costs prompt tokens,
   about +200 a read, not answers: the opening read with every question of every kind changed 0 of 20 other
   CUAD asks, ``results/loss-dev-opening-mixed-pairs.md``).
2. **Replay of paired rows.** ``loss_table.py --set opening_chars=0 --against opening_chars=700`` rows, written
   when the opening was read with every question (rule (a) of ``results/loss-dev-opening-kinds-pairs.md``), give
   each ask's outcome with and without the opening. At temperature 0 a routed ask reads exactly what rule (a)
   read and an ask not routed exactly what opening 0 read, so the routed product's outcome is the one or the
   other row; this writes those rows (``OUT-routed.jsonl``) for ``loss_pairs.py``. Checked by asking routed
   questions again with the product as built (``loss_table.py --set opening_chars=700``): the same replies and
   prompt tokens (``results/loss-dev-opening-route-live.jsonl``).

Usage:
    .venv/bin/python benchmarks/opening_route.py --data ../shared/data --thresholds 0.4,0.5,0.6 \
        --out benchmarks/results/opening-route-dev
    .venv/bin/python benchmarks/opening_route.py --data ../shared/data --replay \
        benchmarks/results/loss-dev-opening-kinds.jsonl benchmarks/results/loss-dev-opening-kinds-700.jsonl \
        --out benchmarks/results/loss-dev-opening-route-kinds
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import assistant.models  # noqa: E402,F401  (offline environment before transformers loads)
from assistant.config import PipelineOptions, Settings  # noqa: E402
from assistant.eval.cuad import KINDS  # noqa: E402
from assistant.eval.recall import scored_questions  # noqa: E402
from assistant.eval.tasks import TASKS  # noqa: E402
from assistant.records import Document  # noqa: E402
from assistant.ttrag import opening_route  # noqa: E402
from assistant.ttrag.compute.summarize import points  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loss_table import WORDING_FILE  # noqa: E402

OPENING_KINDS = ("Parties", "Agreement Date", "Effective Date")  # CUAD kinds whose clause the opening states


def contract_questions(data: Path) -> tuple[list[tuple[str, str, str, str, bool]], Document, Document]:
    """[(family, id or kind, wording, text, should route)], a CUAD dev contract and the sample contract."""
    table = json.loads(WORDING_FILE.read_text(encoding="utf-8"))
    rows = []
    for kind in KINDS:
        for wording, text in {"benchmark": kind.question, **table["cuad"].get(kind.name, {})}.items():
            rows.append(("cuad", kind.name, wording, text, kind.name in OPENING_KINDS))
    sample = TASKS["contract"](data)
    for q in sample.haystack.questions:
        for wording, text in {"benchmark": q.text, **table["contract"].get(q.id, {})}.items():
            # the sample contract's own date question is one of the opening's; its other questions are not
            rows.append(("contract", q.id, wording, text, "signed" in q.text.lower() and "date" in q.text.lower()))
    cuad = TASKS["cuad"](data)
    first = scored_questions(cuad, 2, 0, "dev")[0]
    assert cuad.read is not None
    doc, _ = cuad.read(first)
    return rows, doc, sample.haystack.document


def routing_table(args: argparse.Namespace, embedder: Any, generator: Any) -> list[str]:
    rows, cuad_doc, sample_doc = contract_questions(args.data)
    thresholds = [float(t) for t in args.thresholds.split(",")]
    md = ["## Routing per wording", "",
          f"Document kinds: a CUAD dev contract is `{points.summary_kind(cuad_doc)}`, the sample contract "
          f"`{points.summary_kind(sample_doc)}`; the HotpotQA and NQ haystacks are "
          + ", ".join(f"`{points.summary_kind(TASKS[f](args.data).haystack.document)}`" for f in ("hotpot", "nq"))
          + " (a report's one opening point is its purpose: \"What does this report examine, and why?\").", "",
          "| family | kind / id | wording | question | closest point | cosine | should route | "
          + " | ".join(f"routed at {t}" for t in thresholds) + " |",
          "|---|---|---|---|---|---|---|" + "---|" * len(thresholds)]
    tally = {t: {"tp": 0, "fn": 0, "fp": 0, "tn": 0} for t in thresholds}
    # both documents are contracts (the kinds line above): one set of point questions, embedded once
    assert points.summary_kind(sample_doc) == points.summary_kind(cuad_doc)
    kind_points = points.points_for(points.summary_kind(cuad_doc), detail=True)
    point_vectors = embedder.embed_batch([p.question for p in kind_points])
    for family, key, wording, text, should in rows:
        searched = text
        if wording == "de":
            if generator is None:
                continue
            from assistant.ttrag.rewrite import translate_query
            searched = translate_query(generator, text, "English") or text
        doc = cuad_doc if family == "cuad" else sample_doc
        cos = point_vectors @ embedder.embed_batch([searched])[0]
        best = int(cos.argmax())
        cells = []
        for t in thresholds:
            routed = opening_route.route(searched, doc, embedder, t) is not None
            tally[t][("t" if routed == should else "f") + ("p" if routed else "n")] += 1
            cells.append("yes" if routed else "")
        shown = text if searched == text else f"{text} (searched: {searched})"
        md.append(f"| {family} | {key} | {wording} | {shown} | {kind_points[best].label} ({kind_points[best].where}) "
                  f"| {cos[best]:.2f} | {'yes' if should else ''} | " + " | ".join(cells) + " |")
    md += ["", "| threshold | opening questions routed | other questions routed |", "|---|---|---|"]
    for t in thresholds:
        c = tally[t]
        md.append(f"| {t} | {c['tp']} of {c['tp'] + c['fn']} | {c['fp']} of {c['fp'] + c['tn']} |")
    return md


def replay(args: argparse.Namespace, embedder: Any) -> list[str]:
    base_path, opened_path = args.replay
    base = [json.loads(x) for x in base_path.read_text(encoding="utf-8").splitlines() if x.strip()]
    opened = {(r["family"], r["id"], r["wording"]): r for r in
              (json.loads(x) for x in opened_path.read_text(encoding="utf-8").splitlines() if x.strip())}
    tasks: dict[str, Any] = {}
    out_rows, routed_keys = [], []
    for row in base:
        key = (row["family"], row["id"], row["wording"])
        if key not in opened:
            continue
        family = row["family"]
        task = tasks.setdefault(family, TASKS[family](args.data))
        if task.read is not None:
            q = next(q for q in task.haystack.questions if q.id == row["id"])
            doc, _ = task.read(q)
        else:
            doc = task.haystack.document
        hit = opening_route.route(row["question"], doc, embedder, args.threshold)
        out_rows.append(dict(opened[key], routed=hit.label if hit else "") if hit else dict(row, routed=""))
        if hit:
            routed_keys.append(key)
    path = Path(f"{args.out}-routed.jsonl")
    path.write_text("".join(json.dumps(r) + "\n" for r in out_rows), encoding="utf-8")
    return [f"## Replay of `{base_path.name}` and `{opened_path.name}` at threshold {args.threshold}", "",
            f"{len(routed_keys)} of {len(out_rows)} asks routed to the opening; rows: `{path}` "
            "(pair them with `loss_pairs.py`)."]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--thresholds", default="0.4,0.5,0.6")
    ap.add_argument("--threshold", type=float, default=PipelineOptions().opening_match)
    ap.add_argument("--translate", action="store_true", help="route the German wording by the product's translation")
    ap.add_argument("--replay", type=Path, nargs=2, metavar=("OPENING0.jsonl", "OPENING700.jsonl"))
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    from assistant.service import ModelStore

    store = ModelStore(Settings())
    embedder = store.embedder()
    md = [f"# Routing questions to the document's opening ({args.out.name})", "",
          f"Command: `python benchmarks/opening_route.py {shlex.join(sys.argv[1:])}`", "",
          "Half: **dev** (the wordings of `benchmarks/wordings.json`, written before this rule; no reader "
          "unless `--translate`).", ""]
    if args.replay:
        md += replay(args, embedder)
    else:
        md += routing_table(args, embedder, store.generator() if args.translate else None)
    args.out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
