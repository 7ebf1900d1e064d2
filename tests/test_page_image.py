"""The cited page as the person saw it: the quoted sentence found on a real PDF page, its boxes, the
highlight drawn inside them and nowhere else, clear errors, and the time a page takes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import shared_data
from pdfgen import CLAUSE, Text, drawn_pdf

from assistant.documents import extract
from assistant.documents.pdfpage import DEFAULT_SCALE, RenderedPage, cited_place, line_boxes, render_page
from assistant.documents.quote import find_quote
from assistant.errors import InputError, PasswordRequired
from assistant.records import Source

#: The sentence of :data:`pdfgen.CLAUSE` that runs over three lines, the first of which it shares.
SENTENCE = ("Late delivery entitles the buyer to a reduction of the price by one percent for each week of "
            "delay, up to ten percent in total.")
LATEX = shared_data() / "docs" / "pypdf-sample-files" / "004-pdflatex-4-pages" / "pdflatex-4-pages.pdf"
AES = shared_data() / "docs" / "pdfminer" / "aes-256.pdf"


def clause_pdf(path: Path) -> Path:
    """Three pages; page 2 holds :data:`CLAUSE` (11 pt, 16 pt apart) under a heading."""
    cover = [Text(72, 700, "Supply agreement between Harbour Supplies GmbH and the buyer")]
    clause = [Text(72, 740, "Article 4 - Delivery", 14)] + [Text(72, 700 - 16 * k, line)
                                                           for k, line in enumerate(CLAUSE)]
    annex = [Text(72, 700, "Annex: price list valid from the first of July")]
    return drawn_pdf(path, [cover, clause, annex])


def char_boxes(path: Path, page: int, words: str) -> list[tuple[float, float, float, float]]:
    """PDFium's box ``(left, bottom, right, top)`` of each character of the words ``words`` where they first
    occur on the page, whatever spaces or line breaks lie between them (independent of the module under test)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        textpage = pdf[page - 1].get_textpage()
        text = textpage.get_text_range()
        assert len(text) == textpage.count_chars()
        found = re.search(r"\s+".join(map(re.escape, words.split())), text)
        assert found, words
        return [textpage.get_charbox(i) for i in range(found.start(), found.end()) if not text[i].isspace()]
    finally:
        pdf.close()


def inside(box: tuple[float, float, float, float], rendered: RenderedPage, slack: float = 0.5) -> bool:
    """Whether ``box`` (points) lies in one of the highlighted boxes."""
    left, bottom, right, top = box
    return any(x0 - slack <= left and right <= x1 + slack and y0 - slack <= bottom and top <= y1 + slack
               for x0, y0, x1, y1 in (h.points for h in rendered.highlights))


def yellow(pixel: tuple[int, int, int]) -> bool:
    """The highlight's colour over paper or ink: red and green well above blue (grey has them equal)."""
    r, g, b = pixel
    return r > 90 and g > 70 and r - b > 60 and g - b > 50


def yellow_pixels(rendered: RenderedPage) -> tuple[int, int, int]:
    """(yellow pixels inside the drawn boxes, all pixels inside them, yellow pixels more than 3 px
    outside every box)."""
    image = rendered.image.convert("RGB")
    width, height = image.size
    data = image.load()
    assert data is not None
    boxes = [h.pixels for h in rendered.highlights]
    near = [(x0 - 3, y0 - 3, x1 + 3, y1 + 3) for x0, y0, x1, y1 in boxes]
    hits = total = stray = 0
    for y in range(height):
        for x in range(width):
            is_yellow = yellow(data[x, y])  # type: ignore[arg-type]
            if any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in boxes):
                total += 1
                hits += is_yellow
            elif is_yellow and not any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in near):
                stray += 1
    return hits, total, stray


def test_find_quote_allows_spaces_hyphens_quotes_ligatures_and_case() -> None:
    page = list("Intro. Payment is due with-\r\nin \u201cforty\u201d days of the ﬁnal invoice.\r\nNext.")
    match = find_quote(page, 'payment is due within "forty" days of the final invoice.')
    assert match.whole
    (start, end), = match.spans
    assert "".join(page[start:end]) == "Payment is due with-\r\nin \u201cforty\u201d days of the ﬁnal invoice."
    assert not find_quote(page, "The buyer pays the freight within ten days of delivery.").spans


def test_find_quote_matches_a_sentence_split_by_other_text() -> None:
    """Two columns drawn line by line across the page: the sentence's lines are not next to each other."""
    page = list("The supplier shall deliver the goods  Prices for gaskets rise by four\r\n"
                "within thirty days of the order date.  percent on the first of July.")
    match = find_quote(page, "The supplier shall deliver the goods within thirty days of the order date.")
    assert match.whole and len(match.spans) == 2
    assert ["".join(page[s:e]) for s, e in match.spans] == ["The supplier shall deliver the goods",
                                                          "within thirty days of the order date."]


def test_the_sentence_boxes_cover_its_characters_and_no_other_line(tmp_path: Path) -> None:
    pdf = clause_pdf(tmp_path / "clause.pdf")
    rendered = render_page(pdf, 2, SENTENCE)
    assert rendered.match == "whole" and rendered.note == ""
    assert (rendered.page, rendered.pages, rendered.scale) == (2, 3, DEFAULT_SCALE)
    assert len(rendered.highlights) == 3  # one box per line the sentence runs over
    assert all(inside(box, rendered) for box in char_boxes(pdf, 2, SENTENCE))
    # the words before it on its first line and the lines around it are not marked
    for other in ("address named in the order.", CLAUSE[1], "Article 4 - Delivery"):
        assert not any(inside(box, rendered) for box in char_boxes(pdf, 2, other)), other


