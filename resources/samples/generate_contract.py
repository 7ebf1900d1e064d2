#!/usr/bin/env python3
"""Generate the fictional sample contract shipped in ``resources/samples/``.

Produces ``supply-agreement.md``, a long (about 300 pages, 700-900 KB) Master
Supply and Services Agreement between two invented companies, Norhaven Medical
Devices GmbH (buyer) and Calder Precision Components Ltd. (supplier), and
``supply-agreement.facts.json``, the planted facts with gold answers used for
question-answering checks. Pages are marked with ``<!-- page N -->`` lines.

Everything is fictional. The output is deterministic (``random.Random(20261130)``,
standard library only, no network), so re-running reproduces the files byte for
byte:

    python3 resources/samples/generate_contract.py          # (re)write both files
    python3 resources/samples/generate_contract.py --check  # verify files are up to date

The text is assembled from the modules in ``resources/samples/contract_gen/``;
``contract_gen/facts.py`` lists the planted facts and verifies them.
"""

import argparse
import json
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from contract_gen import catalogue, continuity, facts, letters, logistics, minutes, records, sections  # noqa: E402

SEED = 20261130
MD_PATH = HERE / "supply-agreement.md"
FACTS_PATH = HERE / "supply-agreement.facts.json"
PAGE_MAX = 2600      # start a new page before a block once this many characters are on the page
PAGE_AT_HEADING = 1900  # ... or before a heading once this many are


def build_blocks():
    """All content blocks after the table of contents (one random stream, fixed order)."""
    rng = random.Random(SEED)
    book = facts.FactBook()
    parts = catalogue.make_parts(rng)
    people = minutes.make_people(rng)
    blocks = sections.preamble(book)
    blocks += sections.articles(rng, book)
    blocks += sections.signature(book)
    blocks += catalogue.schedule1(rng, book, parts)
    blocks += logistics.schedule2(rng, book, parts)
    blocks += logistics.schedule3(rng, book)
    blocks += catalogue.schedule4(rng, book, parts)
    blocks += records.schedule5(rng, book)
    blocks += records.schedule6(rng, parts)
    blocks += minutes.schedule7(rng, book, people, parts)
    blocks += letters.schedule8(rng, book, people)
    blocks += continuity.schedule9(rng, book, people)
    return blocks, book


def toc_block(pages):
    lines = ["## Table of Contents", ""]
    for title, page in pages:
        lines.append(f"- {title} .... page {page}")
    return "\n".join(lines)


def paginate(blocks):
    """Join blocks, inserting ``<!-- page N -->`` lines between them."""
    out, page, since = ["<!-- page 1 -->"], 1, 0
    for b in blocks:
        force = b.startswith(("## Table of Contents", "## Parties", "## Schedule"))
        if since and (force or since >= PAGE_MAX or (b.startswith("#") and since >= PAGE_AT_HEADING)):
            page += 1
            out.append(f"<!-- page {page} -->")
            since = 0
        out.append(b)
        since += len(b) + 2
    return "\n\n".join(out) + "\n"


def heading_pages(text):
    pages, page = [], 0
    for line in text.split("\n"):
        m = re.match(r"<!-- page (\d+) -->$", line)
        if m:
            page = int(m.group(1))
        elif line.startswith("## ") and line != "## Table of Contents":
            pages.append((line[3:], page))
    return pages


def generate():
    body, book = build_blocks()
    front = sections.title_page()
    pages = [(t, 0) for t in [b[3:] for b in body if b.startswith("## ")]]
    for _ in range(10):  # the TOC shows page numbers; iterate until they are stable
        text = paginate(front + [toc_block(pages)] + body)
        new = heading_pages(text)
        if new == pages:
            break
        pages = new
    else:
        raise AssertionError("table of contents did not converge")
    return text, facts.build_records(text, book)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="verify the files on disk instead of writing them")
    args = ap.parse_args(argv)
    text, records = generate()
    n_pages = len(facts.PAGE_RE.findall(text))
    size = len(text.encode("utf-8"))
    assert 700_000 <= size <= 900_000, f"document size {size} bytes is outside 700-900 KB"
    assert 250 <= n_pages <= 350, f"{n_pages} pages"
    assert len(records) >= 25
    facts_json = json.dumps(records, indent=2, ensure_ascii=False) + "\n"
    if args.check:
        ok = (MD_PATH.read_text(encoding="utf-8") == text and FACTS_PATH.read_text(encoding="utf-8") == facts_json)
        print("up to date" if ok else "OUT OF DATE: re-run generate_contract.py")
        return 0 if ok else 1
    MD_PATH.write_text(text, encoding="utf-8", newline="\n")
    FACTS_PATH.write_text(facts_json, encoding="utf-8", newline="\n")
    print(f"wrote {MD_PATH.name}: {size:,} bytes, {n_pages} pages; {FACTS_PATH.name}: {len(records)} facts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
