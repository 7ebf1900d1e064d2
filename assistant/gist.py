"""The gist of a new message's attachments: read in the background at the lowest CPU priority, summarised
into one cited line, and kept in the mail cache beside the message (:mod:`assistant.mail.gists`).

The line comes from the points a document's kind is read for where every attachment has such a kind
(:func:`assistant.ttrag.pipeline.summarize_by_kind` with ``gist=True``: a contract's parties and subject, a
report's purpose and findings),
else from the summary path (:func:`assistant.ttrag.compute.summarize.summarize`: a reading plan of
the attachments within the gist's budget, one model call, each point checked against the passage it cites;
several attachments get a point each from the same call), folded into one line by
:func:`~assistant.ttrag.compute.summarize.oneline.one_line`. The app and ``assistant mail sync --watch`` call
:func:`gist_and_keep` for each new message with attachments, on a thread of its own
(:func:`lower_thread_priority`) and with a cancel event that a question sets.
"""

from __future__ import annotations

import functools
import logging
import os
import queue
import re
import sys
import threading
import time
from collections.abc import Callable

from assistant import netguard
from assistant.documents.mime.attachments import attachment_documents
from assistant.documents.mime.parse import parse_message
from assistant.errors import AssistantError, Cancelled
from assistant.mail.cache import CachedRef, MailCache
from assistant.mail.gists import QUOTE_CHARS, Gist, GistSource, save_gist
from assistant.models.base import CancellableGenerator
from assistant.records import Event, Message, Progress
from assistant.service import ModelStore, Session
from assistant.ttrag.compute.summarize import SummaryRequest, summarize
from assistant.ttrag.compute.summarize.oneline import one_line
from assistant.ttrag.pipeline import summarize_by_kind

log = logging.getLogger(__name__)

STAGE = "gist"
LOWEST_NICE = 19  # POSIX's lowest priority: the thread runs only on a core nothing else wants


@functools.cache  # the pool is the process's: started once
def start_shared_pools() -> None:
    """Start the process's shared worker pool at the calling thread's priority, if not started yet.

    The tokenizers library splits a batch over one pool of threads for the whole process, started by its first
    batch; a thread inherits the nice value of the thread that starts it. Were that first batch a gist's, at the
    lowest priority, every later question's tokenizing would wait on threads that run only when no other program
    wants the cores. (torch's threads, by contrast, belong to the thread that calls it; the LLM's are started
    for each call.)"""
    from tokenizers import Tokenizer, models

    Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]")).encode_batch(["a", "b"])


def lower_thread_priority(nice: int = LOWEST_NICE) -> bool:
    """Give the calling thread (and the threads it starts later, such as the LLM's workers) the lowest CPU
    priority; whether it could. Linux sets a nice value per thread; elsewhere the thread keeps its priority
    (the app also lowers it through Qt)."""
    if not sys.platform.startswith("linux"):
        return False
    start_shared_pools()
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
    except OSError:
        return False
    return True


def gist_message(store: ModelStore, message: Message, message_id: str, *, cancel: threading.Event | None = None,
                 emit: Callable[[Event], None] = lambda e: None) -> Gist | None:
    """The one-line gist of ``message``'s attachments (documents named ``message_id/FILENAME``).

    Returns:
        The :class:`~assistant.mail.gists.Gist`, or None when no attachment could be read.

    Raises:
        Cancelled: ``cancel`` was set (between files and pages, and inside the model call).
        ModelError: the LLM failed.
    """
    cancel = cancel or threading.Event()
    t0 = time.perf_counter()
    with netguard.activity(STAGE):
        emit(Progress(STAGE, 0, 1, "calls"))
        documents, skipped = attachment_documents(message, message_id, cancel=cancel)
        reasons = tuple(f"{s.attachment.filename}: {s.reason}" for s in skipped if s.reason != "signature")
        if cancel.is_set():
            raise Cancelled()
        if not documents:
            return None
        context = Session(store, documents).context
        generator = CancellableGenerator(store.generator(), cancel)
        summary = summarize_by_kind(context, store.models(wait=False), store.settings.pipeline, gist=True,
                                    cancel=cancel, emit=lambda e: _progress(e, emit))
        if summary is None:  # a kind with no points (or none found): the summary from central passages
            # no ask read: what a mail attached to this one asks is not asked of the reader
            summary = summarize(context, SummaryRequest(), generator, asks=False,
                                on_progress=lambda done, total: emit(Progress(STAGE, done, total, "calls")))
    text, passages = one_line(summary, context.documents)
    prefix = f"{message_id}/"
    sources = tuple(GistSource(n, c.source.removeprefix(prefix), c.page, c.start, c.end, _quote(c.text))
                    for n, c in enumerate(passages, 1))
    return Gist(text, sources, tuple(d.source.removeprefix(prefix) for d in documents), reasons,
                round(time.perf_counter() - t0, 2), store.settings.models.llm)


