"""Where the ``short_slip`` answer rule would act, over the reads the dev loss tables kept (no model read).

    .venv/bin/python benchmarks/short_slip.py [RESULTS.jsonl ...]

The rule (:func:`assistant.ttrag.generate.slipped_support`) acts on a read the support check refused
(``not in the passages``) whose short answer its own sentence does not state, whose sentence states a date or an
amount, for a question that is not yes/no or a choice, in the passages' language. Those conditions but the last
(the passages are not kept in the results) are tested on every read of ``benchmarks/results/loss-dev-*.jsonl``
(``*-against.jsonl`` too: the second system's reads); each distinct read that meets them is printed with whether
its sentence was the gold answer (the loss table's ``raw_right``).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from assistant.ttrag.generate import agree, stated_facts
from assistant.ttrag.qtype import question_type

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="*", type=Path)
    args = ap.parse_args()
    paths = args.results or sorted((HERE / "results").glob("loss-dev-*.jsonl"))
    reads, seen, acts = 0, set(), Counter()
    for path in paths:
        for line in path.read_text().splitlines():
            r = json.loads(line)
            for rd in r.get("reads", []):
                reads += 1
                if rd.get("reason") != "not in the passages" or r["wording"] == "de":
                    continue
                if question_type(r["question"]).kind in ("yesno", "choice"):
                    continue
                short, text = rd["raw_short"], rd["raw_text"]
                key = (r["id"], r["wording"], short, text)
                if key in seen or not stated_facts(text) or agree(short, text):
                    continue
                seen.add(key)
                acts[rd["raw_right"]] += 1
                print(f"{'right' if rd['raw_right'] else 'wrong'} | {r['id'][:50]} | {r['wording']} | short "
                      f"{short!r} | {text[:100]!r} | facts {stated_facts(text)!r}")
    print(f"\n{len(paths)} files, {reads} reads; the rule's conditions hold on {sum(acts.values())} distinct "
          f"reads: {acts[True]} the gold answer, {acts[False]} not")


if __name__ == "__main__":
    main()
