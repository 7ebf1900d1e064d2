"""Where the passages the reader sees start and end, over every CUAD contract of a half: how many start right
after an abbreviation's full stop ("... Keefe, Bruyette & Woods, Inc. | (the "Agent"), as follows") or end at
one, i.e. inside a sentence (:mod:`assistant.ttrag.passages`). No model is read; each contract's chunks are
widened as a read widens them.

    .venv/bin/python benchmarks/passage_edges.py [--half dev] [--data ../shared/data]
    .venv/bin/python benchmarks/passage_edges.py --asks results/loss-dev-after.jsonl --before REV

``--asks ROWS.jsonl --before REV``: for every ask of a loss table's run (``benchmarks/loss_table.py``; each read
records the chunks it read), whether its reads' passages differ between :mod:`assistant.ttrag.passages` at
commit ``REV`` and as it stands: the same chunks widened both ways. A read whose passages are the same is the
same prompt, so the same reply (temperature 0): the asks none of whose reads changed cannot have changed.
No model is read.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

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
#: the full stop of a capital letter standing alone, an initial or a list letter ("1600 E. | St. Andrew Place",
#: "Robert L. | Erwin"), not one a label names ("Exhibit A."): the instrument's own short list of labels
INITIAL = re.compile(r"(?:^|(?P<word>\S+)\s+|[\s.])(?<![A-Za-z])[A-Z]\.\s*$")
LABEL = re.compile(r"(?:Exhibit|Schedule|Appendix|Annex|Article|Section|Party|Part)", re.I)


def after_initial(before: str) -> bool:
    """Whether ``before`` ends at an initial's or a list letter's full stop (:data:`INITIAL`)."""
    m = INITIAL.search(before)
    return m is not None and not (m["word"] and LABEL.fullmatch(m["word"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--asks", type=Path, default=None, help="a loss table's rows (.jsonl): compare its reads")
    ap.add_argument("--before", default="", help="with --asks: the commit whose passages module is compared")
    args = ap.parse_args()
    if args.asks is not None:
        compare_asks(args.asks, args.before, args.data)
        return
    t0 = time.perf_counter()
    contracts, _ = contract_set(args.data)
    firsts = {}
    for it in load_items(args.data):
        if it.question.half == args.half:
            firsts.setdefault(it.contract, it)
    tokenizer = ModelStore(Settings()).tokenizer()
    total = starts = ends = initial_starts = initial_ends = 0
    examples: list[str] = []
    for it in firsts.values():
        doc, _ = contracts.read(it.question)
        for c in passages.whole([doc], build_context([doc], tokenizer).chunks):
            total += 1
            if ABBREVIATION.search(doc.text[max(0, c.start - 12):c.start]):
                starts += 1
                examples.append(doc.text[max(0, c.start - 50):c.start + 50].replace("\n", " "))
            ends += bool(ABBREVIATION.search(c.text[-12:]))
            if after_initial(doc.text[max(0, c.start - 30):c.start]):
                initial_starts += 1
                examples.append(doc.text[max(0, c.start - 50):c.start + 50].replace("\n", " "))
            initial_ends += after_initial(c.text[-30:])
    print(f"{len(firsts)} CUAD {args.half} contracts, {time.perf_counter() - t0:.0f} s\n")
    print("| passages | start after an abbreviation's stop | end at one | start after an initial's stop "
          "| end at one |\n|---|---|---|---|---|")
    print(f"| {total} | {starts} | {ends} | {initial_starts} | {initial_ends} |")
    for e in examples[:10]:
        print(f"- ...{e}...")


def module_at(rev: str) -> ModuleType:
    """:mod:`assistant.ttrag.passages` as it was at commit ``rev`` (read with ``git show``)."""
    source = subprocess.run(["git", "show", f"{rev}:assistant/ttrag/passages.py"], cwd=HERE.parent, check=True,
                            capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader("passages_before", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    exec(compile(source, f"passages@{rev}", "exec"), module.__dict__)
    return module


def compare_asks(rows_path: Path, rev: str, data: Path) -> None:
    """Print, per family and wording, how many asks of ``rows_path`` read passages that differ between
    ``passages`` at ``rev`` and now, and the changed asks' rows of the loss table."""
    sys.path.insert(0, str(HERE))
    from loss_table import gold_cover

    from assistant.eval.recall import scored_questions
    from assistant.eval.tasks import TASKS

    before = module_at(rev)
    rows = [json.loads(line) for line in rows_path.read_text(encoding="utf-8").splitlines()]
    tokenizer = ModelStore(Settings()).tokenizer()
    tasks = {f: TASKS[f](data) for f in sorted({r["family"] for r in rows})}
    questions = {(f, q.id): q for f, t in tasks.items() for q in scored_questions(t, 10_000, 0, "dev")}
    contexts: dict[str, tuple[list, list]] = {}
    changed: dict[tuple[str, str], list[int]] = {}
    examples: list[str] = []
    same_ids = checked = 0
    for r in rows:
        task, q = tasks[r["family"]], questions[(r["family"], r["id"])]
        if task.read is not None:
            doc, q = task.read(q)
            key = q.source
        else:
            doc, key = task.haystack.document, r["family"]
        if key not in contexts:
            contexts[key] = ([doc], build_context([doc], tokenizer).chunks)
        docs, chunks = contexts[key]
        differ = 0
        for read in r["reads"]:
            ids = json.loads(str(read.get("chunks") or "[]"))
            picked = [chunks[i] for i in ids if 0 <= i < len(chunks)]
            now, then = passages.whole(docs, picked), before.whole(docs, picked)
            if q.gold_spans and read.get("cover") not in (None, "None"):  # the ids still name the chunks read
                same_ids += abs(gold_cover(then, q.gold_spans) - float(read["cover"])) < 1e-6
                checked += 1
            if [c.text for c in now] != [c.text for c in then]:
                differ += 1
                a, b = next((x, y) for x, y in zip(now, then, strict=True) if x.text != y.text)
                examples.append(f"{r['family']} {r['wording']}: before ...{b.text[:60]!r} / now ...{a.text[:60]!r}")
        counts = changed.setdefault((r["family"], r["wording"]), [0, 0, 0])
        counts[0] += 1
        counts[1] += bool(differ)
        counts[2] += differ
        if differ:
            print(f"changed: {r['family']} {r['id'][:40]} {r['wording']} (row: {r['row']})")
    print(f"\n{len(rows)} asks of {rows_path.name}; passages at {rev} against now; of {checked} reads with a "
          f"gold span, {same_ids} have the gold cover recorded (the ids name the same chunks)\n")
    print("| family | wording | asks | asks with a read whose passages differ | reads that differ |\n"
          "|---|---|---|---|---|")
    for (family, wording), (n, asks, reads) in sorted(changed.items()):
        print(f"| {family} | {wording} | {n} | {asks} | {reads} |")
    for e in examples[:10]:
        print(f"- {e}")


if __name__ == "__main__":
    main()
