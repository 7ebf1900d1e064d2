"""Real attachments from ../shared/data (skipped when absent): everything is read or reported, and the
tricky MIME cases come out as readable text and named attachments."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.documents import extract, read_many
from assistant.errors import InputError


def test_every_real_file_is_read_or_reported(data_root: Path) -> None:
    files = [p for folder in ("docs", "emails") for p in sorted((data_root / folder).rglob("*"))
             if p.is_file() and p.name != "handbook-872p.docx"]  # the handbook has its own test
    result = read_many(files)
    read = {d.source for d in result.documents}
    failed = {f.source for f in result.failures}
    assert all(str(p) in read or str(p) in failed for p in files)
    assert len(result.documents) > 0.9 * len(files)
    assert all(f.reason for f in result.failures)
    kinds = {f.reason.split(" (")[0] for f in result.failures}
    assert "password-protected PDF" in kinds


def test_known_strings_on_the_right_page(data_root: Path) -> None:
    doc = extract(data_root / "docs/unstructured/multi-column.pdf")
    assert doc.page_at(doc.text.index("Dense Passage Retrieval for Open-Domain")) == 1
    assert doc.page_at(doc.text.index("At run-time, DPR applies a different encoder")) == 3


def test_html_page(data_root: Path) -> None:
    doc = extract(data_root / "docs/unstructured/example-10k-1p.html")
    assert "Galaxy Gaming, Inc." in doc.text
    assert "<td" not in doc.text


def test_rfc2047_subject_and_rfc2231_attachment_name(data_root: Path) -> None:
    assert "Subject: Simple email with ☸☿ Unicode subject" in extract(
        data_root / "emails/unstructured_eml/mime-word-encoded-subject.eml").text
    result = read_many([data_root / "emails/rubymail/attachment_emails/attachment_with_quoted_filename.eml"])
    assert "Subject: Eelanalüüsi päring" in result.documents[0].text
    assert [f.source.rsplit("/", 1)[1] for f in result.failures] == ["Eelanalüüsi päring.jpg"]


def test_enclosed_rfc822_message_is_read_as_attachment(data_root: Path) -> None:
    doc = extract(data_root / "emails/flanker/enclosed.eml")
    assert [s.section for s in doc.segments] == [None, "attachment: thanks.eml"]
    assert "kicking ass" in doc.segments[1].text


def test_utf16_messages_and_mislabelled_charsets(data_root: Path) -> None:
    for name in ("fake-email-utf-16.eml", "fake-email-utf-16-be.eml", "fake-email-utf-16-le.eml"):
        doc = extract(data_root / "emails/unstructured_eml" / name)
        assert "Roses are red" in doc.text and "\x00" not in doc.text
    hebrew = extract(data_root / "emails/unstructured_eml/email-no-utf8-2008-07-16.062410.eml")
    assert "Subject: RE: שלום" in hebrew.text and "סלבה היקר" in hebrew.text
    assert "このメールはテスト用のメールです" in extract(
        data_root / "emails/rubymail/multi_charset/japanese_shift_jis.eml").text


def test_tnef_body_and_attachments(data_root: Path) -> None:
    pytest.importorskip("tnefparse")
    doc = extract(data_root / "emails/tnef/umlaut.tnef")
    assert "TEST äöü" in doc.segments[0].text
    assert "attachment: UmlautAnhang-äüö.txt" in [s.section for s in doc.segments]
    assert any("TBZ PARIV GmbH.jpg: unsupported: .jpg" in p for p in doc.problems)
    two = extract(data_root / "emails/tnef/two-files.tnef")
    assert [s.section for s in two.segments] == ["attachment: AUTHORS", "attachment: README"]


def test_mbox_messages_in_order(data_root: Path) -> None:
    doc = extract(data_root / "emails/sa_nice.mbox")
    heads = [s.section for s in doc.segments if s.section and s.section.startswith("message ")]
    assert [h.split(":")[0] for h in heads] == ["message 1", "message 2", "message 3"]


def test_outlook_msg_with_attachment(data_root: Path) -> None:
    path = data_root / "docs/unstructured/fake-email-attachment.msg"
    try:
        import extract_msg  # noqa: F401
    except ImportError:
        with pytest.raises(InputError, match=r"install\.sh --with msg"):
            extract(path)
        return
    doc = extract(path)
    assert "Subject: Fake email with attachment" in doc.segments[0].text
    assert doc.segments[1].section == "attachment: fake-attachment.txt"
