"""Peak memory and seconds of a question's context build and one pre-filter against the size of the text.

A document of 1, 10 and 50 MiB of text (characters) is made from the Paul Graham essays in
``../shared/data`` as one paragraph, the way a .docx holding all its text in one paragraph reads, with a
sentence at its very start that the question asks about. Two shapes: ``sentences`` (the essays' own
sentence ends) and ``no-breaks`` (every ``.!?`` made a comma: one sentence of the whole size, which the
chunker must cut at token boundaries); ``--shapes accented`` also runs the sentences with every "e" of
the essays an "\u0119" (text Python holds in 2 bytes a character, counted by the tokenizer itself rather than
the ASCII fast path). Each size and shape runs in a fresh process that loads the bundled
tokenizer and embedding model (no LLM), makes the text, then times ``build_context`` (chunks, BM25 index)
and one ``prefilter`` (BM25 top 20 with MiniLM fused, the defaults) of the question; the peak RSS of that
step is read from ``VmHWM`` after resetting it (``/proc/self/clear_refs``). ``--before TREE`` runs the
same with the package of another checkout (``git archive HEAD | tar -x -C TREE``) up to ``--before-max``
MiB. The size limit (``max_context_mb``) is not applied here: this measures what it is set from.

    .venv/bin/python benchmarks/ask_memory.py [--sizes 1,10,50] [--shapes sentences,no-breaks]
        [--before TREE --before-max 10] [--out benchmarks/results/ask_memory.md]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIB = 1024 * 1024
NEEDLE = "The access code for the north gate of the Harwell depot is ZEBRA-4471, changed every March. "
QUESTION = "What is the access code for the north gate of the Harwell depot?"


def _status(key: str) -> float:
    """``key`` (VmRSS, VmHWM) of this process in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _text(data: Path, mib: float, shape: str) -> str:
    from assistant.eval.filler import essays

    body = " ".join(" ".join(essays(data)).split())  # one paragraph
    head = NEEDLE
    if shape == "no-breaks":
        body, head = re.sub(r"[.!?]", ",", body), re.sub(r"[.!?]", ",", head)
    elif shape == "accented":
        body = body.replace("e", "\u0119")  # not Latin-1: 2 bytes a character in Python, and the exact tokenizer
    n = int(mib * MIB)
    return (head + body * (n // len(body) + 1))[:n]


def _child(args: argparse.Namespace) -> None:
    """One size in this process: print one JSON line of measurements."""
    sys.path.insert(0, str(args.tree))
    import assistant
    import assistant.models  # noqa: F401  (offline switches first)
    from assistant.config import Settings
    from assistant.records import Document, Segment
    from assistant.service import ModelStore
    from assistant.ttrag.context import build_context
    from assistant.ttrag.prefilter import prefilter

    assert Path(assistant.__file__).resolve().is_relative_to(args.tree.resolve()), assistant.__file__
    settings = Settings()
    store = ModelStore(settings)
    tokenizer, embedder = store.tokenizer(), store.embedder()
    embedder.embed(["warm up"])  # type: ignore[union-attr]
    warm = "A first sentence to warm up. " * 40  # loads the stemmer, stop words and language model
    build_context([Document("warm-up.txt", warm, (Segment(warm),), (0,))], tokenizer)
    text = _text(args.data, args.one, args.shape)
    doc = Document(f"one-paragraph-{args.one:g}MiB.docx", text, (Segment(text),), (0,))
    base = _status("VmRSS")
    try:
        Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS (Linux 4.0+)
        reset = True
    except OSError:
        reset = False
    t0 = time.perf_counter()
    ctx = build_context([doc], tokenizer, chunk_tokens=settings.pipeline.chunk_tokens)
    build_s = time.perf_counter() - t0
    opts = settings.pipeline
    t0 = time.perf_counter()
    hits = prefilter(ctx, QUESTION, embedder, shortlist=opts.shortlist, fusion=opts.fusion,
                     top_k=opts.prefilter_top_k)
    prefilter_s = time.perf_counter() - t0
    rank = next((r for r, h in enumerate(hits, 1) if "ZEBRA-4471" in h.chunk.text), 0)
    print(json.dumps({"mib": args.one, "shape": args.shape, "chunks": len(ctx.chunks), "tokens": ctx.n_tokens,
                      "base_mb": base, "peak_mb": _status("VmHWM"), "peak_reset": reset, "build_s": build_s,
                      "prefilter_s": prefilter_s, "needle_rank": rank}))


def _run(tree: Path, mib: float, shape: str, data: Path) -> dict[str, object]:
    cmd = [sys.executable, __file__, "--one", str(mib), "--shape", shape, "--tree", str(tree), "--data", str(data)]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    if out.returncode:
        return {"mib": mib, "shape": shape, "error": (out.stderr.strip().splitlines() or ["?"])[-1],
                "wall_s": time.perf_counter() - t0}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--sizes", default="1,10,50", help="MiB of text, comma-separated")
    ap.add_argument("--shapes", default="sentences,no-breaks")
    ap.add_argument("--before", type=Path, help="a checkout of the earlier code, run side by side")
    ap.add_argument("--before-max", type=float, default=10, help="largest size (MiB) run with --before")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--one", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--shape", help=argparse.SUPPRESS)
    ap.add_argument("--tree", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one is not None:
        _child(args)
        return
    sys.path.insert(0, str(ROOT))
    from assistant.eval.report import machine

    runs = []
    for shape in args.shapes.split(","):
        for mib in (float(s) for s in args.sizes.split(",")):
            trees = [("after", ROOT)] + ([("before", args.before)] if args.before and mib <= args.before_max else [])
            for label, tree in trees:
                row = {"code": label, **_run(tree, mib, shape, args.data)}
                print(json.dumps(row), file=sys.stderr, flush=True)
                runs.append(row)
    lines = ["# Memory and time of a question's context against the size of the text", "",
             f"Command: `python {' '.join(sys.argv)}`  ", f"Machine: {machine()} (shared with other work)", "",
             "| shape | MiB of text | code | chunks | tokens | RSS before MiB | **peak RSS MiB** | "
             "peak over before MiB | bytes per character | build s | pre-filter s | needle's rank |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        if "error" in r:
            lines.append(f"| {r['shape']} | {r['mib']:g} | {r['code']} | failed after {r['wall_s']:.0f} s: "
                         f"{r['error']} |||||||||")
            continue
        over = r["peak_mb"] - r["base_mb"]
        lines.append(f"| {r['shape']} | {r['mib']:g} | {r['code']} | {r['chunks']:,} | {r['tokens']:,} | "
                     f"{r['base_mb']:,.0f} | **{r['peak_mb']:,.0f}** | {over:,.0f} | {over / r['mib']:.0f} | "
                     f"{r['build_s']:.1f} | {r['prefilter_s']:.2f} | {r['needle_rank'] or 'not in top 10'} |")
    growth = []
    for shape in args.shapes.split(","):
        done = sorted((r for r in runs if r["shape"] == shape and r["code"] == "after" and "error" not in r),
                      key=lambda r: r["mib"])
        if len(done) >= 2 and done[-1]["mib"] > done[0]["mib"]:
            a, b = done[0], done[-1]
            slope = ((b["peak_mb"] - b["base_mb"]) - (a["peak_mb"] - a["base_mb"])) / (b["mib"] - a["mib"])
            growth.append(f"{shape} {slope:.1f} MiB per MiB of text ({a['mib']:g} to {b['mib']:g} MiB)")
    if growth:
        lines += ["", "Peak over before grows by " + "; ".join(growth) + " (after)."]
    lines += ["", "RSS before = the process with the bundled tokenizer and MiniLM embedder loaded, one tiny context "
              "built (the stemmer, stop words and language model loaded) and the text made; "
              "peak RSS = the most it held during the context build and one pre-filter (the reader LLM and the "
              "re-ranker are not loaded: add their RSS for a whole question). Bytes per character = peak over "
              "before / characters of text. The needle's rank is that of the chunk holding the first sentence "
              "in the pre-filter's top 10."]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
