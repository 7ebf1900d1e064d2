"""PDF text layer with pypdfium2, one segment per page (1-based page numbers); scanned pages OCR'd.

Filled form fields (AcroForm widgets) are not in the page content stream but are seen when the page is
rendered, so their values are put into the page text: on the label's line when the text to the left of
the field is a whole line of the page (``Company name: Harbour Supplies GmbH``), else appended as
``Label: value`` lines (label: the field's tooltip, else its name). Hidden widgets, push buttons and
signatures are left out; check boxes read ``yes``/``no``. Comments (text, free-text and markup
annotations with contents) follow their page as a segment with section ``comments``.

The page text is in reading order by position (:mod:`assistant.documents.pdftext`: lines, columns one
after another, table rows as ``cell | cell`` lines, margin line numbers at the start of their line).
Text a person cannot see (invisible render mode, white on white, 1-pt, outside the page) is kept apart,
as a segment with section ``invisible text`` after its page, so a strange answer can be traced to it.

Pages are opened and closed one at a time, so memory stays flat however long the file is. A page with
images but no text layer is rendered and read with tesseract when it is installed (up to
``Limits.max_ocr_pages`` per file); otherwise the page is reported with how to install it.

A scanned page's hidden text layer (text drawn invisible over the scan, as a scanner's OCR leaves it) is
not taken on trust (:mod:`assistant.documents.ocrlayer`): the first such page of the file, every page
whose layer does not read like language, and every later one once a layer was found wrong are rendered
and read with tesseract too (within the same OCR page limit), and compared word by word. When they
disagree the page's text is tesseract's reading, the layer goes to the page's ``invisible text``
section, and the page is reported ("the hidden text layer does not match the scanned image"). A layer
that does not read like language and could not be checked (no tesseract, over the OCR limit) is kept
as the page's text and reported.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from assistant.documents.base import (
    Extractor,
    current_limits,
    current_password,
    register,
    report,
    report_progress,
    report_title,
)
from assistant.documents.limits import Limits, raise_hint
from assistant.documents.ocr import OcrUnavailable, ocr_image
from assistant.documents.ocrlayer import layer_matches, reads_like_language
from assistant.documents.pdfraw import RawPdf
from assistant.documents.pdftext import page_text
from assistant.documents.sniff import PDF_WINDOW
from assistant.errors import InputError, PasswordRequired
from assistant.records import Segment

#: PDFium's load errors (pypdfium2's names for ``FPDF_ERR_*``) in a person's words.
PDFIUM_REASONS = {
    "Data format error": "not a valid PDF file",
    "File access error": "the file could not be opened",
    "Unsupported security scheme": "protected in a way this app cannot open",
}


def _has_images(page: Any) -> bool:
    import pypdfium2.raw as pdfium_c

    return any(True for _ in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2))


def _utf16(getter: Callable[..., int], *args: Any) -> str:
    """A PDFium UTF-16LE string (``getter(*args, buffer, length) -> bytes needed``) as a str."""
    import pypdfium2.raw as pdfium_c

    size = getter(*args, None, 0)
    if size <= 2:
        return ""
    buf = ctypes.create_string_buffer(size)
    getter(*args, ctypes.cast(buf, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size)
    return buf.raw[:size - 2].decode("utf-16-le", errors="replace")


def _one_line(text: str) -> str:
    return " ".join(text.replace("\r\n", "\n").replace("\r", "\n").split())


def _field_value(form: Any, annot: Any) -> str | None:
    """What a person sees in the widget, or None for push buttons, signatures and empty fields."""
    import pypdfium2.raw as pdfium_c

    kind = pdfium_c.FPDFAnnot_GetFormFieldType(form, annot)
    if kind in (pdfium_c.FPDF_FORMFIELD_PUSHBUTTON, pdfium_c.FPDF_FORMFIELD_SIGNATURE) or kind < 0:
        return None
    if kind == pdfium_c.FPDF_FORMFIELD_CHECKBOX:
        return "yes" if pdfium_c.FPDFAnnot_IsChecked(form, annot) else "no"
    if kind == pdfium_c.FPDF_FORMFIELD_RADIOBUTTON:
        if not pdfium_c.FPDFAnnot_IsChecked(form, annot):
            return None
        return _one_line(_utf16(pdfium_c.FPDFAnnot_GetFormFieldExportValue, form, annot)) or None
    value = _utf16(pdfium_c.FPDFAnnot_GetFormFieldValue, form, annot)
    return value.replace("\r\n", "\n").replace("\r", "\n").strip() or None


def _annotations(page: Any, textpage: Any, form: Any) -> tuple[list[tuple[str, str]], list[str]]:
    """``(label line or label, value)`` of the page's visible filled form fields, and its comments."""
    import pypdfium2.raw as pdfium_c

    fields: list[tuple[str, str]] = []
    comments: list[str] = []
    skip = (pdfium_c.FPDF_ANNOT_POPUP, pdfium_c.FPDF_ANNOT_LINK)
    for i in range(pdfium_c.FPDFPage_GetAnnotCount(page.raw)):
        annot = pdfium_c.FPDFPage_GetAnnot(page.raw, i)
        if not annot:
            continue
        try:
            if pdfium_c.FPDFAnnot_GetFlags(annot) & (pdfium_c.FPDF_ANNOT_FLAG_HIDDEN | pdfium_c.FPDF_ANNOT_FLAG_NOVIEW):
                continue
            subtype = pdfium_c.FPDFAnnot_GetSubtype(annot)
            if subtype == pdfium_c.FPDF_ANNOT_WIDGET:
                if form is None:
                    continue
                value = _field_value(form, annot)
                if value is None:
                    continue
                rect = pdfium_c.FS_RECTF()
                left = ""
                if pdfium_c.FPDFAnnot_GetRect(annot, rect):
                    bottom, top = sorted((rect.bottom, rect.top))
                    beside = textpage.get_text_bounded(0, bottom, min(rect.left, rect.right), top)
                    lines = [line for line in beside.replace("\r", "\n").split("\n") if line.strip()]
                    left = lines[-1].strip() if lines else ""
                label = (left
                         or _one_line(_utf16(pdfium_c.FPDFAnnot_GetFormFieldAlternateName, form, annot))
                         or _one_line(_utf16(pdfium_c.FPDFAnnot_GetFormFieldName, form, annot)))
                fields.append((label, value))
            elif subtype not in skip:
                contents = _utf16(pdfium_c.FPDFAnnot_GetStringValue, annot, b"Contents")
                contents = contents.replace("\r\n", "\n").replace("\r", "\n").strip()
                if contents:
                    author = _one_line(_utf16(pdfium_c.FPDFAnnot_GetStringValue, annot, b"T"))
                    comments.append(f"{author}: {contents}" if author else contents)
        finally:
            pdfium_c.FPDFPage_CloseAnnot(annot)
    return fields, comments


