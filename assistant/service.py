"""The facade the CLI and the GUI both call: load models once, open files into a session, ask.

A :class:`Session` holds one in-memory context (chunks, BM25 index, cached embeddings) so follow-up
questions reuse it; it is discarded with the session and never written anywhere.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from assistant import netguard
from assistant.config import Settings
from assistant.documents import PasswordPrompt, extract
from assistant.documents.mime.attachments import EARLIER_MESSAGES, attachment_documents, evidence_documents
from assistant.errors import AssistantError, Cancelled, InputError
from assistant.mail.cache import MailCache
from assistant.models import locate
from assistant.models.base import CancellableGenerator, ConditionalEncoder, Embedder, Generator, JointStates
from assistant.models.remote import RemoteGenerator, is_reader_url
from assistant.records import Answer, Document, Event, Message, Progress, Source, TraceStep
from assistant.ttrag.compute.draft import Draft, write_draft
from assistant.ttrag.context import Context, build_context
from assistant.ttrag.conversation import Conversation, Turn, resolve
from assistant.ttrag.pipeline import Models, ask


class ModelStore:
    """Loads each model lazily, once per process, from the paths the settings name."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._generator: Generator | None = None
        self._embedder: Embedder | None = None
        self._encoder: ConditionalEncoder | None = None
        self._tokenizer: Any = None
        # the tokenizer and the LLM never wait behind the torch models loading in the background (preload)
        self._tokenizer_lock = threading.Lock()
        self._generator_lock = threading.Lock()
        self.load_seconds: dict[str, float] = {}

    def with_settings(self, settings: Settings) -> ModelStore:
        """A new store for ``settings`` that keeps the models already loaded whose settings did not change.

        The rest load lazily on first use; whoever still holds this store (an ask in progress) keeps its models.
        """
        old, new = self.settings.models, settings.models
        store = ModelStore(settings)
        with self._lock:
            if (old.llm, old.n_ctx, old.threads, old.n_gpu_layers, old.reader_model, old.allow_remote_reader_host) \
                    == (new.llm, new.n_ctx, new.threads, new.n_gpu_layers, new.reader_model,
                        new.allow_remote_reader_host):
                store._generator = self._generator
            if (old.embedder_dir, old.threads, old.bf16, old.embed_max_tokens) == \
                    (new.embedder_dir, new.threads, new.bf16, new.embed_max_tokens):
                store._embedder = self._embedder
            if (old.encoder_dir, old.threads, old.bf16) == (new.encoder_dir, new.threads, new.bf16):
                store._encoder = self._encoder
            if old.encoder_dir == new.encoder_dir:
                store._tokenizer = self._tokenizer
        return store

    def _timed(self, name: str, load: Callable[[], Any]) -> Any:
        """Run ``load`` and record its seconds (imports included) in :attr:`load_seconds`."""
        t0 = time.perf_counter()
        value = load()
        self.load_seconds[name] = round(time.perf_counter() - t0, 3)
        return value

    def preload(self) -> threading.Thread:
        """Start loading the embedder and the conditional encoder (torch, sentence-transformers and
        transformers: most of the load time) in a background thread, so that they load while the files are
        read and chunked; returns the thread. A failure is not raised here: the first use raises it again.

        The LLM is not preloaded: loaded beside the reading (its log goes to :mod:`logging`, see
        :func:`assistant.models.llama.quiet_llama_log`) it reached the first stage sooner (median 3.41 vs
        3.70 s on the sample, 4.43 vs 5.41 s at 1M tokens), but the chunking and the torch imports it shared
        the cores with ended later: the answer stage started later on the sample (7.12 vs 6.40 s) and at
        1M tokens (8.66 vs 8.32 s; cold retrieval 2.98 vs 2.41 s), three runs each side by side.
        """

        def load() -> None:
            try:
                self.embedder()
                self.encoder()
            except Exception:  # reported again when the models are first used
                pass

        thread = threading.Thread(target=load, name="preload-models", daemon=True)
        thread.start()
        return thread

    def tokenizer(self) -> Any:
        """The encoder's tokenizer (chunk sizes are measured with it)."""
        with self._tokenizer_lock:
            if self._tokenizer is None:
                path = locate.encoder_dir(self.settings.models)
                self._tokenizer = self._timed("tokenizer", lambda: _load_tokenizer(path))
            return self._tokenizer

    def generator(self) -> Generator:
        """The LLM named by ``models.llm``."""
        with self._generator_lock:
            if self._generator is None:
                m = self.settings.models
                if is_reader_url(m.llm):  # a reader server the person configured
                    self._generator = self._timed("llm", lambda: RemoteGenerator(
                        m.llm, model=m.reader_model, allowed_host=m.allow_remote_reader_host))
                else:
                    path = locate.llm_path(m)
                    self._generator = self._timed("llm", lambda: _load_llm(path, m.n_ctx, m.threads,
                                                                           m.n_gpu_layers))
            return self._generator

    def loaded_generator(self) -> Generator | None:
        """The LLM if it is already loaded, else None (never loads it: safe on the GUI thread)."""
        with self._lock:
            return self._generator

    def embedder(self) -> Embedder | None:
        """The pre-filter embedder, or None when ``pipeline.fusion`` is ``bm25``."""
        if self.settings.pipeline.fusion == "bm25":
            return None
        with self._lock:
            if self._embedder is None:
                path = locate.embedder_dir(self.settings.models)
                m = self.settings.models
                self._embedder = self._timed("embedder", lambda: _load_embedder(
                    path, m.threads, m.bf16, m.embed_max_tokens))
            return self._embedder

    def encoder(self) -> ConditionalEncoder | None:
        """The conditional encoder, or None when ``pipeline.ce_mode`` is ``off``."""
        if self.settings.pipeline.ce_mode == "off":
            return None
        with self._lock:
            if self._encoder is None:
                path = locate.encoder_dir(self.settings.models)
                self._encoder = self._timed("encoder", lambda: _load_encoder(
                    path, self.settings.models.threads, self.settings.models.bf16))
            return self._encoder

    def models(self, *, wait: bool = True) -> Models:
        """All three models for one ask (loading any not yet loaded).

        ``wait=False`` loads only the LLM now: the embedder and the conditional encoder are handles that
        load them (or wait for :meth:`preload`) when the pre-filter first needs them, so that the router's
        LLM call runs while torch is still loading (the command reaches its first stage sooner).
        """
        if wait:
            return Models(self.generator(), self.embedder(), self.encoder())
        pipe = self.settings.pipeline
        return Models(self.generator(), None if pipe.fusion == "bm25" else _EmbedderOnDemand(self),
                      None if pipe.ce_mode == "off" else _EncoderOnDemand(self))


