"""The evaluation harness on a tiny task whose metrics are computed by hand."""

from __future__ import annotations

import pytest

from assistant.eval.hotpot import is_gold
from assistant.eval.metrics import (
    choice_right,
    contains,
    exact_match,
    first_option,
    gold_option,
    gold_ranks,
    key_match,
    recall_at,
    reciprocal_rank,
    token_f1,
)
from assistant.records import Chunk


def chunk(i: int, start: int, end: int) -> Chunk:
    return Chunk(i, "x" * (end - start), "t.txt", start, end)


def test_recall_and_mrr_by_hand() -> None:
    # gold paragraphs at [100, 200) and [500, 600); ranking: a miss, gold #2, a miss, gold #1
    ranked = [chunk(0, 0, 90), chunk(1, 500, 600), chunk(2, 700, 800), chunk(3, 100, 200)]
    ranks = gold_ranks(ranked, [(100, 200), (500, 600)], is_gold)
    assert ranks == [4, 2]
    assert recall_at(ranks, 1) == 0.0
    assert recall_at(ranks, 3) == 0.5
    assert recall_at(ranks, 10) == 1.0
    assert reciprocal_rank(ranks) == 0.5
    assert reciprocal_rank([0, 0]) == 0.0


def test_is_gold_needs_half_the_paragraph() -> None:
    assert is_gold(chunk(0, 100, 160), (100, 200))      # 60 of 100 characters
    assert not is_gold(chunk(0, 0, 140), (100, 200))    # 40 of 100, and 40 of the chunk's 140
    assert is_gold(chunk(0, 120, 150), (100, 200))      # a chunk inside the paragraph


@pytest.mark.parametrize(("pred", "gold", "em", "f1", "cont"), [
    ("The Eiffel Tower", ["Eiffel Tower"], 1.0, 1.0, 1.0),
    ("Eiffel", ["Eiffel Tower"], 0.0, 2 * 1.0 * 0.5 / 1.5, 0.0),
    # normalised: "it is eiffel tower in paris" (6 tokens, "the" dropped): P 2/6, R 1, F1 .5
    ("It is the Eiffel Tower, in Paris", ["Eiffel Tower"], 0.0, 0.5, 1.0),
    ("no", ["yes"], 0.0, 0.0, 0.0),
])
def test_answer_metrics_by_hand(pred: str, gold: list[str], em: float, f1: float, cont: float) -> None:
    assert exact_match(pred, gold) == em
    assert token_f1(pred, gold) == pytest.approx(f1)
    assert contains(pred, gold) == cont


@pytest.mark.parametrize("pred,gold,ok", [
    ("5", "five (5) years", 1.0), ("0.5%", "0.5% of the order value per calendar day", 1.0),
    ("2.8%", "2.8 percent", 1.0), ("EUR 10,000,000", "EUR 10,000,000 per occurrence", 1.0),
    ("Netherlands", "substantive laws of the Netherlands", 1.0), ("six weeks", "from four to six weeks", 1.0),
    ("Hafenstrasse 112, 28217 Bremen, Germany", "Hafenstrasse 112, 28217 Bremen", 1.0),  # contains the gold
    ("interest", "3.25 percentage points above the main refinancing rate, as interest", 0.0),  # no key
    ("0.5% per week", "0.5% of the order value per calendar day", 0.0),  # a word the gold does not have
    ("laws", "substantive laws of the Netherlands", 0.0), ("", "five (5) years", 0.0),
    ("order value", "0.5% of the order value per calendar day", 0.0),
])
def test_key_match_by_hand(pred: str, gold: str, ok: float) -> None:
    assert key_match(pred, [gold]) == ok


def test_a_choice_is_judged_by_the_option_named_first() -> None:
    options = ("Lavatera", "Oplismenus")
    assert gold_option(("Ulf Merbold", "Mirosław Hermaszewski"), ["Ulf Dietrich Merbold"]) == "Ulf Merbold"
    assert gold_option(options, ["musician, editor and composer."]) == ""
    # naming both: the one named first is the answer a person reads
    assert choice_right("There are 25 species of Lavatera, while there are 100 species of Oplismenus.", options,
                        ["Oplismenus"]) == 0.0
    assert choice_right("Oplismenus: 100 species [1], against 25 species for Lavatera [2].", options,
                        ["Oplismenus"]) == 1.0
    assert first_option("Alexandrov wrote more.", ("Semyon Gershgorin", "Pavel Alexandrov")) == "Pavel Alexandrov"
    assert first_option("Neither.", options) == ""
    # gold naming neither option: gold contained
    assert choice_right("He was a musician, editor and composer.", ("A", "B"), ["musician, editor and composer."])
