"""Formats people still send (.odt/.ods/.odp, .doc) and MIME parts whose declared type is wrong."""

from __future__ import annotations

import os
import shutil
import stat
import zipfile
from email.message import EmailMessage
from pathlib import Path

import pytest

from assistant.documents import extract, read_many
from assistant.documents.word97 import converter
from assistant.errors import InputError

_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>'
         '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
         'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
         'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
         'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
         'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
         'xmlns:dc="http://purl.org/dc/elements/1.1/"><office:body>')
_TAIL = "</office:body></office:document-content>"


def _odf(path: Path, mimetype: str, body: str, styles: str | None = None) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", mimetype, compress_type=zipfile.ZIP_STORED)
        z.writestr("content.xml", _HEAD + body + _TAIL)
        if styles:
            z.writestr("styles.xml", styles)
    return path


def test_odt_body_table_note_comment_header_and_no_deleted_text(tmp_path: Path) -> None:
    body = ('<office:text><text:tracked-changes><text:changed-region><text:deletion><text:p>withdrawn clause'
            '</text:p></text:deletion></text:changed-region></text:tracked-changes>'
            '<text:h>Lease <text:span>agree</text:span>ment</text:h>'
            '<text:p>Rent is due<text:s text:c="2"/>monthly.<text:note><text:note-citation>1</text:note-citation>'
            '<text:note-body><text:p>Footnote: in euros.</text:p></text:note-body></text:note></text:p>'
            '<text:p>Checked<office:annotation><dc:creator>Ann</dc:creator><text:p>Ask the landlord</text:p>'
            '</office:annotation></text:p>'
            '<table:table table:name="T"><table:table-row><table:table-cell><text:p>Deposit</text:p>'
            '</table:table-cell><table:table-cell><text:p>1,200</text:p></table:table-cell></table:table-row>'
            '</table:table></office:text>')
    styles = ('<office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
              'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
              'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:master-styles>'
              '<style:master-page style:name="Standard"><style:header><text:p>Confidential</text:p></style:header>'
              '</style:master-page></office:master-styles></office:document-styles>')
    doc = extract(_odf(tmp_path / "lease.odt", "application/vnd.oasis.opendocument.text", body, styles))
    assert "Lease agreement" in doc.text
    assert "Rent is due monthly." in doc.text and "Footnote: in euros." in doc.text
    assert "[comment: Ask the landlord]" in doc.text and "Deposit\t1,200" in doc.text
    assert "withdrawn" not in doc.text
    assert [s.section for s in doc.segments] == ["header", None]
    assert doc.segments[0].text == "Confidential"


def test_ods_sheets_and_odp_slides(tmp_path: Path) -> None:
    sheet = ('<office:spreadsheet><table:table table:name="Budget"><table:table-row>'
             '<table:table-cell><text:p>Travel</text:p></table:table-cell><table:table-cell><text:p>300'
             '</text:p></table:table-cell><table:table-cell table:number-columns-repeated="1000"/>'
             '</table:table-row></table:table></office:spreadsheet>')
    doc = extract(_odf(tmp_path / "b.ods", "application/vnd.oasis.opendocument.spreadsheet", sheet))
    assert doc.segments[0].section == "sheet: Budget" and doc.text == "Travel\t300"
    slides = ('<office:presentation><draw:page draw:name="Intro"><draw:frame><draw:text-box><text:p>Quarterly'
              ' plan</text:p></draw:text-box></draw:frame><presentation:notes><draw:frame><draw:text-box>'
              '<text:p>Mention the hires</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>'
              '<draw:page draw:name="Two"><draw:frame><draw:text-box><text:p>Risks</text:p></draw:text-box>'
              '</draw:frame></draw:page></office:presentation>')
    deck = extract(_odf(tmp_path / "d.odp", "application/vnd.oasis.opendocument.presentation", slides))
    assert [(s.page, s.section, s.text) for s in deck.segments] == [
        (1, "Intro", "Quarterly plan\nNotes: Mention the hires"), (2, "Two", "Risks")]


def test_odt_from_shared_data(data_root: Path) -> None:
    doc = extract(data_root / "docs/pypdf-sample-files/002-trivial-libre-office-writer/source.odt")
    assert doc.text.startswith("Lorem ipsum dolor sit amet")


@pytest.mark.skipif(converter() is not None, reason="a .doc converter is installed")
def test_doc_without_a_converter_says_what_to_install(tmp_path: Path) -> None:
    path = tmp_path / "old.doc"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504)
    with pytest.raises(InputError, match=r"cannot read \.doc: install antiword .* or LibreOffice"):
        extract(path)


def test_doc_through_the_converter_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A stand-in antiword (a real program on PATH) proves the wiring; the real one is tested where installed.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "antiword"
    fake.write_text('#!/bin/sh\nfor last; do :; done\n'
                    'echo "Minutes of the meeting"; echo "file: $(basename "$last")"\n')
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    path = tmp_path / "minutes.doc"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504)
    assert extract(path).text.strip() == "Minutes of the meeting\nfile: minutes.doc"


@pytest.mark.skipif(shutil.which("antiword") is None and shutil.which("catdoc") is None
                    and shutil.which("soffice") is None, reason="no .doc converter installed")
def test_doc_converter_installed_reports_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.doc"
    path.write_bytes(b"not a word file")
    assert read_many([path]).failures


def _mail(tmp_path: Path, name: str, build: EmailMessage) -> Path:
    path = tmp_path / name
    path.write_bytes(build.as_bytes())
    return path


def test_binary_part_declared_as_text_is_reported_not_read(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@example.com", "b@example.com", "photo"
    msg.set_content("See the photo.")
    msg.add_attachment(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01" + bytes(range(256)) * 4, maintype="text",
                       subtype="plain", filename="face.jpg")
    result = read_many([_mail(tmp_path, "m.eml", msg)])
    assert "JFIF" not in result.documents[0].text
    assert [f.reason for f in result.failures] == ["unsupported: .jpg"]


def test_rfc822_headers_part_is_shown_as_text(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "daemon@example.com", "b@example.com", "Undelivered"
    msg.set_content("Your mail could not be delivered.")
    headers = ("Received: from relay.example.org by mx.example.com\nX-Antispam: scanned\n"
               "From: Alex <alex@example.com>\nSubject: Status report\n")
    msg.add_attachment(headers, subtype="rfc822-headers")
    doc = extract(_mail(tmp_path, "bounce.eml", msg))
    assert "X-Antispam: scanned" in doc.text and "relay.example.org" in doc.text
