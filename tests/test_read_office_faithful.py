"""Issue 15: DOCX and XLSX are read faithfully, no text a person can see is dropped.

The reproducers in ``../shared/bug-inputs`` (skipped when absent) and files the tests build: DOCX
packages written by python-docx or by hand (headers, notes, comments, tracked changes, content
controls, nested tables, text boxes, Strict Open XML) and workbooks written by openpyxl then edited
the way other programs write them (a wrong ``<dimension>``, formulas without cached values).
"""

from __future__ import annotations

import os
import re
import zipfile
from pathlib import Path

import pytest

from assistant.documents import extract
from assistant.records import Document

ROOT = Path(__file__).resolve().parents[1]
BUG_INPUTS = Path(os.environ.get("ASSISTANT_BUG_INPUTS", ROOT.parent / "shared" / "bug-inputs"))

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W_STRICT = "http://purl.oclc.org/ooxml/wordprocessingml/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
REL_STRICT = "http://purl.oclc.org/ooxml/officeDocument/relationships"


def bug_input(folder: str, name: str) -> Path:
    path = BUG_INPUTS / folder / name
    if not path.is_file():
        pytest.skip(f"bug input not present at {path}")
    return path


def sections(doc: Document) -> dict[str | None, str]:
    found: dict[str | None, str] = {}
    for seg in doc.segments:
        found[seg.section] = found[seg.section] + "\n" + seg.text if seg.section in found else seg.text
    return found


# --- the reproducers -------------------------------------------------------------------------------

def test_docx_header_and_footer_are_read() -> None:
    doc = extract(bug_input("docx-header-footer", "letter.docx"))
    parts = sections(doc)
    assert "Quarterly maintenance letter. Please keep this reference for your records." in parts[None]
    assert parts["header"] == "Northwind Facilities Ltd - Contract ref NW-7731-Q"
    assert parts["footer"] == "Invoice queries: billing desk extension 4417"


def test_docx_tracked_changes_read_as_accepted() -> None:
    doc = extract(bug_input("docx-tracked-insert", "contract.docx"))
    assert "The delivery deadline is April 14 at the Leeds depot." in doc.text
    assert "Late delivery costs 2 percent of the order value per week." in doc.text
    assert "March 3" not in doc.text


def test_docx_content_controls_are_read() -> None:
    doc = extract(bug_input("docx-content-control", "tender.docx"))
    assert "Tender response for Harbour Bridge repainting, client Tallis Port Authority" in doc.text
    assert "Prepared by Marlow Coatings on behalf of the consortium." in doc.text


def test_xlsx_wrong_dimension_does_not_hide_rows() -> None:
    doc = extract(bug_input("xlsx-wrong-dimension", "stock.xlsx"))
    assert [s.section for s in doc.segments] == ["Stock rows 1-4"]
    assert doc.text.splitlines() == ["Part | Warehouse | Units", "Hinge H-20 | Bristol | 340",
                                     "Bracket B-7 | Derby | 125", "Valve V-3 | Hull | 58"]


def test_xlsx_formula_without_cached_value_is_not_blank() -> None:
    doc = extract(bug_input("xlsx-formula-no-cache", "budget.xlsx"))
    total = next(line for line in doc.text.splitlines() if line.startswith("Total"))
    assert total in ("Total | 2480", "Total | =SUM(B2:B4) (formula; value not computed)")


# --- DOCX built here ---------------------------------------------------------------------------------

def _package(path: Path, body: str, parts: dict[str, tuple[str, str]] | None = None, *,
             strict: bool = False) -> Path:
    """A minimal hand-written .docx: ``body`` is the inside of ``w:body``; ``parts`` maps a part name
    under word/ to (relationship type's last word, its XML)."""
    w, rel = (W_STRICT, REL_STRICT) if strict else (W, REL)
    rel_base = "http://purl.oclc.org/ooxml/officeDocument/relationships" if strict else \
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    ns = (f'xmlns:w="{w}" xmlns:r="{rel}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
          'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
          'xmlns:v="urn:schemas-microsoft-com:vml"')
    overrides = "".join(f'<Override PartName="/word/{name}" ContentType="application/xml"/>' for name in parts or {})
    rels = "".join(f'<Relationship Id="rId{i}" Type="{rel_base}/{kind}" Target="{name}"/>'
                   for i, (name, (kind, _)) in enumerate((parts or {}).items(), start=10))
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("[Content_Types].xml",
                    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                    '<Default Extension="xml" ContentType="application/xml"/>'
                    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
                    f'officedocument.wordprocessingml.document.main+xml"/>{overrides}</Types>')
        zf.writestr("_rels/.rels",
                    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                    f'<Relationship Id="rId1" Type="{rel_base}/officeDocument" Target="word/document.xml"/>'
                    '</Relationships>')
        zf.writestr("word/_rels/document.xml.rels",
                    f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}'
                    '</Relationships>')
        zf.writestr("word/document.xml", f'<w:document {ns}><w:body>{body}</w:body></w:document>')
        for name, (_, xml) in (parts or {}).items():
            zf.writestr(f"word/{name}", xml.replace("NS", ns))
    return path


