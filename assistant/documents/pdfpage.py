"""A PDF page rendered as the person saw it, with a quoted sentence's boxes highlighted.

The quote is found among the page's characters (:func:`assistant.documents.quote.find_quote`), PDFium
gives the rectangles of those characters line by line (``FPDFText_CountRects``/``GetRect``), and they
are drawn as translucent yellow boxes with a border over the page rendered with its form fields. A quote
not found on the page never fails: the page comes back without highlight and a note says so.

PDFium is not thread-safe, so pages are rendered one at a time in this process (a lock); the readers
use PDFium in a child process (:mod:`assistant.documents.isolate`).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from assistant.documents.pdf import open_pdf
from assistant.documents.pdftext import char_codes
from assistant.documents.quote import NOT_FOUND, QuoteMatch, find_quote
from assistant.errors import InputError
from assistant.records import Document, Source

if TYPE_CHECKING:
    from PIL import Image

DEFAULT_SCALE = 1.5  # 108 dpi: a US-letter page is 918 x 1188 pixels
MIN_SCALE = 0.25  # 18 dpi: the least a page is fitted down to
MAX_SCALE = 8.0  # 576 dpi: a US-letter page is 4,896 x 6,336 pixels (93 MB as RGB)
FILL = (255, 214, 0, 100)  # RGBA: translucent yellow, the text stays readable through it
BORDER = (214, 140, 0, 255)
PAD = 1.0  # points added around each box, so the border does not touch the glyphs

_PDFIUM = threading.Lock()

Match = Literal["whole", "part", "none"]


@dataclass(frozen=True)
class Highlight:
    """One highlighted box: ``points`` ``(left, bottom, right, top)`` in the page's PDF user space (points,
    origin at the bottom left, before the page's /Rotate); ``pixels`` ``(left, top, right, bottom)`` of the
    rectangle drawn on the image (``PAD`` points larger)."""

    points: tuple[float, float, float, float]
    pixels: tuple[int, int, int, int]


@dataclass(frozen=True)
class RenderedPage:
    """Page ``page`` (1-based) of ``pages`` of ``source`` as an RGB image at ``scale`` pixels per point.

    ``match`` says how much of the quote was found and highlighted; ``note`` says it to the person ('' when
    all of it was, or there was no quote).
    """

    source: str
    page: int
    pages: int
    scale: float
    image: Image.Image = field(repr=False)
    highlights: tuple[Highlight, ...] = ()
    match: Match = "none"
    note: str = ""


def is_pdf(path: str | Path) -> bool:
    """Whether ``path`` is a file on disk whose bytes are a PDF (whatever its name says)."""
    try:
        with Path(path).open("rb") as f:
            return b"%PDF-" in f.read(1024)
    except OSError:
        return False


def cited_place(source: Source, document: Document | None) -> tuple[int | None, str]:
    """``(page, quote)`` to show for a cited source: the page of its quoted sentence (the chunk starts on
    ``source.page``, the sentence may lie on a later page of it) and the sentence, else the chunk's text."""
    quote = source.snippet.strip().rstrip("\u2026").strip()
    if document is None:
        return source.page, quote
    if not quote:
        return source.page, document.text[source.start:source.end]
    # the quote's words, whatever spaces and line breaks lie between them in the document's text
    found = re.compile(r"\s+".join(map(re.escape, quote.split()))).search(
        document.text, source.start, source.end + len(quote))
    return (document.page_at(found.start()) or source.page) if found else source.page, quote


def render_page(path: str | Path, page: int, quote: str = "", *, scale: float = DEFAULT_SCALE,
                fit_width: int | None = None, password: str | None = None) -> RenderedPage:
    """Render page ``page`` (1-based) of the PDF at ``path`` with ``quote``'s characters highlighted.

    Args:
        path: a PDF file.
        page: 1-based page number.
        quote: the text to highlight ('' for none); see :func:`~assistant.documents.quote.find_quote`.
        scale: pixels per point (1.0 is 72 dpi).
        fit_width: when given, ``scale`` is lowered (never raised) so the image is at most this many pixels
            wide (down to :data:`MIN_SCALE`); the scale used is the result's ``scale``.
        password: the user password of a protected PDF.

    Raises:
        InputError: the file is missing, not a PDF or corrupt, or has no such page.
        PasswordRequired: the PDF is locked and ``password`` is missing or wrong.
    """
    name = str(path)
    if not Path(path).is_file():
        raise InputError(name, "is a folder, not a file" if Path(path).is_dir() else "file not found")
    if not 0 < scale <= MAX_SCALE:
        raise ValueError(f"scale must be in (0, {MAX_SCALE}], not {scale}")
    with _PDFIUM:
        pdf = open_pdf(Path(path), password)
        try:
            pages = len(pdf)
            if not 1 <= page <= pages:
                raise InputError(name, f"has no page {page}: it has {pages} page{'s' if pages != 1 else ''}")
            _init_forms(pdf)
            shown = pdf[page - 1]
            if fit_width is not None:
                scale = max(MIN_SCALE, min(scale, fit_width / max(1.0, shown.get_width())))
            image, boxes, match, chars = _render(shown, quote, scale)
        finally:
            pdf.close()
    highlights = tuple(boxes)
    return RenderedPage(name, page, pages, scale, _draw(image, highlights, scale), highlights,
                        _kind(match), _note(quote, match, page, chars))


