"""A draft's points are one e-mail: a short follow-up point is asked with the subject of the point before it.

An e-mail asking "What exactly do we owe you if a delivery is late? Is there a cap?" means a cap on the
late-delivery damages; listed as a point of its own, "Is there a cap?" was answered with the agreement's
liability cap. Told to write the subject into such a question, the bundled 1.5B model copied the e-mail's
questions as written (and copied a worked example's words into every list), so the listing is left as it is
and a point that leans on the one before is rewritten as a follow-up in a conversation is
(:mod:`assistant.ttrag.conversation`): the point before, with its answer and sources, is the history. A point
leans on the one before when it carries a :func:`~assistant.ttrag.conversation.context_cues` cue ("it", "and
for ...") or is a question of at most :data:`FOLLOW_UP_WORDS` words ("Is there a cap?"): an e-mail's short
question is about the matter of the one before it.
"""

from __future__ import annotations

from assistant.models.base import GenerationRequest, Generator
from assistant.records import Answer
from assistant.ttrag.conversation import (
    STANDALONE_SCHEMA,
    Turn,
    check_standalone,
    context_cues,
    history_window,
    parse_standalone,
    standalone_prompt,
)
from assistant.ttrag.prompts import SYSTEM

FOLLOW_UP_WORDS = 4  # "Is there a cap?", "Who pays the fees?": short enough to lean on the question before


def leans_on_previous(request: str) -> bool:
    """Whether ``request`` reads as a follow-up of the e-mail's question before it (see the module docstring)."""
    return bool(context_cues(request)) or len(request.split()) <= FOLLOW_UP_WORDS


def standalone_point(generator: Generator, request: str, before: tuple[str, Answer] | None) -> str:
    """``request`` with the subject of the point ``before`` it (its request and answer) written in, when it
    leans on it (:func:`leans_on_previous`): one LLM call (purpose ``standalone``), checked as a conversation's
    rewrite is (:func:`~assistant.ttrag.conversation.check_standalone`); else, or when the rewrite is
    rejected, ``request`` as listed.

    Raises:
        Cancelled: the generator's request was cancelled (a :class:`CancellableGenerator`).
        ModelError: the model failed.
    """
    if before is None or not leans_on_previous(request):
        return request
    history = [Turn(before[0], before[0], before[1])]
    rendered, _ = history_window(history, generator.count_tokens)
    reply = generator.complete(GenerationRequest(SYSTEM, standalone_prompt(request, rendered, context_cues(request)),
                                                 max_tokens=80, json_schema=STANDALONE_SCHEMA, purpose="standalone"))
    candidate = parse_standalone(reply)
    return request if check_standalone(candidate, request, history) else candidate