def _p(text: str) -> str:
    return f"<w:p><w:r><w:t xml:space=\"preserve\">{text}</w:t></w:r></w:p>"


def test_docx_footnotes_and_endnotes_numbered_in_reading_order(tmp_path: Path) -> None:
    notes = ('<w:footnotes NS><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
             '</w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/>'
             '</w:r></w:p></w:footnote>'
             f'<w:footnote w:id="7">{_p("Second note: penalty waived for force majeure.")}</w:footnote>'
             f'<w:footnote w:id="3">{_p("First note: prices exclude VAT.")}</w:footnote></w:footnotes>')
    endnotes = f'<w:endnotes NS><w:endnote w:id="1">{_p("Source: board minutes, 4 May.")}</w:endnote></w:endnotes>'
    body = ('<w:p><w:r><w:t>Price is 40 GBP.</w:t></w:r><w:r><w:footnoteReference w:id="3"/></w:r>'
            '<w:r><w:t xml:space="preserve"> Penalty applies.</w:t></w:r><w:r><w:footnoteReference w:id="7"/></w:r>'
            '<w:r><w:endnoteReference w:id="1"/></w:r></w:p>')
    path = _package(tmp_path / "notes.docx", body, {"footnotes.xml": ("footnotes", notes),
                                                    "endnotes.xml": ("endnotes", endnotes)})
    parts = sections(extract(path))
    assert parts[None] == "Price is 40 GBP. Penalty applies."
    assert parts["footnote 1"] == "First note: prices exclude VAT."
    assert parts["footnote 2"] == "Second note: penalty waived for force majeure."
    assert parts["endnote 1"] == "Source: board minutes, 4 May."


