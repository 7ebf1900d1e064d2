"""Greedy decoding under the reply's JSON grammar: the grammar is asked about the best token first
(:class:`assistant.models.llama.GreedyGrammarSampler`), and the reply is the one llama-cpp-python's own
sampler chain gives."""

from __future__ import annotations

import re

import pytest
from llama_cpp import Llama

from assistant.models.base import GenerationRequest
from assistant.models.llama import GreedyGrammarSampler, StoppableLlama
from assistant.records import Chunk
from assistant.ttrag.generate import answer_schema
from assistant.ttrag.prompts import SYSTEM, answer_prompt
from assistant.ttrag.qtype import question_type

PASSAGES = [Chunk(1, "The initial term of this Agreement is five (5) years from the Effective Date. It renews "
                     "for one (1) year at a time unless either party gives six months' notice.", "c.md", 0, 160),
            Chunk(2, "Invoices are payable net 45 days from receipt. Late payments carry interest at 3.25 "
                     "percentage points above the base rate.", "c.md", 200, 320)]
QUESTIONS = ["How long is the initial term?", "Is late payment interest charged?", "What are the payment terms?",
             "Which is longer, the initial term or a renewal?"]


def replies(gen: object, questions: list[str]) -> list[str]:
    out = []
    for q in questions:
        qtype = question_type(q)
        request = GenerationRequest(SYSTEM, answer_prompt(q, PASSAGES, qtype), max_tokens=80,
                                    json_schema=answer_schema(qtype), purpose="answer")
        out.append(gen.complete(request))  # type: ignore[attr-defined]
    return out


def test_the_reply_is_the_sampler_chains_reply(fast_llm: object, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []
    original = StoppableLlama._init_sampler

    def spy(self: StoppableLlama, *args: object, **kwargs: object) -> object:
        sampler = original(self, *args, **kwargs)
        made.append(sampler)
        return sampler

    monkeypatch.setattr(StoppableLlama, "_init_sampler", spy)
    ours = replies(fast_llm, QUESTIONS)
    assert made and all(isinstance(s, GreedyGrammarSampler) for s in made)
    assert all(r.lstrip().startswith('{ "found"') for r in ours)  # the schema's JSON (the last may be cut)
    assert sum(1 for s in made if s.full_passes) >= 1  # the grammar overruled the model at least once
    monkeypatch.setattr(StoppableLlama, "_init_sampler", Llama._init_sampler)  # the library's chain
    fast_llm.llm.cache.cache_state.clear()  # type: ignore[attr-defined]
    assert replies(fast_llm, QUESTIONS) == ours


def test_a_plain_reply_keeps_the_librarys_sampler(fast_llm: object, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []
    original = StoppableLlama._init_sampler
    monkeypatch.setattr(StoppableLlama, "_init_sampler",
                        lambda self, *a, **k: made.append(original(self, *a, **k)) or made[-1])
    fast_llm.complete(GenerationRequest(SYSTEM, "Say hello.", max_tokens=4, purpose="plain"))  # type: ignore[attr-defined]
    assert made and not any(isinstance(s, GreedyGrammarSampler) for s in made)


def test_each_json_boolean_gets_the_probability_of_true(fast_llm: object) -> None:
    """P(true) at the ``found`` token, over the two values' tokens: above one half exactly when the reply
    chose ``true``, one value per boolean decoded, and nothing left from an earlier reply."""
    gen = fast_llm
    for q in QUESTIONS[:2]:
        reply = replies(gen, [q])[0]
        probs = gen.boolean_probs  # type: ignore[attr-defined]
        assert len(probs) == reply.count("true") + reply.count("false") == 1
        assert all(0.0 <= p <= 1.0 for p in probs)
        assert (probs[0] > 0.5) == ('"found": true' in reply.replace(" ", "").replace(":", ": "))
    list(gen.stream(GenerationRequest(SYSTEM, "Say hi.", max_tokens=4)))  # type: ignore[attr-defined]
    assert gen.boolean_probs == []  # type: ignore[attr-defined]


def test_a_reading_carries_the_readers_found_probability(fast_llm: object) -> None:
    import threading

    from assistant.models.base import CancellableGenerator
    from assistant.ttrag.generate import stream_answer

    wrapped = CancellableGenerator(fast_llm, threading.Event())  # type: ignore[arg-type]
    reading = stream_answer(wrapped, QUESTIONS[0], PASSAGES, max_tokens=80, on_text=lambda _t: None)
    assert reading.found_p is not None and 0.0 <= reading.found_p <= 1.0
    assert (reading.found_p > 0.5) == ('"found": true' in reading.raw.replace('":true', '": true'))


def test_a_yes_no_reading_carries_the_readers_yes_probability(fast_llm: object) -> None:
    """P(yes) at the short answer of a yes/no reply, over "yes" and "no": above one half exactly when the
    short answer is "yes"; a question of another kind has none."""
    import threading

    from assistant.models.base import CancellableGenerator
    from assistant.ttrag.generate import stream_answer

    wrapped = CancellableGenerator(fast_llm, threading.Event())  # type: ignore[arg-type]
    yesno = stream_answer(wrapped, QUESTIONS[1], PASSAGES, max_tokens=80, on_text=lambda _t: None)
    short = bool(re.search(r'"short_answer"\s*:\s*"yes"', yesno.raw))
    assert yesno.yes_p is not None and 0.0 <= yesno.yes_p <= 1.0
    assert (yesno.yes_p > 0.5) == short, yesno.raw
    other = stream_answer(wrapped, QUESTIONS[0], PASSAGES, max_tokens=80, on_text=lambda _t: None)
    assert other.yes_p is None
