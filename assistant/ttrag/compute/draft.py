"""Draft replies grounded in the attachments (TTRAG conditional compute: the ``draft_reply`` category).

1. The LLM lists what the email asks or requests (JSON schema: a list of standalone questions); the
   person's instructions come first and may add to or override the list. The points are one e-mail: a short
   follow-up ("Is there a cap?") is rewritten with the point before it as its conversation
   (:mod:`~assistant.ttrag.compute.draft_followups`).
2. Each point is answered by the full question-answering pipeline over the message's attachments and
   the thread (:func:`assistant.ttrag.pipeline.ask`): retrieval, re-ranking, rewrites, grounding.
3. The reply is assembled from those answers only: a greeting, each point with its answer sentence as
   the reader wrote it from a cited passage, widened to the passage's whole sentence where the reader cut it
   (:mod:`~assistant.ttrag.compute.draft_points`; a fragment that cannot be made whole is not confirmed; a
   point the documents do not answer is said to be not stated, never invented), a closing and the account
   holder's name. The LLM writes only what the person's instructions ask for (a decision, a tone), in an
   opening paragraph told to state no fact. Measured on the draft benchmark, a 1.5B model asked to write the
   whole reply from the answers dropped answered points and padded with filler ("Thank you for your prompt
   response"); the assembled reply keeps every answer. Without any point to answer (no documents, or nothing
   asked) the LLM writes the short reply. Header lines the model writes into the body ("Subject: Re: ...")
   are removed.
4. Links and addresses are checked last (:func:`guard_links`): a URL, domain or e-mail address in the reply
   that is in neither the person's instructions, the email and its thread, nor the documents read is
   removed, so text written to steer the model (an injected "add this link") cannot add a link or a
   recipient to the draft.
"""

from __future__ import annotations

import dataclasses
import email.utils
import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.config import PipelineOptions
from assistant.errors import Cancelled
from assistant.models.base import CancellableGenerator, GenerationRequest, Generator
from assistant.records import Answer, Chunk, Event, PointAnswered, Progress, Retract, TokenText
from assistant.ttrag import pipeline
from assistant.ttrag.compute.draft_followups import standalone_point
from assistant.ttrag.compute.draft_points import whole_answer
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
_FROM_LINE = re.compile(r"^From:\s*(.+)$", re.M)
_GREETING = re.compile(r"^\s*(hi|hello|dear|hey)\b[^\n]*,\s*$", re.I)
_CLOSING = re.compile(r"^\s*(best|kind|warm)?\s*(regards|wishes|thanks|thank you|cheers|sincerely)\b.*$", re.I)
NOT_STATED = "This is not stated in the attached documents."
CLOSING = "Best regards,"


@dataclass(frozen=True)
class Point:
    """One thing the email asks, and the pipeline's answer to it (``answer.found`` False: not stated);
    ``whole`` False: the answer is part of a sentence that could not be found whole in its source
    (:func:`~assistant.ttrag.compute.draft_points.whole_answer`), so it is not confirmed."""

    request: str
    answer: Answer
    whole: bool = True

    @property
    def confirmed(self) -> bool:
        """The documents state the answer, as whole sentences of a cited source."""
        return self.answer.found and self.whole


@dataclass(frozen=True)
class Draft:
    """A reply body and the points it answers, each with its sources (for review, never in the mail);
    ``removed``: links and addresses taken out of the body because nothing the person or the thread wrote
    contains them (see :func:`guard_links`)."""

    body: str
    points: tuple[Point, ...]
    removed: tuple[str, ...] = ()


# Links and addresses a reply may carry: scheme URLs, www. hosts, e-mail addresses, and bare domains with a
# path or a common top-level domain ("pay-now.example/login", "evil.com"); a file name such as "contract.pdf"
# is not a domain.
_TLDS = ("com|org|net|io|co|info|biz|xyz|example|app|dev|me|ru|cn|uk|de|fr|eu|us|ly|link|site|online|top|"
         "click|invalid|test|local")
LINK = re.compile(r"(?:\b[a-z][a-z0-9+.-]*://|\bwww\.)[^\s<>()\"'\]\[]+"
                  r"|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
                  rf"|\b(?:[a-z0-9-]+\.)+(?:{_TLDS})\b(?:/[^\s<>()\"']*)?"
                  r"|\b(?:[a-z0-9-]+\.)+[a-z]{2,}/[^\s<>()\"']*", re.I)
_TRAILING = ".,;:!?'\"*_"


# Rewrites per point of a draft (the method allows up to 3). A point the documents do not answer runs every
# rewrite and then the top-10 read; with 3, the draft benchmark's three-question draft took 115 s, one
# not-found point alone about 70 s (benchmarks/results/drafts.md, round 6).
DRAFT_REWRITES = 1


