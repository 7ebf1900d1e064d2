"""PDFs read as a person sees them: filled form fields and comments (issue 15), and pages kept apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import shared_data

from assistant.documents import extract

BUG_INPUTS = shared_data().parent / "bug-inputs"


def _bug_input(*parts: str) -> Path:
    path = BUG_INPUTS.joinpath(*parts)
    if not path.is_file():
        pytest.skip(f"bug input not present at {path}")
    return path


def _pdf(objects: list[str]) -> bytes:
    """A PDF with ``objects`` numbered from 1 (1 is the catalog), with a correct cross-reference table."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _stream(data: str, extra: str = "") -> str:
    return f"<< /Length {len(data)} {extra}>>\nstream\n{data}\nendstream"


def form_pdf(path: Path) -> Path:
    """A filled form: a label with its field on the same line, a field below its label (tooltip
    ``Delivery address``, no appearance stream), a ticked check box, a hidden field, and a sticky note."""
    content = ("BT /F1 12 Tf 72 720 Td (Order form) Tj ET\n"
               "BT /F1 12 Tf 72 684 Td (Order number:) Tj ET\n"
               "BT /F1 12 Tf 72 640 Td (Where should we deliver?) Tj ET\n"
               "BT /F1 12 Tf 72 560 Td (Express delivery) Tj ET")
    widget = "/Type /Annot /Subtype /Widget /P 3 0 R /DA (/F1 12 Tf 0 g)"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R 6 0 R 7 0 R 8 0 R] "
        "/DR << /Font << /F1 4 0 R >> >> /DA (/F1 12 Tf 0 g) >> >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
        "/Contents 10 0 R /Annots [5 0 R 6 0 R 7 0 R 8 0 R 9 0 R] >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        f"<< {widget} /FT /Tx /T (order) /V (PO-77341) /Rect [180 676 450 696] /F 4 /AP << /N 11 0 R >> >>",
        f"<< {widget} /FT /Tx /T (addr) /TU (Delivery address) /V (Kai 4, 20457 Hamburg) "
        "/Rect [72 600 450 620] /F 4 >>",
        f"<< {widget} /FT /Btn /T (express) /V /Yes /AS /Yes /Rect [200 555 214 569] /F 4 >>",
        f"<< {widget} /FT /Tx /T (internal) /V (secret routing code) /Rect [72 500 450 520] /F 6 >>",
        "<< /Type /Annot /Subtype /Text /Rect [500 700 520 720] /T (Mira Jansen) "
        "/Contents (Please confirm the delivery date.) /F 4 >>",
        _stream(content),
        _stream("/Tx BMC BT /F1 12 Tf 2 5 Td (PO-77341) Tj ET EMC",
                "/Type /XObject /Subtype /Form /BBox [0 0 270 20] /Resources << /Font << /F1 4 0 R >> >> "),
    ]
    path.write_bytes(_pdf(objects))
    return path


def test_form_field_values_and_comments_are_read(tmp_path: Path) -> None:
    doc = extract(form_pdf(tmp_path / "order.pdf"))
    assert not doc.problems
    page, comments = doc.segments
    assert page.page == 1 and page.section is None
    lines = page.text.splitlines()
    assert "Order number: PO-77341" in lines  # on the label's line
    assert "Delivery address: Kai 4, 20457 Hamburg" in lines  # label above: the field's tooltip
    assert "Express delivery yes" in lines  # ticked check box
    assert "secret routing code" not in doc.text  # hidden widget: not seen by a person
    assert lines[0] == "Order form"
    assert comments.page == 1 and comments.section == "comments"
    assert comments.text == "Mira Jansen: Please confirm the delivery date."


def test_pdf_without_annotations_is_unchanged(tmp_path: Path) -> None:
    from pdfgen import text_pdf

    doc = extract(text_pdf(tmp_path / "plain.pdf", pages=2, lines_per_page=3))
    assert [s.page for s in doc.segments] == [1, 2]
    assert all(s.section is None for s in doc.segments)
    assert "Page 2 of the generated report" in doc.segments[1].text


def test_registration_form_shows_filled_values() -> None:
    doc = extract(_bug_input("pdf-form-fields", "registration.pdf"))
    lines = doc.text.splitlines()
    assert "Company name: Harbour Supplies GmbH" in lines
    assert "VAT number: DE 811 204 557" in lines
    assert "Supplier registration form" in lines


def test_licence_answer_across_pages_keeps_pages() -> None:
    doc = extract(_bug_input("pdf-answer-across-pages", "licence.pdf"))
    assert [s.page for s in doc.segments] == [1, 2]
    assert "The total price for the three-year licence is" in doc.segments[0].text
    assert "EUR 48,000" in doc.segments[1].text
    assert doc.page_at(doc.text.index("EUR 48,000")) == 2
    assert doc.page_at(doc.text.index("The total price")) == 1
