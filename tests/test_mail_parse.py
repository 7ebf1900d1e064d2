"""Parsing: headers, charsets, HTML, attachments (as documents or with a reason), broken MIME."""

from __future__ import annotations

from email.message import EmailMessage

from assistant.documents.mime.attachments import attachment_documents, evidence_documents, message_document
from assistant.documents.mime.html import html_to_text
from assistant.documents.mime.parse import decode_text, parse_message
from assistant.records import Chunk, source_name
from assistant.ttrag.pipeline import passages_read


def rich_message() -> bytes:
    msg = EmailMessage()
    msg["From"] = "Zoë Brück <zoe@example.org>"
    msg["To"] = "alice@example.org, Bob <bob@example.org>"
    msg["Cc"] = "carol@example.org"
    msg["Subject"] = "Contrat signé – résumé"
    msg["Date"] = "Tue, 03 Mar 2026 10:15:00 +0100"
    msg["Message-ID"] = "<m1@example.org>"
    msg["In-Reply-To"] = "<m0@example.org>"
    msg["References"] = "<a@example.org> <m0@example.org>"
    msg.set_content("Bonjour, voir & lire la pièce jointe.")
    msg.add_alternative("<html><head><style>p{}</style></head><body><p>Bonjour,</p><p>voir &amp; lire la pièce "
                        "jointe</p><script>alert(1)</script></body></html>", subtype="html")
    msg.add_attachment(b"Payment is due within 30 days.\n", maintype="text", subtype="plain",
                       filename="terms.txt")
    msg.add_attachment(b"PK\x03\x04zipdata", maintype="application", subtype="zip", filename="a.zip")
    return msg.as_bytes()


def test_headers_bodies_and_attachments() -> None:
    raw = rich_message()
    m = parse_message(raw)
    assert m.sender == "Zoë Brück <zoe@example.org>"
    assert m.to == ("alice@example.org", "Bob <bob@example.org>") and m.cc == ("carol@example.org",)
    assert m.subject == "Contrat signé – résumé"
    assert m.date is not None and m.date.utcoffset() is not None and m.date.hour == 10
    assert m.message_id == "<m1@example.org>" and m.in_reply_to == "<m0@example.org>"
    assert m.references == ("<a@example.org>", "<m0@example.org>")
    assert m.text == "Bonjour, voir & lire la pièce jointe."
    assert m.html_text == "Bonjour,\n\nvoir & lire la pièce jointe"
    assert m.body == m.html_text  # the last alternative is the one shown; the plain one says the same
    assert [(a.filename, a.content_type, a.size) for a in m.attachments] == [
        ("terms.txt", "text/plain", 31), ("a.zip", "application/zip", 11)]
    assert m.raw == raw and m.defects == ()


def test_attachments_become_documents_or_are_listed_with_a_reason() -> None:
    m = parse_message(rich_message())
    docs, skipped = attachment_documents(m, "test:INBOX:1")
    assert [d.source for d in docs] == ["test:INBOX:1/terms.txt"]
    assert "30 days" in docs[0].text
    # ZIP archives are read now; this one's 11 bytes are not a real archive.
    assert [(s.attachment.filename, s.reason) for s in skipped] == [
        ("a.zip", "corrupt or not a ZIP archive (the file is cut short or damaged: its ZIP package has no directory)")]
    body = message_document(m, "test:INBOX:1")
    assert "Subject: Contrat signé" in body.text and "pièce jointe" in body.text


def test_a_messages_documents_are_named_for_a_person_not_by_their_cache_key() -> None:
    m = parse_message(rich_message())
    own = evidence_documents(m, "alice@example.org:INBOX/Contracts:12")
    docs, _ = attachment_documents(m, "alice@example.org:INBOX/Contracts:12")
    assert [source_name(d.source) for d in own + docs] == ["the message", "terms.txt"]
    assert source_name("acc:INBOX:7 (earlier messages)") == "the message (earlier messages)"
    assert source_name("acc:INBOX:7/scan:3") == "scan:3"  # an attachment whose name ends like a UID
    assert source_name("/home/alice/Contracts/supply.pdf") == "supply.pdf"
    chunks = [Chunk(i, "text", d.source, 0, 4) for i, d in enumerate(own + docs)]
    assert passages_read(chunks) == "passages 1\u20132 of the message and terms.txt"  # the progress line
    long = [Chunk(i, "text", f"/home/a/{name}.pdf", 0, 4) for i, name in
            enumerate(["ETELOS,INC_03_09_2004-EX-10.8-DISTRIBUTOR AGREEMENT", "VirtuosoSurgicalInc_20191227_1-A"])]
    assert passages_read(long) == "passages 1\u20132 of 2 files"  # two long names left the line no room


def test_charsets_declared_then_utf8_then_cp1252() -> None:
    assert decode_text("é".encode("latin-1"), "iso-8859-1") == ("é", None)
    text, defect = decode_text("naïve".encode(), "x-unknown")
    assert text == "naïve" and defect and "x-unknown" in defect
    text, defect = decode_text(b"caf\xe9 \x93quoted\x94", None)
    assert text == "café “quoted”" and defect


def test_unknown_charset_and_bad_base64_do_not_raise() -> None:
    raw = (b"From: a@b.c\r\nSubject: =?x-nope?q?hi?=\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\n"
           b"Content-Type: text/plain; charset=x-nope\r\n\r\nhello \xc3\xa9\r\n--XX\r\n"
           b"Content-Type: application/pdf; name=r.pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n"
           b"!!!not base64!!!\r\n")  # no closing boundary
    m = parse_message(raw)
    assert m.text == "hello é"
    assert m.attachments[0].filename == "r.pdf"
    assert any("CloseBoundaryNotFound" in d for d in m.defects)
    docs, skipped = attachment_documents(m, "x")
    assert docs == [] and skipped and skipped[0].reason


def test_garbage_bytes_parse_to_an_empty_message() -> None:
    for raw in (b"", b"\x00\xff\xfe garbage", b"Subject: only a header"):
        m = parse_message(raw)
        assert m.raw == raw


def test_html_to_text_skips_scripts_and_keeps_blocks() -> None:
    assert html_to_text("<div>a<br>b</div><style>x</style><ul><li>c</li></ul>") == "a\nb\n\nc"
