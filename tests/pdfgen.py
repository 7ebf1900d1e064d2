"""Test PDFs made with pypdfium2: pages with a real text layer, scanned (image-only) pages, and pages
drawn item by item in a chosen order (margin line numbers, tables, columns, invisible text)."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path

LINE = "Page {n} of the generated report: the quarterly figures for region {n} are listed here."


def _text_object(pdf: object, text: str, size: float, font: str = "Helvetica") -> object:
    """A new text object of ``pdf`` holding ``text`` in one of the standard 14 fonts at ``size`` pt (not
    yet placed on a page)."""
    import pypdfium2.raw as raw

    obj = raw.FPDFPageObj_NewTextObj(pdf.raw, font.encode(), ctypes.c_float(size))  # type: ignore[attr-defined]
    data = (text + "\0").encode("utf-16-le")
    buf = ctypes.create_string_buffer(data, len(data))
    raw.FPDFText_SetText(obj, ctypes.cast(buf, ctypes.POINTER(raw.FPDF_WCHAR)))
    return obj


def text_pdf(path: Path, pages: int, lines_per_page: int = 30) -> Path:
    """A PDF of ``pages`` US-letter pages, each with ``lines_per_page`` lines of Helvetica text."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument.new()
    try:
        for n in range(1, pages + 1):
            page = pdf.new_page(612, 792)
            for k in range(lines_per_page):
                obj = _text_object(pdf, LINE.format(n=n), 10)
                raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 40, 750 - 22 * k)
                raw.FPDFPage_InsertObject(page.raw, obj)
            raw.FPDFPage_GenerateContent(page.raw)
            page.close()
        pdf.save(str(path))
    finally:
        pdf.close()
    return path


def scanned_pdf(path: Path, text: str) -> Path:
    """A one-page PDF holding only a 300-dpi picture of ``text`` (no text layer), made with Pillow."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("L", (2480, 1000), 255)
    draw = ImageDraw.Draw(image)
    draw.text((150, 300), text, fill=0, font=ImageFont.load_default(size=110))
    image.save(path, "PDF", resolution=300.0)
    return path


@dataclass(frozen=True)
class Text:
    """A line of Helvetica text at ``(x, y)`` (points, origin bottom left), drawn in the order given.

    ``mode`` is the text render mode (ISO 32000-1 9.3.6: 0 fill, 3 invisible); ``gray`` the fill, 0 black
    to 255 white; ``turned`` runs the line upwards (rotated 90 degrees); ``font`` one of the standard 14.
    """

    x: float
    y: float
    text: str
    size: float = 11
    mode: int = 0
    gray: int = 0
    turned: bool = False
    font: str = "Helvetica"


@dataclass(frozen=True)
class Box:
    """A filled rectangle ``(x, y, width, height)`` in points; ``picture`` draws it as an image instead."""

    x: float
    y: float
    width: float
    height: float
    gray: int = 40
    picture: bool = False


def drawn_pdf(path: Path, pages: list[list[Text | Box]]) -> Path:
    """A PDF of US-letter pages whose content stream draws each page's items in the order given."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    from PIL import Image

    pdf = pdfium.PdfDocument.new()
    try:
        for items in pages:
            page = pdf.new_page(612, 792)
            for item in items:
                if isinstance(item, Box) and item.picture:
                    image = pdfium.PdfImage.new(pdf)
                    bitmap = pdfium.PdfBitmap.from_pil(Image.new("RGB", (64, 64), (item.gray,) * 3))
                    image.set_bitmap(bitmap)
                    image.set_matrix(pdfium.PdfMatrix().scale(item.width, item.height).translate(item.x, item.y))
                    page.insert_obj(image)
                    continue
                if isinstance(item, Box):
                    obj = raw.FPDFPageObj_CreateNewRect(item.x, item.y, item.width, item.height)
                    raw.FPDFPageObj_SetFillColor(obj, item.gray, item.gray, item.gray, 255)
                    raw.FPDFPath_SetDrawMode(obj, raw.FPDF_FILLMODE_ALTERNATE, 0)
                else:
                    obj = _text_object(pdf, item.text, item.size, item.font)
                    raw.FPDFTextObj_SetTextRenderMode(obj, item.mode)
                    raw.FPDFPageObj_SetFillColor(obj, item.gray, item.gray, item.gray, 255)
                    raw.FPDFPageObj_Transform(obj, *((0, 1, -1, 0) if item.turned else (1, 0, 0, 1)), item.x, item.y)
                raw.FPDFPage_InsertObject(page.raw, obj)
            raw.FPDFPage_GenerateContent(page.raw)
            page.close()
        pdf.save(str(path))
    finally:
        pdf.close()
    return path