def _load_tokenizer(path: Path) -> Any:
    from assistant.models.tokenizer import load_tokenizer  # tokenizer.json alone: no transformers import

    return load_tokenizer(path)


def _load_llm(path: Path, n_ctx: int, threads: int, n_gpu_layers: int | None = 0) -> Generator:
    from assistant.models.llama import LlamaGenerator

    return LlamaGenerator(path, n_ctx=n_ctx, threads=threads, n_gpu_layers=n_gpu_layers)


class _OnDemand:
    """A model of the store loaded (or waited for) on first use. ``role`` names the store's loader
    (``embedder`` or ``encoder``); a handle is only made when the settings use that model."""

    role = ""

    def __init__(self, store: ModelStore) -> None:
        self._store = store

    @property
    def loaded(self) -> bool:
        """True once the store holds the model."""
        return getattr(self._store, f"_{self.role}") is not None

    def ensure_loaded(self) -> None:
        """Load the model (or wait for the preload)."""
        self._model()

    def _model(self) -> Any:
        model = getattr(self._store, self.role)()
        assert model is not None  # the settings use this model, or no handle would exist
        return model


class _EmbedderOnDemand(_OnDemand, Embedder):
    """The store's pre-filter embedder, loaded (or waited for) on first use."""

    role = "embedder"

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """See :meth:`Embedder.embed_batch`."""
        return self._model().embed_batch(texts)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """See :meth:`Embedder.embed`."""
        return self._model().embed(texts)


class _EncoderOnDemand(_OnDemand, ConditionalEncoder):
    """The store's conditional encoder, loaded (or waited for) on first use."""

    role = "encoder"

    def joint_states(self, query: str, chunks: Sequence[str]) -> JointStates:
        """See :meth:`ConditionalEncoder.joint_states`."""
        return self._model().joint_states(query, chunks)

    def similarities(self, query: str, chunks: Sequence[str], *, pooling: str = "mean") -> np.ndarray:
        """See :meth:`ConditionalEncoder.similarities`."""
        return self._model().similarities(query, chunks, pooling=pooling)