def _progress(event: Event, emit: Callable[[Event], None]) -> None:
    """The points' progress as the gist's own (the points' streamed lines are not the gist's line)."""
    if isinstance(event, Progress):
        emit(Progress(STAGE, event.done, event.total, "points"))


def _quote(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS].rsplit(" ", 1)[0] + "\u2026"


def gist_and_keep(store: ModelStore, cache: MailCache, ref: CachedRef, *,
                  cancel: threading.Event | None = None) -> Gist | None:
    """Compute the gist of the cached message ``ref`` and keep it beside the message.

    Returns:
        The gist, or None when the message left the cache or none of its attachments could be read.

    Raises:
        Cancelled: ``cancel`` was set.
        AssistantError: a model failed, or the gist could not be saved (StorageError).
    """
    raw = cache.get(ref)
    if raw is None:
        return None
    gist = gist_message(store, parse_message(raw), ref.id, cancel=cancel)
    if gist is None or not save_gist(cache, ref, gist):
        return None
    return gist


class GistWorker:
    """Gists of new messages, one at a time on a thread of its own at the lowest CPU priority (for
    ``assistant mail sync --watch``; the app runs :func:`gist_and_keep` through its task runner).

    ``on_gist(ref, gist)`` and ``on_error(ref, error)`` run on the worker's thread; ``nice`` is its nice value
    (Linux; 0 keeps the priority of the thread that started it).
    """

    def __init__(self, store: ModelStore, cache: MailCache, *,
                 on_gist: Callable[[CachedRef, Gist], None] = lambda r, g: None,
                 on_error: Callable[[CachedRef, AssistantError], None] = lambda r, e: None,
                 nice: int = LOWEST_NICE) -> None:
        self.store, self.cache, self.on_gist, self.on_error = store, cache, on_gist, on_error
        self.nice = nice
        self.cancel = threading.Event()
        self._queue: queue.Queue[CachedRef | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="gists", daemon=True)

    def start(self) -> GistWorker:
        self.thread.start()
        return self

    def add(self, ref: CachedRef) -> None:
        """Queue the message ``ref`` (its gist is computed after those queued before it)."""
        self._queue.put(ref)

    def stop(self) -> None:
        """Cancel the gist being computed and drop those queued."""
        self.cancel.set()
        self._queue.put(None)

    def join(self, timeout_s: float | None = None) -> bool:
        """Wait for the worker to end; whether it did."""
        self.thread.join(timeout_s)
        return not self.thread.is_alive()

    def _run(self) -> None:
        if self.nice > 0:
            lower_thread_priority(self.nice)
        while not self.cancel.is_set():
            ref = self._queue.get()
            if ref is None or self.cancel.is_set():
                return
            try:
                gist = gist_and_keep(self.store, self.cache, ref, cancel=self.cancel)
            except Cancelled:
                return
            except AssistantError as exc:
                self.on_error(ref, exc)
                continue
            if gist is not None:
                self.on_gist(ref, gist)
