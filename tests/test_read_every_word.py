"""Every word a person can see: Word's list numbers, the mail alternative a client shows, files read by
their content rather than their name, merged spreadsheet cells, and empty files named as such.

Each kind has a test on a small file built here and, where one exists, the shared bug-input reproducer
(skipped when absent).
"""

from __future__ import annotations

import time
import zipfile
from email.message import EmailMessage
from pathlib import Path

import pytest
from conftest import shared_data

from assistant.documents import extract, read_many
from assistant.documents.docx_numbering import format_number
from assistant.documents.mime.parse import parse_message
from assistant.errors import InputError

BUG_INPUTS = shared_data().parent / "bug-inputs"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def bug_input(*parts: str) -> Path:
    path = BUG_INPUTS.joinpath(*parts)
    if not path.is_file():
        pytest.skip(f"bug input not present at {path}")
    return path


# --- 1. Word's automatic list numbers -------------------------------------------------------------

def _numbered_docx(path: Path, body: str, numbering: str, styles: str = "") -> Path:
    """A hand-written .docx with a numbering part (and a styles part when ``styles`` is given)."""
    parts = {"numbering.xml": ("numbering", f'<w:numbering xmlns:w="{W}">{numbering}</w:numbering>')}
    if styles:
        parts["styles.xml"] = ("styles", f'<w:styles xmlns:w="{W}">{styles}</w:styles>')
    rels = "".join(f'<Relationship Id="rId{i}" Type="{REL}/{kind}" Target="{name}"/>'
                   for i, (name, (kind, _)) in enumerate(parts.items(), start=1))
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("[Content_Types].xml",
                    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                    '<Default Extension="xml" ContentType="application/xml"/></Types>')
        zf.writestr("_rels/.rels",
                    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                    f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/>'
                    '</Relationships>')
        zf.writestr("word/_rels/document.xml.rels",
                    f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}'
                    '</Relationships>')
        zf.writestr("word/document.xml", f'<w:document xmlns:w="{W}"><w:body>{body}</w:body></w:document>')
        for name, (_, xml) in parts.items():
            zf.writestr(f"word/{name}", xml)
    return path


def _lvl(ilvl: int, fmt: str, text: str, start: int = 1, extra: str = "") -> str:
    return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{text}"/>{extra}</w:lvl>')


def _item(text: str, num: int | None = None, ilvl: int | None = None, style: str | None = None) -> str:
    props = f'<w:pStyle w:val="{style}"/>' if style else ""
    if num is not None:
        props += "<w:numPr>" + (f'<w:ilvl w:val="{ilvl}"/>' if ilvl is not None else "") + \
            f'<w:numId w:val="{num}"/></w:numPr>'
    return f'<w:p><w:pPr>{props}</w:pPr><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


CLAUSES = (_lvl(0, "decimal", "%1.") + _lvl(1, "decimal", "%1.%2") + _lvl(2, "lowerLetter", "(%3)")
           + _lvl(3, "lowerRoman", "%4)") + _lvl(4, "upperLetter", "%5.") + _lvl(5, "upperRoman", "%6"))


def test_docx_list_numbers_levels_formats_and_restarts(tmp_path: Path) -> None:
    numbering = (f'<w:abstractNum w:abstractNumId="0">{CLAUSES}</w:abstractNum>'
                 f'<w:abstractNum w:abstractNumId="1">{_lvl(0, "decimal", "Article %1", start=7)}</w:abstractNum>'
                 '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
                 '<w:num w:numId="2"><w:abstractNumId w:val="0"/></w:num>'  # continues list 1
                 '<w:num w:numId="3"><w:abstractNumId w:val="0"/>'  # a restarted list
                 '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'
                 '<w:num w:numId="4"><w:abstractNumId w:val="1"/></w:num>')
    body = "".join([
        _item("Payment", 1, 0), _item("Invoices are due in 30 days.", 1, 1), _item("Late payments", 1, 1),
        _item("carry interest", 1, 2), _item("of 4 percent", 1, 2), _item("first sub-item", 1, 3),
        _item("second sub-item", 1, 3), _item("upper letter", 1, 4), _item("upper roman", 1, 5),
        _item("", 1, 1),  # an empty numbered paragraph is counted (Word shows its number) but not read
        _item("Termination", 2, 0), _item("Either party may terminate.", 2, 1),
        _item("Not numbered"), _item("Removed from the list", 0, 0),
        _item("A new list", 3, 0), _item("its first clause", 3, 1), _item("Scope", 4, 0), _item("Term", 4, 0)])
    doc = extract(_numbered_docx(tmp_path / "terms.docx", body, numbering))
    assert doc.text.splitlines() == [
        "1. Payment", "1.1 Invoices are due in 30 days.", "1.2 Late payments", "(a) carry interest",
        "(b) of 4 percent", "i) first sub-item", "ii) second sub-item", "A. upper letter", "I upper roman",
        "2. Termination", "2.1 Either party may terminate.", "Not numbered", "Removed from the list",
        "1. A new list", "1.1 its first clause", "Article 7 Scope", "Article 8 Term"]


