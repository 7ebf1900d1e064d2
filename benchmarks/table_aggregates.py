"""Questions computed over a table's rows: counts and lists over CUAD's ``master_clauses.csv`` (100 real contracts,
one row each, the lawyers' labels in 83 columns).

Questions come from the table's own values, split in halves so that what is chosen on one is read once on the
other: the governing laws held by two or more contracts, ranked by how many hold them, even ranks dev and odd
ranks test; the yes/no clause kinds of :data:`KINDS`, alternately dev and test. Each is asked in the wordings of
:data:`WORDINGS`, written once for this script before any run (a plain person's, a terse one, a lawyer's, and in
German for the counts of laws), side by side: the plain RAG of ``loss_table.py`` (pre-filter top 3, one plain
prompt), the product with ``tables`` off (the reader answers from passages, as before), and the product.

Judged against the table: a count is right when the first number a found reply states is the number of rows whose
``Governing Law-Answer`` names the law as whole words (or whose ``<kind>-Answer`` is Yes); a list is right when a
found reply names every such contract and no other (a contract is named by its row number in a computed list,
else by its file name's first 25 characters or its first party's name). A found reply that is not right is a
wrong fact.

Usage (run from a checkout):
    .venv/bin/python benchmarks/table_aggregates.py --half dev --laws 3 --kinds 3 \
        --out benchmarks/results/table-aggregates-dev
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import side_by_side  # noqa: E402
from loss_table import plain_rag  # noqa: E402
from table_records import party_names  # noqa: E402

import assistant.models  # noqa: E402,F401  (offline environment before transformers loads)
from assistant.config import PipelineOptions, Settings  # noqa: E402
from assistant.documents import extract  # noqa: E402
from assistant.eval.cuad import load_rows  # noqa: E402
from assistant.ttrag import pipeline  # noqa: E402
from assistant.ttrag.compute.table import cell_holds  # noqa: E402
from assistant.ttrag.context import build_context  # noqa: E402
from assistant.ttrag.generate import strip_markers  # noqa: E402

SYSTEMS = ("plain RAG", "tables off", "product")
KINDS = ("Non-Compete", "Audit Rights", "Exclusivity", "Insurance", "Cap On Liability", "License Grant",
         "Anti-Assignment", "Post-Termination Services", "Minimum Commitment", "Revenue/Profit Sharing")
WORDINGS = {
    "law count": {"plain": "How many of these contracts are governed by {x} law?",
                  "terse": "{x} law: how many contracts?",
                  "lawyer": "What is the number of agreements whose governing law is that of {x}?",
                  "German": "Wie viele Verträge unterliegen dem Recht von {x}?"},
    "law list": {"plain": "Which contracts are governed by {x} law?",
                 "terse": "list contracts under {x} law",
                 "lawyer": "Identify all agreements that are governed by the laws of {x}."},
    "kind count": {"plain": "How many contracts have {a} {x} clause?",
                   "terse": "number of contracts with {x}?",
                   "lawyer": "In how many of the agreements is there {a} {x} provision?"},
}
_NUMBER = re.compile(r"(?<![\w.,])\d[\d,]*(?![\w,]*\d)")


def questions(rows: list[dict[str, str]], half: str, laws: int, kinds: int) -> list[dict[str, Any]]:
    """The asks of ``half``: the first ``laws`` laws and ``kinds`` clause kinds of it, in every wording."""
    counts = Counter(p.strip() for r in rows for p in re.split(r"[;,]", r["Governing Law-Answer"]) if p.strip())
    ranked = [law for law, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if n >= 2]
    side = 0 if half == "dev" else 1
    out = []
    for law in ranked[side::2][:laws]:
        gold = [i for i, r in enumerate(rows) if cell_holds(r["Governing Law-Answer"], law)]
        for family in ("law count", "law list"):
            for wording, pattern in WORDINGS[family].items():
                out.append({"family": family, "wording": wording, "question": pattern.format(x=law),
                            "value": law, "gold": gold})
    for kind in KINDS[side::2][:kinds]:
        gold = [i for i, r in enumerate(rows) if r[f"{kind}-Answer"].strip().lower() == "yes"]
        article = "an" if kind[0] in "AEIOU" else "a"
        for wording, pattern in WORDINGS["kind count"].items():
            out.append({"family": "kind count", "wording": wording,
                        "question": pattern.format(x=kind.lower(), a=article),
                        "value": kind, "gold": gold})
    return out


def named(rows: list[dict[str, str]], text: str) -> set[int]:
    """The contracts ``text`` names (see the module docstring)."""
    listed = {int(n) - 2 for n in re.findall(r"^- row (\d+):", text, re.M)}  # sheet row 2 is contract 0
    low = text.lower()
    for i, r in enumerate(rows):
        stem = r["Filename"].rsplit(".", 1)[0][:25].lower()
        parties = party_names(r["Parties-Answer"])
        if stem in low or (parties and len(parties[0]) > 3 and parties[0].lower() in low):
            listed.add(i)
    return listed


def judge(family: str, gold: list[int], rows: list[dict[str, str]], text: str, found: bool) -> dict[str, Any]:
    if not found:
        return {"right": False}
    if family.endswith("count"):
        numbers = _NUMBER.findall(text)
        return {"right": bool(numbers) and int(numbers[0].replace(",", "")) == len(gold)}
    names = named(rows, text)
    return {"right": names == set(gold), "recall": len(names & set(gold)) / max(len(gold), 1),
            "extra": len(names - set(gold))}


def run(args: argparse.Namespace) -> None:
    from assistant.service import ModelStore

    rows = load_rows(args.data)
    asks = questions(rows, args.half, args.laws, args.kinds)
    opts = PipelineOptions()
    store = ModelStore(Settings(pipeline=opts))
    models = pipeline.Models(store.generator(), store.embedder(), store.encoder())
    ctx = build_context([extract(args.data / "cuad" / "master_clauses.csv")], store.tokenizer())
    out_jsonl = args.out.with_suffix(".jsonl")
    out_jsonl.unlink(missing_ok=True)
    for ask in asks:
        row: dict[str, Any] = dict(ask)
        plain = plain_rag(ctx, ask["question"], models, opts)
        row["plain RAG"] = {"text": plain["text"], "found": plain["found"], "seconds": plain["seconds"],
                            **judge(ask["family"], ask["gold"], rows, plain["text"], plain["found"])}
        for system, options in (("tables off", replace(opts, tables=False)), ("product", opts)):
            t0 = time.perf_counter()
            ans = pipeline.ask(ctx, ask["question"], models, options)
            shown = strip_markers(ans.text) if ans.found else ""
            row[system] = {"text": shown, "found": ans.found, "seconds": time.perf_counter() - t0,
                           "route": ans.route, **judge(ask["family"], ask["gold"], rows, shown, ans.found)}
        side_by_side.keep(out_jsonl, row, SYSTEMS, f"{ask['family']:10} {ask['wording']:6} {ask['question'][:70]}")
    render(args.out, args)


def render(out: Path, args: argparse.Namespace | None = None) -> None:
    rows = side_by_side.kept(out)
    title = f"# Counts and lists over a table's rows: CUAD master_clauses.csv ({len(rows)} asks)"
    lines = side_by_side.head(title, "table_aggregates.py", args,
                              "laws and clause kinds of this half", ("family", "wording"), SYSTEMS)
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["family"], r["wording"]), []).append(r)
        groups.setdefault(("all", r["wording"]), []).append(r)
        groups.setdefault(("all", "all"), []).append(r)
    for (family, wording), rs in sorted(groups.items(), key=lambda kv: (kv[0][0] == "all", kv[0] == ("all", "all"))):
        cells = side_by_side.right_wrong(rs, SYSTEMS)
        lines.append(f"| {family} | {wording} | {len(rs)} | " + " | ".join(cells) + " |")
    lines += ["", side_by_side.seconds(rows, SYSTEMS), "",
              "| family | wording | value | gold | " + " | ".join(SYSTEMS) + " |", "|---|---|---|---|" +
              "---|" * len(SYSTEMS)]
    for r in rows:
        lines.append(f"| {r['family']} | {r['wording']} | {r['value']} | {len(r['gold'])} | " + " | ".join(
            ("R " if r[s]["right"] else "W " if r[s]["found"] else "- ") + " ".join(r[s]["text"].split())[:70]
            .replace("|", "/") for s in SYSTEMS) + " |")
    out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[:12 + len(groups)]))


def main() -> None:
    def arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--laws", type=int, default=3)
        parser.add_argument("--kinds", type=int, default=3)

    side_by_side.main(__doc__ or "", "benchmarks/results/table-aggregates-dev", run, render, arguments)


if __name__ == "__main__":
    main()
