"""``assistant ask ... --show-source N --png OUT.png``: the page of source N as the person saw it, the
cited sentence highlighted, written as a PNG image (only where asked; nothing else is written)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from assistant.documents import PasswordPrompt
from assistant.documents.pdfpage import DEFAULT_SCALE, RenderedPage, cited_place, is_pdf, render_page
from assistant.errors import InputError, PasswordRequired
from assistant.records import Answer, Document, Source


def add_source_page_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--show-source N`` and ``--png OUT.png`` to ``assistant ask``."""
    g = parser.add_argument_group("the cited page (PDF sources)")
    g.add_argument("--show-source", type=int, metavar="N",
                   help="with --png: write the page of source N (numbered as under Sources) with the cited "
                        "sentence highlighted")
    g.add_argument("--png", metavar="OUT.png", help="the PNG file --show-source writes")
    g.add_argument("--scale", type=float, default=DEFAULT_SCALE, metavar="X",
                   help=f"pixels per PDF point of the PNG (default {DEFAULT_SCALE}: {DEFAULT_SCALE * 72:.0f} dpi)")


def check_source_page_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse (usage error, before any file is read) ``--show-source`` without ``--png`` and the reverse."""
    if (args.show_source is None) != (args.png is None):
        parser.error("--show-source N and --png OUT.png go together: the page of source N is written to OUT.png")
    if args.show_source is not None and args.show_source < 1:
        parser.error("--show-source counts from 1, as the sources are numbered")
    if not 0 < args.scale <= 8:
        parser.error("--scale must be above 0 and at most 8")


def write_source_page(answer: Answer, documents: Sequence[Document], n: int, out: str | Path, *,
                      scale: float = DEFAULT_SCALE, passwords: PasswordPrompt | None = None) -> int:
    """Write source ``n``'s page with its sentence highlighted to ``out``; says what it did, or why not,
    on stderr. Returns the exit status: 0 written, 1 not."""
    source = next((s for s in answer.sources if s.n == n), None)
    if source is None:
        have = f"sources 1-{len(answer.sources)}" if answer.sources else "no sources"
        return _fail(f"there is no source {n}: the answer has {have}")
    if not is_pdf(source.source):
        return _fail(f"source {n} ({source.source}) is not a PDF file on disk: page images exist only for "
                     "PDFs; its passage is printed above under Sources")
    document = next((d for d in documents if d.source == source.source), None)
    page, quote = cited_place(source, document)
    try:
        rendered = _render(source, page or 1, quote, scale, passwords)
    except InputError as exc:
        return _fail(str(exc))
    try:
        rendered.image.save(out, format="PNG")
    except OSError as exc:
        return _fail(f"could not write {out}: {exc.strerror or exc}")
    marked = "the cited sentence highlighted" if rendered.highlights else "no highlight"
    print(f"Wrote page {rendered.page} of {rendered.pages} of {source.source} (source [{n}]) to {out}, {marked}.",
          file=sys.stderr)
    if rendered.note:
        print(f"note: {rendered.note}", file=sys.stderr)
    return 0


def _render(source: Source, page: int, quote: str, scale: float,
            passwords: PasswordPrompt | None) -> RenderedPage:
    password: str | None = None
    while True:
        try:
            return render_page(source.source, page, quote, scale=scale, password=password)
        except PasswordRequired as exc:
            if passwords is None:
                raise InputError(exc.source, f"{exc.reason}: give its password with --password") from None
            password = passwords(exc.source, exc.wrong)
            if password is None:
                raise


def _fail(message: str) -> int:
    print(f"error: no page image: {message}", file=sys.stderr)
    return 1
