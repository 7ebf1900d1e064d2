"""A later document that changes an earlier one: the reader is told which is later, and the answer is the
later document's (the bug input ``contract-amendment``: a contract's fee replaced by an amendment)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import ScriptedGenerator, shared_data

from assistant.documents import extract
from assistant.records import Chunk, Document, Segment
from assistant.ttrag import dated
from assistant.ttrag.context import build_context
from assistant.ttrag.pipeline import Models, ask

BUG = shared_data().parent / "bug-inputs" / "contract-amendment"
CONTRACT = ("SERVICE AGREEMENT\n\nDate: 10 January 2026\nParties: Harbour Logistics GmbH (customer) and Keel Systems "
            "Ltd (supplier)\n\nClause 4. The annual maintenance fee is EUR 12,000, invoiced in January.\n")
AMENDMENT = ("AMENDMENT No. 1 TO THE SERVICE AGREEMENT OF 10 JANUARY 2026\n\nDate: 1 June 2026\n\nClause 4 is "
             "replaced as follows: from 1 July 2026 the annual maintenance fee is EUR 14,500, invoiced quarterly.\n")


def _doc(source: str, text: str) -> Document:
    return Document(source=source, text=text, segments=(Segment(text),), offsets=(0,))


def _chunk(n: int, source: str, text: str) -> Chunk:
    return Chunk(id=n, text=text, source=source, start=0, end=len(text))


def test_a_document_knows_its_own_labelled_date_and_whether_it_amends_another() -> None:
    amendment = dated.dated(_doc("amendment.txt", AMENDMENT))
    assert amendment == dated.Dated(dt.date(2026, 6, 1), amends=True)  # not the amended agreement's date
    assert dated.dated(_doc("contract.txt", CONTRACT)) == dated.Dated(dt.date(2026, 1, 10), amends=False)
    made = dated.dated(_doc("licence.txt", "CONTENT LICENSE AGREEMENT\nTHIS AGREEMENT is made as of this 2nd day "
                                          "of June, 2008 by and among Digicorp, Inc. and ..."))
    assert made == dated.Dated(dt.date(2008, 6, 2), amends=False)
    # a date the text only mentions (a deadline) is not the document's own
    assert dated.dated(_doc("memo.txt", "Memo\nPlease reply by 3 March 2026.")) == dated.Dated(None, False)


def test_the_reader_is_told_which_document_is_later_only_when_it_reads_several() -> None:
    dates = dated.document_dates([_doc("a/contract.txt", CONTRACT), _doc("a/amendment.txt", AMENDMENT)])
    both = [_chunk(0, "a/amendment.txt", AMENDMENT), _chunk(1, "a/contract.txt", CONTRACT)]
    note = dated.reader_note(both, dates)
    assert "amendment.txt, an amendment, dated 1 June 2026" in note and "contract.txt dated 10 January 2026" in note
    assert "later document governs" in note
    assert dated.reader_note(both[:1], dates) == ""  # one document: the prompt is unchanged
    assert dated.reader_note(both, {}) == ""  # nothing dated: unchanged


def test_the_note_reaches_the_readers_prompt(tokenizer: object) -> None:
    ctx = build_context([_doc("contract.txt", CONTRACT), _doc("amendment.txt", AMENDMENT)], tokenizer)
    reader = ScriptedGenerator(lambda r: '{"found": true, "passage": 1, "short_answer": "EUR 14,500", "answer": '
                                         '"From 1 July 2026 the annual maintenance fee is EUR 14,500."}')
    answer = ask(ctx, "What is the annual maintenance fee?", Models(reader, None, None))
    prompts = [r.user for r in reader.requests if r.purpose == "answer"]
    assert prompts and "the later document governs" in prompts[0] and "dated 1 June 2026" in prompts[0]
    assert "14,500" in answer.text


def _bug_input(name: str) -> Path:
    path = BUG / name
    if not path.is_file():
        pytest.skip(f"bug input not present at {path}")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("question", ["What is the annual maintenance fee?",
                                      "What does clause 4 say about the maintenance fee?"])
def test_the_amendments_fee_is_the_answer_with_the_day_it_applies_from(
        question: str, tokenizer: object, big_llm: object, embedder: object, encoder: object) -> None:
    docs = [extract(_bug_input("contract-2026-01.txt")), extract(_bug_input("amendment-1-2026-06.txt"))]
    answer = ask(build_context(docs, tokenizer), question, Models(big_llm, embedder, encoder))  # type: ignore[arg-type]
    assert answer.found and "14,500" in answer.text
    assert "1 July 2026" in answer.text
    assert answer.sources[0].source.endswith("amendment-1-2026-06.txt")

