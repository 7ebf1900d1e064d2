"""What needs my reply: one short, grammar-constrained read per message decides whether it asks something of
the person reading it, and what, with the sentence it comes from.

The model reads the message's own text (its quoted history and signature left out, attachments never) and
replies in JSON (:data:`REQUEST_SCHEMA`): ``asks_me``, ``quote`` (the sentence that asks, copied), ``what``
(what is asked, in a few words) and ``due`` (a date the message gives, as written). The quote is a citation
only when it is found word for word in the text (spacing and quotation-mark style aside): then the line
cites the whole sentence of the text that holds it (:func:`cited_sentence`); otherwise the line says it is
not cited. A date is kept only when the text holds it, so none is invented.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.documents.mime.body import split_body
from assistant.errors import Cancelled
from assistant.models.base import CancellableGenerator, GenerationRequest, Generator
from assistant.records import Chunk, Event, Message, Progress
from assistant.ttrag.prompts import SYSTEM, fence

MAX_TEXT_CHARS = 1500  # of the message's own text read: requests come early; a newsletter's tail is noise
#: A message counts as asking only when the model's P(asks_me = true) reaches this (where the backend gives
#: it). Greedy decoding alone says true above 0.5, and the bundled 1.5B said true for nearly every message
#: (precision 0.38); 0.96 was the best cut-off on the dev half of benchmarks/mail_todo.py (F1 0.95; test half
#: precision 0.86, recall 1.00; results in benchmarks/results/mail_todo.md).
MIN_PROBABILITY = 0.96
MIN_QUOTE_CHARS = 10  # a shorter "quote" ("Thanks") is found anywhere and cites nothing
REQUEST_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "quote": {"type": "string", "maxLength": 300},
        "asks_me": {"type": "boolean"},
        "what": {"type": "string", "maxLength": 80},
        "due": {"anyOf": [{"type": "string", "maxLength": 60}, {"type": "null"}]},
    },
    "required": ["quote", "asks_me", "what", "due"],
}
TASK = ("Task: find what this email asks its reader to do or answer. A question put to the reader (\"Do you "
        "...?\", \"Could you ...?\", \"Are you coming ...?\") or a request (\"Please ...\", \"Let me know ...\", "
        "\"Make sure to ...\", \"I would be grateful if you could ...\") asks something of the reader. An "
        "announcement, a newsletter, an advertisement, an automatic notification, a message that only informs "
        "or thanks, and a post to a mailing list do not. Reply in JSON: quote (the sentence of the email that "
        "asks, copied word for word, or \"\" when there is none); asks_me (true only when the email itself asks "
        "something of its reader personally; false for a newsletter, an advertisement, a notification or a "
        "message that only informs); what (what the reader is asked, in at most ten words starting with a "
        "verb, or \"\"); due (the date or deadline the email gives for it, as written, or null).")
_SPACE = re.compile(r"\s+")
_QUOTES = str.maketrans("\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f", "''''\"\"\"\"")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n\s*\n")
_GREETING = re.compile(r"^(hi|hello|hey|dear|good (morning|afternoon|evening))\b[^,.!?\n]{0,40},\s*", re.I)


@dataclass(frozen=True)
class Request:
    """What one message asks of the person reading it.

    Attributes:
        message_id: where the message is, ``ACCOUNT:FOLDER:UID`` (or a file name).
        sender: who asks, as the From header shows it (``Bob <bob@x.org>``).
        subject: the message's subject.
        what: what is asked, in the model's few words.
        quote: the sentence of the message that asks, exactly as the text holds it (spaces collapsed);
            '' when the model's quote was not found in the text (the line is then not cited).
        due: a date or deadline the message gives for it, as written there; '' when none.
        probability: the model's P(asks_me) where the backend gives it, else None.
    """

    message_id: str
    sender: str
    subject: str
    what: str
    quote: str
    due: str = ""
    probability: float | None = None

    @property
    def cited(self) -> bool:
        return bool(self.quote)


@dataclass(frozen=True)
class Reading:
    """The verdict on one message: ``request`` (None when it asks nothing), ``skipped`` (why it was not read:
    '' when it was, e.g. ``List-Id header``) and the seconds the read took."""

    message_id: str
    request: Request | None
    skipped: str = ""
    seconds: float = 0.0


def own_text(message: Message) -> str:
    """The text the message's author wrote in it: the body less its signature and quoted earlier messages
    (``>`` lines too, where replies are written between them), at most :data:`MAX_TEXT_CHARS` characters."""
    return own_body(message.body or "")


def own_body(body: str) -> str:
    """:func:`own_text` of a message's body text."""
    lines = [line for line in body.replace("\r\n", "\n").split("\n") if not line.lstrip().startswith(">")]
    # (">" lines go before the signature is split off: a greeting would join them)
    return split_body("\n".join(lines)).text.strip()[:MAX_TEXT_CHARS]


def request_prompt(message: Message, text: str) -> str:
    """The user turn: the sender, subject and ``text`` fenced as data, then :data:`TASK`."""
    return _prompt(message.sender, message.subject, text)


def _prompt(sender: str, subject: str, text: str) -> str:
    body = f"From: {sender}\nSubject: {subject}\n\n{text or '(no text)'}"
    return f"{fence([Chunk(id=0, text=body, source='the email', start=0, end=len(body))])}\n{TASK}"