CLAUSE = ["The supplier shall deliver the goods within thirty days",
          "of the order date, at its own risk and cost, to the",
          "address named in the order. Late delivery entitles the",
          "buyer to a reduction of the price by one percent for",
          "each week of delay, up to ten percent in total."]
PRICES = [("Item", "Quantity", "Unit price"), ("Widget", "4", "3.50 EUR"), ("Gasket", "12", "0.80 EUR"),
          ("Valve", "2", "41.00 EUR"), ("Hose clamp", "30", "0.25 EUR")]
NEWS_LEFT = ["Harbour Supplies opened its second", "warehouse in Hamburg in March, and",
             "the new site handles all orders", "for the northern region from now."]
NEWS_RIGHT = ["Prices for gaskets rise by four", "percent on the first of July; the",
              "older price list stays valid for", "orders placed before that date."]


TYPED = ["PageMaster Corporation  shall provide a minimum of 100,000 up to",
         "500,000 pagers for the  fulfillment of this promotion to all",
         "Purchase Customers who  prepay their annual airtime."]  # justified: two spaces at the same column


def typed_lines(lines: list[str], top: float = 700) -> list[Text | Box]:
    """``lines`` set as a typewriter sets them, in 10-pt Courier (6 pt a character): each word drawn
    alone at its column, as filings converted from plain text draw them, so the spaces of different
    lines can line up."""
    items: list[Text | Box] = []
    for k, line in enumerate(lines):
        column = 0
        for word in line.split(" "):
            if word:
                items.append(Text(72 + 6 * column, top - 12 * k, word, 10, font="Courier"))
            column += len(word) + 1
    return items


def numbered_lines(top: float = 700) -> list[Text | Box]:
    """:data:`CLAUSE` with line numbers in the left margin, the numbers drawn first, as one block."""
    numbers: list[Text | Box] = [Text(40, top - 16 * k, str(k + 1), 9) for k in range(len(CLAUSE))]
    return numbers + [Text(72, top - 16 * k, line) for k, line in enumerate(CLAUSE)]


def price_table(top: float = 690, by_column: bool = True) -> list[Text | Box]:
    """:data:`PRICES` as a three-column table with 15-pt rows, drawn column by column or row by row."""
    cells = [(r, c) for c in range(3) for r in range(len(PRICES))] if by_column else \
        [(r, c) for r in range(len(PRICES)) for c in range(3)]
    return [Text((72, 200, 300)[c], top - 15 * r, PRICES[r][c]) for r, c in cells]


def two_columns(top: float = 700) -> list[Text | Box]:
    """Two columns of 10-pt prose whose lines are drawn alternately, left then right."""
    items: list[Text | Box] = []
    for k, (left, right) in enumerate(zip(NEWS_LEFT, NEWS_RIGHT, strict=True)):
        items += [Text(72, top - 14 * k, left, 10), Text(320, top - 14 * k, right, 10)]
    return items


