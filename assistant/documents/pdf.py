"""PDF text layer with pypdfium2, one segment per page (1-based page numbers); scanned pages OCR'd.

Pages are opened and closed one at a time, so memory stays flat however long the file is. A page with
images but no text layer is rendered and read with tesseract when it is installed (up to
``Limits.max_ocr_pages`` per file); otherwise the page is reported with how to install it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assistant.documents.base import Extractor, current_limits, register, report, report_progress
from assistant.documents.ocr import OcrUnavailable, ocr_image
from assistant.errors import InputError
from assistant.records import Segment


def _has_images(page: Any) -> bool:
    import pypdfium2.raw as pdfium_c

    return any(True for _ in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2))


def _ocr_page(page: Any, dpi: int, languages: str) -> str:
    bitmap = page.render(scale=dpi / 72, grayscale=True)
    try:
        return ocr_image(bitmap.to_pil(), languages)
    finally:
        bitmap.close()


class PdfExtractor(Extractor):
    """Text of each page from PDFium. Encrypted and corrupt files raise :class:`InputError`."""

    suffixes = (".pdf",)

    def segments(self, path: Path) -> Iterator[Segment]:
        import pypdfium2 as pdfium

        try:
            pdf = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError as exc:
            reason = str(exc)
            if "password" in reason.lower():
                raise InputError(str(path), "encrypted PDF (password protected)") from exc
            raise InputError(str(path), f"corrupt or not a PDF ({reason})") from exc
        limits = current_limits()
        ocr_done = 0
        ocr_error: str | None = None
        try:
            total = len(pdf)
            for index in range(total):
                page = pdf[index]
                try:
                    textpage = page.get_textpage()
                    try:
                        text = textpage.get_text_bounded().replace("\r\n", "\n").replace("\r", "\n")
                    finally:
                        textpage.close()
                    if not text.strip() and _has_images(page):
                        where = f"page {index + 1}"
                        if ocr_error:
                            report(f"scanned page not read: {ocr_error}", where)
                        elif ocr_done >= limits.max_ocr_pages:
                            report(f"scanned page not read: over the OCR limit of {limits.max_ocr_pages} pages",
                                   where)
                        else:
                            try:
                                text = _ocr_page(page, limits.ocr_dpi, limits.ocr_languages)
                                ocr_done += 1
                            except OcrUnavailable as exc:
                                ocr_error = str(exc)
                                report(f"scanned page not read: {ocr_error}", where)
                finally:
                    page.close()
                report_progress(index + 1, total, "pages")
                yield Segment(text=text, page=index + 1)
        finally:
            pdf.close()


register(PdfExtractor())
