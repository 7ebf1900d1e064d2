"""A date given as a start is not stated as an end (assistant.text.date_roles): the reader's replies on CUAD dev
contracts, their passages as the contracts word them, and the same check through the answer path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ScriptedGenerator

from assistant.documents import extract
from assistant.records import Chunk
from assistant.text.date_roles import asked_role, roles_in, without_contradicted
from assistant.ttrag import grounding
from assistant.ttrag.generate import stream_answer
from assistant.ttrag.qtype import question_type

# CCA Industries' outsourcing agreement (CUAD dev), 2.01
COMMENCES = ("2.01 Term. This agreement shall commence on January 20, 2014 (the \u201cEffective Date\u201d) and shall "
             "continue in effect for six (6) months (the \u201cInitial Term\u201d). This agreement shall automatically "
             "renew for successive six (6) month periods unless written notice is provided.")
# MusclePharm's co-branding agreement (CUAD dev), 1(a)
EXPIRES = ("(a) This Agreement shall have an Initial Term of three (3) years. The Term shall commence on July 23, 2013 "
           "and shall expire on July 22,\n2016, unless otherwise terminated earlier pursuant to Section 9 of this "
           "Agreement. The period from July 23, 2013 to July 22, 2014 shall be referred to as the \u201cFirst Contract "
           "Year\u201d.")
# Jingwei's intellectual property agreement (CUAD dev), 6.1
EXECUTED = ("6.1 This Agreement has been duly executed as of the date first set forth above and shall be effective "
            "simultaneously. The term of this Agreement is five (5) years unless the early termination in accordance "
            "with this Agreement.")


def test_a_dates_role_is_the_nearest_cue_in_its_clause() -> None:
    assert [(str(min(d.days)), d.role) for d in roles_in(EXPIRES)] == [
        ("2013-07-23", "start"), ("2016-07-22", "end"), ("2013-07-23", "start"), ("2014-07-22", "end")]
    assert [d.role for d in roles_in("This promotion shall begin on June 1,1999 and shall terminate June 1, 2000")] \
        == ["start", "end"]
    assert [d.role for d in roles_in("Either party may terminate this Agreement effective June 30, 2020.")] == ["end"]
    assert roles_in("Invoices: 1,200 units. Delivered. March 3, 2020") == []  # no cue in its own clause


@pytest.mark.parametrize(("sentence", "passage", "kept"), [
    ("This agreement lasts for six (6) months, and it expires on January 20, 2014.", COMMENCES,
     "This agreement lasts for six (6) months."),
    ("The agreement lasts for six (6) months. It expires on January 20, 2014.", COMMENCES,
     "The agreement lasts for six (6) months."),
    ("This agreement lasts for 5 years, and it expires simultaneously with the date first set forth above.", EXECUTED,
     "This agreement lasts for 5 years."),
    ("This agreement lasts for at least 25 years, and it expires on the Effective Date.",
     "This Agreement shall become effective on the Effective Date and shall continue in operation for at least a "
     "period of twenty-five (25) years", "This agreement lasts for at least 25 years."),
    ("The agreement ends on January 20, 2014.", COMMENCES, ""),  # nothing is left that it does not lean on
    # kept: the passage gives the date as the end, or does not state it (worked out: 16th June 2004 + 5 years)
    ("This agreement lasts for 3 years, and it expires on July 22, 2016.", EXPIRES,
     "This agreement lasts for 3 years, and it expires on July 22, 2016."),
    ("This agreement lasts for 5 years, and it expires on 16th June 2009.",
     "The commencement date for this contract will be 16th June 2004. The initial term of the contracted agreement "
     "is 5 years from the commencement date.", "This agreement lasts for 5 years, and it expires on 16th June 2009."),
    ("The agreement commences on January 20, 2014.", COMMENCES, "The agreement commences on January 20, 2014."),
])
def test_a_clause_that_states_a_start_as_the_end_is_left_out(sentence: str, passage: str, kept: str) -> None:
    assert without_contradicted(sentence, passage) == kept


@pytest.mark.parametrize(("question", "role"), [
    ("when does this deal end?", "end"), ("What is the expiration date of this contract?", "end"),
    ("Until when is the agreement in force?", "end"),
    ("When does the agreement take effect?", "start"), ("When was it signed?", "start"),
    ("When does the term start and end?", None), ("What is the governing law?", None),
])
def test_the_role_a_question_asks_for(question: str, role: str | None) -> None:
    assert asked_role(question) == role


def test_a_start_date_is_no_answer_to_when_it_ends() -> None:
    chunks = [Chunk(0, COMMENCES, "cca.pdf", 0, len(COMMENCES))]
    q = "When does this agreement end?"
    refused = grounding.check(q, question_type(q), "January 20, 2014", chunks)
    assert refused == ([], "the passages give that date as the start")
    assert grounding.check(q, question_type(q), "January 20, 2014", chunks, off={"date_role"})[1] == ""
    q = "When does this agreement commence?"
    assert grounding.check(q, question_type(q), "January 20, 2014", chunks) == ([1], "")
    chunks = [Chunk(0, EXPIRES, "mp.pdf", 0, len(EXPIRES))]
    q = "When does this agreement expire?"
    assert grounding.check(q, question_type(q), "July 22, 2016", chunks) == ([1], "")


def test_the_answer_shown_leaves_out_the_wrong_end() -> None:
    """The reply the bundled reader gave for CCA Industries' term: the short answer is right, its sentence adds the
    start date as the end. What was streamed is taken back and the sentence is shown without it."""
    raw = json.dumps({"found": True, "passage": 1, "short_answer": "6 months",
                      "answer": "This agreement lasts for six (6) months, and it expires on January 20, 2014."})
    shown: list[str] = []
    reading = stream_answer(ScriptedGenerator(lambda r: raw), "How long does this agreement last, and when does it "
                            "expire?", [Chunk(0, COMMENCES, "cca.pdf", 0, len(COMMENCES))], max_tokens=128,
                            on_text=shown.append, on_retract=lambda t: shown.append(f"<retract {t!r}>"))
    assert reading.found
    assert reading.sentence == "This agreement lasts for six (6) months. [1]"
    assert "".join(s for s in shown if not s.startswith("<retract")).endswith(
        "This agreement lasts for six (6) months. [1]")


def test_a_real_contracts_start_is_not_its_end(data_root: Path) -> None:
    """The CCA Industries contract as the product reads it (CUAD dev): its term clause makes January 20, 2014 a
    start date only."""
    doc = extract(data_root / "cuad" / "txt" / "CCAINDUSTRIESINC_04_14_2014-EX-10.1-OUTSOURCING AGREEMENT.txt")
    assert without_contradicted("This agreement lasts for six (6) months, and it expires on January 20, 2014.",
                                doc.text) == "This agreement lasts for six (6) months."
