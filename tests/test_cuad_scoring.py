"""The cuad judge: replies a lawyer would accept are right, near misses are wrong; bootstrap intervals."""

from __future__ import annotations

import pytest

from assistant.eval.clauses import (
    Duration,
    LooseDate,
    durations,
    judge,
    jurisdictions,
    label_date,
    label_durations,
    label_parties,
    parties_f1,
    reply_dates,
    says_not_found,
    says_yes,
    scorable,
)
from assistant.eval.metrics import bootstrap_interval


def test_label_dates_with_missing_fields() -> None:
    assert label_date("5/1/06") == LooseDate(2006, 5, 1)
    assert label_date("12/31/99") == LooseDate(1999, 12, 31)
    assert label_date("09/[]/2018") == LooseDate(2018, 9, None)
    assert label_date("[]/[]/2000") == LooseDate(2000, None, None)
    assert label_date("perpetual") is None and label_date("") is None


def test_reply_dates_in_the_usual_forms() -> None:
    may1 = LooseDate(2006, 5, 1)
    for text in ("May 1, 2006", "the 1st day of May, 2006", "1 st  day of May 2006", "05/01/2006", "2006-05-01",
                 "1 May 2006", "dated as of May 1st, 2006"):
        assert reply_dates(text)[:1] == [may1], text
    assert reply_dates("September 2018") == [LooseDate(2018, 9, None)]
    assert reply_dates("from May 1, 2006 until 5/1/2007") == [may1, LooseDate(2007, 5, 1)]
    assert reply_dates("no date here") == []


def test_a_german_reply_states_its_date_in_german() -> None:
    # the reader answers a German question in German: "20. März 2020" is the date "3/20/20" as much as
    # "March 20, 2020" is (the dev run judged it wrong before)
    assert reply_dates("Dieser Vertrag wurde am 20. März 2020 signiert.") == [LooseDate(2020, 3, 20)]
    assert reply_dates("Dieser Vertrag gilt vom April 1. 2019 bis zum März 30. 2020.") == [
        LooseDate(2019, 4, 1), LooseDate(2020, 3, 30)]
    assert judge("date", "1/20/14", True, "Dieser Vertrag gilt ab dem 20. Januar 2014.", True)
    assert not judge("date", "1/15/18", True, "Der Vertrag wurde am 2. Dezember 2019 signiert.", True)
    assert reply_dates("Section 3. May 2006") == [LooseDate(2006, 5, None)]  # an English number is not a day


@pytest.mark.parametrize(("reply", "label", "right"), [
    ("May 1, 2006", "5/1/06", True),
    ("This Agreement is made as of the 1st day of May, 2006", "5/1/06", True),
    ("This Agreement is entered into this first (1st) day of January, 1996.", "1/1/96", True),  # the words and digits
    ("May 2, 2006", "5/1/06", False),           # a day off is wrong
    ("May 1, 2007", "5/1/06", False),
    ("May 2006", "5/1/06", False),              # the label has a day: the reply must say it
    ("September 2018", "09/[]/2018", True),     # a partial label matches year and month
    ("September 14, 2018", "09/[]/2018", True),
    ("October 2018", "09/[]/2018", False),
    ("2000", "[]/[]/2000", True),
    ("2001", "[]/[]/2000", False),
    ("1/5/2015", "1/5/15", True),               # labels are M/D/YY
    ("5/1/2015", "1/5/15", False),
])
def test_dates_compared_as_dates(reply: str, label: str, right: bool) -> None:
    assert judge("date", label, True, reply, True) is right


