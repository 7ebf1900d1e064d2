"""Questions about one record of a table of records: CUAD's ``master_clauses.csv`` (100 contracts, 83 columns).

For the first ``--n`` contracts of the chosen CUAD half (:func:`assistant.eval.cuad.halves`, the same split as the
cuad task) whose row gives a governing law and an agreement date, each is asked in two wordings written once
for this script (a plain person's naming both parties, a terse one naming the first), of the whole table, side
by side: the plain RAG of ``loss_table.py`` (pre-filter top 3, one plain prompt) and the product. The parties
are named as a person would: each party of the ``Parties-Answer`` cell up to its first comma or parenthesis
("Gunston Consulting", "Medalist Diversified REIT").

Judged against the row's own answers: governing law right when a found reply names the state or country of
``Governing Law-Answer``; agreement date right when a found reply states the date of ``Agreement Date-Answer``
(m/d/yy), in any form (:func:`assistant.text.dates.dates_in`). A found reply that is not right is a wrong fact.

Usage (run from a checkout: the table is read as that checkout reads it):
    .venv/bin/python benchmarks/table_records.py --half dev --n 6 --out benchmarks/results/table-records-dev
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import side_by_side  # noqa: E402
from loss_table import plain_rag  # noqa: E402

import assistant.models  # noqa: E402,F401  (offline environment before transformers loads)
from assistant.config import PipelineOptions, Settings  # noqa: E402
from assistant.documents import extract  # noqa: E402
from assistant.eval.cuad import halves, load_rows  # noqa: E402
from assistant.text.dates import dates_in  # noqa: E402
from assistant.ttrag import pipeline  # noqa: E402
from assistant.ttrag.context import build_context  # noqa: E402
from assistant.ttrag.generate import strip_markers  # noqa: E402

SYSTEMS = ("plain RAG", "product")
QUESTIONS = {
    "governing law": {"plain": "Which law governs the agreement between {a} and {b}?", "terse": "{a} governing law?"},
    "agreement date": {"plain": "When was the agreement between {a} and {b} signed?", "terse": "{a} agreement date?"},
}


def party_names(cell: str) -> list[str]:
    """The parties of a ``Parties-Answer`` cell as a person names them: each up to its first comma or parenthesis."""
    names = [re.split(r"[,(]", p, maxsplit=1)[0].strip(" \"'") for p in cell.split(";")]
    return [n for n in names if n and not n.lower().startswith(("each", "collectively"))]


def right(field: str, gold: str, text: str, found: bool) -> bool:
    """A found reply naming the row's answer (see the module docstring)."""
    if not found:
        return False
    if field == "governing law":
        return any(g.strip() and g.strip().lower() in text.lower() for g in re.split(r"[;/]", gold))
    day = dt.datetime.strptime(gold.strip(), "%m/%d/%y").date()
    return any(day in d.days for d in dates_in(text))


def run(args: argparse.Namespace) -> None:
    from assistant.service import ModelStore

    rows = load_rows(args.data)
    half = halves([r["Filename"] for r in rows])
    chosen = []
    for r in rows:
        names = party_names(r["Parties-Answer"])
        try:
            dt.datetime.strptime(r["Agreement Date-Answer"].strip(), "%m/%d/%y")
        except ValueError:
            continue
        if half[r["Filename"]] == args.half and len(names) >= 2 and r["Governing Law-Answer"].strip():
            chosen.append((r, names))
    chosen = chosen[:args.n]
    opts = PipelineOptions()
    store = ModelStore(Settings(pipeline=opts))
    models = pipeline.Models(store.generator(), store.embedder(), store.encoder())
    ctx = build_context([extract(args.data / "cuad" / "master_clauses.csv")], store.tokenizer())
    out_jsonl = args.out.with_suffix(".jsonl")
    out_jsonl.unlink(missing_ok=True)
    for r, names in chosen:
        for field, wordings in QUESTIONS.items():
            gold = r["Governing Law-Answer"] if field == "governing law" else r["Agreement Date-Answer"]
            for wording, pattern in wordings.items():
                question = pattern.format(a=names[0], b=names[1])
                row: dict[str, Any] = {"contract": r["Filename"], "field": field, "wording": wording,
                                       "question": question, "gold": gold}
                plain = plain_rag(ctx, question, models, opts)
                row["plain RAG"] = {"text": plain["text"], "found": plain["found"], "seconds": plain["seconds"],
                                    "right": right(field, gold, plain["text"], plain["found"])}
                t0 = time.perf_counter()
                ans = pipeline.ask(ctx, question, models, opts)
                shown = strip_markers(ans.text) if ans.found else ""
                row["product"] = {"text": shown, "found": ans.found, "seconds": time.perf_counter() - t0,
                                  "right": right(field, gold, shown, ans.found),
                                  "sections": [s.section for s in ans.sources]}
                side_by_side.keep(out_jsonl, row, SYSTEMS, f"{field:14} {wording:5} {question[:70]}")
    render(args.out, args)


def render(out: Path, args: argparse.Namespace | None = None) -> None:
    rows = side_by_side.kept(out)
    title = f"# Questions about one record of a table: CUAD master_clauses.csv ({len(rows)} asks)"
    lines = side_by_side.head(title, "table_records.py", args,
                              "contracts of the cuad task's split", ("wording", "field"), SYSTEMS)
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["wording"], r["field"]), []).append(r)
        groups.setdefault(("all", "all"), []).append(r)
    for (wording, field), rs in sorted(groups.items(), key=lambda kv: kv[0] == ("all", "all")):
        cells = side_by_side.right_wrong(rs, SYSTEMS)
        lines.append(f"| {wording} | {field} | {len(rs)} | " + " | ".join(cells) + " |")
    lines += ["", side_by_side.seconds(rows, SYSTEMS), "",
              "| contract | field | wording | gold | " + " | ".join(SYSTEMS) + " |", "|---|---|---|---|" +
              "---|" * len(SYSTEMS)]
    for r in rows:
        lines.append(f"| {r['contract'][:40]} | {r['field']} | {r['wording']} | {r['gold']} | " + " | ".join(
            ("R " if r[s]["right"] else "W " if r[s]["found"] else "- ") + r[s]["text"][:70].replace("|", "/")
            for s in SYSTEMS) + " |")
    out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[:12 + len(groups)]))


def main() -> None:
    def arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--n", type=int, default=6)

    side_by_side.main(__doc__ or "", "benchmarks/results/table-records-dev", run, render, arguments)


if __name__ == "__main__":
    main()
