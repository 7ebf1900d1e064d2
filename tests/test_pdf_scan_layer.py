"""A scanned page's hidden text layer is checked against the image: a junk layer (random words in render
mode 3 over a 200-dpi scan of a contract) gives way to the OCR of the page and is reported; a faithful one
is kept as it is; when the check cannot run the odd layer is reported, never passed on silently."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pdfgen import CONTRACT, NEWS_LEFT, NEWS_RIGHT, Box, Text, drawn_pdf, layered_scan_pdf, random_words, text_pdf

from assistant.documents import extract
from assistant.documents.limits import Limits
from assistant.documents.ocr import _installed_languages
from assistant.documents.ocrlayer import layer_matches, reads_like_language

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")
PAGE_1, PAGE_2 = CONTRACT[:8], CONTRACT[8:]
REPLACED = "the hidden text layer does not match the scanned image; the page was read by OCR instead"


def _junk_pdf(tmp_path: Path) -> Path:
    return layered_scan_pdf(tmp_path / "contract-scan.pdf",
                            [(PAGE_1, random_words(60)), (PAGE_2, random_words(40, seed=7))])


def _words(text: str) -> list[str]:
    return text.split()


@needs_tesseract
def test_junk_layer_over_a_scan_gives_way_to_the_ocr_of_the_page(tmp_path: Path) -> None:
    doc = extract(_junk_pdf(tmp_path))
    assert [(s.page, s.section) for s in doc.segments] == [(1, None), (1, "invisible text"),
                                                           (2, None), (2, "invisible text")]
    page_1, hidden_1, page_2, hidden_2 = (s.text for s in doc.segments)
    assert "Liquidated Damages" in page_1 and "one half percent of the price" in page_1
    assert "10.1 The Buyer shall inspect the Products" in page_2
    assert _words(hidden_1) == _words("\n".join(random_words(60)))  # the layer kept apart, whole
    assert _words(hidden_2) == _words("\n".join(random_words(40, seed=7)))
    assert not set(_words(page_1)) & set(random_words(60)[0].split())
    assert doc.problems == (f"{doc.source}/page 1: {REPLACED}", f"{doc.source}/page 2: {REPLACED}")


@needs_tesseract
def test_faithful_layer_over_a_scan_is_kept(tmp_path: Path) -> None:
    doc = extract(layered_scan_pdf(tmp_path / "good-scan.pdf", [(PAGE_1, PAGE_1), (PAGE_2, PAGE_2)]))
    assert not doc.problems
    assert [s.text for s in doc.segments] == ["\n".join(PAGE_1), "\n".join(PAGE_2)]  # the layer, not the OCR


@needs_tesseract
def test_plausible_layer_of_other_words_is_caught_by_the_sampled_page(tmp_path: Path) -> None:
    """Sentences that read like English but are not what the scan shows: the file's first layered page is
    always checked."""
    other = NEWS_LEFT + NEWS_RIGHT
    assert reads_like_language("\n".join(other))
    doc = extract(layered_scan_pdf(tmp_path / "swapped.pdf", [(PAGE_1, other)]))
    assert "Liquidated Damages" in doc.segments[0].text
    assert doc.segments[1].section == "invisible text" and doc.segments[1].text == "\n".join(other)
    assert doc.problems == (f"{doc.source}/page 1: {REPLACED}",)


@needs_tesseract
def test_junk_layer_past_the_ocr_limit_is_reported(tmp_path: Path) -> None:
    doc = extract(_junk_pdf(tmp_path), limits=Limits(max_ocr_pages=1))
    assert "Liquidated Damages" in doc.segments[0].text
    assert doc.problems[0] == f"{doc.source}/page 1: {REPLACED}"
    assert doc.problems[1] == (f"{doc.source}/page 2: the hidden text layer does not read like text and could "
                               "not be checked against the scanned image: over the OCR limit of 1 pages; "
                               "raise max_ocr_pages in [documents] of config.toml")


def test_junk_layer_without_tesseract_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    _installed_languages.cache_clear()
    try:
        doc = extract(_junk_pdf(tmp_path))
    finally:
        _installed_languages.cache_clear()
    assert [s.page for s in doc.segments] == [1, 2]  # nothing better to read: the layer stays, named
    assert _words(doc.segments[0].text) == _words("\n".join(random_words(60)))
    unchecked = ("the hidden text layer does not read like text and could not be checked against the scanned "
                 "image: OCR needs the tesseract program: install it with  sudo apt install tesseract-ocr")
    assert len(doc.problems) == 2
    for number, problem in enumerate(doc.problems, start=1):
        assert problem.startswith(f"{doc.source}/page {number}: {unchecked}")


def test_only_invisible_text_over_a_scan_is_a_layer_to_check(tmp_path: Path) -> None:
    """Born-digital pages and invisible text over a small picture are no scan layer: nothing to OCR."""
    import pypdfium2 as pdfium

    from assistant.documents.pdftext import page_text

    plain = text_pdf(tmp_path / "plain.pdf", pages=1, lines_per_page=5)
    pictured = drawn_pdf(tmp_path / "pictured.pdf", [[Text(72, 720, "A line of visible text"),
                                                      Box(60, 560, 300, 40, gray=200, picture=True),
                                                      Text(72, 575, "Words under an OCR layer", mode=3)]])
    junk = _junk_pdf(tmp_path)
    layers = []
    for path in (plain, pictured, junk):
        pdf = pdfium.PdfDocument(str(path))
        page = pdf[0]
        textpage = page.get_textpage()
        layers.append(page_text(page, textpage).layer)
        textpage.close()
        page.close()
        pdf.close()
    assert layers[:2] == ["", ""]
    assert layers[2] == "\n".join(random_words(60))


def test_layer_matches_both_ways() -> None:
    ocr = "\n".join(PAGE_1)
    assert layer_matches(ocr, ocr, ocr)
    assert not layer_matches("\n".join(random_words(60)), "\n".join(random_words(60)), ocr)
    assert not layer_matches(PAGE_1[0], PAGE_1[0], ocr)  # the heading alone: the rest of the page is missing
    assert not reads_like_language("\n".join(random_words(60)))
    assert reads_like_language("\n".join(CONTRACT)) and reads_like_language("Invoice 4711")  # too short to judge
