"""Where the passages the reader sees start and end, over every CUAD contract of a half: how many start right
after an abbreviation's full stop ("... Keefe, Bruyette & Woods, Inc. | (the "Agent"), as follows") or end at
one, i.e. inside a sentence (:mod:`assistant.ttrag.passages`). No model is read; each contract's chunks are
widened as a read widens them.

    .venv/bin/python benchmarks/passage_edges.py [--half dev] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.eval.cuad import contract_set, load_items
from assistant.service import ModelStore
from assistant.ttrag import passages
from assistant.ttrag.context import build_context

HERE = Path(__file__).resolve().parent
#: the full stop of a name's or number's abbreviation: the instrument's own list, written apart from
#: passages._ABBREVIATIONS so that the count is not taken with the fix's own list
ABBREVIATION = re.compile(r"\b(?:Inc|Corp|Co|Ltd|No|Nos|Sec|Art|Mr|Mrs|Ms|Dr|Jr|St|U\.S|N\.A|S\.A|L\.P|L\.L\.C|"
                          r"L\.L\.P|e\.g|i\.e)\.\s*$", re.I)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    args = ap.parse_args()
    t0 = time.perf_counter()
    contracts, _ = contract_set(args.data)
    firsts = {}
    for it in load_items(args.data):
        if it.question.half == args.half:
            firsts.setdefault(it.contract, it)
    tokenizer = ModelStore(Settings()).tokenizer()
    total = starts = ends = 0
    examples: list[str] = []
    for it in firsts.values():
        doc, _ = contracts.read(it.question)
        for c in passages.whole([doc], build_context([doc], tokenizer).chunks):
            total += 1
            if ABBREVIATION.search(doc.text[max(0, c.start - 12):c.start]):
                starts += 1
                examples.append(doc.text[max(0, c.start - 50):c.start + 50].replace("\n", " "))
            ends += bool(ABBREVIATION.search(c.text[-12:]))
    print(f"{len(firsts)} CUAD {args.half} contracts, {time.perf_counter() - t0:.0f} s\n")
    print("| passages | start after an abbreviation's stop | end at one |\n|---|---|---|")
    print(f"| {total} | {starts} | {ends} |")
    for e in examples[:10]:
        print(f"- ...{e}...")


if __name__ == "__main__":
    main()
