"""Time to render a cited PDF page with its sentence highlighted (``assistant.documents.pdfpage``).

Renders a full printed page (the LaTeX sample's page 2, ~4,000 characters, from the shared data) at
several scales, ``--runs`` times each after one warm-up, and prints the median and maximum.

    .venv/bin/python benchmarks/page_render.py [--runs 9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = Path(os.environ.get("ASSISTANT_TEST_DATA", ROOT.parent / "shared" / "data"))
PDF = DATA / "docs" / "pypdf-sample-files" / "004-pdflatex-4-pages" / "pdflatex-4-pages.pdf"
QUOTE = "This text should contain all letters of the alphabet"


def main() -> None:
    from assistant.documents.pdfpage import render_page

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    print(f"Render page 2 of {PDF.name} with the highlight ({os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f})\n\n| scale | pixels | median ms | max ms |\n|---|---|---|---|")
    for scale in (1.0, 1.5, 3.0):
        render_page(PDF, 2, QUOTE, scale=scale)
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            page = render_page(PDF, 2, QUOTE, scale=scale)
            times.append(time.perf_counter() - t0)
        print(f"| {scale} | {page.image.width}x{page.image.height} | {statistics.median(times) * 1000:.0f} "
              f"| {max(times) * 1000:.0f} |")


if __name__ == "__main__":
    main()