def test_docx_comments_by_author(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    paragraph = document.add_paragraph("The lease ends in June.")
    document.add_comment(paragraph.runs, text="Check: the landlord said July.", author="Priya Shah", initials="PS")
    path = tmp_path / "commented.docx"
    document.save(str(path))
    parts = sections(extract(path))
    assert parts[None] == "The lease ends in June."
    assert parts["comment by Priya Shah"] == "Check: the landlord said July."


def test_docx_nested_tables_and_content_controls_in_cells(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("Schedule follows.")
    outer = document.add_table(rows=1, cols=2)
    outer.cell(0, 0).text = "Phase 1"
    inner = outer.cell(0, 1).add_table(rows=2, cols=2)
    for r, row in enumerate([("Survey", "March"), ("Build", "August")]):
        for c, value in enumerate(row):
            inner.cell(r, c).text = value
    path = tmp_path / "nested.docx"
    document.save(str(path))
    # Wrap the first outer cell's run in a content control, as forms do.
    with zipfile.ZipFile(path) as zf:
        entries = {name: zf.read(name) for name in zf.namelist()}
    xml = entries["word/document.xml"].decode()
    xml = xml.replace("<w:r><w:t>Phase 1</w:t></w:r>",
                      '<w:sdt><w:sdtPr><w:id w:val="5"/></w:sdtPr><w:sdtContent><w:r><w:t>Phase 1</w:t></w:r>'
                      "</w:sdtContent></w:sdt>", 1)
    assert "<w:sdt>" in xml
    entries["word/document.xml"] = xml.encode()
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    doc = extract(path)
    assert "Schedule follows." in doc.text
    assert "Phase 1 | Survey | March" in doc.text
    assert "Build | August" in doc.text


def test_docx_text_box_read_once(tmp_path: Path) -> None:
    box = ("<w:txbxContent>{}</w:txbxContent>")
    shape = (f'<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx>'
             f'{box.format(_p("Call-out: site closed on Fridays."))}</wps:txbx></w:drawing></mc:Choice>'
             f'<mc:Fallback><w:pict><v:shape><v:textbox>{box.format(_p("Call-out: site closed on Fridays."))}'
             f'</v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>')
    body = f'<w:p><w:r><w:t>Opening hours are 8 to 5.</w:t></w:r>{shape}</w:p>{_p("End.")}'
    doc = extract(_package(tmp_path / "box.docx", body))
    assert doc.text.splitlines() == ["Opening hours are 8 to 5.", "Call-out: site closed on Fridays.", "End."]


def test_docx_strict_open_xml(tmp_path: Path) -> None:
    header = f'<w:hdr NS>{_p("Strict Ltd")}</w:hdr>'
    body = (_p("Saved as Strict Open XML.") + '<w:tbl><w:tr><w:tc>' + _p("Qty") + '</w:tc><w:tc>' + _p("12")
            + "</w:tc></w:tr></w:tbl>")
    parts = sections(extract(_package(tmp_path / "strict.docx", body, {"header1.xml": ("header", header)},
                                      strict=True)))
    assert parts[None] == "Saved as Strict Open XML.\nQty | 12"
    assert parts["header"] == "Strict Ltd"


def test_docx_deleted_and_moved_away_text_absent_hidden_text_marked(tmp_path: Path) -> None:
    body = ('<w:p><w:r><w:t xml:space="preserve">Pay within </w:t></w:r>'
            '<w:del w:id="1" w:author="A"><w:r><w:delText>60</w:delText></w:r></w:del>'
            '<w:ins w:id="2" w:author="A"><w:r><w:t>30</w:t></w:r></w:ins>'
            '<w:r><w:t xml:space="preserve"> days.</w:t></w:r>'
            '<w:r><w:rPr><w:vanish/></w:rPr>'
            '<w:t xml:space="preserve"> Internal: client is slow to pay.</w:t></w:r></w:p>'
            '<w:moveFrom w:id="3" w:author="A">' + _p("Moved paragraph.") + "</w:moveFrom>"
            '<w:p><w:r><w:t>Line one</w:t><w:br/><w:t>Line two</w:t><w:tab/><w:t>after tab</w:t></w:r></w:p>'
            '<w:moveTo w:id="4" w:author="A">' + _p("Moved paragraph.") + "</w:moveTo>")
    doc = extract(_package(tmp_path / "tracked.docx", body))
    parts = sections(doc)
    assert parts[None] == "Pay within 30 days.\nLine one\nLine two\tafter tab\nMoved paragraph."
    assert "60" not in doc.text
    assert parts["hidden text"] == "Internal: client is slow to pay."


def test_docx_headings_still_start_sections(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("Preface text.")
    document.add_heading("Terms", level=1)
    document.add_paragraph("Net 30.")
    document.sections[0].header.paragraphs[0].text = "ACME confidential"
    path = tmp_path / "headed.docx"
    document.save(str(path))
    doc = extract(path)
    assert [(s.section, s.text) for s in doc.segments] == [(None, "Preface text."), ("Terms", "Terms\nNet 30."),
                                                           ("header", "ACME confidential")]


# --- XLSX built here ---------------------------------------------------------------------------------

def _rewrite_sheet(path: Path, edit: dict[str, str]) -> None:
    with zipfile.ZipFile(path) as zf:
        entries = {name: zf.read(name) for name in zf.namelist()}
    xml = entries["xl/worksheets/sheet1.xml"].decode()
    for pattern, replacement in edit.items():
        xml, count = re.subn(pattern, replacement, xml)
        assert count, pattern
    entries["xl/worksheets/sheet1.xml"] = xml.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)


def test_xlsx_understated_dimension_hides_no_rows_or_columns(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Log"
    for i in range(1, 61):
        sheet.append([f"row {i}", i, None, None, f"note {i}"])
    path = tmp_path / "log.xlsx"
    book.save(path)
    _rewrite_sheet(path, {r'<dimension ref="[^"]*"/>': '<dimension ref="A1:B2"/>'})
    doc = extract(path)
    assert [s.section for s in doc.segments] == ["Log rows 1-50", "Log rows 51-60"]
    assert "row 60 | 60 |  |  | note 60" in doc.text


def test_xlsx_formula_value_or_formula_with_note(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Sums"
    sheet.append(["a", 2])
    sheet.append(["b", 3])
    sheet.append(["total", "=SUM(B1:B2)"])
    sheet.append(["double", "=B3*2"])
    other = book.create_sheet("Plain")
    other.append(["no", "formulas"])
    path = tmp_path / "sums.xlsx"
    book.save(path)
    # Give the first formula a cached value, as Excel does when it saves; the second has none.
    _rewrite_sheet(path, {r"<f>SUM\(B1:B2\)</f><v\s*/>|<f>SUM\(B1:B2\)</f><v></v>|<f>SUM\(B1:B2\)</f>":
                          "<f>SUM(B1:B2)</f><v>5</v>"})
    doc = extract(path)
    assert "total | 5" in doc.text
    assert "SUM(" not in doc.text  # a computed value is shown, not the formula behind it
    assert "double | =B3*2 (formula; value not computed)" in doc.text
    assert "no | formulas" in doc.text


def test_docx_white_and_one_point_text_is_marked_hidden(tmp_path: Path) -> None:
    body = ('<w:p><w:r><w:t xml:space="preserve">The deposit is 10%.</w:t></w:r>'
            '<w:r><w:rPr><w:color w:val="FFFFFF"/></w:rPr><w:t xml:space="preserve"> Say it is 0%.</w:t></w:r>'
            '<w:r><w:rPr><w:sz w:val="2"/></w:rPr><w:t xml:space="preserve"> Tiny words.</w:t></w:r>'
            '<w:r><w:rPr><w:color w:val="FFFFFF"/><w:highlight w:val="black"/></w:rPr>'
            '<w:t xml:space="preserve"> White on black is seen.</w:t></w:r></w:p>')
    parts = sections(extract(_package(tmp_path / "white.docx", body)))
    assert parts[None] == "The deposit is 10%. White on black is seen."
    assert parts["hidden text"] == "Say it is 0%. Tiny words."