def laid_out_page() -> list[Text | Box]:
    """About as many characters as a :func:`text_pdf` page (2,300): a title, two 20-line columns drawn
    line by line across both, a five-row table drawn column by column, five numbered lines and a
    10-line paragraph."""
    items: list[Text | Box] = [Text(72, 760, "Newsletter of the northern region", 16)]
    for k in range(20):
        items += [Text(72, 730 - 13 * k, NEWS_LEFT[k % 4], 10), Text(320, 730 - 13 * k, NEWS_RIGHT[k % 4], 10)]
    items += price_table(450)
    items += numbered_lines(330)
    items += [Text(72, 230 - 14 * k, CLAUSE[k % 5], 10) for k in range(10)]
    return items


CONTRACT = ["9. Late Delivery and Liquidated Damages",
            "9.1 If the Supplier fails to deliver any Products by the delivery date",
            "stated in the Purchase Order, the Buyer may claim liquidated damages",
            "of one half percent of the price of the late Products for each full",
            "week of delay, up to a maximum of five percent of that price.",
            "9.2 The Supplier shall notify the Buyer in writing without delay as soon",
            "as it becomes aware that a delivery date will not be met, stating the",
            "reasons and the expected new date of delivery.",
            "10. Acceptance and Inspection",
            "10.1 The Buyer shall inspect the Products within ten working days after",
            "their arrival at the delivery address and shall give notice of any",
            "visible defects to the Supplier within that period."]


def scan_image(lines: list[str], dpi: int = 200) -> object:
    """A US-letter page of ``lines`` (11-pt sans serif, 16-pt line pitch from 1 inch down) rendered by Pillow
    at ``dpi``: what a scanner makes of a printed page."""
    from PIL import Image, ImageDraw, ImageFont

    scale = dpi / 72
    image = Image.new("L", (round(612 * scale), round(792 * scale)), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=round(11 * scale))
    for k, line in enumerate(lines):
        draw.text((72 * scale, (72 + 16 * k) * scale), line, fill=0, font=font)
    return image


def layered_scan_pdf(path: Path, pages: list[tuple[list[str], list[str]]], dpi: int = 200) -> Path:
    """A PDF of scanned pages, each ``(lines on the scan, lines of its invisible text layer)``: the page is
    one full-page image (:func:`scan_image`) with the layer's lines drawn over it in render mode 3 (invisible)
    where the scan's lines are, as a scanner's OCR leaves them."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument.new()
    try:
        for lines, layer in pages:
            page = pdf.new_page(612, 792)
            image = pdfium.PdfImage.new(pdf)
            bitmap = pdfium.PdfBitmap.from_pil(scan_image(lines, dpi))
            image.set_bitmap(bitmap)
            image.set_matrix(pdfium.PdfMatrix().scale(612, 792))
            page.insert_obj(image)
            for k, line in enumerate(layer):
                obj = _text_object(pdf, line, 11)
                raw.FPDFTextObj_SetTextRenderMode(obj, raw.FPDF_TEXTRENDERMODE_INVISIBLE)
                raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 72, 792 - 72 - 16 * k - 10)
                raw.FPDFPage_InsertObject(page.raw, obj)
            raw.FPDFPage_GenerateContent(page.raw)
            page.close()
        pdf.save(str(path))
    finally:
        pdf.close()
    return path


def random_words(count: int, seed: int = 52) -> list[str]:
    """``count`` words drawn at random from a list of unrelated English words, as lines of eight: the junk
    layer a poor scanner OCR or a tampered file leaves over a scan."""
    import random

    pool = ("harbour violet cabinet thunder pencil orbit meadow copper lantern saddle velvet quartz "
            "glacier falcon tunnel biscuit marble canyon pepper whistle basket dolphin ember fossil "
            "garnet hammock island jigsaw kettle lemon mosaic nectar oyster pylon quiver raven spindle "
            "tulip umbrella vortex walnut yacht zephyr anchor bramble cobalt").split()
    rng = random.Random(seed)
    words = [rng.choice(pool) for _ in range(count)]
    return [" ".join(words[i:i + 8]) for i in range(0, count, 8)]
