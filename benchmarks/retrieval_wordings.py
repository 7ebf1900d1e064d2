"""Where retrieval loses a CUAD clause, per wording, and what a document's opening as a candidate changes.

The loss table (``benchmarks/loss_table.py``) puts a contract's parties question in "gold not in the
pre-filter's short list" in every wording: the preamble that names the parties ("among Alamogordo Financial
Corp., a Maryland corporation (the "Company"), ...") shares few words with "Who are the parties?", "parties?"
or "Which companies is this contract between?". This script measures retrieval alone (no reader), on the
CUAD dev half's questions whose clause the lawyers found, in each wording of ``benchmarks/wordings.json``:
the share whose gold span is among the pre-filter's candidates (recall@10) and among the re-ranked passages
read (recall@3), for

- ``shipped``: the pipeline's pre-filter and re-ranker as they are;
- ``opening``: the chunks of the document's opening (its first ``points.OPENING_CHARS`` characters) added to
  the pre-filter's short list (``prefilter(also=...)``), ranked with the rest, not forced in;
- ``top15``: the re-ranker given 15 candidates instead of 10;
- ``ce0.5``: the re-ranker's own score weighted 0.5 against the pre-filter's (shipped: 0.25);
- ``ce-alone``: the re-ranker's score alone orders the candidates;
- ``opening-3rd``: the re-ranker's best two and the document's first chunk read (when not among them);
- ``opening-4th``: the re-ranker's best three and the document's first chunk (four passages read);
  ``opening-4th-400`` and ``-700``: instead, the document's first 400 or 700 characters (to the end of the
  sentence there; :func:`assistant.ttrag.passages.opening`);
- ``dense-union``: the dense search over every chunk's top 10 added to BM25's short list (``also``), then fused
  and re-ranked as shipped;
- ``read-4``, ``read-5``: the re-ranker's best 4 or 5 read instead of 3 (more prompt tokens a read).

Usage:
    .venv/bin/python benchmarks/retrieval_wordings.py --data ../shared/data --n 130 \
        --out benchmarks/results/retrieval-wordings-dev
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import assistant.models  # noqa: E402,F401  (offline environment before transformers loads)
from assistant.config import PipelineOptions, Settings  # noqa: E402
from assistant.eval.metrics import bootstrap_interval  # noqa: E402
from assistant.eval.recall import scored_questions  # noqa: E402
from assistant.eval.tasks import TASKS  # noqa: E402
from assistant.ttrag import conditional, passages, prefilter  # noqa: E402
from assistant.ttrag.compute.summarize import points  # noqa: E402
from assistant.ttrag.context import Context, build_context  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loss_table import WORDING_FILE, gold_cover  # noqa: E402

VARIANTS = ("shipped", "opening", "top15", "ce0.5", "ce-alone", "opening-3rd", "opening-4th", "opening-4th-400",
            "opening-4th-700", "dense-union", "read-4", "read-5")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--n", type=int, default=130, help="CUAD dev questions (the first n; kinds cycle)")
    ap.add_argument("--wordings", type=lambda s: s.split(","), default=["benchmark", "plain", "terse"])
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/retrieval-wordings-dev"))
    args = ap.parse_args()
    from assistant.service import ModelStore

    opts = PipelineOptions()
    store = ModelStore(Settings(pipeline=opts))
    embedder, encoder, tokenizer = store.embedder(), store.encoder(), store.tokenizer()
    task = TASKS["cuad"](args.data)
    table = json.loads(WORDING_FILE.read_text(encoding="utf-8"))["cuad"]
    shared: dict[str, Context] = {}
    # (variant, wording, kind) -> [(in candidates, in top 3)]
    got: dict[tuple[str, str, str], list[tuple[bool, bool]]] = defaultdict(list)
    seconds: dict[str, float] = defaultdict(float)
    stages: dict[tuple[str, str], list[bool]] = defaultdict(list)
    asked = 0
    for q in scored_questions(task, args.n, 0, "dev"):
        if not q.answers:
            continue
        doc, q = task.read(q)
        if not q.gold_spans:
            continue
        ctx = shared.setdefault(q.source, build_context([doc], tokenizer))
        opening = [c.id for c in points.opening_chunks(ctx.chunks, doc.source)]
        texts = {"benchmark": q.text, **table.get(q.kind, {})}
        for wording in args.wordings:
            if wording not in texts:
                continue
            asked += 1
            # where the shipped pre-filter's candidates come from: BM25's short list (the embedder re-scores
            # only these), against a dense search over every chunk
            for k in (opts.shortlist, 50):
                ids = [i for i, _ in prefilter.bm25_search(ctx, texts[wording], k)]
                stages[(f"BM25 short list of {k}", wording)].append(
                    gold_cover([ctx.chunks[i] for i in ids], q.gold_spans) > 0)
            everything = list(range(len(ctx.chunks)))
            dense = prefilter.chunk_embeddings(ctx, everything, embedder) @ embedder.embed([texts[wording]])[0]
            best = [everything[j] for j in np.argsort(-dense)[:opts.prefilter_top_k]]
            stages[(f"dense over every chunk, top {opts.prefilter_top_k}", wording)].append(
                gold_cover([ctx.chunks[i] for i in best], q.gold_spans) > 0)
            for variant in VARIANTS:
                t0 = time.perf_counter()
                top_k = 15 if variant == "top15" else opts.prefilter_top_k
                cands = prefilter.prefilter(ctx, texts[wording], embedder, shortlist=opts.shortlist,
                                            fusion=opts.fusion, top_k=top_k,
                                            also=opening if variant == "opening" else
                                            best if variant == "dense-union" else ())
                top = conditional.rerank(texts[wording], cands, encoder,
                                         mode="alone" if variant == "ce-alone" else opts.ce_mode,
                                         weight=0.5 if variant == "ce0.5" else opts.ce_weight,
                                         top_k=int(variant[-1]) if variant.startswith("read-") else opts.ce_top_k,
                                         pooling=opts.ce_pooling)
                read = [h.chunk for h in top]
                first = ctx.chunks[opening[0]]
                if variant == "opening-3rd" and first not in read:
                    read = [*read[:2], first]
                elif variant.startswith("opening-4th") and first not in read:
                    if variant != "opening-4th":  # the passage opening_chars reads
                        first = passages.opening(doc, first.id, int(variant.rsplit("-", 1)[1]))
                    read = [*read, first]
                seconds[variant] += time.perf_counter() - t0
                got[(variant, wording, q.kind)].append(
                    (gold_cover([h.chunk for h in cands], q.gold_spans) > 0,
                     gold_cover(read, q.gold_spans) > 0))
        print(f"{q.kind:30} {q.source[:40]}", file=sys.stderr, flush=True)
    command = "python benchmarks/retrieval_wordings.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    md = [f"# Retrieval per wording, CUAD dev ({args.out.name})", "", f"Command: `{command}`", "",
          f"Half: **dev**. {asked} asks (question x wording) of clauses the lawyers found; no reader. Recall@10: the "
          "gold span among the pre-filter's candidates; recall@3: among the re-ranked passages read. "
          "Shares with bootstrap 95% intervals.", "",
          "| variant | wording | asks | recall@10 (candidates) | recall@3 (read) | s per ask |",
          "|---|---|---|---|---|---|"]

    def share(values: list[bool]) -> str:
        lo, hi = bootstrap_interval([float(v) for v in values])
        return f"{sum(values) / len(values):.3f} [{lo:.2f}, {hi:.2f}]"

    for variant in VARIANTS:
        for wording in [*args.wordings, "all"]:
            sel = [x for (v, w, _), xs in got.items() if v == variant and wording in ("all", w) for x in xs]
            if sel:
                md.append(f"| {variant} | {wording} | {len(sel)} | {share([a for a, _ in sel])} | "
                          f"{share([b for _, b in sel])} | {seconds[variant] / max(asked, 1):.2f} |")
    md += ["", "## Where the candidates come from (shipped pre-filter)", "",
           "The embedder re-scores only BM25's short list; a clause BM25 does not list is out of reach of any "
           "embedder there.", "", "| stage | " + " | ".join(args.wordings) + " | all |",
           "|---|" + "---|" * (len(args.wordings) + 1)]
    for stage in dict.fromkeys(s for s, _ in stages):
        cells = [stages[(stage, w)] for w in args.wordings]
        both = [x for c in cells for x in c]
        md.append(f"| {stage} | " + " | ".join(f"{sum(c) / len(c):.3f}" if c else "-" for c in cells) +
                  f" | {share(both)} |")
    md += ["", "## Recall@3 per clause kind (all wordings)", "", "| kind | asks | " + " | ".join(VARIANTS) + " |",
           "|---|---|" + "---|" * len(VARIANTS)]
    for kind in sorted({k for _, _, k in got}):
        cells = []
        for variant in VARIANTS:
            sel = [b for (v, _, k), xs in got.items() if v == variant and k == kind for _, b in xs]
            cells.append(f"{sum(sel)}/{len(sel)}")
        n = sum(len(xs) for (v, _, k), xs in got.items() if v == "shipped" and k == kind)
        md.append(f"| {kind} | {n} | " + " | ".join(cells) + " |")
    args.out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
