"""How far can a summary of N words beat the document's own first N words? The lead baseline against the
best that picking sentences could do, on the documents with summaries people wrote.

    .venv/bin/python benchmarks/summary_ceiling.py --out benchmarks/results/summary-ceiling

No LLM: every summary here is a set of the document's own sentences, cut to N words, scored by ROUGE-1
recall (rouge-score, Porter stemmer, as ``summaries_real.py``) against the reference summary:

- **lead**: the document's first N words (the baseline ``summaries_real.py`` divides by).
- **central**: the sentences :func:`~assistant.ttrag.compute.summarize.central.central_sentences` ranks
  first (what the summarizer's reading plan fills its budget with), in its order.
- **oracle**: the extractive oracle (as used to label sentences for extractive summarizers, Nallapati et al.
  2017, SummaRuNNer, AAAI): sentences of 5-60 words chosen greedily, each time the one that adds the most
  ROUGE-1 recall against the reference *per word*, while the total stays within N words. It reads the
  reference, so no summarizer can be expected to reach it: it is a ceiling for summaries that state the
  document's own sentences, and near one for a 1.5B model's paraphrase of them.

Ratios are of means over documents, resampled in pairs (bootstrap 95%, 1,000 resamples). Both halves of the
split of ``summaries_real.py`` are shown: nothing is chosen here, and the question is whether a target
(ROUGE-1 recall 1.5x the lead's) is within reach at all.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rouge_score.tokenizers import DefaultTokenizer  # noqa: E402  (the ``eval`` extra, as rouge())

from assistant.documents.chunk import sentence_spans  # noqa: E402
from assistant.eval.metrics import bootstrap_ci, lead, rouge  # noqa: E402
from assistant.eval.report import machine, write  # noqa: E402
from assistant.eval.summaries import FAMILIES, SPLIT_SEED, load_family, split_halves  # noqa: E402
from assistant.records import Document, Segment  # noqa: E402
from assistant.ttrag.compute.summarize.central import central_sentences  # noqa: E402
from assistant.ttrag.compute.summarize.sidematter import side_spans  # noqa: E402
from assistant.ttrag.compute.summarize.structure import headings  # noqa: E402

LENGTHS = (60, 130, 250)  # words: a gist, the summarizer's usual length, about a reference's length
STRATEGIES = ("lead", "central", "oracle")
TOKENIZER = DefaultTokenizer(use_stemmer=True)  # the tokens ROUGE-1 counts (rouge(): Porter stemmer)


def first_words(sentences: list[str], n: int) -> str:
    """The sentences joined, cut to ``n`` words."""
    return " ".join(" ".join(sentences).split()[:n])


def recall(summary: str, reference: str) -> float:
    return rouge(summary, reference)["r1_recall"]


def oracle(sentences: list[str], reference: str, n: int) -> str:
    """The greedy extractive oracle of at most ``n`` words (see the module's docstring). ROUGE-1 recall of a
    set of sentences is its clipped unigram overlap with the reference over the reference's unigrams, so each
    sentence and the reference are tokenized once (rouge-score's own tokenizer and stemmer) and a candidate's
    gain is counted, not scored again."""
    ref = Counter(TOKENIZER.tokenize(reference))
    pool = [(s, Counter(TOKENIZER.tokenize(s)), len(s.split()))
            for s in dict.fromkeys(s for s in sentences if 5 <= len(s.split()) <= 60)]
    have: Counter[str] = Counter()
    chosen: list[str] = []
    words = 0
    while True:
        best, gain = -1, 0.0
        for i, (_s, counts, w) in enumerate(pool):
            if words + w > n:
                continue
            g = sum(min(v, ref[t] - have[t]) for t, v in counts.items() if ref[t] > have[t]) / w
            if g > gain:
                best, gain = i, g
        if best < 0:
            return " ".join(chosen)
        s, counts, w = pool.pop(best)
        chosen.append(s)
        have += counts
        words += w


def summaries(text: str, reference: str, n: int) -> dict[str, str]:
    doc = Document("report.txt", text, (Segment(text, page=1),), (0,))
    hs = headings(doc)
    picked = central_sentences(doc, side=side_spans(doc, hs), hs=hs, n=max(3, n // 15))
    sentences = [text[s:e].strip() for s, e in sentence_spans(text)]
    return {"lead": lead(text, n), "central": first_words([text[s:e] for s, e in picked], n),
            "oracle": oracle(sentences, reference, n)}


def _ci(v: tuple[float, float, float], nd: int = 3) -> str:
    return f"{v[0]:.{nd}f} [{v[1]:.{nd}f}, {v[2]:.{nd}f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path(os.environ.get("ASSISTANT_TEST_DATA") or
                                                      ROOT.parent / "shared" / "data"))
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "summary-ceiling")
    args = ap.parse_args()
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for family in FAMILIES:
        for half, docs in split_halves(load_family(args.data, family)).items():
            for d in docs:
                for n in LENGTHS:
                    got = summaries(d.text, d.reference, n)
                    rows.append({"family": family, "half": half, "id": d.id, "words": n,
                                 **{k: recall(v, d.reference) for k, v in got.items()},
                                 "oracle_text": got["oracle"]})
                print(family, half, d.id, flush=True)
    md = ["# How far a summary can beat the lead: the extractive ceiling", "",
          "Command: `.venv/bin/python benchmarks/summary_ceiling.py --out benchmarks/results/summary-ceiling`  ",
          f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. No LLM ({time.perf_counter() - t0:.0f} s).  ",
          f"**Settings chosen on:** none (nothing is chosen here: a bound). Halves: the split of "
          f"`summaries_real.py` (seed {SPLIT_SEED}). ROUGE-1 recall against the summary people wrote; intervals "
          "bootstrap 95% over documents.", "",
          "| family | half (docs) | words | lead | central sentences | extractive oracle | central / lead | "
          "oracle / lead |", "|---|---|---|---|---|---|---|---|"]
    summary: dict[str, Any] = {}
    for family in FAMILIES:
        for half in ("dev", "test"):
            for n in LENGTHS:
                group = [r for r in rows if r["family"] == family and r["half"] == half and r["words"] == n]
                cells = {k: bootstrap_ci([r[k] for r in group]) for k in STRATEGIES}
                ratio = {k: bootstrap_ci([[r[k], r["lead"]] for r in group],
                                         statistic=lambda a: float(a[:, 0].mean() / max(a[:, 1].mean(), 1e-9)))
                         for k in ("central", "oracle")}
                summary[f"{family}/{half}/{n}"] = {**cells, **{f"{k}_over_lead": v for k, v in ratio.items()}}
                md.append(f"| {family} | {half} ({len(group)}) | {n} | " +
                          " | ".join(_ci(cells[k]) for k in STRATEGIES) + " | " +
                          " | ".join(_ci(ratio[k], 2) for k in ("central", "oracle")) + " |")
    md += ["", "## Per document (130 words)", "", "| family | half | id | lead | central | oracle |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        if r["words"] == 130:
            md.append(f"| {r['family']} | {r['half']} | {r['id']} | {r['lead']:.3f} | {r['central']:.3f} | "
                      f"{r['oracle']:.3f} |")
    write(args.out, md, {"machine": machine(), "lengths": LENGTHS, "summary": summary, "rows": rows})


if __name__ == "__main__":
    main()
