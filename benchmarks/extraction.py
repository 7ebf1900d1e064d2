"""Extraction speed and memory: pages/s and peak RSS growth for a generated 1,000-page PDF of plain
lines, a generated PDF of laid-out pages (two columns, a table, margin line numbers: the pages that
pay for reading order by position), and the 872-page DOCX handbook from ../shared/data. Each case runs
in a fresh process so peaks do not mix. ``--before TREE`` also reads the PDFs with the package of an
older checkout (e.g. ``git worktree add /tmp/before HEAD``), side by side.

    python benchmarks/extraction.py [--pages 1000] [--layout-pages 200] [--before TREE] [--repeat 1]
                                    [--out benchmarks/results/extraction.md]
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANDBOOK = ROOT.parent / "shared/data/docs/unstructured/handbook-872p.docx"


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 1e6


def _measure(path: str) -> None:
    """Child process: extract ``path`` and print one JSON line of measurements."""
    from assistant.documents import extract

    base = _rss_mb()
    pages = 0

    def count(_: object) -> None:
        nonlocal pages
        pages += 1

    t0 = time.perf_counter()
    doc = extract(path, progress=count)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3  # KB on Linux
    print(json.dumps({"seconds": seconds, "pages": pages or len(doc.segments), "chars": len(doc.text),
                      "segments": len(doc.segments), "peak_growth_mb": peak - base}))


def _run(path: Path, tree: Path = ROOT) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--child", str(path)], check=True, capture_output=True,
                         text=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                         cwd=tree)  # the readers' fork server puts its working folder first on sys.path
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _best(path: Path, repeat: int, tree: Path = ROOT) -> dict[str, float]:
    return min((_run(path, tree) for _ in range(max(repeat, 1))), key=lambda r: r["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--layout-pages", type=int, default=200)
    parser.add_argument("--before", type=Path, help="an older checkout whose reader is measured beside")
    parser.add_argument("--repeat", type=int, default=1, help="runs per PDF case; the fastest is shown "
                        "(a shared machine's noise only ever slows a run down)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        _measure(args.child)
        return
    sys.path.insert(0, str(ROOT / "tests"))
    from pdfgen import drawn_pdf, laid_out_page, text_pdf

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        pdf = text_pdf(Path(tmp) / "generated.pdf", args.pages)
        made = time.perf_counter() - t0
        name = f"generated PDF, {args.pages} pages x 30 lines ({pdf.stat().st_size / 1e6:.1f} MB, made in {made:.0f} s)"
        cases = [(name, pdf)]
        if args.layout_pages:
            t0 = time.perf_counter()
            laid = drawn_pdf(Path(tmp) / "layout.pdf", [laid_out_page()] * args.layout_pages)
            made = time.perf_counter() - t0
            cases.append((f"generated PDF, {args.layout_pages} laid-out pages: columns, table, line numbers "
                          f"({laid.stat().st_size / 1e6:.1f} MB, made in {made:.0f} s)", laid))
        for name, path in cases:
            if args.before:
                rows.append((f"{name}, before ({args.before.name})", "pages", _best(path, args.repeat, args.before)))
            rows.append((name, "pages", _best(path, args.repeat)))
    if HANDBOOK.is_file():
        rows.append(("handbook-872p.docx (812k chars; DOCX has no pages: sections)", "sections", _run(HANDBOOK)))
    lines = ["# Extraction benchmark", "",
             f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
             f"{time.strftime('%Y-%m-%d')}; each case in a fresh process; RSS growth = peak RSS minus RSS "
             "after imports.", "",
             "| file | units | seconds | units/s | chars | peak RSS growth (MB) |", "|---|---|---|---|---|---|"]
    for name, unit, r in rows:
        lines.append(f"| {name} | {r['pages']:,} {unit} | {r['seconds']:.1f} | {r['pages'] / r['seconds']:,.0f} "
                     f"| {r['chars']:,} | {r['peak_growth_mb']:.0f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)


if __name__ == "__main__":
    main()
