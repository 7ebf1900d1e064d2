"""Query rewriting (TTRAG Algorithm 1): a new query from what the retrieved chunks say, and the question
translated into the documents' language (and an answer sentence into the question's)."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.models.base import GenerationRequest, Generator
from assistant.records import Chunk
from assistant.ttrag.prompts import SYSTEM, rewrite_prompt, translate_answer_prompt, translate_prompt
from assistant.ttrag.window import fit_read


def rewrite_query(generator: Generator, original: str, current: str, chunks: Sequence[Chunk], *,
                  max_tokens: int = 48) -> str:
    """One rewritten query (first line of the reply, quotes and labels stripped); '' if the model gave none.
    The passages are cut to fit the reader's window as for an answer (:mod:`assistant.ttrag.window`)."""
    def prompt_for(passages: Sequence[Chunk]) -> str:
        return rewrite_prompt(original, current, passages)

    fit = fit_read(generator, chunks, prompt_for, max_tokens=max_tokens)
    reply = generator.complete(GenerationRequest(SYSTEM, prompt_for(fit.chunks), max_tokens=max_tokens,
                                                 purpose="rewrite"))
    return _first_line(reply, ("new search query:", "search query:", "new query:", "query:"))


def translate_query(generator: Generator, question: str, language: str, *, max_tokens: int = 96) -> str:
    """``question`` translated into ``language`` (an English language name: ``English``) by one call, first
    line of the reply with quotes and labels stripped; '' if the model gave none."""
    reply = generator.complete(GenerationRequest(SYSTEM, translate_prompt(question, language),
                                                 max_tokens=max_tokens, purpose="translate"))
    return _first_line(reply, ("translation:", f"{language.lower()}:", "question:"))


def translate_answer(generator: Generator, sentence: str, language: str, *, max_tokens: int = 160) -> str:
    """The answer ``sentence`` translated into ``language`` (an English language name) by one call: the first
    line of the reply, quotes and labels stripped; '' if the model gave none."""
    reply = generator.complete(GenerationRequest(SYSTEM, translate_answer_prompt(sentence, language),
                                                 max_tokens=max_tokens, purpose="translate_answer"))
    return _first_line(reply, ("translation:", f"{language.lower()}:", "sentence:"))


def _first_line(reply: str, labels: Sequence[str]) -> str:
    """The first non-empty line of ``reply`` less a leading label and surrounding quotes."""
    line = next((ln for ln in reply.strip().splitlines() if ln.strip()), "")
    for label in labels:
        if line.lower().startswith(label):
            line = line[len(label):]
    return line.strip().strip('"\'` ').strip()
