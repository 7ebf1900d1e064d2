"""Every format on files the test makes: HTML, CSV/XLSX, PPTX, RTF, email, ZIP (nesting, bombs), scans."""

from __future__ import annotations

import io
import shutil
import sys
import zipfile
from email.message import EmailMessage
from pathlib import Path

import pytest
from pdfgen import scanned_pdf, text_pdf

from assistant.documents import Limits, extract, read_many
from assistant.documents.ocr import _installed_languages
from assistant.errors import InputError
from assistant.records import Progress


def test_html_visible_text_only_in_declared_charset(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes('<html><head><meta charset="windows-1252"><title>Prices</title>'
                     '<style>p {color: red}</style><script>alert("x")</script></head>'
                     '<body><p>Café: 5 € each</p><table><tr><td>A</td><td>B</td></tr></table></body></html>'
                     .encode("cp1252"))
    doc = extract(page)
    assert "Café: 5 € each" in doc.text
    assert "alert" not in doc.text and "color" not in doc.text
    assert doc.segments[0].section == "Prices"


def test_csv_in_cp1252_with_row_provenance(tmp_path: Path) -> None:
    sheet = tmp_path / "orders.csv"
    rows = ["id;customer;total"] + [f"{i};Zoë Müller;{i * 10} €" for i in range(1, 61)]
    sheet.write_bytes("\n".join(rows).encode("cp1252"))
    doc = extract(sheet)
    assert [s.section for s in doc.segments] == ["orders rows 1-50", "orders rows 51-61"]
    assert "60 | Zoë Müller | 600 €" in doc.segments[1].text


def test_xlsx_sheets_rows_and_no_formula_source(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    first.title = "Budget"
    for i in range(1, 56):
        first.append([f"item {i}", i * 2.5, 3])
    first["D1"] = "=B1*C1"
    second = book.create_sheet("Staff")
    second.append(["name", "room"])
    second.append(["Ada", 101])
    path = tmp_path / "book.xlsx"
    book.save(path)
    doc = extract(path)
    assert [s.section for s in doc.segments] == ["Budget rows 1-50", "Budget rows 51-55", "Staff rows 1-2"]
    assert "item 55 | 137.5 | 3" in doc.text
    assert "Ada | 101" in doc.text
    # openpyxl never computes formulas: no cached value, so the formula shows with a note, never an empty cell
    assert "=B1*C1 (formula; value not computed)" in doc.text


def test_pptx_slides_are_pages_with_notes(tmp_path: Path) -> None:
    import pptx

    deck = pptx.Presentation()
    for n, (title, body, notes) in enumerate([("Roadmap", "Ship in May", "mention the budget"),
                                              ("Risks", "Supplier delay", "")], start=1):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
        assert n == len(deck.slides)
    path = tmp_path / "deck.pptx"
    deck.save(path)
    doc = extract(path)
    assert [(s.page, s.section) for s in doc.segments] == [(1, "Roadmap"), (2, "Risks")]
    assert "Notes: mention the budget" in doc.segments[0].text
    assert "Supplier delay" in doc.segments[1].text


def test_rtf_with_code_page_escapes(tmp_path: Path) -> None:
    path = tmp_path / "memo.rtf"
    path.write_bytes(rb"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Arial;}}\f0 Caf\'e9 opens at 9\par Second line}")
    assert extract(path).text == "Café opens at 9\nSecond line"


def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_nested_zip_recurses_and_names_members(tmp_path: Path) -> None:
    inner = _zip({"notes/deep.txt": b"the vault code is 7261"})
    outer = tmp_path / "bundle.zip"
    outer.write_bytes(_zip({"readme.md": b"# Hello\nouter text", "inner.zip": inner}))
    doc = extract(outer)
    assert doc.segments[0].section == "member: readme.md / Hello"
    assert doc.segments[1].section == "member: inner.zip / member: notes/deep.txt"
    assert "7261" in doc.segments[1].text


def test_zip_nesting_past_the_depth_limit_is_reported(tmp_path: Path) -> None:
    data = b"innermost"
    for level in range(4):
        data = _zip({f"level{level}.zip" if level else "leaf.txt": data})
    path = tmp_path / "deep.zip"
    path.write_bytes(_zip({"top.txt": b"top text", "nest.zip": data}))
    result = read_many([path], limits=Limits(max_depth=3))
    assert "top text" in result.documents[0].text
    assert "innermost" not in result.documents[0].text
    assert any("refused: nested more than 3 levels deep" in f.reason for f in result.failures)


def test_zip_bomb_is_refused(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.zip"
    bomb.write_bytes(_zip({"zeros.txt": bytes(20_000_000)}))
    with pytest.raises(InputError, match=r"bomb\.zip: refused: possible zip bomb: bomb\.zip / zeros\.txt "
                                         r"expands [\d,]+:1"):
        extract(bomb)
    with pytest.raises(InputError, match=r"refused: possible zip bomb: bomb\.zip expands to 20 MB uncompressed "
                                         r"\(limit 1 MB;"):
        extract(bomb, limits=Limits(max_total_bytes=1_000_000))
    many = tmp_path / "many.zip"
    many.write_bytes(_zip({f"f{i}.txt": b"x" for i in range(30)}))
    with pytest.raises(InputError, match=r"refused: 30 members \(limit 10\)"):
        extract(many, limits=Limits(max_members=10))


def test_one_bad_member_never_stops_the_others(tmp_path: Path) -> None:
    path = tmp_path / "mixed.zip"
    path.write_bytes(_zip({"broken.pdf": b"%PDF-1.4 truncated", "good.txt": b"good text", "song.mp3": b"\xff\xfb"}))
    result = read_many([path, tmp_path / "absent.txt", tmp_path])
    assert [d.text for d in result.documents] == ["good text"]
    reasons = {f.source.removeprefix(str(tmp_path)): f.reason for f in result.failures}
    assert reasons["/mixed.zip/broken.pdf"] == "a damaged or incomplete PDF file"
    assert reasons["/mixed.zip/song.mp3"] == "unsupported: .mp3"
    assert reasons["/absent.txt"] == "file not found"
    assert reasons[""] == "is a folder, not a file"


def test_email_with_named_attachments_recursively(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "Zoë <z@example.org>", "bob@example.org", "Überweisung"
    msg.set_content("See the figures attached.")
    msg.add_attachment(_zip({"q3.csv": b"region,total\nnorth,42\n"}), maintype="application",
                       subtype="zip", filename="Zahlen für Q3.zip")
    msg.add_attachment(b"\x00\x01binary", maintype="image", subtype="png", filename="logo.png")
    path = tmp_path / "mail.eml"
    path.write_bytes(msg.as_bytes())
    result = read_many([path])
    doc = result.documents[0]
    assert "Subject: Überweisung" in doc.segments[0].text
    assert doc.segments[1].section == "attachment: Zahlen für Q3.zip / member: q3.csv / q3 rows 1-2"
    assert "north | 42" in doc.segments[1].text
    assert [(f.source, f.reason) for f in result.failures] == [(f"{path}/logo.png", "unsupported: image/png")]


def test_unknown_and_unsuffixed_files(tmp_path: Path) -> None:
    blob = tmp_path / "data.bin"
    blob.write_bytes(b"\x00\x01\x02\x03" * 10)
    with pytest.raises(InputError, match=r"data\.bin: unsupported: \.bin"):
        extract(blob)
    readme = tmp_path / "README"
    readme.write_text("plain words without a suffix")
    assert extract(readme).text == "plain words without a suffix"


def test_too_large_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_text("x" * 5000)
    with pytest.raises(InputError, match=r"too large: 5,000 bytes \(limit 1,000 bytes\)"):
        extract(path, limits=Limits(max_file_bytes=1000))


def test_optional_msg_extra_missing_says_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "extract_msg", None)
    path = tmp_path / "mail.msg"
    path.write_bytes(b"\xd0\xcf\x11\xe0")
    with pytest.raises(InputError) as caught:
        extract(path)
    root = Path(__file__).resolve().parents[1]  # this checkout, and its .venv: not a bare pip, not PyPI's assistant
    assert f"install it with  bash {root}/packaging/install.sh --with msg  (or  " in caught.value.reason
    assert caught.value.reason.endswith(f" install -e '{root}[msg]')")


def test_pdf_progress_per_page(tmp_path: Path) -> None:
    seen: list[Progress] = []
    doc = extract(text_pdf(tmp_path / "r.pdf", pages=3), progress=seen.append)
    assert [(p.done, p.total, p.unit) for p in seen] == [(1, 3, "pages"), (2, 3, "pages"), (3, 3, "pages")]
    assert doc.page_at(doc.text.index("region 2")) == 2


@pytest.mark.skipif(shutil.which("tesseract") is None,
                    reason="tesseract is not installed (apt-get install tesseract-ocr)")
def test_scanned_page_is_ocrd(tmp_path: Path) -> None:
    doc = extract(scanned_pdf(tmp_path / "scan.pdf", "INVOICE 4711 PAID"))
    assert "INVOICE 4711 PAID" in doc.text
    assert doc.segments[0].page == 1


def test_scanned_page_without_tesseract_names_the_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    _installed_languages.cache_clear()
    try:
        with pytest.raises(InputError, match=r"contains no text \(scanned page not read: OCR needs the "
                                             r"tesseract program: install it with  sudo apt install tesseract-ocr"):
            extract(scanned_pdf(tmp_path / "scan.pdf", "INVOICE 4711"))
    finally:
        _installed_languages.cache_clear()


@pytest.mark.parametrize("name, kind", [("book.xlsx", "Excel workbook"), ("deck.pptx", "PowerPoint file"),
                                        ("letter.docx", "Word document")])
def test_encrypted_and_truncated_office_files(tmp_path: Path, name: str, kind: str) -> None:
    locked = tmp_path / name
    # An OLE header (how Office stores a password-protected file) with no Office document inside: not
    # called protected (real protected files: tests/test_read_passwords.py).
    locked.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504))
    with pytest.raises(InputError, match=rf"corrupt or not an? {kind}"):
        extract(locked)
    cut = tmp_path / f"cut-{name}"
    cut.write_bytes(_zip({"[Content_Types].xml": b"<Types/>"})[:40])
    with pytest.raises(InputError, match=rf"corrupt or not an? {kind}"):
        extract(cut)