def _load_embedder(path: Path, threads: int, bf16: str = "auto", max_tokens: int = 256) -> Embedder:
    from assistant.models.embedder import SentenceTransformerEmbedder
    from assistant.models.precision import use_bf16

    embedder = SentenceTransformerEmbedder(path, threads=threads, bf16=use_bf16(bf16))
    embedder.max_tokens = max_tokens
    return embedder


def _load_encoder(path: Path, threads: int, bf16: str = "auto") -> ConditionalEncoder:
    from assistant.models.encoder import TransformersEncoder
    from assistant.models.precision import use_bf16

    return TransformersEncoder(path, threads=threads, bf16=use_bf16(bf16))


@dataclass
class OpenResult:
    """Files that were read and, for each that was not, the reason."""

    documents: list[Document]
    failures: list[InputError] = field(default_factory=list)


def read_files(paths: Sequence[str | Path], emit: Callable[[Event], None] = lambda e: None,
               cancel: threading.Event | None = None, passwords: PasswordPrompt | None = None) -> OpenResult:
    """Extract every file; one bad file never stops the others. ``passwords`` is asked for each
    password-protected file (see :func:`assistant.documents.extract`); one left locked is a
    :class:`~assistant.errors.PasswordRequired` among the failures."""
    result = OpenResult([])
    for i, path in enumerate(paths):
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        emit(Progress("read", i, len(paths), "files"))
        try:
            result.documents.append(extract(path, cancel=cancel, passwords=passwords))  # Cancel ends a long read
        except InputError as exc:
            result.failures.append(exc)
    emit(Progress("read", len(paths), len(paths), "files"))
    return result


class Session:
    """One context (files read once) and its follow-up questions."""

    def __init__(self, store: ModelStore, documents: Sequence[Document],
                 emit: Callable[[Event], None] = lambda e: None) -> None:
        if not documents:
            raise AssistantError("nothing to read: no file could be opened")
        self.store = store
        tokenizer = store.tokenizer()
        t0 = time.perf_counter()
        self.context: Context = build_context(
            documents, tokenizer, chunk_tokens=store.settings.pipeline.chunk_tokens,
            max_text_mb=store.settings.documents.max_context_mb,
            progress=lambda stage, done, total: emit(Progress(stage, done, total)))
        self.build_seconds = time.perf_counter() - t0

    def with_store(self, store: ModelStore) -> Session | None:
        """This context asked with ``store``'s models and options; None when the context must be rebuilt
        (the chunk size or the tokenizer changed)."""
        old, new = self.store.settings, store.settings
        if (old.pipeline.chunk_tokens, old.models.encoder_dir) != (new.pipeline.chunk_tokens,
                                                                   new.models.encoder_dir):
            return None
        twin = copy.copy(self)
        twin.store = store
        if old.models.embedder_dir != new.models.embedder_dir:
            # cached pre-filter vectors belong to the old embedding model (maybe another dimension)
            twin.context = dataclasses.replace(self.context, embeddings={})
        return twin

    def ask(self, question: str, *, emit: Callable[[Event], None] = lambda e: None,
            cancel: threading.Event | None = None) -> Answer:
        """Answer ``question`` over this session's context (see :func:`assistant.ttrag.pipeline.ask`)."""
        if not question.strip():
            raise AssistantError("the question is empty; type a question about the open files")
        with netguard.activity("question"):
            return ask(self.context, question, self.store.models(wait=False), self.store.settings.pipeline,
                       emit=emit, cancel=cancel)

    def ask_followup(self, conversation: Conversation, question: str, *, rewrite: bool = True,
                     emit: Callable[[Event], None] = lambda e: None,
                     cancel: threading.Event | None = None) -> Turn:
        """Answer ``question`` as the next turn of ``conversation`` (which is not changed: add the turn).

        A follow-up that leans on earlier turns is first rewritten into a standalone question (one LLM
        call, :func:`assistant.ttrag.conversation.resolve`); the pipeline retrieves with it and answers
        it. The passages that answered the last turn join the next pre-filter's candidates. A ``standalone``
        trace step shows the person's words and the standalone question.

        Args:
            conversation: the turns so far.
            question: the person's words.
            rewrite: False answers the person's words as they are (a benchmark's baseline).
            emit: events, as for :meth:`ask`.
            cancel: stops the rewrite or the ask.

        Raises:
            AssistantError: the question is empty.
            Cancelled: ``cancel`` was set.
            ModelError: a model failed.
        """
        if not question.strip():
            raise AssistantError("the question is empty; type a question about the open files")
        with netguard.activity("question"):
            return self._followup(conversation, question, rewrite, emit, cancel or threading.Event())

    def _followup(self, conversation: Conversation, question: str, rewrite: bool, emit: Callable[[Event], None],
                  cancel: threading.Event) -> Turn:
        models = self.store.models(wait=False)
        history = conversation.turns if rewrite else []
        usage_start = len(models.generator.usage)
        resolution = resolve(CancellableGenerator(models.generator, cancel), question, history,
                             max_history_tokens=conversation.max_history_tokens, emit=emit)
        step = resolution.trace()
        emit(TraceStep("standalone", step))
        rewrite_usage = tuple(models.generator.usage[usage_start:])
        answer = ask(self.context, resolution.standalone, models, self.store.settings.pipeline, emit=emit,
                     cancel=cancel, carried=self.chunk_ids(conversation.carried()))
        answer = dataclasses.replace(answer, trace=({"stage": "standalone", **step},) + answer.trace,
                                     usage=rewrite_usage + answer.usage,
                                     timings={**answer.timings, "standalone": round(resolution.seconds, 4)})
        return Turn(question.strip(), resolution.standalone, answer, resolution)

    def chunk_ids(self, sources: Sequence[Source]) -> list[int]:
        """This context's chunk ids for ``sources`` (matched by file and offset: a source cited before the
        files changed maps to the same passage, or to nothing if its file is no longer open)."""
        chunks = self.context.chunks
        ids = []
        for s in sources:
            c = chunks[s.chunk_id] if 0 <= s.chunk_id < len(chunks) else None
            if c is None or (c.source, c.start) != (s.source, s.start):
                c = next((x for x in chunks if (x.source, x.start) == (s.source, s.start)), None)
            if c is not None:
                ids.append(c.id)
        return ids


