"""Reads that fit the reader's context window: the prompt counted in its tokens, the reply's room kept free.

A read is a prompt built around numbered passages, best first. Ten long chunks of a contract (the top-10
fallback read) came to more than the 4,096 tokens of the reader's window, and llama.cpp refused the whole
ask. So before every read the prompt is counted with the reader's own tokenizer, and room for the reply
(its ``max_tokens``) and the chat template is kept free. While the prompt is over that budget, the
lowest-ranked passage is left out (down to ``min_passages``), then the longest passage loses its tail, cut
at a sentence boundary and marked :data:`CUT_MARK` so the reader knows text is missing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.documents.chunk import sentence_spans
from assistant.models.base import Generator
from assistant.records import Chunk
from assistant.ttrag.prompts import SYSTEM

# Tokens the chat template adds around the system and user messages (role headers, end-of-turn marks, the
# assistant's header, BOS), with room for templates wordier than the ones measured: 12 for Qwen2.5's and
# 13 for SmolLM2's (the prompt llama.cpp read less the two messages counted apart).
TEMPLATE_TOKENS = 48
CUT_MARK = " [...]"


@dataclass(frozen=True)
class Fit:
    """The passages of one read, made to fit the window.

    Attributes:
        chunks: the passages to read, best first: the first ``len(chunks)`` of those given, a cut one with
            :data:`CUT_MARK` at the end of its text.
        prompt_tokens: tokens of the user message read (0 when the window is not known).
        limit: most tokens the user message may have: the window less the reply's ``max_tokens``, the
            system prompt and :data:`TEMPLATE_TOKENS` (0 when the window is not known).
        dropped: ids of the lowest-ranked passages left out.
        trimmed: ids of the passages whose tail was cut.
    """

    chunks: list[Chunk]
    prompt_tokens: int = 0
    limit: int = 0
    dropped: tuple[int, ...] = ()
    trimmed: tuple[int, ...] = ()

    @property
    def cut(self) -> bool:
        """True when passages were left out or cut."""
        return bool(self.dropped or self.trimmed)

    def trace(self) -> dict[str, object]:
        """What was cut, for the ask's trace."""
        return {"prompt_tokens": self.prompt_tokens, "limit": self.limit, "dropped": list(self.dropped),
                "trimmed": list(self.trimmed)}


def fit_passages(chunks: Sequence[Chunk], prompt_for: Callable[[Sequence[Chunk]], str], *,
                 count_tokens: Callable[[str], int], window: int, reserve: int, system: str = SYSTEM,
                 min_passages: int = 1, template_tokens: int = TEMPLATE_TOKENS) -> Fit:
    """``chunks`` cut so that the prompt ``prompt_for(chunks)`` and a reply of ``reserve`` tokens fit ``window``.

    Args:
        chunks: the passages, best first.
        prompt_for: the user message for a list of passages (numbered [1]..[n] in their order).
        count_tokens: the reader's token counter.
        window: the reader's context window in tokens; 0 (not known) keeps every passage whole.
        reserve: tokens kept for the reply (the request's ``max_tokens``).
        system: the system prompt sent with it.
        min_passages: passages never left out (the best ones); past that, the longest one is cut instead.
        template_tokens: tokens the chat template adds.

    Returns:
        The :class:`Fit`. When even passages cut to nothing leave the prompt over the budget (a question
        longer than the window), the passages are returned cut to nothing and the model call reports it.
    """
    kept = list(chunks)
    if window <= 0:
        return Fit(kept)
    limit = window - reserve - template_tokens - count_tokens(system)
    used = count_tokens(prompt_for(kept))
    dropped: list[int] = []
    while used > limit and len(kept) > max(min_passages, 1):
        dropped.append(kept.pop().id)
        used = count_tokens(prompt_for(kept))
    bodies = [c.text for c in kept]  # each passage's text before its cut mark
    sizes = [count_tokens(t) if t else 0 for t in bodies]
    trimmed: dict[int, None] = {}
    while used > limit:
        i = max(range(len(kept)), key=sizes.__getitem__) if kept else 0
        if not kept or not bodies[i]:
            break  # nothing left to cut: the rest of the prompt alone is over the budget
        bodies[i] = cut_tail(bodies[i], max(0, sizes[i] - (used - limit)), count_tokens)
        sizes[i] = count_tokens(bodies[i]) if bodies[i] else 0
        kept[i] = dataclasses.replace(kept[i], text=bodies[i] + CUT_MARK if bodies[i] else CUT_MARK.strip())
        trimmed[kept[i].id] = None
        used = count_tokens(prompt_for(kept))
    return Fit(kept, used, limit, tuple(dropped), tuple(trimmed))


def cut_tail(text: str, target: int, count_tokens: Callable[[str], int]) -> str:
    """The longest run of whole sentences from the start of ``text`` within ``target`` tokens (the first
    sentence cut at a space, or a character, when even it is longer); always shorter than ``text``."""
    spans = sentence_spans(text)
    used, end = count_tokens(CUT_MARK), 0
    for s, e in spans:
        used += count_tokens(text[s:e])
        if used > target:
            break
        end = e
    if 0 < end < len(text.rstrip()):
        return text[:end].rstrip()
    if len(spans) > 1 and end:  # every sentence seemed to fit, yet the whole did not: one sentence less
        return text[:spans[-1][0]].rstrip()
    # the first sentence alone is over the target: cut it in proportion to its tokens, at a space if it has one
    first = text[:spans[0][1]] if spans else text
    stop = min(int(len(first) * target / max(count_tokens(first), 1)), len(text.rstrip()) - 1)
    at = text.rfind(" ", 0, stop)
    return text[:at if at > 0 else max(stop, 0)].rstrip()


def fit_read(generator: Generator, chunks: Sequence[Chunk], prompt_for: Callable[[Sequence[Chunk]], str], *,
             max_tokens: int, system: str = SYSTEM, min_passages: int = 1) -> Fit:
    """:func:`fit_passages` with ``generator``'s tokenizer and context window, keeping ``max_tokens`` for the
    reply."""
    return fit_passages(chunks, prompt_for, count_tokens=generator.count_tokens,
                        window=generator.context_window, reserve=max_tokens, system=system,
                        min_passages=min_passages)
