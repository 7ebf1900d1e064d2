"""Generation: stream an answer from chunks, hold back a NOT FOUND reply, and pick cited snippets."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from assistant.documents.chunk import sentence_spans
from assistant.models.base import GenerationRequest, Generator
from assistant.records import Chunk, Source
from assistant.ttrag.prompts import NOT_FOUND, SYSTEM, answer_prompt

_WORD = re.compile(r"\w+")


def is_not_found(text: str) -> bool:
    """True when the reply says the answer is not in the passages."""
    return text.strip().strip(".").upper().startswith(NOT_FOUND) or not text.strip()


def stream_answer(generator: Generator, question: str, chunks: Sequence[Chunk], *, max_tokens: int,
                  on_text: Callable[[str], None], purpose: str = "answer") -> str:
    """Answer ``question`` from ``chunks``; pieces go to ``on_text`` unless the reply is NOT FOUND.

    The first pieces are held back while they could still spell NOT FOUND, so a not-found attempt
    inside the rewrite loop never reaches the user.

    Returns:
        The full reply text.
    """
    request = GenerationRequest(SYSTEM, answer_prompt(question, chunks), max_tokens=max_tokens,
                                purpose=purpose)
    held = ""
    released = False
    pieces: list[str] = []
    for piece in generator.stream(request):
        pieces.append(piece)
        if released:
            on_text(piece)
            continue
        held += piece
        probe = held.lstrip().upper()
        if probe and not NOT_FOUND.startswith(probe[:len(NOT_FOUND)]) and not probe.startswith(NOT_FOUND):
            released = True
            on_text(held.lstrip())
    if not released and not is_not_found(held):
        on_text(held.strip())
    return "".join(pieces).strip()


def cite(chunks: Sequence[Chunk], answer: str, question: str, *, max_chars: int = 240) -> list[Source]:
    """Sources for ``chunks`` in order, each with the sentence that best matches the answer (or question)."""
    wanted = {w.lower() for w in _WORD.findall(answer if answer and not is_not_found(answer) else question)}
    sources = []
    for n, c in enumerate(chunks, 1):
        best, best_score = c.text[:max_chars], -1.0
        for s, e in sentence_spans(c.text):
            words = {w.lower() for w in _WORD.findall(c.text[s:e])}
            score = len(words & wanted) / (1 + len(words)) ** 0.5
            if score > best_score:
                best, best_score = c.text[s:e], score
        snippet = best.strip()
        if len(snippet) > max_chars:
            snippet = snippet[:max_chars - 1] + "…"
        sources.append(Source(n=n, source=c.source, page=c.page, start=c.start, end=c.end, snippet=snippet,
                              chunk_id=c.id))
    return sources
