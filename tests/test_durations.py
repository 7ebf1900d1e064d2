"""Durations written in the forms contracts use (assistant.text.durations), and the answer checks that accept a
duration the reader wrote another way than the passage (CUAD dev: "until the fifth (5t h) anniversary of the
Effective Date", answered "5 years")."""

from __future__ import annotations

import pytest
from conftest import ScriptedGenerator

from assistant.records import Chunk
from assistant.text.durations import Duration, durations, without_durations
from assistant.ttrag import grounding
from assistant.ttrag.generate import stream_answer

YEARS = Duration(12, "months")


@pytest.mark.parametrize(("text", "stated"), [
    ("sixty (60) days' notice", [Duration(60, "days")]),
    ("a one-year term", [YEARS]),
    ("the fifth (5th) anniversary of the Effective Date", [Duration(60, "months")]),
    ("the fifth (5t h) anniversary", [Duration(60, "months")]),  # a PDF's text layer split the ordinal
    ("the seventh anniversary", [Duration(84, "months")]),
    ("its 3rd anniversary", [Duration(36, "months")]),
    ("the four (4) year anniversary of the Effective Date", [Duration(48, "months")]),  # counted once
    ("renewed on each anniversary of the effective date for one year", [YEARS]),  # no ordinal: no duration
    ("renewed for one (1) additional year", [YEARS]),  # a word between the number and its unit
    ("for five (5) consecutive years", [Duration(60, "months")]),
    ("shall continue in effect from year to year thereafter", [YEARS]),  # a period without a number
    ("automatically for successive annual periods", [YEARS]),
    ("on a month-to-month basis", [Duration(1, "months")]),
    ("an annual fee, payable annually", []),  # a frequency is no duration
])
def test_durations_in_the_forms_contracts_write(text: str, stated: list[Duration]) -> None:
    assert durations(text) == stated


def test_without_durations_keeps_the_other_words() -> None:
    assert without_durations("5 years after termination").split() == ["after", "termination"]


TERM = Chunk(id=1, source="alliance.pdf", start=0, end=200, text=(
    "2.1 Term. This Agreement is effective on the Effective Date and shah continue in effect until the earlier of "
    "(a) the fifth (5t h) anniversary of the Effective Date, and (b) termination by either Party upon thirty (30) "
    "days' written notice."))
NONDISCLOSURE = Chunk(id=2, source="alliance.pdf", start=200, end=400, text=(
    "4. Confidentiality. The obligations of nondisclosure shall remain in effect after the termination of this "
    "Agreement for a period of five (5) years. See Section 4.2."))


@pytest.mark.parametrize(("short", "cited"), [
    ("5 years", [1, 2]),     # the anniversary, and "five (5) years"
    ("five years", [1, 2]),  # a number in words is the number
    ("4 years", []),         # another length, though "4" and "years" stand in the nondisclosure
    ("5 years after termination", [2]),  # the other words as they are
    ("30 days", [1]),
])
def test_a_duration_is_supported_where_a_passage_states_it_in_another_form(short: str, cited: list[int]) -> None:
    assert grounding.supporting(short, [TERM, NONDISCLOSURE]) == cited


def test_the_reader_right_about_a_term_to_an_anniversary_is_found_and_cites_the_term() -> None:
    """CUAD dev (Lightbridge): the reader answered "5 years" and copied the clause; the support check found "5"
    in no passage and withheld the term. Iovance's "4 years" stood in the nondisclosure clause's tokens only, so
    its right sentence was cited to the wrong clause."""
    raw = ('{"found": true, "passage": 1, "short_answer": "5 years", "answer": "This Agreement continues in effect '
           'until the fifth anniversary of the Effective Date."}')
    reading = stream_answer(ScriptedGenerator(lambda r: raw), "How long does this agreement last?",
                            [TERM, NONDISCLOSURE], max_tokens=64, on_text=lambda t: None)
    assert reading.found and reading.supported_by[0] == 1
    assert reading.sentence.startswith("This Agreement continues in effect until the fifth anniversary")
