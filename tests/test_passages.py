"""Passages read whole: a chunk cut inside a sentence is widened to the sentence, a clause keeps its heading."""

from __future__ import annotations

from assistant.records import Chunk, Document, Segment
from assistant.ttrag.passages import opening, sentence_end, sentence_spans_across_lines, sentence_start, whole

CLAUSE = ("18. Notices. Notices are given in writing.\n"
          "19.1 Governing Law. This Agreement shall be governed by, and construed and enforced in accordance\n"
          "with, the laws of the\n"
          "State of New York, USA, without regard to its conflict of laws principles.\n"
          "19.2 Venue. The courts of New York County have jurisdiction.\n")


def _doc(text: str) -> Document:
    return Document("contract.pdf", text, (Segment(text, page=1),), (0,))


def _chunk(doc: Document, start: int, end: int, cid: int = 7) -> Chunk:
    return Chunk(id=cid, text=doc.text[start:end], source=doc.source, start=start, end=end, page=1)


def test_a_chunk_ending_inside_a_sentence_reads_to_its_end_and_from_the_clause_heading() -> None:
    doc = _doc(CLAUSE)
    start = CLAUSE.index("with, the laws")
    end = CLAUSE.index("State of New York") - 1  # the chunk boundary of the issue: "... the laws of the" | "State ..."
    [read] = whole([doc], [_chunk(doc, start, end)])
    assert read.text.startswith("19.1 Governing Law. This Agreement shall be governed")
    assert read.text.endswith("without regard to its conflict of laws principles.")
    assert read.id == 7 and doc.text[read.start:read.end].strip() == read.text


def test_the_other_half_of_the_cut_clause_reads_from_its_sentence_and_heading() -> None:
    doc = _doc(CLAUSE)
    start = CLAUSE.index("State of New York")
    end = len(CLAUSE) - 1
    [read] = whole([doc], [_chunk(doc, start, end)])
    assert read.text.startswith("19.1 Governing Law.")
    assert read.text.endswith("have jurisdiction.")


def test_a_chunk_that_stands_at_sentence_ends_is_read_as_it_is() -> None:
    doc = _doc(CLAUSE)
    start = CLAUSE.index("19.2 Venue")
    end = CLAUSE.index("jurisdiction.") + len("jurisdiction.")
    chunk = _chunk(doc, start, end)
    assert whole([doc], [chunk]) == [chunk]


def test_the_reach_bounds_the_widening() -> None:
    text = "word " * 400 + "end."
    assert sentence_start(text, 1000, reach=300) == 1000  # no sentence end within reach: left as it is
    assert sentence_end(text, 1000, reach=300) == 1000
    assert sentence_end(text, len(text) - 100, reach=300) == len(text)


def test_a_passage_not_taken_from_its_document_is_left_alone() -> None:
    doc = _doc(CLAUSE)
    cut = Chunk(id=1, text="a selected sentence [...]", source=doc.source, start=5, end=40, page=1)
    other = Chunk(id=2, text="elsewhere", source="other.pdf", start=0, end=9)
    assert whole([doc], [cut, other]) == [cut, other]


PREAMBLE = ("\n  MASTER SUPPLY AGREEMENT\n\nThis Master Supply Agreement is made on 3 March 2025 between Norhaven Ltd "
            "(the \"Buyer\") and Calder GmbH (the \"Supplier\"). Each is a Party. " + "Recitals follow here. " * 40)


def test_the_opening_is_the_documents_first_characters_to_a_sentence_end() -> None:
    doc = _doc(PREAMBLE)
    head = opening(doc, 0, 60)
    assert head.text.startswith("MASTER SUPPLY AGREEMENT") and head.start == PREAMBLE.index("MASTER")
    assert head.text.endswith('Calder GmbH (the "Supplier").')  # the sentence the 60th character stands in, whole
    assert doc.text[head.start:head.end].strip() == head.text and (head.id, head.page) == (0, 1)
    assert opening(doc, 0, 10_000).end == len(PREAMBLE)  # a short document is read whole


def test_a_company_s_legal_form_ends_no_sentence() -> None:
    # A chunk cut after "Inc." was read as a sentence's start: the passage began "and Beta Corp. (the ..."
    # and the reader never saw who "Acme" is (40 of 3,299 CUAD dev passages began after such a stop, 2 after it).
    text = ("1. Parties. This Agreement is made between ACME, INC. and Beta Corp. (together the \"Parties\"), "
            "who agree to the terms of No. 5 below.\n2. Term. It runs for five years.\n")
    doc = _doc(text)
    start = text.index("and Beta")
    [read] = whole([doc], [_chunk(doc, start, text.index("2. Term") - 1)])
    assert read.text.startswith("1. Parties. This Agreement is made between ACME, INC.")
    end = text.index("No. 5") + len("No.")  # a chunk ending at "No." reads on to the sentence's end
    [read] = whole([doc], [_chunk(doc, text.index("1. Parties"), end)])
    assert read.text.endswith("the terms of No. 5 below.")


def test_an_initial_or_a_list_letter_ends_no_sentence_but_a_labelled_letter_does() -> None:
    # A newcomer's summary quoted NETGEAR's parties from "St. Andrew Place, Santa Ana, ...": the "E." of
    # "1600 E. St. Andrew Place" was read as a sentence's end. Of 434 such letters in the CUAD dev contracts'
    # text, most are initials ("Robert L. Erwin") or list letters ("D. CONTINUING EFFECT.").
    text = ("Ingram Micro, having a place of business at 1600 E. St. Andrew Place, Santa Ana, (\"Distributor\") "
            "and NETGEAR, Inc. (\"NETGEAR\") agree as follows.\nD. CONTINUING EFFECT. The terms survive.\n"
            "Prices are set out in Schedule I. The Offer is open for thirty days.\n")
    spans = [text[s:e] for s, e in sentence_spans_across_lines(text)]
    assert spans == ["Ingram Micro, having a place of business at 1600 E. St. Andrew Place, Santa Ana, "
                     "(\"Distributor\") and NETGEAR, Inc. (\"NETGEAR\") agree as follows.",
                     "D. CONTINUING EFFECT.", "The terms survive.", "Prices are set out in Schedule I.",
                     "The Offer is open for thirty days."]
    doc = _doc(text)
    [read] = whole([doc], [_chunk(doc, text.index("St. Andrew"), text.index("\nD."))])
    assert read.text.startswith("Ingram Micro, having")
