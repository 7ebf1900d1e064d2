"""A page's fonts and content stream operations, for what PDFium does not expose: pypdf reads them.

pypdf reads the copy of the file PDFium writes (the objects as PDFium repaired them, decrypted), so a file
with no cross-reference table, or one opened with a password, reads as PDFium read it. The copy is made on
first use, for the rare pages that need it. Nothing pypdf raises leaves this module: a file or a page it
cannot read gives None, and the page keeps what PDFium gave.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class PdfFont:
    """A font resource: its ``/Subtype``, its ``/Encoding`` when that is a name (``""`` otherwise), and
    whether it has ``/DescendantFonts`` (a Type0 font's CIDFont, ISO 32000-1 9.7.6.1)."""

    subtype: str
    encoding: str
    composite: bool


@dataclass(frozen=True, slots=True)
class PageContent:
    """A page's fonts by resource name and its content stream operations in order: the operator and its
    operands, names as ``str`` without the slash, strings as ``bytes``, arrays as lists."""

    fonts: dict[str, PdfFont]
    operations: list[tuple[str, list[Any]]]


class RawPdf:
    """The fonts and content streams of a ``pypdfium2.PdfDocument``'s pages, read by pypdf on first use."""

    def __init__(self, pdf: Any) -> None:
        self._pdf = pdf
        self._reader: Any = None

    def page(self, index: int) -> PageContent | None:
        """Page ``index``'s fonts and operations; None when the file or the page cannot be read."""
        try:
            if self._reader is None:
                self._reader = False  # a file pypdf cannot open is not copied again
                self._reader = _open(self._pdf)
            return _content(self._reader, index) if self._reader else None
        except Exception:  # noqa: BLE001  (pypdf raises many types on a damaged file; PDFium's text stays)
            return None


def _open(pdf: Any) -> Any:
    import pypdf
    import pypdfium2 as pdfium

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # it logs each repair it makes
    copy = io.BytesIO()
    pdf.save(copy, flags=pdfium.raw.FPDF_REMOVE_SECURITY)
    return pypdf.PdfReader(copy, strict=False)


def _content(reader: Any, index: int) -> PageContent:
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject

    page = reader.pages[index]
    fonts = page.get("/Resources", DictionaryObject()).get_object().get("/Font", DictionaryObject()).get_object()
    found: dict[str, PdfFont] = {}
    for key, value in (fonts.items() if isinstance(fonts, DictionaryObject) else ()):
        font = value.get_object()
        if isinstance(font, DictionaryObject):
            subtype, encoding = font.get("/Subtype"), font.get("/Encoding")
            kids = font.get("/DescendantFonts", ArrayObject()).get_object()
            found[key[1:]] = PdfFont(subtype[1:] if isinstance(subtype, NameObject) else "",
                                     encoding[1:] if isinstance(encoding, NameObject) else "",
                                     isinstance(kids, ArrayObject) and len(kids) > 0)
    contents = page.get_contents()
    return PageContent(found, [(op.decode("latin-1"), [_plain(v) for v in operands])
                               for operands, op in ([] if contents is None else contents.operations)
                               if op != b"INLINE IMAGE"])


def _plain(value: Any) -> Any:
    """A content stream operand as a plain value: names, strings and arrays; numbers stay as they are."""
    from pypdf.generic import ArrayObject, ByteStringObject, NameObject, TextStringObject

    if isinstance(value, NameObject):
        return str(value[1:])
    if isinstance(value, ByteStringObject | TextStringObject):
        return bytes(value.original_bytes)
    if isinstance(value, ArrayObject):
        return [_plain(v) for v in value]
    return value
