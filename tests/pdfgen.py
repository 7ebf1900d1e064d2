"""Test PDFs made with pypdfium2: pages with a real text layer, and scanned (image-only) pages."""

from __future__ import annotations

import ctypes
from pathlib import Path

LINE = "Page {n} of the generated report: the quarterly figures for region {n} are listed here."


def text_pdf(path: Path, pages: int, lines_per_page: int = 30) -> Path:
    """A PDF of ``pages`` US-letter pages, each with ``lines_per_page`` lines of Helvetica text."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument.new()
    try:
        for n in range(1, pages + 1):
            page = pdf.new_page(612, 792)
            for k in range(lines_per_page):
                obj = raw.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", ctypes.c_float(10))
                data = (LINE.format(n=n) + "\0").encode("utf-16-le")
                buf = ctypes.create_string_buffer(data, len(data))
                raw.FPDFText_SetText(obj, ctypes.cast(buf, ctypes.POINTER(raw.FPDF_WCHAR)))
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
