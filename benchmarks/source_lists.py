"""Lists of sources read as side matter, no model read: how many lines of each document
:func:`assistant.ttrag.compute.summarize.sidematter.source_list_spans` finds, where in the document, and how
many passages a summary's point could no longer stand on (:data:`assistant.ttrag.pipeline.SIDE_POINT` of the
passage or more is a list of sources).

    .venv/bin/python benchmarks/source_lists.py [--out benchmarks/results/source-lists]

Documents: L-Eval's government reports and patents, both halves as ``summaries_real.py`` splits them, and the
CUAD contracts of the dev half, read from their PDFs (a contract is never searched for such a list: its clauses
stand between its filing's footers, which cite a source too). A line marked in the first 80% of a document's
lines is listed word for word, to be read: a bibliography stands at the end, prose that names its source
anywhere.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.eval.cuad import PDFS, load_items, read_pdf
from assistant.eval.report import machine, write
from assistant.eval.summaries import load_family, split_halves
from assistant.records import Document, Segment
from assistant.service import ModelStore
from assistant.ttrag.compute.summarize import sidematter
from assistant.ttrag.compute.summarize.sidematter import side_share, side_spans, source_spans, text_lines
from assistant.ttrag.compute.summarize.structure import headings
from assistant.ttrag.context import build_context
from assistant.ttrag.pipeline import SIDE_POINT

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("ASSISTANT_TEST_DATA") or HERE.parent.parent / "shared" / "data")


def measure(doc: Document, tokenizer: Any) -> dict[str, Any]:
    """The lines marked as a list of sources, those in the first 80% of the lines, and the chunks a point can
    no longer stand on, before (side matter without lists of sources) and after."""
    lines = text_lines(doc.text)
    filled = [ln for ln in lines if ln[2]]
    marked = source_spans(doc, lines)
    cut = filled[int(0.8 * len(filled))][0] if filled else 0
    early = [doc.text[a:b] for a, b in marked if a < cut]
    hs = headings(doc)
    side = side_spans(doc, hs)
    run, sidematter.CITATION_RUN = sidematter.CITATION_RUN, 1 << 30  # side matter as it was without the rule
    try:
        before = side_spans(doc, hs)
    finally:
        sidematter.CITATION_RUN = run
    chunks = build_context([doc], tokenizer).chunks
    listed = sum(side_share(marked, c.start, c.end) >= SIDE_POINT for c in chunks)
    return {"lines": len(filled), "marked": len(marked), "early": early,
            "side_chunks_after": sum(side_share(side, c.start, c.end) >= SIDE_POINT for c in chunks),
            "side_chunks_before": sum(side_share(before, c.start, c.end) >= SIDE_POINT for c in chunks),
            "listed_chunks": listed, "chunks": len(chunks)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "source-lists")
    args = ap.parse_args()
    tokenizer = ModelStore(Settings()).tokenizer()
    rows: list[dict[str, Any]] = []
    for family in ("gov_report", "patent"):
        for half, docs in split_halves(load_family(args.data, family)).items():
            for d in docs:
                doc = Document(d.id, d.text, (Segment(d.text),), (0,))
                rows.append({"family": family, "half": half, "id": d.id, **measure(doc, tokenizer)})
    seen: set[str] = set()
    for item in load_items(args.data):
        if item.contract in seen or item.question.half != "dev":
            continue
        seen.add(item.contract)
        doc = read_pdf(args.data / PDFS / item.question.source)
        rows.append({"family": "cuad", "half": "dev", "id": item.contract[:40], **measure(doc, tokenizer)})
    md = ["# Lists of sources read as side matter (no model read)", "",
          "Command: `.venv/bin/python benchmarks/source_lists.py`  ",
          f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d %H:%M')}.  ",
          "**Settings chosen on:** the rule's word cap (55) and run (3 of 5 lines) were set reading these "
          "documents' lines, both halves (no model read, no summary scored): the dev half holds no list of "
          "sources, so no dev summary can change by the list rule, nor by the point rule (a point whose passages "
          f"are all {SIDE_POINT:.0%} or more a list of sources is left out), which can apply only to the passages "
          "counted in the last column.", "",
          "| family | half | documents | with a list | lines marked | marked in the first 80% | "
          "passages >= half side matter, before -> after | passages a point can no longer stand on |",
          "|---|---|---|---|---|---|---|---|"]
    for family in ("gov_report", "patent", "cuad"):
        for half in ("dev", "test"):
            part = [r for r in rows if r["family"] == family and r["half"] == half]
            if not part:
                continue
            md.append(f"| {family} | {half} | {len(part)} | {sum(r['marked'] > 0 for r in part)} | "
                      f"{sum(r['marked'] for r in part)} | {sum(len(r['early']) for r in part)} | "
                      f"{sum(r['side_chunks_before'] for r in part)} -> {sum(r['side_chunks_after'] for r in part)} "
                      f"of {sum(r['chunks'] for r in part)} | {sum(r['listed_chunks'] for r in part)} |")
    md += ["", "## Documents with a list of sources", ""]
    for r in rows:
        if r["marked"]:
            md.append(f"- {r['family']} {r['half']} {r['id']}: {r['marked']} of {r['lines']} lines")
            md += [f"  - early: {line[:160]}" for line in r["early"]]
    write(args.out, md, {"machine": machine(), "rows": rows})


if __name__ == "__main__":
    main()
