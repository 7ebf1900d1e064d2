"""A period is a renewal's only where the contract says so near it (assistant.text.renewals): the reader's replies
on CUAD dev contracts that do not renew, their passages as the contracts word them, and the same check through the
answer path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ScriptedGenerator

from assistant.documents import extract
from assistant.records import Chunk
from assistant.text.renewals import asks_renewal, said_of_renewal
from assistant.ttrag import grounding
from assistant.ttrag.generate import stream_answer
from assistant.ttrag.qtype import question_type

# BorrowMoney.com's joint venture agreement (CUAD dev), 67: it does not renew
POSTED = ("67. Any notices or delivery required here will be deemed completed when hand-delivered, delivered by "
          "agent, or seven (7) days after being placed in the post, postage prepaid, to the Members at the addresses "
          "contained in this Agreement or as the Members may later designate in writing.")
# Nanophase's distributor agreement (CUAD dev), 13.1: it renews
RENEWS = ("13.1 The initial term of this Agreement shall be for a period of five (5) years from the date first set "
          "forth above and shall thereafter automatically renew for additional two (2) year terms unless a party "
          "provides the other party with notice of non-renewal no less than 6 months prior to the expiration of the "
          "initial term or any renewal term unless earlier terminated as follows: 13.1.1 In the event of material "
          "breach, the non-breaching party shall give the breaching party sixty (60) days written notice of such "
          "breach.")


@pytest.mark.parametrize(("question", "asks"), [
    ("How long is the renewal term?", True), ("If the contract renews, for how long does each renewal last?", True),
    ("non-renewal notice?", True), ("How far ahead do we have to say we don't want it to renew?", True),
    ("Is the term extended automatically?", True), ("How long does this agreement last?", False),
    ("How much notice is needed to terminate for convenience?", False),
])
def test_which_questions_ask_about_a_renewal(question: str, asks: bool) -> None:
    assert asks_renewal(question) is asks


@pytest.mark.parametrize(("answer", "passages", "said"), [
    ("7 days", POSTED, False),  # a notice counts as delivered: nothing renews
    ("7", POSTED, False),  # a bare number: the unit is in the reader's sentence
    ("2 years", RENEWS, True), ("6 months", RENEWS, True), ("two-year", RENEWS, True),
    ("60 days", RENEWS, False),  # a cure notice: "renewal term" is the clause before 13.1.1's
    ("30 days", RENEWS, None),  # not stated: the support check decides
    ("Texas", RENEWS, None),  # no period: nothing to judge
])
def test_a_period_is_a_renewals_only_near_a_word_of_renewal(answer: str, passages: str, said: bool | None) -> None:
    assert said_of_renewal(answer, passages) is said


def test_a_period_said_of_something_else_is_no_renewal_notice() -> None:
    chunks = [Chunk(0, POSTED, "borrowmoney.pdf", 0, len(POSTED))]
    q = "How much notice must be given to stop the renewal?"
    assert grounding.check(q, question_type(q), "seven (7) days", chunks) == (
        [], "the passages give that period for something other than a renewal")
    assert grounding.check(q, question_type(q), "seven (7) days", chunks, off={"renewal"}) == ([1], "")
    q = "How long after posting is a notice delivered?"  # not a renewal question: the rule does not apply
    assert grounding.check(q, question_type(q), "seven (7) days", chunks) == ([1], "")
    chunks = [Chunk(0, RENEWS, "nanophase.pdf", 0, len(RENEWS))]
    q = "How much notice must be given to stop the renewal?"
    assert grounding.check(q, question_type(q), "6 months", chunks) == ([1], "")


def test_the_reader_answering_with_a_delivery_period_says_not_found() -> None:
    """The reply the bundled reader gave for BorrowMoney.com's renewal notice: nothing is shown."""
    raw = json.dumps({"found": True, "passage": 1, "short_answer": "7", "answer": "Any notices or delivery required "
                      "here will be deemed completed seven (7) days after being placed in the post."})
    shown: list[str] = []
    reading = stream_answer(ScriptedGenerator(lambda r: raw), "How much notice must be given to stop the renewal?",
                            [Chunk(0, POSTED, "borrowmoney.pdf", 0, len(POSTED))], max_tokens=128,
                            on_text=shown.append)
    assert not reading.found
    assert reading.reason == "the passages give that period for something other than a renewal"
    assert shown == []


def test_a_real_contracts_renewal_notice_is_kept(data_root: Path) -> None:
    """Nanophase's contract as the product reads it (CUAD dev): the lawyers' notice of non-renewal (6 months) and
    renewal term (two years) are said of a renewal; 13.1.1's sixty days' notice of a breach, the three years of
    commissions after a referral and the thirty days to reject a delivery are not."""
    doc = extract(data_root / "cuad" / "txt" / "NANOPHASETECHNOLOGIESCORP_11_01_2005-EX-99.1-DISTRIBUTOR AGREEMENT.txt")
    assert said_of_renewal("6 months", doc.text) is True
    assert said_of_renewal("2 years", doc.text) is True
    assert said_of_renewal("3 years", doc.text) is False
    assert said_of_renewal("30 days", doc.text) is False
    assert said_of_renewal("60 days", doc.text) is False  # 13.1.1's cure notice, and the disputes' sixty days


def test_a_number_cut_while_streaming_is_not_taken_as_stated() -> None:
    """The reader's reply on Nanophase's renewal notice: short answer "6 months" (right), sentence about 13.1.1's
    sixty days' notice of a breach. Streamed piece by piece, "... sixty (6" looked as if it stated the 6; the
    sentence shown is now the passage's that does state 6 months."""
    raw = json.dumps({"found": True, "passage": 1, "short_answer": "6 months", "answer": "The non-breaching party "
                      "shall give the breaching party sixty (60) days written notice of such breach. "})
    shown: list[str] = []
    reading = stream_answer(ScriptedGenerator(lambda r: raw), "How far ahead do we have to say we don't want it to "
                            "renew?", [Chunk(0, RENEWS, "nanophase.pdf", 0, len(RENEWS))], max_tokens=128,
                            on_text=shown.append)
    assert reading.found and "no less than 6 months prior" in reading.sentence
    assert shown[0].startswith("13.1 The initial term")  # nothing of the breach sentence streamed first