def _fold(text: str) -> tuple[str, list[int]]:
    """``text`` with runs of whitespace as one space and curly quotes straight; each folded character's index
    in ``text``."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text.translate(_QUOTES)):
        if ch.isspace():
            if out and out[-1] == " ":
                continue
            ch = " "
        out.append(ch)
        where.append(i)
    return "".join(out), where


def quote_offset(quote: str, text: str) -> int:
    """Where ``quote`` starts in ``text`` (spacing and quotation-mark style aside, letter case kept); -1 when
    ``text`` does not hold it."""
    needle = _fold(quote.strip())[0].strip()
    folded, where = _fold(text)
    at = folded.find(needle) if needle else -1
    return where[at] if at >= 0 else -1


def cited_sentence(quote: str, text: str) -> str:
    """The sentence of ``text`` that holds ``quote`` word for word (spacing and quotation-mark style aside,
    letter case kept), its whitespace collapsed; '' when ``quote`` (trimmed of surrounding quotation marks
    and spaces) is shorter than :data:`MIN_QUOTE_CHARS` or not in ``text``."""
    needle = _fold(quote.strip().strip("\"'\u201c\u201d\u2018\u2019").strip())[0].strip()
    if len(needle) < MIN_QUOTE_CHARS:
        return ""
    folded, where = _fold(text)
    at = folded.find(needle)
    if at < 0:
        return ""
    start, end = where[at], where[at + len(needle) - 1] + 1
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    after = _SENTENCE_END.search(text, end - 1)
    begin = before[-1] if before else 0
    stop = len(text) if after is None else after.start() if not after.group(0).strip() else after.end()
    # (a blank line ends a sentence without being part of it)
    sentence = _SPACE.sub(" ", text[begin:stop]).strip()
    rest = _GREETING.sub("", sentence)  # "Hi Sam, Could you ...": the greeting joined to the first line
    return rest if needle in _fold(rest)[0] else sentence


def _given(due: object, text: str) -> str:
    """``due`` when ``text`` holds it (spacing and case aside), else ''."""
    if not isinstance(due, str) or not due.strip() or due.strip().lower() in ("null", "none", "n/a"):
        return ""
    wanted = _fold(due.strip().lower())[0]
    return due.strip() if wanted in _fold(text.lower())[0] else ""


def read_request(generator: Generator, message: Message, message_id: str, *, min_probability: float = MIN_PROBABILITY,
                 max_tokens: int = 120) -> Request | None:
    """Whether ``message`` asks something of its reader (one constrained LLM read of :func:`own_text`); a
    "yes" whose probability is below ``min_probability`` counts as no.

    Returns:
        The :class:`Request`, or None when it asks nothing (or the reply was not valid JSON).

    Raises:
        Cancelled: the generator's request was cancelled.
        ModelError: the model failed.
    """
    return read_request_of(generator, message.sender, message.subject, own_text(message), message_id,
                           min_probability=min_probability, max_tokens=max_tokens)


def read_request_of(generator: Generator, sender: str, subject: str, text: str, message_id: str, *,
                    min_probability: float = MIN_PROBABILITY, max_tokens: int = 120) -> Request | None:
    """:func:`read_request` of a message given by its sender, subject and own ``text`` (:func:`own_text`):
    an e-mail read from a file's text (its summary's ask, :mod:`assistant.ttrag.compute.summarize.asks`).

    Raises:
        Cancelled: the generator's request was cancelled.
        ModelError: the model failed.
    """
    raw = generator.complete(GenerationRequest(SYSTEM, _prompt(sender, subject, text), max_tokens=max_tokens,
                                               json_schema=REQUEST_SCHEMA, purpose="todo"))
    try:
        reply = json.loads(raw)
    except ValueError:
        return None
    probs = generator.boolean_probs
    if not isinstance(reply, dict) or reply.get("asks_me") is not True or (probs and probs[0] < min_probability):
        return None
    quote = str(reply.get("quote") or "")
    return Request(message_id, sender, subject, what=_SPACE.sub(" ", str(reply.get("what") or ""))
                   .strip(), quote=cited_sentence(quote, text), due=_given(reply.get("due"), text),
                   probability=probs[0] if probs else None)


def find_requests(generator: Generator, messages: Sequence[tuple[str, Message, str]], *,
                  emit: Callable[[Event], None] = lambda e: None,
                  cancel: threading.Event | None = None) -> list[Reading]:
    """Read each message in turn and say what it asks.

    Args:
        generator: the LLM.
        messages: ``(message_id, message, skip_reason)``; a message with a reason (e.g. from
            :func:`assistant.mail.todo.bulk_reason`) is not read and counts as asking nothing.
        emit: receives ``Progress("todo", done, total, "messages")``.
        cancel: set it to stop at the next message (or within the model call).

    Returns:
        One :class:`Reading` per message, in order.

    Raises:
        Cancelled: ``cancel`` was set.
        ModelError: the model failed.
    """
    stop = cancel or threading.Event()
    model = CancellableGenerator(generator, stop)
    readings: list[Reading] = []
    for n, (message_id, message, skip) in enumerate(messages):
        if stop.is_set():
            raise Cancelled()
        emit(Progress("todo", n, len(messages), "messages", message.subject[:60]))
        if skip:
            readings.append(Reading(message_id, None, skip))
            continue
        t0 = time.perf_counter()
        request = read_request(model, message, message_id)
        readings.append(Reading(message_id, request, "", time.perf_counter() - t0))
    emit(Progress("todo", len(messages), len(messages), "messages"))
    return readings
