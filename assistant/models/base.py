"""Model protocols: one abstract method each; the base classes do batching, checks and bookkeeping."""

from __future__ import annotations

import dataclasses
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from assistant.errors import Cancelled
from assistant.records import Usage


class ReportsProbs(Protocol):
    """What reports the reader's probabilities: a generator, or the llama.cpp sampler behind one."""

    boolean_probs: list[float]
    yes_probs: list[float]


@dataclass(frozen=True)
class GenerationRequest:
    """One chat turn for the LLM.

    Attributes:
        system: system prompt (kept constant across calls so its KV cache is reused).
        user: user message.
        max_tokens: cap on generated tokens.
        json_schema: when set, decoding is constrained to JSON matching this schema (a grammar).
        purpose: label for usage accounting (``route``, ``answer``, ``rewrite``...).
        cancel: when set from another thread, the backend stops as soon as it can (between prefill
            batches and generated tokens) and :meth:`Generator.stream` raises :class:`Cancelled`.
        on_prefill: called as ``on_prefill(done, total)`` after each batch of the prompt's prefill, in
            prompt tokens (those not already in the KV cache), where the backend can tell; a long read
            shows how far along it is.
    """

    system: str
    user: str
    max_tokens: int = 256
    json_schema: dict[str, object] | None = None
    purpose: str = "generate"
    cancel: threading.Event | None = field(default=None, compare=False, repr=False)
    on_prefill: Callable[[int, int], None] | None = field(default=None, compare=False, repr=False)