def test_durations_as_numbers_with_units() -> None:
    assert durations("sixty (60) days") == [Duration(60, "days")]
    assert durations("one (1) year") == [Duration(12, "months")]
    assert durations("a one-year term") == [Duration(12, "months")]
    assert durations("one hundred eighty days") == [Duration(180, "days")]
    assert durations("forty-five (45) days' notice") == [Duration(45, "days")]
    assert durations("two weeks") == [Duration(14, "days")]
    assert label_durations("180 days / 6 months") == [Duration(180, "days"), Duration(6, "months")]
    assert label_durations("4 years, 6 months") == [Duration(54, "months")]
    assert label_durations("successive 1 year") == [Duration(12, "months")]
    assert label_durations("7/22/2019; 7/22/2022") == []
    assert Duration(1, "months").same(Duration(30, "days")) and Duration(3, "months").same(Duration(90, "days"))
    assert not Duration(60, "days").same(Duration(61, "days"))   # the same unit: exact
    assert not Duration(2, "months").same(Duration(45, "days"))


@pytest.mark.parametrize(("reply", "label", "right"), [
    ("sixty (60) days", "60 days", True),
    ("at least 60 days prior written notice", "60 days", True),
    ("1 year", "12 months", True),
    ("successive one-year periods", "successive 1 year", True),
    ("twelve (12) months", "successive 1 year", True),
    ("ninety (90) days", "3 months", True),
    ("six months", "180 days / 6 months", True),
    ("thirty (30) days", "60 days", False),
    ("2 years", "successive 1 year", False),
    ("60 months", "60 days", False),            # the unit counts
    ("renews automatically", "60 days", False),  # no duration stated
    # the reader answers a German question in German
    ("Jeder Vertrag verlängert sich jeweils 10 Jahre.", "successive 10 years", True),
    ("Der Vertrag wird jeweils für eine Jahr verlängert.", "succesive 1 year", True),
    ("Die Frist beträgt sechzig Tage.", "60 days", True),
    ("Jeder Vertrag verlängert sich jeweils für 2 Jahre.", "succsive 1 year", False),
])
def test_durations_judged(reply: str, label: str, right: bool) -> None:
    assert judge("duration", label, True, reply, True) is right


@pytest.mark.parametrize(("reply", "label", "right"), [
    ("the laws of the State of New York", "New York", True),
    ("New York", "New York", True),
    ("Commonwealth of Massachusetts", "Massachusetts", True),
    ("the laws of England and Wales", "England; Wales", True),
    ("English law", "England", True),
    ("the laws of the Province of Ontario and the federal laws of Canada", "Ontario, Canada", True),
    ("the laws of the PRC", "People's Republic of China", True),
    ("the laws of West Virginia", "Virginia", False),  # a name inside another is not it
    ("Arkansas", "Kansas", False),
    ("Delaware", "New York", False),
    ("Delaware law; courts of New York", "New York", False),  # the law named first counts
    ("the laws of the United States and the State of Delaware", "Delaware", True),
])
def test_governing_law_by_place(reply: str, label: str, right: bool) -> None:
    assert judge("law", label, True, reply, True) is right


def test_jurisdictions_in_order() -> None:
    assert jurisdictions("the State of New York, not New Jersey") == ["new york", "new jersey"]


LOOP = 'Virtual Item Processing Systems, Inc. ("VIP"); Brokers National Life Assurance Company ("BNL")'


@pytest.mark.parametrize(("reply", "right"), [
    ("Virtual Item Processing Systems, Inc. and Brokers National Life Assurance Company", True),
    ("Virtual Item Processing Systems, Inc. (VIP) and Brokers National Life Assurance Company (BNL)", True),
    ("Virtual Item Processing Systems and BNL", True),     # a party named by its defined term, the other in full
    ("Virtual Item Processing Systems, Inc.", False),      # one party of two
    ("VIP and BNL", False),                                # defined terms only: no names
    ("Brokers National Life and Acme Holdings Corp", False),
])
def test_parties_by_token_f1(reply: str, right: bool) -> None:
    assert judge("parties", LOOP, True, reply, True) is right