@dataclass(frozen=True)
class DraftResult:
    """A drafted reply, the documents its points were answered from (to open a cited passage), and the
    attachments that could not be read (``FILENAME: reason``)."""

    draft: Draft
    documents: tuple[Document, ...]
    skipped: tuple[str, ...]


def draft_documents(message: Message, message_id: str, *,
                    cache: MailCache | None = None) -> tuple[list[Document], list[str]]:
    """The evidence a reply to ``message`` is grounded in: its attachments, its quoted earlier messages
    (``ID (earlier messages)``) and, with ``cache``, the conversation's earlier messages found there (same
    account, any folder; References / In-Reply-To, :mod:`assistant.mail.threads`) with their attachments,
    as documents of their own (``earlier message: SUBJECT (DATE)``, ``FILENAME (from DATE message)``).

    Returns:
        The documents, and ``FILENAME: reason`` for each attachment that could not be read.
    """
    documents, skipped = attachment_documents(message, message_id)
    documents += [d for d in evidence_documents(message, message_id) if d.source.endswith(EARLIER_MESSAGES)]
    reasons = [f"{s.attachment.filename}: {s.reason}" for s in skipped]
    if cache is not None:
        from assistant.mail.threads import earlier_documents, earlier_in_cache

        account = message_id.split(":", 1)[0] or None
        earlier = [m for _, m in earlier_in_cache(cache, message, message_id, account=account)]
        docs, rest = earlier_documents(earlier)
        documents += docs
        reasons += rest
    return documents, reasons


def draft_reply(store: ModelStore, message: Message, message_id: str, *, signer: str, instructions: str = "",
                emit: Callable[[Event], None] = lambda e: None,
                cancel: threading.Event | None = None, cache: MailCache | None = None) -> DraftResult:
    """A reply to ``message`` grounded in its attachments and the thread's earlier messages: those it quotes
    and, with ``cache``, those of its conversation in the local mail cache (see :func:`draft_documents`).

    The email's own text is what is answered, so it is not evidence; greetings and signatures never are.
    See :func:`assistant.ttrag.compute.draft.write_draft` for the steps and the events sent to ``emit``.

    Raises:
        Cancelled: ``cancel`` was set.
        ModelError: a model failed.
    """
    with netguard.activity("draft"):
        documents, reasons = draft_documents(message, message_id, cache=cache)
        ctx = Session(store, documents, emit=emit).context if documents else None
        head = f"From: {message.sender}\nSubject: {message.subject}\n\n"
        draft = write_draft(ctx, head + (message.body or ""), store.models(wait=False), store.settings.pipeline,
                            signer=signer, instructions=instructions, emit=emit, cancel=cancel)
    return DraftResult(draft, tuple(documents), tuple(reasons))
