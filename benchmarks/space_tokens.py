"""The bundled reader's tokens for the text of CUAD contracts that set their spaces as U+00A0 (no model read).

    .venv/bin/python benchmarks/space_tokens.py [--data ../shared/data] [--out PATH.json] [--against OTHER.json]

Each contract of :data:`CONTRACTS` (the 11 CUAD dev contracts whose extracted text held over 1% U+00A0 before
round four's session 17) is read with :func:`assistant.documents.extract` and its text tokenized by the bundled
reader's GGUF vocabulary (no weights loaded). ``--out`` keeps the texts' token counts and no-break spaces;
``--against`` prints them beside another run's, e.g. one made on an earlier commit with
``PYTHONPATH=<worktree of that commit>``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
CONTRACTS = ("XYBERNAUT", "NANOPHASE", "NETGEAR", "BIOCEPT", "MUSCLEPHARM", "CHANGEPOINT", "BANUESTRA", "BLUEHILLS",
             "TUBEMEDIA", "HPIL", "BLUEFLY")


def main() -> None:
    from llama_cpp import Llama

    from assistant.config import Settings
    from assistant.documents import extract
    from assistant.models import locate

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--against", type=Path, default=None)
    args = ap.parse_args()
    vocab = Llama(model_path=str(locate.llm_path(Settings().models)), vocab_only=True, verbose=False)
    pdfs = sorted((args.data / "cuad" / "pdf").iterdir())
    rows = {}
    for name in CONTRACTS:
        path = next(p for p in pdfs if p.name.upper().startswith(name))
        text = extract(path).text
        rows[name] = {"tokens": len(vocab.tokenize(text.encode("utf-8"))), "no_break": text.count("\u00a0")}
    other = json.loads(args.against.read_text()) if args.against else {}
    print("| contract | U+00A0 | tokens |" + (" tokens, against | ratio |" if other else ""))
    print("|---|---|---|" + ("---|---|" if other else ""))
    for name, r in rows.items():
        line = f"| {name} | {r['no_break']} | {r['tokens']} |"
        if name in other:
            line += f" {other[name]['tokens']} | {r['tokens'] / other[name]['tokens']:.3f} |"
        print(line)
    total = sum(r["tokens"] for r in rows.values())
    if other:
        before = sum(other[n]["tokens"] for n in rows if n in other)
        print(f"| all | | {total} | {before} | {total / before:.3f} |")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
