"""A draft's points are whole sentences: an answer the reader cut mid-sentence is widened to the sentence of its
cited passage; a fragment that cannot be made whole is not confirmed."""

from __future__ import annotations

from assistant.records import Answer, Document, Segment, Source
from assistant.ttrag.compute.draft import Point, answer_lines
from assistant.ttrag.compute.draft_points import is_whole, whole_answer

RENEWAL = ("### 3.2 Renewal\n\nThe Buyer may extend this Agreement for an additional Three (3) year period by "
           "providing written notice to the Supplier no later than six (6) months before the end of the Initial "
           "Term. Any renewal is on the terms of this Agreement.\n\n### 3.3 Damages\n\nThe Supplier shall pay "
           "liquidated damages of 0.5% of the order value per day of delay; the total of such damages is capped "
           "at 7.5% of the order value. The **Buyer** may also\nterminate the Purchase Order.")
DOC = Document("contract.md", RENEWAL, (Segment(RENEWAL, page=1),), (0,))
WHOLE_RENEWAL = ("The Buyer may extend this Agreement for an additional Three (3) year period by providing written "
                 "notice to the Supplier no later than six (6) months before the end of the Initial Term.")


def _answer(text: str, found: bool = True) -> Answer:
    source = Source(n=1, source=DOC.source, page=1, start=0, end=len(RENEWAL), snippet="", chunk_id=3)
    return Answer(question="q", text=text, found=found, route="question_answering", sources=(source,),
                  rewrites=(), timings={}, usage=(), supported_by=(1,))


def test_a_cut_answer_becomes_the_whole_sentence_of_its_source() -> None:
    cut, whole = whole_answer(_answer("The Buyer may extend this Agreement for an additional Three (3) year period "
                                      "by providing [1]"), [DOC])
    assert whole and cut.text == f"{WHOLE_RENEWAL} [1]"
    late, whole = whole_answer(_answer("for an additional Three (3) year period by providing written notice to the "
                                       "Supplier no later than six (6) months before the end of the Initial Term. [1]"),
                               [DOC])
    assert whole and late.text == f"{WHOLE_RENEWAL} [1]"  # started mid-sentence: from the sentence's start


def test_a_clause_after_a_semicolon_and_bold_marks_are_read_whole() -> None:
    capped, whole = whole_answer(_answer("the total of such damages is capped at 7.5% of the order value [1]"), [DOC])
    assert whole and capped.text == ("The Supplier shall pay liquidated damages of 0.5% of the order value per day "
                                     "of delay; the total of such damages is capped at 7.5% of the order value. [1]")
    may, whole = whole_answer(_answer("The Buyer may also terminate the [1]"), [DOC])
    assert whole and may.text == "The Buyer may also terminate the Purchase Order. [1]"


def test_a_fragment_that_cannot_be_made_whole_is_not_confirmed() -> None:
    written = _answer("renewal for three years by giving notice [1]")  # not in the document as written
    same, whole = whole_answer(written, [DOC])
    assert not whole and same is written
    point = Point("How is the agreement renewed?", same, whole)
    assert point.answer.found and not point.confirmed
    assert Point("q", _answer(f"{WHOLE_RENEWAL} [1]")).confirmed
    assert answer_lines([point]) == ["renewal for three years by giving notice"]  # said as read, not confirmed


def test_whole_answers_and_not_found_ones_stay_as_they_are() -> None:
    for answer in (_answer(f"{WHOLE_RENEWAL} [1]"), _answer('Yes. "The total is capped at 7.5%." [1]'),
                   _answer("", found=False)):
        assert whole_answer(answer, [DOC]) == (answer, True)
    assert is_whole("5 years.") and is_whole("\u201cYes.\u201d") and not is_whole("by providing")
    assert not is_whole("for three years.")
