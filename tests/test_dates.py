"""Calendar dates written in the forms documents use (assistant.text.dates), and the answer checks that accept
a date the reader wrote another way than the passage (real CUAD preambles: "19t h day of March, 2020")."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import ScriptedGenerator

from assistant.records import Chunk
from assistant.text.dates import dates_in, without_shared_dates
from assistant.ttrag import grounding
from assistant.ttrag.generate import states_numbers, stream_answer


@pytest.mark.parametrize(("text", "days"), [
    ("made this 19t h day of March, 2020 by", ["2020-03-19"]),  # a PDF's text layer split the ordinal
    ("entered into this 20th day of Friday, March 2020", ["2020-03-20"]),
    ("the (1st)  day of January, 1996", ["1996-01-01"]),
    ("dated as of the 2nd  day  of  September  1998", ["1998-09-02"]),
    ("the 16 day of August. 2012", ["2012-08-16"]),
    ("made on the 15th of January 2018", ["2018-01-15"]),
    ("effective April. 1st 2019", ["2019-04-01"]),
    ("on Oct. 11, 1996 and March 12,1999", ["1996-10-11", "1999-03-12"]),
    ("signed 2020-03-19", ["2020-03-19"]),
    ("on 12/13/99", ["1999-12-13"]),
])
def test_dates_in_the_forms_contracts_write(text: str, days: list[str]) -> None:
    found = dates_in(text)
    assert [str(next(iter(d.days))) for d in found] == days
    assert all(len(d.days) == 1 for d in found)


def test_a_numeric_date_is_read_month_first_and_day_first() -> None:
    (only,) = dates_in("on 3/4/20")
    assert only.days == {dt.date(2020, 3, 4), dt.date(2020, 4, 3)}


@pytest.mark.parametrize("text", ["in July 2013", "on March 19", "February 30, 2020", "version 1.2.3",
                                  "Section 12 of 2020", "20 days of March 2020 notice"])
def test_no_calendar_date(text: str) -> None:
    assert dates_in(text) == []


def test_without_shared_dates_cuts_only_the_dates_the_other_text_states() -> None:
    assert without_shared_dates("signed 2020-03-19", "the 19th day of March, 2020").strip() == "signed"
    assert without_shared_dates("from 2020-03-19 to 2020-04-01", "March 19, 2020").split() == \
        ["from", "to", "2020-04-01"]


PREAMBLE = Chunk(0, 'This Agreement is made this 19t h day of March, 2020 by Co-Diagnostics, Inc. ("Principal")',
                 "c.pdf", 0, 90)
OTHER = Chunk(1, "Invoices are due on 2020-04-01.", "c.pdf", 100, 130)


@pytest.mark.parametrize(("short", "cited"), [
    ("2020-03-19", [1]),
    ("March 19, 2020", [1]),
    ("March 19, 2020 by Co-Diagnostics", [1]),
    ("March 19, 2020 by Acme", []),  # the rest is matched word for word
    ("2020-03-18", []),  # another day
    ("April 1, 2020", [2]),
    ("2020-03-19 to 2020-04-01", []),  # no passage states both
])
def test_a_date_is_supported_where_a_passage_states_it_in_another_form(short: str, cited: list[int]) -> None:
    assert grounding.supporting(short, [PREAMBLE, OTHER]) == cited


def test_the_sentence_states_the_short_answers_date_in_another_form() -> None:
    assert states_numbers("2020-03-20", "The Agreement was executed on March 20, 2020.")
    assert not states_numbers("2020-03-21", "The Agreement was executed on March 20, 2020.")


def test_the_reader_right_about_a_preamble_date_is_found() -> None:
    """CUAD dev (PreCheck Health Services): the reader answered "2020-03-19" / "made on March 19, 2020" for a
    preamble that says "19t h day of March, 2020"; two checks refused it."""
    raw = ('{"found": true, "passage": 1, "short_answer": "2020-03-19", '
           '"answer": "The agreement was made on March 19, 2020."}')
    reading = stream_answer(ScriptedGenerator(lambda r: raw), "What is the date of this agreement?", [PREAMBLE],
                            max_tokens=64, on_text=lambda t: None)
    assert reading.found and reading.supported_by == (1,)
    assert reading.sentence.startswith("The agreement was made on March 19, 2020.")