def _init_forms(pdf: Any) -> None:
    """Form fields are drawn as the person saw them filled in (before any page is loaded)."""
    import pypdfium2 as pdfium

    if pdf.get_formtype() != pdfium.raw.FORMTYPE_NONE:
        try:
            pdf.init_forms()
        except pdfium.PdfiumError:
            pass  # the page is still drawn, without the fields' values


def _render(page: Any, quote: str, scale: float) -> tuple[Image.Image, list[Highlight], QuoteMatch, int]:
    """The page as an RGB image, the quote's boxes, the match and the number of characters on the page."""
    try:
        bitmap = page.render(scale=scale, rev_byteorder=True)
        try:
            image = bitmap.to_pil().convert("RGB")  # a copy: the bitmap's buffer is freed below
            match, chars, boxes = NOT_FOUND, 0, []
            if quote.strip():
                textpage = page.get_textpage()
                try:
                    codes = char_codes(textpage)
                    chars = len(codes)
                    match = find_quote([chr(c) for c in codes], quote)
                    to_pixels = bitmap.get_posconv(page).to_bitmap
                    boxes = [_highlight(box, to_pixels, image.size) for box in _boxes(textpage, match)]
                finally:
                    textpage.close()
        finally:
            bitmap.close()
    finally:
        page.close()
    return image, boxes, match, chars


Rect = tuple[float, float, float, float]


def _boxes(textpage: Any, match: QuoteMatch) -> list[Rect]:
    """PDFium's rectangles of the matched characters, one per run on a line: ``(left, bottom, right, top)``."""
    out = []
    for start, end in match.spans:
        rects = []
        for k in range(textpage.count_rects(start, end - start)):
            left, bottom, right, top = textpage.get_rect(k)
            if right > left and top > bottom:  # generated line breaks have empty boxes
                rects.append((left, bottom, right, top))
        out += line_boxes(rects)
    return out


def line_boxes(rects: list[Rect], *, gap: float = 0.6) -> list[Rect]:
    """``rects`` (in reading order, ``(left, bottom, right, top)``) with each run of neighbours on one line
    joined into one box: a rectangle joins the one before when they share at least half the height of the
    lower one and it starts at most ``gap`` times the line's height after that one ends (a word space).

    PDFium gives one rectangle per text object, and some writers (Qt's, for one) place every glyph or word
    apart: unjoined, a sentence is outlined letter by letter."""
    out: list[Rect] = []
    for rect in rects:
        if out:
            left, bottom, right, top = out[-1]
            shared = min(top, rect[3]) - max(bottom, rect[1])
            height = max(top - bottom, rect[3] - rect[1])
            if shared >= 0.5 * min(top - bottom, rect[3] - rect[1]) and left - 1 <= rect[0] <= right + gap * height:
                out[-1] = (left, min(bottom, rect[1]), max(right, rect[2]), max(top, rect[3]))
                continue
        out.append(rect)
    return out


def _highlight(box: tuple[float, float, float, float], to_pixels: Any, size: tuple[int, int]) -> Highlight:
    left, bottom, right, top = box
    x0, y0 = to_pixels(left - PAD, top + PAD)
    x1, y1 = to_pixels(right + PAD, bottom - PAD)
    w, h = size
    pixels = (max(0, min(x0, x1)), max(0, min(y0, y1)), min(w - 1, max(x0, x1)), min(h - 1, max(y0, y1)))
    return Highlight(box, pixels)


def _draw(image: Image.Image, highlights: tuple[Highlight, ...], scale: float) -> Image.Image:
    """``image`` with each box filled translucent yellow and outlined; fills drawn on one layer first, so
    boxes of neighbouring lines that overlap are not darker where they do. Only the region around the
    boxes is blended (a page at 4x is 8 million pixels)."""
    if not highlights:
        return image
    from PIL import Image, ImageDraw

    x0 = min(h.pixels[0] for h in highlights)
    y0 = min(h.pixels[1] for h in highlights)
    region = (x0, y0, max(h.pixels[2] for h in highlights) + 1, max(h.pixels[3] for h in highlights) + 1)
    layer = Image.new("RGBA", (region[2] - x0, region[3] - y0), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    boxes = [(left - x0, top - y0, right - x0, bottom - y0) for left, top, right, bottom in
             (h.pixels for h in highlights)]
    for box in boxes:
        draw.rectangle(box, fill=FILL)
    width = max(1, round(scale))
    for box in boxes:
        draw.rectangle(box, outline=BORDER, width=width)
    blended = Image.alpha_composite(image.crop(region).convert("RGBA"), layer).convert("RGB")
    image.paste(blended, region[:2])
    return image


def _kind(match: QuoteMatch) -> Match:
    return "whole" if match.whole else "part" if match.spans else "none"


def _note(quote: str, match: QuoteMatch, page: int, chars: int) -> str:
    if not quote.strip() or match.whole:
        return ""
    if chars == 0:
        return f"page {page} has no text layer (a scanned page?), so the cited text cannot be marked on it"
    if match.spans:
        return f"only part of the cited text was found on page {page}; that part is highlighted"
    return f"the cited text was not found on page {page}; the page is shown without highlight"
