"""The verification read of a summary point: does the sentence it cites state what the point is about?

A point of a summary is a question answered through the question-answering path; the reader answers the
question it was asked from the passages it was given, and when what was asked about is not among them it answers
from whatever is ("The report recommends a recommendation from the U.S. Commission of Fine Arts."). One short
read of the passage's sentence alone, asked whether it states the point's own subject
(:attr:`PointQuestion.check`: a report's recommendations), gives P(yes) (the reader's probability of ``true``,
renormalised over true and false); a point below :attr:`assistant.config.PipelineOptions.point_check_p` is left
out, as a point the document does not state. The read is about 60 prompt tokens. A contract's points have none
since round four: on every CUAD dev contract the term's check at its bar (0.3) left out no point, and the
governing law's left out seven right ones; the term is held to its read's P(found) instead
(:attr:`PointQuestion.found_p`), the governing law to naming a jurisdiction (:attr:`PointQuestion.form`).
"""

from __future__ import annotations

import json

from assistant.models.base import GenerationRequest, Generator
from assistant.ttrag.prompts import SYSTEM, escape_passage

CHECK_SCHEMA: dict[str, object] = {"type": "object", "properties": {"states": {"type": "boolean"}},
                                   "required": ["states"]}


def check_prompt(sentence: str, check: str) -> str:
    """The prompt of the verification read: the passage's ``sentence`` fenced as data, the yes/no ``check``."""
    return (f"<passages>\n[1] {escape_passage(sentence)}\n</passages>\n"
            f"Task: {check} Reply in JSON: states (true or false).")


def check_point(generator: Generator, sentence: str, check: str) -> float | None:
    """P(the passage's ``sentence`` states what ``check`` asks), from one read with a JSON boolean; the
    decoded boolean (1.0 or 0.0) when the backend reports no probabilities; None when the reply is no valid
    JSON (the point then stands as read).

    Raises:
        Cancelled: the generator's request was cancelled.
        ModelError: the model failed.
    """
    raw = generator.complete(GenerationRequest(SYSTEM, check_prompt(sentence, check), max_tokens=12,
                                               json_schema=CHECK_SCHEMA, purpose="point_check"))
    probs = generator.boolean_probs
    if probs:
        return probs[0]
    try:
        states = json.loads(raw).get("states")
    except (ValueError, AttributeError):
        return None
    return 1.0 if states is True else 0.0 if states is False else None