def test_runs_placed_glyph_by_glyph_are_joined_into_one_box_per_line() -> None:
    """As PDFium reports a line whose writer placed every glyph apart (Qt's PDF writer): one box per glyph."""
    first = [(72.0 + 6 * k, 700.0, 77.5 + 6 * k, 711.0) for k in range(10)]  # touching glyphs
    word_space = [(134.0, 700.2, 170.0, 711.0)]  # 2.5 pt after the last glyph
    next_line = [(72.0, 684.0, 120.0, 695.0)]  # starts left again, one line down
    far = [(400.0, 684.0, 420.0, 695.0)]  # another column on that line
    assert line_boxes(first + word_space + next_line + far) == [
        (72.0, 700.0, 170.0, 711.0), (72.0, 684.0, 120.0, 695.0), (400.0, 684.0, 420.0, 695.0)]
    assert line_boxes([]) == []


def test_fit_width_lowers_the_scale_to_the_width_and_never_raises_it(tmp_path: Path) -> None:
    pdf = clause_pdf(tmp_path / "clause.pdf")
    fitted = render_page(pdf, 2, SENTENCE, fit_width=300)
    assert fitted.image.width <= 300 and fitted.scale < DEFAULT_SCALE and fitted.match == "whole"
    assert all(inside(box, fitted) for box in char_boxes(pdf, 2, SENTENCE))
    assert render_page(pdf, 2, fit_width=5000).scale == DEFAULT_SCALE


def test_the_image_is_yellow_inside_the_boxes_and_nowhere_else(tmp_path: Path) -> None:
    rendered = render_page(clause_pdf(tmp_path / "clause.pdf"), 2, SENTENCE)
    assert rendered.image.size == (round(612 * DEFAULT_SCALE), round(792 * DEFAULT_SCALE))
    for h in rendered.highlights:  # points and pixels name the same place (y grows downwards in the image)
        left, bottom, right, top = h.points
        x0, y0, x1, y1 = h.pixels
        assert abs(x0 - left * DEFAULT_SCALE) < 4 and abs(y1 - (792 - bottom) * DEFAULT_SCALE) < 4
        assert abs(x1 - right * DEFAULT_SCALE) < 4 and abs(y0 - (792 - top) * DEFAULT_SCALE) < 4
    hits, total, stray = yellow_pixels(rendered)
    assert hits > 0.5 * total and stray == 0


def test_a_quote_not_on_the_page_renders_it_without_highlight(tmp_path: Path) -> None:
    rendered = render_page(clause_pdf(tmp_path / "clause.pdf"), 1, SENTENCE)
    assert rendered.match == "none" and rendered.highlights == ()
    assert "not found on page 1" in rendered.note
    assert yellow_pixels(rendered)[2] == 0
    assert rendered.image.getextrema() != ((255, 255),) * 3  # the page itself is drawn


def test_the_quote_is_found_on_a_latex_page() -> None:
    """A sentence over a line break, quoted with straight quotes where the page has curly ones."""
    if not LATEX.is_file():
        pytest.skip(f"shared sample not present at {LATEX}")
    quote = 'Is there a difference between this text and some nonsense like "Huardest gefburn"?'
    rendered = render_page(LATEX, 2, quote)
    assert rendered.match == "whole" and len(rendered.highlights) == 2
    assert all(inside(box, rendered) for box in char_boxes(LATEX, 2, "Is there a difference between this "
                                                                     "text and some nonsense like"))
    hits, total, stray = yellow_pixels(rendered)
    assert hits > 0.5 * total and stray == 0


def test_errors_name_the_file_and_the_reason(tmp_path: Path) -> None:
    pdf = clause_pdf(tmp_path / "clause.pdf")
    with pytest.raises(InputError, match=r"clause\.pdf: has no page 4: it has 3 pages"):
        render_page(pdf, 4)
    with pytest.raises(InputError, match=r"clause\.pdf: has no page 0"):
        render_page(pdf, 0)
    fake = tmp_path / "notes.pdf"
    fake.write_text("These are notes, not a PDF.")
    with pytest.raises(InputError, match=r"notes\.pdf: not a valid PDF file"):
        render_page(fake, 1)
    with pytest.raises(InputError, match=r"gone\.pdf: file not found"):
        render_page(tmp_path / "gone.pdf", 1)
    if AES.is_file():
        with pytest.raises(PasswordRequired, match=r"aes-256\.pdf: password-protected PDF"):
            render_page(AES, 1)


def test_the_cited_page_is_where_the_sentence_lies(tmp_path: Path) -> None:
    """A passage that starts at the foot of page 1 and cites a sentence of page 2 opens on page 2."""
    doc = extract(clause_pdf(tmp_path / "clause.pdf"))
    start = doc.text.index("Supply agreement")
    at = doc.text.index("Late delivery")
    source = Source(n=1, source=doc.source, page=1, start=start, end=at + 200, snippet=SENTENCE, chunk_id=0)
    assert cited_place(source, doc) == (2, SENTENCE)
    cut = Source(n=1, source=doc.source, page=1, start=start, end=at + 200, snippet=SENTENCE[:40] + "\u2026",
                 chunk_id=0)
    assert cited_place(cut, doc) == (2, SENTENCE[:40])