def test_docx_list_numbers_legal_restart_and_bullets(tmp_path: Path) -> None:
    numbering = ('<w:abstractNum w:abstractNumId="0">'
                 + _lvl(0, "upperRoman", "%1.") + _lvl(1, "decimal", "%1.%2", extra="<w:isLgl/>")
                 + _lvl(2, "decimal", "%3.", extra='<w:lvlRestart w:val="0"/>') + "</w:abstractNum>"
                 '<w:abstractNum w:abstractNumId="1">'
                 '<w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="\uf0b7"/></w:lvl>'
                 '<w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/></w:lvl></w:abstractNum>'
                 '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
                 '<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>')
    body = "".join([_item("Scope", 1, 0), _item("Goods", 1, 1), _item("step", 1, 2), _item("Price", 1, 0),
                    _item("Currency", 1, 1), _item("step", 1, 2), _item("Symbol-font bullet", 2, 0),
                    _item("Letter o bullet", 2, 1)])
    doc = extract(_numbered_docx(tmp_path / "legal.docx", body, numbering))
    # isLgl: "II.1", not "II.1" in roman; lvlRestart 0: level 3 never restarts
    assert doc.text.splitlines() == ["I. Scope", "1.1 Goods", "1. step", "II. Price", "2.1 Currency", "2. step",
                                     "\u2022 Symbol-font bullet", "o Letter o bullet"]


def test_docx_list_numbers_from_the_paragraph_style(tmp_path: Path) -> None:
    sub_level = _lvl(1, "lowerLetter", "(%2)", extra='<w:pStyle w:val="Sub"/>')
    numbering = (f'<w:abstractNum w:abstractNumId="0">{_lvl(0, "decimal", "%1.")}{sub_level}</w:abstractNum>'
                 '<w:num w:numId="5"><w:abstractNumId w:val="0"/></w:num>')
    styles = ('<w:style w:type="paragraph" w:styleId="Clause"><w:name w:val="Clause"/>'
              '<w:pPr><w:numPr><w:numId w:val="5"/></w:numPr></w:pPr></w:style>'
              '<w:style w:type="paragraph" w:styleId="Clause2"><w:name w:val="Clause 2"/>'
              '<w:basedOn w:val="Clause"/></w:style>'
              '<w:style w:type="paragraph" w:styleId="Sub"><w:name w:val="Sub"/><w:basedOn w:val="Clause"/></w:style>')
    body = "".join([_item("Delivery", style="Clause"), _item("Risk", style="Clause2"), _item("on loading", style="Sub"),
                    _item("Own level", 5, 1, style="Clause")])
    doc = extract(_numbered_docx(tmp_path / "styled.docx", body, numbering, styles))
    assert doc.text.splitlines() == ["1. Delivery", "2. Risk", "(a) on loading", "(b) Own level"]


