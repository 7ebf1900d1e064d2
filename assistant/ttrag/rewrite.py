"""Query rewriting (TTRAG Algorithm 1): a new query from what the retrieved chunks say."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.models.base import GenerationRequest, Generator
from assistant.records import Chunk
from assistant.ttrag.prompts import SYSTEM, rewrite_prompt


def rewrite_query(generator: Generator, original: str, current: str, chunks: Sequence[Chunk]) -> str:
    """One rewritten query (first line of the reply, quotes and labels stripped); '' if the model gave none."""
    reply = generator.complete(GenerationRequest(SYSTEM, rewrite_prompt(original, current, chunks),
                                                 max_tokens=48, purpose="rewrite"))
    line = next((ln for ln in reply.strip().splitlines() if ln.strip()), "")
    for label in ("new search query:", "search query:", "new query:", "query:"):
        if line.lower().startswith(label):
            line = line[len(label):]
    return line.strip().strip('"\'` ').strip()
