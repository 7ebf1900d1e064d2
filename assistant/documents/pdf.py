"""PDF text layer with pypdfium2, one segment per page (1-based page numbers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from assistant.documents.base import Extractor, register
from assistant.errors import InputError
from assistant.records import Segment


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
        try:
            for index in range(len(pdf)):
                page = pdf[index]
                textpage = page.get_textpage()
                try:
                    text = textpage.get_text_bounded().replace("\r\n", "\n").replace("\r", "\n")
                finally:
                    textpage.close()
                    page.close()
                yield Segment(text=text, page=index + 1)
        finally:
            pdf.close()


register(PdfExtractor())