def _with_fields(text: str, fields: list[tuple[str, str]]) -> str:
    """``text`` with each value put on its label's line (first free whole-line match), else appended."""
    lines = text.split("\n")
    used: set[int] = set()
    extra: list[str] = []
    for label, value in fields:
        at = next((i for i, line in enumerate(lines) if i not in used and line.strip() == label), None)
        if at is not None and "\n" not in value:
            lines[at] = f"{lines[at].rstrip()} {value}"
            used.add(at)
        else:
            name = label.rstrip().rstrip(":").rstrip()
            extra.append(f"{name}: {value}" if name else value)
    body = "\n".join(lines)
    if extra:
        body = (body.rstrip("\n") + "\n" if body.strip() else "") + "\n".join(extra)
    return body


class _PageReader:
    """Tesseract's reading of a file's pages, at most ``Limits.max_ocr_pages`` of them; once tesseract is
    found missing it is not asked again. Also decides which hidden text layers to check."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.done = 0
        self.error: str | None = None
        self.sampled = False  # the file's first scan with a hidden layer was checked
        self.distrust = False  # a layer of this file was found wrong: every later one is checked

    def refusal(self) -> str | None:
        """Why no further page can be OCR'd (tesseract missing, the limit reached), or None."""
        if self.error:
            return self.error
        if self.done >= self.limits.max_ocr_pages:
            return f"over the OCR limit of {self.limits.max_ocr_pages} pages; {raise_hint('max_ocr_pages')}"
        return None

    def read(self, page: Any) -> str | None:
        """The page rendered and OCR'd; None (the reason in :meth:`refusal`) when it cannot be."""
        if self.refusal():
            return None
        bitmap = page.render(scale=self.limits.ocr_dpi / 72, grayscale=True)
        try:
            text = ocr_image(bitmap.to_pil(), self.limits.ocr_languages)
        except OcrUnavailable as exc:
            self.error = str(exc)
            return None
        finally:
            bitmap.close()
        self.done += 1
        return text

    def scanned(self, page: Any, where: str) -> str:
        """The text of a page with images and no text layer: its OCR, or "" and the page reported."""
        text = self.read(page)
        if text is None:
            report(f"scanned page not read: {self.refusal()}", where)
        return text or ""

    def checked(self, page: Any, where: str, text: str, invisible: str, layer: str) -> tuple[str, str]:
        """``(text, invisible)`` of a scanned page whose ``text`` holds the hidden ``layer``: unchanged
        when the layer is trusted or matches the OCR of the page; the OCR and the layer moved to
        ``invisible`` when they disagree (reported)."""
        odd = not reads_like_language(layer)
        if not (odd or self.distrust or not self.sampled):
            return text, invisible
        self.sampled = True
        seen = self.read(page)
        if seen is None:
            if odd:  # a plausible layer left unchecked is no news; a strange one is
                report("the hidden text layer does not read like text and could not be checked against the "
                       f"scanned image: {self.refusal()}", where)
            return text, invisible
        if layer_matches(layer, text, seen):
            return text, invisible
        self.distrust = True
        report("the hidden text layer does not match the scanned image; the page was read by OCR instead", where)
        return seen, "\n".join(part for part in (invisible, layer) if part.strip())


