"""Reading real files from ../shared/data/docs (skipped when absent) and the error messages for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.documents import extract
from assistant.errors import InputError


def test_pdf_pages_are_numbered(data_root: Path) -> None:
    doc = extract(data_root / "docs/pypdf-sample-files/004-pdflatex-4-pages/pdflatex-4-pages.pdf")
    assert [s.page for s in doc.segments] == [1, 2, 3, 4]
    offset = doc.text.index("Really? Is there no information?", doc.offsets[1])  # blind text repeats
    assert doc.page_at(offset) == 2
    assert doc.page_at(doc.offsets[3] - 1) == 3
    for start, seg in zip(doc.offsets, doc.segments, strict=True):
        assert doc.text[start:start + len(seg.text)] == seg.text


def test_encrypted_pdf_is_reported(data_root: Path) -> None:
    with pytest.raises(InputError, match=r"aes-256\.pdf: password-protected PDF"):
        extract(data_root / "docs/pdfminer/aes-256.pdf")


def test_corrupted_pdf_still_gives_text(data_root: Path) -> None:
    doc = extract(data_root / "docs/pdfminer/zen_of_python_corrupted.pdf")
    assert "Beautiful is better than ugly." in doc.text


def test_japanese_pdf(data_root: Path) -> None:
    assert "宇宙塵" in extract(data_root / "docs/pdfminer/jo.pdf").text


def test_docx_paragraphs_tables_and_headings(data_root: Path) -> None:
    doc = extract(data_root / "docs/python-docx/par-known-styles.docx")
    assert [s.section for s in doc.segments] == [None, "Heading 1"]
    assert "Body Text" in doc.text
    mixed = extract(data_root / "docs/python-docx/blk-paras-and-tables.docx")
    assert mixed.text.index("Text before") < mixed.text.index("Text after")


def test_long_docx(data_root: Path) -> None:
    doc = extract(data_root / "docs/unstructured/handbook-872p.docx")
    assert len(doc.text) > 800_000
    assert len(doc.segments) > 100


def test_not_a_pdf(tmp_path: Path) -> None:
    fake = tmp_path / "invoice.pdf"
    fake.write_bytes(b"this is not a pdf at all")
    with pytest.raises(InputError, match=r"invoice\.pdf: not a valid PDF file") as caught:
        extract(fake)
    assert "PDFium" not in str(caught.value)  # the reason in a person's words, not the library's


def test_not_a_docx(tmp_path: Path) -> None:
    fake = tmp_path / "letter.docx"
    fake.write_bytes(b"PK\x03\x04 broken zip")
    with pytest.raises(InputError, match=r"letter\.docx: corrupt or not a Word document"):
        extract(fake)


def test_text_encodings(tmp_path: Path) -> None:
    legacy = tmp_path / "legacy.txt"
    legacy.write_bytes("Café prices: 5 € each".encode("cp1252"))
    assert extract(legacy).text == "Café prices: 5 € each"
    wide = tmp_path / "wide.txt"
    wide.write_bytes("Grüße aus Köln".encode("utf-16"))
    assert extract(wide).text == "Grüße aus Köln"


def test_no_break_and_other_spaces_are_read_as_plain_spaces_one_for_one(tmp_path: Path) -> None:
    # a filing printed from HTML sets every space of a justified line as a no-break space
    page = tmp_path / "term.html"
    page.write_text("<p>5.&nbsp;Term.&nbsp;&nbsp;The&nbsp;term ends on\u202fOctober\u200912, 2002.</p>",
                    encoding="utf-8")
    text = extract(page).text
    assert "5. Term.  The term ends on October 12, 2002." in text
    legacy = tmp_path / "term.txt"
    legacy.write_bytes("Term:\xa0one\xa0year".encode("cp1252"))
    assert extract(legacy).text == "Term: one year"


def test_missing_folder_and_unreadable(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        extract(tmp_path / "absent.md")
    with pytest.raises(InputError, match="is a folder"):
        extract(tmp_path)


FIRST_USE_FROM_THREADS = """
import threading
from assistant.documents.base import supported_suffixes
barrier = threading.Barrier(8)
seen = []
def first_use():
    barrier.wait()
    seen.append(tuple(supported_suffixes()))
threads = [threading.Thread(target=first_use) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(len(set(seen)), all('.txt' in s and '.pdf' in s for s in seen))
"""


def test_threads_that_first_ask_for_the_readers_together_all_get_every_reader() -> None:
    # The new-mail gist and the Ask panel open the same message at once: a .txt attachment was once called
    # "unsupported: text/plain" because one thread saw the reader registry while another was filling it.
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", FIRST_USE_FROM_THREADS], capture_output=True, text=True,
                         timeout=120, cwd=Path(__file__).resolve().parent.parent, check=True).stdout.split()
    assert out == ["1", "True"]  # one and the same registry for all eight threads, holding .txt and .pdf
