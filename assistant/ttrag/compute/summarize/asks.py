"""What an e-mail asks of the person reading it, as its summary's point: "Asks you: "Could you review the
changes and tell me whether we can accept them by Friday 27 November?"".

A summary of an e-mail or a thread is read for what is asked of its reader and by when. The summary's own
point for it (the model's sentence: "RSVP is required.") seldom stands in the message's words and was dropped
by the support check, or stated an ask a newsletter never made. Instead the latest message is read as "what
needs my reply" reads it (:func:`assistant.ttrag.compute.requests.read_request_of`: one short constrained read
of the message's own text, its quoted history and signature left out; it asks only where P(asks) reaches
:data:`~assistant.ttrag.compute.requests.MIN_PROBABILITY`), and the point quotes the sentence that asks, word
for word, with the date it gives; a message that asks nothing gets no such point.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.models.base import Generator
from assistant.records import Chunk, Document
from assistant.ttrag.compute.requests import own_body, quote_offset, read_request_of
from assistant.ttrag.compute.summarize.structure import message_starts
from assistant.ttrag.compute.summarize.support import supported_by
from assistant.ttrag.context import Context, chunk_at

LABEL = "Asks you"
_HEADER = re.compile(r"^(From|Subject):[ \t]*(.*)$", re.M)
# a line that puts an earlier message below a reply or a forward: the "From:" block after it is that earlier
# message, not a later one ("-----Original Message-----", "---------- Forwarded message ---------")
# Outlook's header of the message a reply quotes below it ("From: ... [mailto:...]", "Sent: Wednesday, ...")
_SENT = re.compile(r"^Sent:[ \t]", re.M)
_EARLIER = re.compile(r"^\s*(?:-{2,}\s*(?:original|forwarded) message\s*-{2,}|begin forwarded message:?)\s*$",
                      re.I | re.M)


@dataclass(frozen=True)
class LatestMessage:
    """The last message of an e-mail document: its sender and subject as its header lines give them, its
    body's text and where that body starts in the document's text."""

    sender: str
    subject: str
    body: str
    start: int


def latest_message(doc: Document) -> LatestMessage | None:
    """The document's last message (:func:`~.structure.message_starts`; a message quoted below a reply or a
    forward, after "-----Original Message-----" or under Outlook's "Sent:" header, is an earlier one): its
    header lines up to the first blank line, its body up to the message it quotes or the end of the segment it
    is in (an attachment's text is not its body); None when the document does not open with header lines."""
    starts = message_starts(doc)
    later = [at for at in starts if not _EARLIER.search(doc.text[max(0, at - 120):at])
             and not _SENT.search(doc.text[at:at + 600].partition("\n\n")[0])]
    start = later[-1] if later else 0
    i = doc.segment_at(start)
    end = min([doc.offsets[i] + len(doc.segments[i].text) if i >= 0 else len(doc.text),
               *(at for at in starts if at > start)])  # the earlier message it quotes is not its text
    head, sep, _ = doc.text[start:end].partition("\n\n")
    fields = {m.group(1): m.group(2).strip() for m in _HEADER.finditer(head)}
    if not sep or "From" not in fields:
        return None
    at = start + len(head) + len(sep)
    return LatestMessage(fields["From"], fields.get("Subject", ""), doc.text[at:end], at)


def ask_point(generator: Generator, ctx: Context, doc: Document,
              read: Sequence[Chunk] = ()) -> tuple[str, Chunk] | None:
    """The point that says what ``doc``'s latest message asks of its reader, and the passage it cites: the
    passage ``read`` (the summary's) that holds the sentence, else the context's chunk that holds it.

    Returns:
        ``('Asks you: "<the sentence that asks>" (by <date>)', chunk)``: the date only when the message gives
        one the sentence does not hold; where the model's quote is not in the text, its few words ("Asks you
        to send the February invoice") when the message's passage supports them. None when the message asks
        nothing (or the document has no message header).

    Raises:
        Cancelled: the generator's request was cancelled.
        ModelError: the model failed.
    """
    message = latest_message(doc)
    if message is None:
        return None
    text = own_body(message.body)
    request = read_request_of(generator, message.sender, message.subject, text, doc.source)
    if request is None:
        return None
    due = f" (by {request.due})" if request.due and quote_offset(request.due.lower(),
                                                                 (request.quote or request.what).lower()) < 0 else ""
    if request.quote:
        at = message.start + max(quote_offset(request.quote, doc.text[message.start:]), 0)
        return f'{LABEL}: "{request.quote}"{due}', _holding(ctx, doc, read, at)
    what = request.what.rstrip(". ")
    chunk = _holding(ctx, doc, read, message.start)
    if not what or not supported_by(what, [chunk]):
        return None
    return f"{LABEL} to {what[:1].lower()}{what[1:]}{due}.", chunk


def _holding(ctx: Context, doc: Document, read: Sequence[Chunk], offset: int) -> Chunk:
    """The passage of ``read`` that holds character ``offset`` of ``doc``, else the context's chunk."""
    return next((c for c in read if c.source == doc.source and c.start <= offset < c.end),
                None) or chunk_at(ctx, doc.source, offset)
