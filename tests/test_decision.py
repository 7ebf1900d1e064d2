"""The answer decision: one calibrated probability over a reply's named signals decides whether it is stated."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from assistant.models.base import GenerationRequest, Generator
from assistant.records import Chunk
from assistant.ttrag import decision
from assistant.ttrag.decision import DecisionModel, Signals, names, signals
from assistant.ttrag.generate import stream_answer
from assistant.ttrag.qtype import question_type

LAW = Chunk(0, "19.1 Governing Law. This Agreement shall be governed by the laws of the State of New York, USA.",
            "contract.pdf", 0, 95, page=12)
OTHER = Chunk(1, "The Distributor shall buy at least 500 units a quarter.", "contract.pdf", 95, 150, page=3)


class _Sure(Generator):
    """A reader that gives one JSON reply and reports its P(found) (``boolean_probs``), as llama.cpp's does."""

    def __init__(self, reply: str, found_p: float | None) -> None:
        super().__init__()
        self.reply = reply
        self.found_p = found_p

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        self.boolean_probs = [self.found_p] if self.found_p is not None else []
        self.yes_probs = []
        yield self.reply


def _model(threshold: float = 0.5, **weights: float) -> DecisionModel:
    return DecisionModel(names(), tuple(0.0 for _ in names()), tuple(1.0 for _ in names()),
                         tuple(weights.get(n, 0.0) for n in names()), 0.0, threshold)


def test_the_signals_of_a_reply_name_what_stands_behind_it() -> None:
    q = "Which law governs the agreement between Acme and Beta?"
    s = signals(q, question_type(q), "New York", 1, [LAW, OTHER], found_p=0.97, yes_p=None)
    assert s.support == 1.0 and s.verbatim == 1.0 and s.cited_rank == 1.0 and s.form == 1.0
    assert s.coverage == 0.0  # the passages name neither Acme nor Beta: the old gate's "passages off topic"
    assert s.found_logit == pytest.approx(math.log(0.97 / 0.03))
    wrong = signals(q, question_type(q), "Ontario", 2, [LAW, OTHER], found_p=0.6, yes_p=None)
    assert wrong.support == 0.0 and wrong.verbatim == 0.0 and wrong.cited_rank == 2.0


def test_a_signal_the_backend_does_not_report_counts_as_its_mean() -> None:
    model = _model(found_logit=2.0, support=1.0)
    known = Signals(None, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.7)
    assert model.p_right(known) == pytest.approx(1 / (1 + math.exp(-1.0)))
    sure = Signals(3.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.7)
    assert model.p_right(sure) > model.p_right(known)


def test_the_decision_states_a_sure_grounded_answer_the_coverage_gate_threw_away() -> None:
    """The reported failure's kind: "New York" at P(found) .97, read from the governing-law clause, for a
    question naming the parties the clause does not: the key-term coverage check rejected it; the decision
    weighs that against what stands behind the answer."""
    q = "Which law governs the agreement between Acme and Beta?"
    reply = '{"found": true, "passage": 1, "short_answer": "New York", "answer": "The laws of New York govern it."}'
    shown: list[str] = []
    checks = stream_answer(_Sure(reply, 0.97), q, [LAW, OTHER], max_tokens=64, on_text=shown.append,
                           min_coverage=0.5)
    assert not checks.found and checks.reason == "passages off topic"
    model = _model(found_logit=1.0, support=1.0, verbatim=1.0, coverage=0.3)
    decided = stream_answer(_Sure(reply, 0.97), q, [LAW, OTHER], max_tokens=64, on_text=shown.append,
                            min_coverage=0.5, decision_model=model)
    assert decided.found and decided.short_answer == "New York" and decided.supported_by[0] == 1
    unsure = stream_answer(_Sure(reply.replace("New York", "Ontario"), 0.55), q, [LAW, OTHER], max_tokens=64,
                           on_text=shown.append, decision_model=model, decision_threshold=0.9)
    assert not unsure.found and unsure.reason.startswith("the answer decision: unlikely right (P(right) ")


def test_no_answer_stays_no_answer_whatever_the_model() -> None:
    q = "Which law governs this agreement?"
    reply = '{"found": false, "passage": 1, "short_answer": "", "answer": ""}'
    reading = stream_answer(_Sure(reply, 0.9), q, [LAW], max_tokens=64, on_text=lambda s: None,
                            decision_model=_model(threshold=0.0))
    assert not reading.found and reading.reason == "the reader found no answer"


def test_the_installed_decision_names_only_known_signals_and_its_operating_point() -> None:
    model = decision.load()
    if model is None:
        pytest.skip("no fitted decision installed (assistant/ttrag/decision.json)")
    assert set(model.names) <= set(names()) and len(model.coef) == len(model.names)
    assert 0.0 <= model.threshold <= 1.0 and model.fitted_on
    assert decision.active("fitted") is model and decision.active("checks") is None