class Generator(ABC):
    """A text generator (LLM). Subclasses implement :meth:`stream`; usage is recorded here."""

    def __init__(self) -> None:
        self.usage: list[Usage] = []
        # P(true) for each JSON boolean the last stream decoded, in order, where the backend can tell
        # (the two values' probabilities at that token, renormalised); empty where it cannot. Filled as the
        # reply streams: when a piece is yielded, the booleans decoded before it are here.
        self.boolean_probs: list[float] = []
        # P(yes) for each lower-case "yes" or "no" the last stream decoded (a yes/no question's short answer), the
        # same way; empty where the backend cannot tell
        self.yes_probs: list[float] = []

    @abstractmethod
    def stream(self, request: GenerationRequest) -> Iterator[str]:
        """Yield the reply to ``request`` piece by piece (temperature 0, deterministic)."""

    def take_probs(self, source: ReportsProbs) -> None:
        """Copy ``source``'s :attr:`boolean_probs` and :attr:`yes_probs` (a wrapped generator's, a sampler's)."""
        self.boolean_probs = list(source.boolean_probs)
        self.yes_probs = list(source.yes_probs)

    def count_tokens(self, text: str) -> int:
        """Tokens in ``text`` for this model; the base estimate is 4 characters a token."""
        return max(1, len(text) // 4)

    @property
    def context_window(self) -> int:
        """Tokens one call may hold, prompt and reply together; 0 when not known (reads are not cut to fit)."""
        return 0

    def complete(self, request: GenerationRequest) -> str:
        """The whole reply to ``request`` as one string."""
        return "".join(self.stream(request))

    def _record(self, purpose: str, prompt_tokens: int, completion_tokens: int, t0: float,
                first: float | None) -> None:
        now = time.perf_counter()
        self.usage.append(Usage(purpose, prompt_tokens, completion_tokens,
                                prefill_s=(first or now) - t0, total_s=now - t0))


class CancellableGenerator(Generator):
    """``generator`` with ``cancel`` (and ``on_prefill``, when given) stamped on every request it did not
    already carry one in.

    The pipeline wraps its generator once per ask, so every stage's model call can be stopped; pieces are
    checked too, so a backend that ignores ``request.cancel`` still stops at its next piece. Usage is
    recorded in the wrapped generator's list (shared).
    """

    def __init__(self, generator: Generator, cancel: threading.Event,
                 on_prefill: Callable[[int, int], None] | None = None) -> None:
        super().__init__()
        self.generator, self.cancel, self.on_prefill = generator, cancel, on_prefill
        self.usage = generator.usage

    def count_tokens(self, text: str) -> int:
        return self.generator.count_tokens(text)

    @property
    def context_window(self) -> int:
        return self.generator.context_window

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        if request.cancel is None:
            request = dataclasses.replace(request, cancel=self.cancel)
        if request.on_prefill is None and self.on_prefill is not None:
            request = dataclasses.replace(request, on_prefill=self.on_prefill)
        cancel = request.cancel
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        self.boolean_probs, self.yes_probs = [], []
        for piece in self.generator.stream(request):
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            self.take_probs(self.generator)  # as they come: read mid-reply
            yield piece
        self.take_probs(self.generator)


class Embedder(ABC):
    """A sentence embedding model (pre-filter). Subclasses implement :meth:`embed_batch`."""

    batch_size = 32

    @property
    def loaded(self) -> bool:
        """False for a handle whose model is still to be loaded (it loads on first use)."""
        return True

    def ensure_loaded(self) -> None:
        """Load the model now if it is not yet loaded (a no-op for a loaded model)."""
        return None

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


@dataclass(frozen=True)
class JointStates:
    """Last hidden states of joint ``[CLS] query [SEP] chunk [SEP]`` passes, padded to one length L.

    Attributes:
        hidden: (n, L, dim) float32.
        query_mask: (n, L) float32, 1 on the query's tokens (special tokens and padding are 0).
        chunk_mask: (n, L) float32, 1 on the chunk's tokens.
    """

    hidden: np.ndarray
    query_mask: np.ndarray
    chunk_mask: np.ndarray


class ConditionalEncoder(ABC):
    """A bidirectional encoder that reads the query and a chunk in one sequence (TTRAG §3.2).

    Subclasses implement :meth:`joint_states`; the base class pools them and scores.
    """

    @property
    def loaded(self) -> bool:
        """False for a handle whose model is still to be loaded (it loads on first use)."""
        return True

    def ensure_loaded(self) -> None:
        """Load the model now if it is not yet loaded (a no-op for a loaded model)."""
        return None

    @abstractmethod
    def joint_states(self, query: str, chunks: Sequence[str]) -> JointStates:
        """Last hidden states of ``query`` read together with each chunk (one joint pass per chunk)."""

    def encode_pairs(self, query: str, chunks: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Conditional embeddings of ``query`` with each chunk (the method's mean pooling).

        Returns:
            (query_embs, chunk_embs), each of shape (len(chunks), dim): row i is the mean of the last
            hidden state over the query's tokens (resp. chunk i's tokens) of the joint pass with chunk i.
        """
        st = self.joint_states(query, chunks)
        return _masked_mean(st.hidden, st.query_mask), _masked_mean(st.hidden, st.chunk_mask)

    def similarities(self, query: str, chunks: Sequence[str], *, pooling: str = "mean") -> np.ndarray:
        """Similarity of the conditional query and chunk representations; shape (len(chunks),).

        ``mean``: cosine of the mean-pooled embeddings (the paper). ``maxsim``: for each query token the
        best cosine with a chunk token of the same joint pass, averaged over query tokens (late
        interaction, as in ColBERT, Khattab & Zaharia 2020), a variant measured in benchmarks/.
        """
        if not chunks:
            return np.zeros(0, dtype=np.float32)
        return pooled_similarities(self.joint_states(query, chunks), pooling)


def pooled_similarities(st: JointStates, pooling: str = "mean") -> np.ndarray:
    """Query-chunk similarity per joint pass, shape (n,): ``mean`` = cosine of the masked means (the
    paper), ``maxsim`` = mean over query tokens of the best cosine with a chunk token."""
    if pooling == "maxsim":
        return _maxsim(st)
    q, c = _masked_mean(st.hidden, st.query_mask), _masked_mean(st.hidden, st.chunk_mask)
    return np.sum(_unit(q) * _unit(c), axis=1).astype(np.float32)


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


def _masked_mean(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of ``hidden`` (n, L, dim) over positions where ``mask`` (n, L) is 1; shape (n, dim)."""
    summed = np.einsum("nld,nl->nd", hidden, mask)
    return (summed / np.maximum(mask.sum(axis=1, keepdims=True), 1.0)).astype(np.float32)


def _maxsim(st: JointStates) -> np.ndarray:
    tokens = _unit(st.hidden)
    # only positions that hold a query token in some pair are compared (the query comes first, so these are
    # a few columns of L): (n, Q, L) instead of (n, L, L)
    at = np.flatnonzero(st.query_mask.any(axis=0))
    sims = np.einsum("nqd,ncd->nqc", tokens[:, at], tokens)  # (n, Q, L) cosine, query positions x positions
    sims = np.where(st.chunk_mask[:, None, :] > 0, sims, -np.inf).max(axis=2)  # best chunk token per position
    q = st.query_mask[:, at]
    return (np.where(q > 0, sims, 0.0).sum(axis=1) / np.maximum(q.sum(axis=1), 1.0)).astype(np.float32)