def test_party_labels_drop_forms_terms_and_collective_entries() -> None:
    parties = label_parties('Microgenics Corporation ("Microgenics"); Achaogen Inc. ("Achaogen"); '
                            '(individually "Party" and collectively "Parties")')
    assert [sorted(p.name) for p in parties] == [["microgenics"], ["achaogen"]]
    assert parties_f1("Microgenics Corporation and Achaogen, Inc.", parties) == 1.0
    assert parties_f1("Achaogen", parties) == pytest.approx(2 / 3)
    # a PDF's curly apostrophe is the label's straight one
    reeds = label_parties('Reed\'s, Inc. ("Reed\'s"); Full Sail Brewing Company ("Company")')
    assert parties_f1("Reed\u2019s, Inc. and Full Sail Brewing Company", reeds) == 1.0


def test_expiry_as_date_term_or_perpetual() -> None:
    assert judge("expiry", "7/15/15", True, "July 15, 2015", True, start="7/15/10")
    assert judge("expiry", "7/15/15", True, "five (5) years from the Effective Date", True, start="7/15/10")
    assert not judge("expiry", "7/15/15", True, "three (3) years", True, start="7/15/10")
    assert not judge("expiry", "7/15/15", True, "five years", True, start="")  # no start date to count from
    assert judge("expiry", "12/31/20", True, "5 years", True, start="1/1/16")   # within a day
    # an anniversary of the start is that many years after it (CUAD dev: Lightbridge, Iovance)
    assert judge("expiry", "8/16/17", True, "until the earlier of (a) the fifth (5th) anniversary of the Effective "
                 "Date, and (b) termination upon thirty (30) days' written notice", True, start="8/16/12")
    assert not judge("expiry", "8/16/17", True, "the fourth (4th) anniversary", True, start="8/16/12")
    assert judge("expiry", "perpetual", True, "It continues until terminated by either party", True)
    assert not judge("expiry", "perpetual", True, "December 31, 2030", True)


def test_absent_clause_wants_the_agreement_does_not_say() -> None:
    assert judge("law", "", False, "", False)                                   # the product's not found
    assert judge("date", "", False, "The agreement does not specify a date", True)
    assert not judge("law", "", False, "New York", True)                        # an invented answer
    assert not judge("law", "New York", True, "", False)                        # a present clause missed
    assert says_not_found("Not stated in the agreement", True) and not says_not_found("New York", True)


@pytest.mark.parametrize(("reply", "found", "label", "right"), [
    ("yes", True, "Yes", True),
    ("Liability is capped at the fees paid in the prior 12 months", True, "Yes", True),  # the thing itself
    ("not to exceed $1,000,000", True, "Yes", True),  # a cap, not a "no"
    ("no", True, "Yes", False),
    ("", False, "Yes", False),
    ("no", True, "No", True),
    ("", False, "No", True),                        # not found: the agreement has none
    ("None", True, "No", True),
    ("There is no non-compete clause.", True, "No", True),
    ("yes", True, "No", False),
])
def test_yes_no_kinds(reply: str, found: bool, label: str, right: bool) -> None:
    assert judge("yesno", label, label == "Yes", reply, found) is right


def test_says_yes() -> None:
    assert says_yes("yes", True) and not says_yes("No, it does not.", True) and not says_yes("yes", False)


def test_scorable_labels() -> None:
    assert scorable("date", "09/[]/2018") and not scorable("date", "")
    assert scorable("expiry", "perpetual") and not scorable("expiry", "")
    assert not scorable("duration", "7/22/2019; 7/22/2022") and scorable("duration", "successive 1 year")
    assert not scorable("law", "[* * *]") and scorable("law", "Oklahoma")
    assert not scorable("parties", '(individually "Party")')


def test_bootstrap_interval_seeded_and_sane() -> None:
    values = [1.0] * 13 + [0.0] * 13
    low, high = bootstrap_interval(values, seed=0)
    assert (low, high) == bootstrap_interval(values, seed=0)   # seeded: the same interval
    assert low < 0.5 < high and 0.25 < low and high < 0.75      # ~ 0.5 +- 1.96 * 0.098
    assert bootstrap_interval([1.0] * 5) == (1.0, 1.0)
    assert bootstrap_interval([]) != bootstrap_interval([])     # NaN: no questions, no interval
