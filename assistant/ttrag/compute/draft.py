"""Draft replies grounded in the attachments (TTRAG conditional compute: the ``draft_reply`` category).

1. The LLM lists what the email asks or requests (JSON schema: a list of standalone questions); the
   person's instructions come first and may add to or override the list.
2. Each point is answered by the full question-answering pipeline over the message's attachments and
   the thread (:func:`assistant.ttrag.pipeline.ask`): retrieval, re-ranking, rewrites, grounding.
3. The LLM writes the reply from those answers only: a point the documents do not answer is said to be
   not stated, never invented. The reply is signed with the account holder's name; headers the model
   writes into the body ("Subject: Re: ...") are removed.
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.config import PipelineOptions
from assistant.errors import Cancelled
from assistant.models.base import GenerationRequest, Generator
from assistant.records import Answer, Chunk, Event, Progress, TokenText
from assistant.ttrag import pipeline
from assistant.ttrag.context import Context
from assistant.ttrag.generate import strip_markers
from assistant.ttrag.prompts import SYSTEM, fence

MAX_POINTS = 5
MAX_EMAIL_CHARS = 4000
REQUESTS_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {"requests": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_POINTS}},
    "required": ["requests"],
}
_HEADER_LINE = re.compile(r"^\s*(subject|to|from|cc|date|re)\s*:.*$", re.I)


@dataclass(frozen=True)
class Point:
    """One thing the email asks, and the pipeline's answer to it (``answer.found`` False: not stated)."""

    request: str
    answer: Answer


@dataclass(frozen=True)
class Draft:
    """A reply body and the points it answers, each with its sources (for review, never in the mail)."""

    body: str
    points: tuple[Point, ...]


def _email_chunk(email_text: str) -> Chunk:
    text = email_text[:MAX_EMAIL_CHARS]
    return Chunk(id=0, text=text, source="the email", start=0, end=len(text))


def list_requests(generator: Generator, email_text: str, instructions: str = "") -> list[str]:
    """The questions and requests in ``email_text`` that the documents may answer, as standalone
    questions (at most :data:`MAX_POINTS`); a malformed reply gives an empty list."""
    wish = f" The user adds: {instructions.strip()}" if instructions.strip() else ""
    prompt = (f"{fence([_email_chunk(email_text)])}\n"
              "Task: list every question or request in this email that the attached documents could answer, "
              "each rewritten as one short standalone question (name the document's subject instead of "
              f"'it' or 'this'). Leave out greetings and small talk.{wish} Reply in JSON: requests (a list of "
              "questions).")
    raw = generator.complete(GenerationRequest(SYSTEM, prompt, max_tokens=200, json_schema=REQUESTS_SCHEMA,
                                               purpose="draft_requests"))
    try:
        items = json.loads(raw).get("requests", [])
    except (ValueError, AttributeError):
        return []
    seen: dict[str, str] = {}
    for item in items if isinstance(items, list) else []:
        text = str(item).strip()
        if len(text) > 3 and text.lower() not in seen:
            seen[text.lower()] = text
    return list(seen.values())[:MAX_POINTS]


def facts_block(points: Sequence[Point]) -> str:
    """The answered points as the composer reads them: one line each, "not stated" when not found."""
    lines = []
    for n, p in enumerate(points, 1):
        if p.answer.found:
            lines.append(f"{n}. {p.request} -> {strip_markers(p.answer.text)}")
        else:
            lines.append(f"{n}. {p.request} -> NOT STATED in the documents")
    return "\n".join(lines)


def compose_prompt(email_text: str, points: Sequence[Point], *, signer: str, instructions: str = "") -> str:
    """The reply prompt: the email fenced as data, the answered points, the person's instructions."""
    wish = f"\nThe user's instructions (follow them): {instructions.strip()}" if instructions.strip() else ""
    facts = facts_block(points) if points else "(no questions to answer from the documents)"
    return (f"{fence([_email_chunk(email_text)])}\n"
            f"Answers found in the attached documents:\n{facts}{wish}\n"
            f"Task: write the body of the reply to this email, as {signer}. Answer each question with the "
            "answer above, in plain sentences. For an answer marked NOT STATED, say plainly that the documents "
            "do not say. Do not add any other fact, number, date or promise. Start with a greeting to the "
            f"sender, end with a short closing and the name {signer}. No subject line, no quoted original.")


def clean_body(text: str, signer: str) -> str:
    """The reply body without header lines the model wrote at its top, ending with ``signer``."""
    lines = text.strip().splitlines()
    while lines and (_HEADER_LINE.match(lines[0]) or not lines[0].strip()):
        lines.pop(0)
    body = "\n".join(lines).strip() or "(write your reply here)"
    if signer and signer.lower() not in body[-(len(signer) + 40):].lower():
        body += f"\n\n{signer}"
    return body


def _without_text(emit: Callable[[Event], None]) -> Callable[[Event], None]:
    """``emit`` for a point's own pipeline run: its progress shows, its answer text does not."""
    def forward(event: Event) -> None:
        if not isinstance(event, TokenText):
            emit(event)
    return forward


def write_draft(ctx: Context | None, email_text: str, models: pipeline.Models,
                options: PipelineOptions | None = None, *, signer: str, instructions: str = "",
                emit: Callable[[Event], None] = lambda e: None, cancel: threading.Event | None = None,
                max_tokens: int = 400) -> Draft:
    """Draft a reply to ``email_text`` grounded in ``ctx`` (the attachments and the thread).

    Args:
        ctx: the in-memory context of the documents, or None when the message has none.
        email_text: the message replied to (headers and body).
        models: generator, embedder, conditional encoder.
        options: pipeline hyperparameters (the router is off: each point is a question).
        signer: the account holder's name, used in the closing.
        instructions: the person's wishes; they steer decisions and tone, and may add points.
        emit: receives :class:`Progress` (``draft points``, ``draft``), each point's events and the
            reply's :class:`TokenText` pieces.
        cancel: set it to stop at the next step.

    Returns:
        The :class:`Draft`.

    Raises:
        Cancelled: ``cancel`` was set.
        ModelError: a model failed.
    """
    stop = cancel or threading.Event()
    qa_opts = dataclasses.replace(options or PipelineOptions(), router=False)
    emit(Progress("draft points", 0, 0))
    requests = list_requests(models.generator, email_text, instructions)
    points: list[Point] = []
    for n, request in enumerate(requests if ctx is not None and ctx.chunks else []):
        if stop.is_set():
            raise Cancelled()
        emit(Progress("draft points", n, len(requests)))
        points.append(Point(request, pipeline.ask(ctx, request, models, qa_opts,  # type: ignore[arg-type]
                                                  emit=_without_text(emit), cancel=stop)))
    if stop.is_set():
        raise Cancelled()
    emit(Progress("draft", 0, 1))
    pieces: list[str] = []
    compose = GenerationRequest(SYSTEM, compose_prompt(email_text, points, signer=signer, instructions=instructions),
                                max_tokens=max_tokens, purpose="draft")
    for piece in models.generator.stream(compose):
        if stop.is_set():
            raise Cancelled()
        pieces.append(piece)
        emit(TokenText(piece))
    emit(Progress("draft", 1, 1))
    return Draft(clean_body("".join(pieces), signer), tuple(points))