def test_docx_written_by_python_docx_list_styles(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    for text in ("Order the parts", "Check the invoice", "Pay within 30 days"):
        document.add_paragraph(text, style="List Number")
    document.add_paragraph("Spare parts", style="List Bullet")
    path = tmp_path / "steps.docx"
    document.save(str(path))
    assert extract(path).text.splitlines() == ["1. Order the parts", "2. Check the invoice", "3. Pay within 30 days",
                                               "\u2022 Spare parts"]


@pytest.mark.parametrize(("value", "fmt", "shown"), [
    (4, "lowerRoman", "iv"), (1994, "upperRoman", "MCMXCIV"), (28, "lowerLetter", "bb"), (3, "upperLetter", "C"),
    (7, "decimalZero", "07"), (2, "ordinal", "2nd"), (12, "ordinal", "12th"), (5, "none", ""),
    (9, "chineseCounting", "9")])
def test_number_formats(value: int, fmt: str, shown: str) -> None:
    assert format_number(value, fmt) == shown


def test_docx_numbered_clauses_bug_input() -> None:
    lines = extract(bug_input("docx-numbered-clauses", "terms.docx")).text.splitlines()
    for line in ("1. Payment", "1.1 Invoices are due within 30 days of delivery.",
                 "1.2 Late payments carry interest of 4 percent per year.", "2. Termination",
                 "2.1 Either party may terminate with 90 days written notice.",
                 "2.2 The supplier may terminate immediately if:", "(a) invoices remain unpaid for 60 days; or",
                 "(b) the customer becomes insolvent."):
        assert line in lines
    assert "Notices under clause 2.1 must be sent by registered post." in lines  # typed, not numbered


# --- 2. the mail alternative a client shows --------------------------------------------------------

def _alternative(plain: str, html: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "office@example.org", "crew@example.org", "Site visit"
    msg.set_content(plain)
    msg.add_alternative(html, subtype="html")
    return msg.as_bytes()


def test_mail_alternative_the_last_is_read_and_a_differing_one_named(tmp_path: Path) -> None:
    raw = _alternative("The visit is on Tuesday at 10:00 in Hall 2.\n",
                       "<p>The visit is on <b>Wednesday at 14:30</b> in Hall 5.</p>")
    message = parse_message(raw)
    assert "Wednesday at 14:30 in Hall 5" in message.body and "Tuesday" not in message.body
    assert "text/plain alternative (part 1 of 2)" in message.body  # a note, so nothing goes silently
    path = tmp_path / "visit.eml"
    path.write_bytes(raw)
    doc = extract(path)
    assert "Wednesday at 14:30" in doc.text and "Tuesday" not in doc.text
    assert any("text/plain alternative (part 1 of 2)" in p for p in doc.problems)


def test_mail_alternatives_that_agree_need_no_note() -> None:
    raw = _alternative("Hello Ana,\n\nthe *report* is ready: https://example.org/r/77 (see the [image: chart]).\n",
                       "<p>Hello Ana,</p><p>the <b>report</b> is <a href='https://example.org/r/77'>ready</a> "
                       "(see the <img alt='chart' src='cid:c1'>).</p>")
    message = parse_message(raw)
    assert "Left out" not in message.body and not any("alternative" in d for d in message.defects)
    assert message.body.startswith("Hello Ana,")


def test_mail_alternative_without_text_is_passed_over() -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@example.org", "b@example.org", "Meeting"
    msg.set_content("Planning meeting on Friday at 9.")
    msg.add_alternative("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", subtype="calendar")
    message = parse_message(msg.as_bytes())
    assert message.body == "Planning meeting on Friday at 9."
    assert [a.content_type for a in message.attachments] == ["text/calendar"]  # still read as an invitation


def test_mail_alternative_bug_input() -> None:
    doc = extract(bug_input("eml-alternative-differ", "visit.eml"))
    assert "Wednesday at 14:30" in doc.text and "Hall 5" in doc.text
    assert "Tuesday" not in doc.text
    assert any("text/plain" in problem for problem in doc.problems)


# --- 3. a file is read by its content, its name only a hint ----------------------------------------

def test_pdf_named_docx_is_read_as_pdf(tmp_path: Path) -> None:
    from pdfgen import LINE, text_pdf

    path = text_pdf(tmp_path / "minutes.pdf", pages=2, lines_per_page=2).rename(tmp_path / "minutes.docx")
    doc = extract(path)
    assert LINE.format(n=2) in doc.text and [s.page for s in doc.segments] == [1, 2]


def test_office_files_under_each_others_names(tmp_path: Path) -> None:
    import docx
    import openpyxl

    document = docx.Document()
    document.add_paragraph("Harbour crane inspection passed on 4 May.")
    document.save(str(tmp_path / "report.xlsx"))
    book = openpyxl.Workbook()
    book.active.append(["Crane", "Load limit"])
    book.save(str(tmp_path / "limits.docx"))
    assert "Harbour crane inspection passed" in extract(tmp_path / "report.xlsx").text
    assert "Crane | Load limit" in extract(tmp_path / "limits.docx").text
    (tmp_path / "report.xlsx").rename(tmp_path / "report.bin")  # a name that says nothing
    assert "Harbour crane inspection passed" in extract(tmp_path / "report.bin").text


def test_text_formats_saved_under_binary_names(tmp_path: Path) -> None:
    page = tmp_path / "stock.xls.xlsx"  # web exports: an HTML table saved as a spreadsheet
    page.write_text("<html><body><table><tr><td>Valve</td><td>41</td></tr></table></body></html>")
    assert extract(page).text.strip() == "Valve\t41"
    rtf = tmp_path / "letter.doc"
    rtf.write_text(r"{\rtf1\ansi Dear Ana, the parts ship on Monday.\par}")
    assert "the parts ship on Monday" in extract(rtf).text
    mail = tmp_path / "forwarded.pdf"
    mail.write_text("From: ana@example.org\nTo: kai@example.org\nSubject: Parts\n\nThe parts ship on Monday.\n")
    assert "The parts ship on Monday." in extract(mail).text


def test_attachment_read_by_its_content(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("The quote is valid until 30 June.")
    document.save(str(tmp_path / "quote.docx"))
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@example.org", "b@example.org", "Quote"
    msg.set_content("Quote attached.")
    msg.add_attachment((tmp_path / "quote.docx").read_bytes(), maintype="application", subtype="pdf",
                       filename="quote.pdf")
    (tmp_path / "quote.eml").write_bytes(msg.as_bytes())
    doc = extract(tmp_path / "quote.eml")
    assert "The quote is valid until 30 June." in doc.text and not doc.problems


def test_corrupt_files_still_say_so(tmp_path: Path) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 4)
    with pytest.raises(InputError, match=r"broken.docx: corrupt or not a Word document"):
        extract(broken)
    notes = tmp_path / "notes.pdf"  # plain text shows no format of its own: the name's format is refused
    notes.write_text("Plain notes saved with the wrong name.\n")
    with pytest.raises(InputError, match=r"notes.pdf: not a valid PDF file"):
        extract(notes)


def test_a_file_that_is_no_zip_package_is_named_for_what_it_holds(tmp_path: Path) -> None:
    """A text file named .docx (a newcomer's test) was 'corrupt or not a Word document (File is not a zip
    file)': the library's words. Now the reason says what the file holds and what to do."""
    cases = {"notes.docx": (b"Plain notes saved with the wrong name.\n",
                            "not a Word document: the file holds plain text (a copy named .txt can be read)"),
             "sums.xlsx": (bytes(range(256)) * 8,
                           "not an Excel workbook: the file is damaged or is another kind of file given this name"),
             "cut.pptx": (b"PK\x03\x04" + bytes(64),
                          "corrupt or not a PowerPoint file (the file is cut short or damaged: its ZIP package has "
                          "no directory)")}
    for name, (data, reason) in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(InputError) as caught:
            extract(tmp_path / name)
        assert caught.value.reason == reason and "zip file" not in str(caught.value)


def test_wrong_extension_bug_input() -> None:
    doc = extract(bug_input("wrong-extension", "minutes.docx"))
    assert doc.segments[0].page == 1 and len(doc.text.split()) > 20  # read as the PDF it is


# --- 4. merged spreadsheet cells -------------------------------------------------------------------

def test_xlsx_merged_cells_show_their_value_in_every_cell(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Rota"
    for row in (["Region", "Q1", None, "Q2", None], [None, "Jan", "Feb", "Apr", "May"],
                ["North", 10, 12, 8, 9], [None, 11, 13, 7, 6], ["South", 5, 6, 7, 8]):
        sheet.append(row)
    sheet.merge_cells("B1:C1")
    sheet.merge_cells("D1:E1")
    sheet.merge_cells("A1:A2")
    sheet.merge_cells("A3:A4")
    path = tmp_path / "rota.xlsx"
    book.save(str(path))
    assert extract(path).text.splitlines() == ["Region | Q1 | Q1 | Q2 | Q2", "Region | Jan | Feb | Apr | May",
                                               "North | 10 | 12 | 8 | 9", "North | 11 | 13 | 7 | 6",
                                               "South | 5 | 6 | 7 | 8"]


def test_xlsx_large_sheet_with_a_merge_stays_streaming(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Log")
    for n in range(20_000):
        sheet.append([f"entry {n}", n, n * 2, "ok"])
    book.save(str(tmp_path / "plain.xlsx"))
    merged = openpyxl.load_workbook(tmp_path / "plain.xlsx")
    merged["Log"].merge_cells("A19998:A20000")
    merged.save(str(tmp_path / "merged.xlsx"))
    start = time.perf_counter()
    plain = extract(tmp_path / "plain.xlsx").text
    plain_s = time.perf_counter() - start
    start = time.perf_counter()
    text = extract(tmp_path / "merged.xlsx").text
    merged_s = time.perf_counter() - start
    assert text.splitlines()[-2:] == ["entry 19997 | 19998 | 39996 | ok", "entry 19997 | 19999 | 39998 | ok"]
    assert len(text.splitlines()) == len(plain.splitlines())
    assert merged_s < 2 * plain_s + 1.0  # the merge list is read from the sheet's XML, not a full load


# --- 5. empty files ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["a.pdf", "a.docx", "a.xlsx", "a.pptx", "a.eml", "a.mbox", "a.txt", "a.html",
                                  "a.zip", "a.csv", "a.odt", "a.msg", "a.doc", "a.rtf", "a.ics", "a.xyz"])
def test_empty_file_is_named_empty_whatever_its_format(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"")
    with pytest.raises(InputError) as caught:
        extract(path)
    assert caught.value.reason == "empty file (0 bytes)" and str(caught.value) == f"{path}: empty file (0 bytes)"


def test_empty_attachment_is_named_empty(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@example.org", "b@example.org", "Forms"
    msg.set_content("Two forms attached.")
    msg.add_attachment(b"", maintype="application", subtype="pdf", filename="form.pdf")
    (tmp_path / "forms.eml").write_bytes(msg.as_bytes())
    failures = read_many([tmp_path / "forms.eml"]).failures
    assert [(f.source, f.reason) for f in failures] == [(f"{tmp_path / 'forms.eml'}/form.pdf", "empty file (0 bytes)")]
