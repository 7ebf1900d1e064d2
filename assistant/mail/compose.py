"""Reply text from the LLM: the original message fenced as data (see ttrag/prompts.py), one call."""

from __future__ import annotations

from assistant.models.base import GenerationRequest, Generator
from assistant.records import Chunk, Message
from assistant.ttrag.prompts import SYSTEM, fence

MAX_BODY_CHARS = 6000


def draft_prompt(original: Message, instructions: str = "") -> str:
    """The reply prompt: the message between ``<passages>`` tags, then the task."""
    body = original.body[:MAX_BODY_CHARS]
    text = f"From: {original.sender}\nSubject: {original.subject}\n\n{body}"
    chunk = Chunk(id=0, text=text, source="message", start=0, end=len(text))
    wish = f" The user wants the reply to say: {instructions.strip()}." if instructions.strip() else ""
    return (f"{fence([chunk])}\n"
            "Task: write the body of a short, polite reply to this email, from the user's point of view."
            f"{wish} Do not invent facts, dates or commitments that are not in the email or the user's "
            "wishes. Reply with the body text only: no subject line, no quoted original.")


def draft_text(generator: Generator, original: Message, *, instructions: str = "",
               max_tokens: int = 300) -> str:
    """The reply body written by ``generator`` (stripped; empty replies become a placeholder)."""
    reply = generator.complete(GenerationRequest(SYSTEM, draft_prompt(original, instructions),
                                                 max_tokens=max_tokens, purpose="draft")).strip()
    return reply or "(write your reply here)"