def open_pdf(path: Path, password: str | None = None) -> Any:
    """``path`` as a ``pypdfium2.PdfDocument``; :class:`PasswordRequired` when it is locked and the password
    is missing or wrong, :class:`InputError` when it is not a PDF or is corrupt."""
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(str(path), password=password)
    except pdfium.PdfiumError as exc:
        reason = str(exc)
        if "password" in reason.lower():
            raise PasswordRequired(str(path), "PDF", wrong=password is not None) from None
        # pypdfium2 says "Failed to load document (PDFium: Data format error)."; the inner part names the cause
        detail = reason.rstrip(".")
        if detail.startswith("Failed to load document (") and detail.endswith(")"):
            detail = detail[len("Failed to load document ("):-1]
        plain = next((said for code, said in PDFIUM_REASONS.items() if code in detail), "")
        if plain == PDFIUM_REASONS["Data format error"] and _starts_as_pdf(path):
            plain = DAMAGED  # a newcomer's truncated PDF had the words given to random bytes
        raise InputError(str(path), plain or f"corrupt or not a PDF ({detail})") from exc


DAMAGED = "a damaged or incomplete PDF file"  # it starts as one: cut short in a download, or broken


def _starts_as_pdf(path: Path) -> bool:
    """Whether the file has the PDF header near its start (where readers accept it), whatever follows."""
    try:
        with path.open("rb") as f:
            return b"%PDF-" in f.read(PDF_WINDOW)
    except OSError:
        return False


class PdfExtractor(Extractor):
    """Text of each page from PDFium. A password-protected file opens with the password given for it
    (:class:`PasswordRequired` without one or with a wrong one); a corrupt one raises :class:`InputError`."""

    suffixes = (".pdf",)
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        import pypdfium2 as pdfium

        pdf = open_pdf(path, current_password())  # the user password (ISO 32000-1 7.6.3.3) given, if any
        try:
            report_title(str(pdf.get_metadata_dict().get("Title") or ""))  # the Info dictionary's /Title
        except pdfium.PdfiumError:
            pass
        limits = current_limits()
        reader = _PageReader(limits)
        raw = RawPdf(pdf)  # fonts and content streams (pypdf), read only for a page whose text PDFium leaves out
        try:
            if pdf.get_formtype() != pdfium.raw.FORMTYPE_NONE:
                try:
                    pdf.init_forms()  # before any page is loaded, so widgets get their form handle
                except pdfium.PdfiumError as exc:
                    report(f"form fields not read ({exc})", "form")
            form = pdf.formenv.raw if pdf.formenv else None
            total = len(pdf)
            if limits.max_pages and total > limits.max_pages:
                raise InputError(str(path), f"refused: {total:,} pages (limit {limits.max_pages:,}); "
                                            f"{raise_hint('max_pages')}")
            for index in range(total):
                page = pdf[index]
                comments: list[str] = []
                try:
                    textpage = page.get_textpage()
                    try:
                        read = page_text(page, textpage, raw=raw, index=index)
                        text, invisible = read.text, read.invisible
                        if read.margin_numbers:  # never silent: the margin's line numbers are named, not read
                            values = sorted(int(n) for n in read.margin_numbers)
                            report(f"margin line numbers {values[0]}-{values[-1]} left out of the text",
                                   f"page {index + 1}")
                        fields: list[tuple[str, str]] = []
                        if pdfium.raw.FPDFPage_GetAnnotCount(page.raw) > 0:
                            fields, comments = _annotations(page, textpage, form)
                    finally:
                        textpage.close()
                    if not text.strip() and _has_images(page):
                        text = reader.scanned(page, f"page {index + 1}")
                    elif read.layer.strip():
                        text, invisible = reader.checked(page, f"page {index + 1}", text, invisible, read.layer)
                    if fields:
                        text = _with_fields(text, fields)
                finally:
                    page.close()
                report_progress(index + 1, total, "pages")
                yield Segment(text=text, page=index + 1)
                if comments:
                    yield Segment(text="\n".join(comments), page=index + 1, section="comments")
                if invisible.strip():
                    yield Segment(text=invisible, page=index + 1, section="invisible text")
        finally:
            pdf.close()


register(PdfExtractor())
