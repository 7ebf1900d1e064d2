"""Model protocols: one abstract method each; the base classes do batching, checks and bookkeeping."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from assistant.records import Usage


@dataclass(frozen=True)
class GenerationRequest:
    """One chat turn for the LLM.

    Attributes:
        system: system prompt (kept constant across calls so its KV cache is reused).
        user: user message.
        max_tokens: cap on generated tokens.
        json_schema: when set, decoding is constrained to JSON matching this schema (a grammar).
        purpose: label for usage accounting (``route``, ``answer``, ``rewrite``...).
    """

    system: str
    user: str
    max_tokens: int = 256
    json_schema: dict[str, object] | None = None
    purpose: str = "generate"


class Generator(ABC):
    """A text generator (LLM). Subclasses implement :meth:`stream`; usage is recorded here."""

    def __init__(self) -> None:
        self.usage: list[Usage] = []

    @abstractmethod
    def stream(self, request: GenerationRequest) -> Iterator[str]:
        """Yield the reply to ``request`` piece by piece (temperature 0, deterministic)."""

    def count_tokens(self, text: str) -> int:
        """Tokens in ``text`` for this model; the base estimate is 4 characters a token."""
        return max(1, len(text) // 4)

    def complete(self, request: GenerationRequest) -> str:
        """The whole reply to ``request`` as one string."""
        return "".join(self.stream(request))

    def _record(self, purpose: str, prompt_tokens: int, completion_tokens: int, t0: float,
                first: float | None) -> None:
        now = time.perf_counter()
        self.usage.append(Usage(purpose, prompt_tokens, completion_tokens,
                                prefill_s=(first or now) - t0, total_s=now - t0))


class Embedder(ABC):
    """A sentence embedding model (pre-filter). Subclasses implement :meth:`embed_batch`."""

    batch_size = 32

    @abstractmethod
    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of ``texts``, shape (len(texts), dim), float32, L2-normalised."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of any number of ``texts`` in batches; shape (n, dim), rows L2-normalised."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        parts = [self.embed_batch(texts[i:i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        out = np.concatenate(parts).astype(np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)


class ConditionalEncoder(ABC):
    """A bidirectional encoder that reads the query and a chunk in one sequence (TTRAG §3.2).

    Subclasses implement :meth:`encode_pairs`; the base class turns its embeddings into scores.
    """

    @abstractmethod
    def encode_pairs(self, query: str, chunks: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Conditional embeddings of ``query`` with each chunk.

        Returns:
            (query_embs, chunk_embs), each of shape (len(chunks), hidden): row i is the mean of the
            last hidden state over the query's tokens (resp. chunk i's tokens) of the joint pass
            ``[CLS] query [SEP] chunk_i [SEP]``, padding and special tokens masked out.
        """

    def similarities(self, query: str, chunks: Sequence[str]) -> np.ndarray:
        """Cosine similarity between the conditional query and chunk embeddings; shape (len(chunks),)."""
        if not chunks:
            return np.zeros(0, dtype=np.float32)
        q, c = self.encode_pairs(query, chunks)
        q = q / np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-12)
        c = c / np.maximum(np.linalg.norm(c, axis=1, keepdims=True), 1e-12)
        return np.sum(q * c, axis=1).astype(np.float32)
