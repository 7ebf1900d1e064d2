"""The strings the peers' own test suites expect from the sample PDFs in ../shared/data are in our text.

Each string is one the peer's test asserts for that file (whitespace-normalised, NFKC): pdfminer.six
``tests/test_highlevel_extracttext.py`` (``test_strings``, one entry per line), pypdf
``tests/test_text_extraction.py::test_multi_language`` (the Arabic sample) and unstructured
``test_unstructured/partition/pdf_image/test_pdf.py`` (the layout-parser paper, the Korean tables).

Two of them needed fixes in the PDF text layer, for faults of these kinds:

- ``015-arabic/habibi.pdf`` "حَبيبي": the file maps one glyph to the whole word in logical order
  (ToUnicode ``<03a3> <062d064e0628064a0628064a0020>``) and PDFium's bidi pass reverses it with the line;
  a run of right-to-left characters sharing one glyph box is put back in the mapping's order
  (``pdftext._fragments``), and glyphs the file maps to nothing (``<03f2> <>``, PDFium's made-up
  "ϲΒϴΒ") add their ink but no letters.
- ``pdfminer/simple3.pdf`` "あいうえお" (twice, vertical): a Type0 font with the predefined CMap ``/V``
  and no ToUnicode drawn with no width, which PDFium's text page leaves out; the strings are read from
  the content stream (by pypdf, ``pdfraw``) and decoded with the CMap's codec (``pdfcmap``). The peer's
  test has the string twice, so it is counted (spaces dropped: a vertical run may be read a line a glyph).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from assistant.documents import extract
from assistant.documents.pdfraw import RawPdf

PEERS: dict[str, list[str]] = {
    # pdfminer.six tests/test_highlevel_extracttext.py, test_strings
    "pdfminer/simple1.pdf": ["Hello", "World", "H e l l o", "W o r l d"],
    "pdfminer/simple3.pdf": ["Hello", "World", "あいうえお"],
    "pdfminer/simple4.pdf": ["Text1", "Text2", "Text3"],
    "pdfminer/simple5.pdf": ["Heading", "Link to heading that is working with vim-pandoc.",
                             "Link to heading “that is” not working with vim-pandoc.", "Subheading",
                             "Some “more text”", "1"],
    "pdfminer/zen_of_python_corrupted.pdf": ["Mai 30, 18 13:27", "zen_of_python.txt"],
    # pypdf tests/test_text_extraction.py::test_multi_language (the same text as habibi-rotated.pdf)
    "pypdf-sample-files/015-arabic/habibi.pdf": ["habibi", "حَبيبي"],
    # unstructured test_pdf.py
    "unstructured/layout-parser-paper-fast.pdf": [
        "LayoutParser: A Uniﬁed Toolkit for Deep Learning Based Document Image Analysis",
        "Abstract. Recent advances", "https://layout-parser.github.io."],
    "unstructured/korean-text-with-tables.pdf": ["업"],
}
#: (file, string, how many times the peer's test has it) for the strings it expects more than once
REPEATED = [("pdfminer/simple3.pdf", "あいうえお", 2)]


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


_TEXTS: dict[str, str] = {}


def _text(root: Path, name: str) -> str:
    if name not in _TEXTS:
        path = root / "docs" / name
        if not path.is_file():
            pytest.skip(f"sample not present at {path}")
        _TEXTS[name] = _norm(extract(path).text)
    return _TEXTS[name]


@pytest.mark.parametrize("name, expected", [(n, s) for n, strings in PEERS.items() for s in strings])
def test_the_peers_expected_string_is_read(data_root: Path, name: str, expected: str) -> None:
    assert _norm(expected) in _text(data_root, name)


@pytest.mark.parametrize("name, expected, times", REPEATED)
def test_the_peers_repeated_strings_are_read_as_often(data_root: Path, name: str, expected: str,
                                                     times: int) -> None:
    assert _text(data_root, name).replace(" ", "").count(_norm(expected)) >= times  # vertical: a line a glyph


def test_glyphs_mapped_to_nothing_are_not_read_as_letters(data_root: Path) -> None:
    assert "ϲΒϴΒ" not in _text(data_root, "pypdf-sample-files/015-arabic/habibi.pdf")  # PDFium's stand-ins


def test_the_vertical_run_is_read_from_a_file_opened_with_a_password(data_root: Path, tmp_path: Path) -> None:
    import pypdf
    import pypdfium2 as pdfium

    source = data_root / "docs" / "pdfminer" / "simple3.pdf"
    if not source.is_file():
        pytest.skip(f"sample not present at {source}")
    plain, locked = tmp_path / "plain.pdf", tmp_path / "locked.pdf"
    pdf = pdfium.PdfDocument(source)
    pdf.save(plain)  # with a cross-reference table, which pypdf's writer needs
    pdf.close()
    writer = pypdf.PdfWriter(clone_from=plain)
    writer.encrypt(user_password="pw", owner_password="owner-pw", algorithm="AES-256")
    writer.write(locked)
    text = _norm(extract(locked, passwords=lambda name, wrong: "pw").text)
    assert text.replace(" ", "").count("あいうえお") == 2 and "Hello" in text


def test_a_file_pypdf_cannot_read_gives_no_page_and_is_copied_once() -> None:
    class Unwritable:  # a PDFium document whose copy cannot be written
        saves = 0

        def save(self, dest: object, flags: int = 0) -> None:
            self.saves += 1
            raise OSError("disk full")

    pdf = Unwritable()
    raw = RawPdf(pdf)
    assert raw.page(0) is None and raw.page(1) is None and pdf.saves == 1