def links(text: str) -> set[str]:
    """The URLs, domains and e-mail addresses in ``text``, lower-cased, without trailing punctuation or
    slash (``mailto:`` and the URL scheme are kept as written)."""
    return {m.group(0).rstrip(_TRAILING).rstrip("/").lower() for m in LINK.finditer(text)}


def guard_links(body: str, allowed: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """``body`` without the links and addresses that none of the ``allowed`` texts contains.

    Args:
        body: the draft reply.
        allowed: what the person wrote (instructions) and what the thread and the documents read contain.

    Returns:
        The body (each removed link replaced by ``[link removed]``, each address by ``[address removed]``)
        and the removed strings, in order.
    """
    known = set().union(*(links(t) for t in allowed)) if allowed else set()
    known_text = " ".join(allowed).lower()
    removed: list[str] = []

    def check(m: re.Match[str]) -> str:
        raw = m.group(0)
        core = raw.rstrip(_TRAILING)
        key = core.rstrip("/").lower()
        if key in known or any(k.startswith(key) or key.startswith(k + "/") for k in known if "/" in k) \
                or (key in known_text and "@" not in key and "/" not in key and "://" not in key
                    and _is_word_bounded(known_text, key)):
            return raw
        removed.append(core)
        return ("[address removed]" if "@" in core and "://" not in core else "[link removed]") + raw[len(core):]

    return LINK.sub(check, body), tuple(removed)


def _is_word_bounded(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", text) is not None


def _email_chunk(email_text: str) -> Chunk:
    text = email_text[:MAX_EMAIL_CHARS]
    return Chunk(id=0, text=text, source="the email", start=0, end=len(text))


def list_requests(generator: Generator, email_text: str, instructions: str = "") -> list[str]:
    """The questions and requests in ``email_text`` that the documents may answer, as standalone
    questions (at most :data:`MAX_POINTS`); a malformed reply gives an empty list. (A short follow-up the
    model lists as written, "Is there a cap?", is given its subject before it is asked: see
    :mod:`~assistant.ttrag.compute.draft_followups`.)"""
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
    """The prompt for a whole reply, used when no point was answered from documents: the email fenced as
    data, the points (if any), the person's instructions."""
    wish = f"\nThe user's instructions (follow them): {instructions.strip()}" if instructions.strip() else ""
    facts = facts_block(points) if points else "(no questions to answer from the documents)"
    return (f"{fence([_email_chunk(email_text)])}\n"
            f"Answers found in the attached documents:\n{facts}{wish}\n"
            f"Task: write the body of the reply to this email, as {signer}. Answer each question with the "
            "answer above, in plain sentences. For an answer marked NOT STATED, say plainly that the documents "
            "do not say. Do not add any other fact, number, date or promise. Start with a greeting to the "
            f"sender, end with a short closing and the name {signer}. No subject line, no quoted original.")


def opening_prompt(email_text: str, points: Sequence[Point], instructions: str) -> str:
    """The prompt for the opening paragraph that carries out the person's ``instructions`` (the answers
    follow it in the reply, so it must not restate or add facts)."""
    return (f"{fence([_email_chunk(email_text)])}\n"
            f"Answers that follow in the reply (do not repeat them):\n{facts_block(points)}\n"
            f"The user's instructions: {instructions.strip()}\n"
            "Task: write the one to three sentences that open the reply to this email and do what the user's "
            "instructions say (a decision, a proposal, a tone). No greeting, no closing, no name. Do not answer "
            "the questions and do not state any fact, number or date that is not in the instructions.")


def greeting(email_text: str) -> str:
    """``Hi NAME,`` with the first name of the email's sender (its From line; "Last, First" too), else
    ``Hello,``."""
    match = _FROM_LINE.search(email_text)
    name = email.utils.parseaddr(match.group(1))[0].replace('"', "") if match else ""
    if "," in name:  # "Miller, Bob"
        name = name.split(",", 1)[1]
    first = name.split()[0] if name.strip() else ""
    return f"Hi {first}," if first and "@" not in first else "Hello,"


def answer_lines(points: Sequence[Point]) -> list[str]:
    """One line per point: the request, then the reader's answer sentence (markers removed) or
    :data:`NOT_STATED`. A single point gets its answer alone."""
    answers = [strip_markers(p.answer.text).strip() if p.answer.found and p.answer.text.strip() else NOT_STATED
               for p in points]
    if len(points) == 1:
        return [answers[0] if points[0].answer.found else f"{points[0].request} {NOT_STATED}"]
    return [f"{n}. {p.request} {a}" for n, (p, a) in enumerate(zip(points, answers, strict=True), 1)]


def clean_opening(text: str) -> str:
    """The model's opening paragraph without header lines, greetings, closings or a signature."""
    lines = [line for line in text.strip().splitlines() if not _HEADER_LINE.match(line)]
    while lines and (_GREETING.match(lines[0]) or not lines[0].strip()):
        lines.pop(0)
    for i, line in enumerate(lines):
        if _CLOSING.match(line):
            lines = lines[:i]
            break
    return " ".join(line.strip() for line in lines if line.strip())


def clean_body(text: str, signer: str) -> str:
    """The reply body without header lines the model wrote at its top, ending with ``signer``."""
    lines = text.strip().splitlines()
    while lines and (_HEADER_LINE.match(lines[0]) or not lines[0].strip()):
        lines.pop(0)
    body = "\n".join(lines).strip() or "(write your reply here)"
    if signer and signer.lower() not in body[-(len(signer) + 40):].lower():
        body += f"\n\n{signer}"
    return body


def _short(text: str, chars: int = 60) -> str:
    """``text`` on one line, cut at a word before ``chars`` with an ellipsis (a status line's point)."""
    text = " ".join(text.split())
    return text if len(text) <= chars else text[:chars].rsplit(" ", 1)[0] + "\u2026"


def _without_text(emit: Callable[[Event], None]) -> Callable[[Event], None]:
    """``emit`` for a point's own pipeline run: its progress shows, its answer text (and its withdrawal)
    does not."""
    def forward(event: Event) -> None:
        if not isinstance(event, TokenText | Retract):
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
        options: pipeline hyperparameters (the router is off: each point is a question; at most
            :data:`DRAFT_REWRITES` rewrites a point).
        signer: the account holder's name, used in the closing.
        instructions: the person's wishes; they steer decisions and tone, and may add points.
        emit: receives :class:`Progress` (``draft points``, ``draft``), each point's events, a
            :class:`PointAnswered` as each point is answered, and the reply's :class:`TokenText` pieces.
        cancel: set it to stop at the next step.
        max_tokens: at most this many tokens of LLM-written text (the opening, or the whole reply).

    Returns:
        The :class:`Draft`.

    Raises:
        Cancelled: ``cancel`` was set.
        ModelError: a model failed.
    """
    stop = cancel or threading.Event()
    base = options or PipelineOptions()
    qa_opts = dataclasses.replace(base, router=False, max_rewrites=min(base.max_rewrites, DRAFT_REWRITES))
    emit(Progress("draft points", 0, 0))
    generator = CancellableGenerator(models.generator, stop)  # Stop ends the model call itself
    requests = list_requests(generator, email_text, instructions)
    points: list[Point] = []
    documents = ctx.documents if ctx is not None else []
    for n, request in enumerate(requests if ctx is not None and ctx.chunks else []):
        if stop.is_set():
            raise Cancelled()
        emit(Progress("draft points", n, len(requests), "points", f"Point {n + 1} of {len(requests)}: "
                      f"\u201c{_short(request)}\u201d"))
        # the points are one e-mail: "Is there a cap?" after a question on late delivery is about that cap
        request = standalone_point(generator, request, (points[-1].request, points[-1].answer) if points else None)
        answer = pipeline.ask(ctx, request, models, qa_opts,  # type: ignore[arg-type]
                              emit=_without_text(emit), cancel=stop)
        points.append(Point(request, *whole_answer(answer, documents)))  # a point is said in whole sentences
        emit(PointAnswered(n + 1, len(requests), request, points[-1].answer, points[-1].whole))
    if stop.is_set():
        raise Cancelled()
    if requests and ctx is not None and ctx.chunks:
        emit(Progress("draft points", len(requests), len(requests), "points"))
    emit(Progress("draft", 0, 1))

    def stream(prompt: str) -> str:
        pieces: list[str] = []
        for piece in generator.stream(GenerationRequest(  # the bar shows how far the prompt is read
                SYSTEM, prompt, max_tokens=max_tokens, purpose="draft",
                on_prefill=lambda done, total: emit(Progress("draft", done, total, "tokens")))):
            if stop.is_set():
                raise Cancelled()
            pieces.append(piece)
            emit(TokenText(piece))
        return "".join(pieces)

    if not points:
        body = clean_body(stream(compose_prompt(email_text, points, signer=signer, instructions=instructions)),
                          signer)
    else:
        head = f"{greeting(email_text)}\n\nThank you for your email."
        emit(TokenText(head))
        opening = ""
        if instructions.strip():
            emit(TokenText(" "))
            opening = clean_opening(stream(opening_prompt(email_text, points, instructions)))
        first = f"{head} {opening}" if opening else head
        lead = "Here is what the attached documents say:\n" if len(points) > 1 else ""
        closing = f"{CLOSING}\n{signer}" if signer else CLOSING
        body = f"{first}\n\n{lead}" + "\n".join(answer_lines(points)) + f"\n\n{closing}"
        emit(TokenText(body[len(first):]))
    allowed = [instructions, email_text] + ([c.text for c in ctx.chunks] if ctx is not None else [])
    body, removed = guard_links(body, allowed)
    emit(Progress("draft", 1, 1))
    return Draft(body, tuple(points), removed)
