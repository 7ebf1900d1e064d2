"""The in-memory context of a session: documents, chunks, the BM25 index and cached chunk embeddings.

Nothing here is ever written to disk; it is built at question time and dropped with the session.
"""

from __future__ import annotations

import bisect
import gc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from assistant.documents.chunk import chunk_document
from assistant.documents.limits import MIB, raise_hint
from assistant.errors import AssistantError
from assistant.records import Chunk, Document
from assistant.text.language import DEFAULT_LANGUAGE, classify, document_language, main_language, part_languages
from assistant.ttrag.aliases import DefinedTerm, defined_terms
from assistant.ttrag.compute.table import Table
from assistant.ttrag.lexical import Bm25Index

ProgressFn = Callable[[str, int, int], None]


@dataclass
class Context:
    """Documents and their chunks with a BM25 index; ``embeddings`` caches pre-filter vectors by chunk id;
    ``terms`` are the parties the documents define by a term (:mod:`assistant.ttrag.aliases`); ``languages``
    maps each document's source to the ISO 639-1 code of its language (:mod:`assistant.text.language`)."""

    documents: list[Document]
    chunks: list[Chunk]
    bm25: Bm25Index
    embeddings: dict[int, np.ndarray] = field(default_factory=dict)
    terms: list[DefinedTerm] = field(default_factory=list)
    languages: dict[str, str] = field(default_factory=dict)
    #: the records of a table of records and their words (:func:`assistant.ttrag.scope.records`), found on the
    #: first question that looks for them; None until then
    records: list[tuple[frozenset[str], frozenset[str], list[int]]] | None = None
    #: the documents' tables (:func:`assistant.ttrag.compute.table.tables`), found on the first question that
    #: asks to compute over rows; None until then
    tables: list[Table] | None = None

    @property
    def language(self) -> str:
        """The language most of the documents' text is written in (English when none was detected)."""
        lengths = {d.source: len(d.text) for d in self.documents}
        return main_language(list(self.languages.values()), [lengths.get(s, 1) for s in self.languages])

    @property
    def n_tokens(self) -> int:
        """Total encoder tokens over all chunks."""
        return sum(c.n_tokens for c in self.chunks)


def chunk_at(ctx: Context, source: str, offset: int) -> Chunk:
    """The chunk of ``source`` that holds character ``offset`` (the first of ``source`` if none does)."""
    for c in ctx.chunks:
        if c.source == source and c.start <= offset < c.end + 2:
            return c
    return next(c for c in ctx.chunks if c.source == source)


SHEET_SAMPLE_CHARS = 3000  # of a sheet's words, enough to tell its language (a header and a few statuses)


def chunk_languages(documents: Sequence[Document], chunks: Sequence[Chunk], languages: dict[str, str]) -> list[str]:
    """The language of each chunk: that of the segment it starts in (an e-mail's German body and its English
    attachment are stemmed each in its own), the document's (``languages``) where a segment is too short to tell."""
    parts = {d.source: (d.offsets, part_languages([s.language_text() for s in d.segments], languages[d.source]))
             for d in documents}
    out = []
    for c in chunks:
        offsets, codes = parts[c.source]
        i = bisect.bisect_right(offsets, c.start) - 1
        out.append(codes[i] if 0 <= i < len(codes) else languages[c.source])
    return out


def language_of(document: Document) -> str:
    """The ISO 639-1 code of the language ``document`` is written in (:func:`document_language`). A sheet's is
    judged from its column names and its cells of text, and again with the values its rows repeat (a status, a
    department), whichever the detector is surer of; never from its names, codes and figures
    (:meth:`Segment.language_text`)."""
    if not any(s.sheet is not None for s in document.segments):
        return document_language(document.text)
    samples = ["\n".join(s.language_text(repeated=repeated) for s in document.segments)[:SHEET_SAMPLE_CHARS]
               for repeated in (False, True)]
    code, _ = max((classify(sample) for sample in samples), key=lambda found: found[1])
    return code or DEFAULT_LANGUAGE


def check_size(documents: Sequence[Document], max_mb: float) -> None:
    """Refuse ``documents`` whose text together is over ``max_mb`` MiB of characters (0: no limit).

    Raises:
        AssistantError: over the limit; the message names the files, their sizes, the limit and the setting.
    """
    total = sum(len(d.text) for d in documents)
    if not max_mb or total <= max_mb * MIB:
        return
    what, sizes, fewer = f"{documents[0].source} holds", "", ""
    if len(documents) > 1:
        largest = sorted(documents, key=lambda d: -len(d.text))[:3]
        sizes = "; " + ", ".join(f"{d.source} {len(d.text) / MIB:.1f} MiB" for d in largest)
        sizes += ", ..." if len(documents) > 3 else ""
        what, fewer = f"the {len(documents)} files hold", ", or open fewer files"
    # the build's memory grows with the text, so this is the memory budget (docs/security.md, Limits)
    raise AssistantError(f"too much text for one question: {what} {total / MIB:.1f} MiB of text (limit "
                         f"{max_mb:g} MiB{sizes}); {raise_hint('max_context_mb')}{fewer}")


def build_context(documents: Sequence[Document], tokenizer: Any, *, chunk_tokens: int = 200,
                  max_text_mb: float = 0, progress: ProgressFn | None = None) -> Context:
    """Chunk every document and index the chunks with BM25 (stop words and Snowball stems of each document's
    language, detected here).

    ``max_text_mb`` (MiB of characters over all documents; 0: no limit) refuses a larger text before any of it
    is chunked (:func:`check_size`). ``progress(stage, done, total)`` reports ``chunk`` (sentences) and
    ``index`` (chunks).

    Raises:
        AssistantError: the text is over ``max_text_mb``.
    """
    check_size(documents, max_text_mb)
    # Millions of short-lived lists (words, ids) would trigger the cyclic GC many times over a 1M-token
    # build; none of them forms a cycle, so collection is paused for the build (measured: -0.3 to -0.6 s).
    paused = gc.isenabled()
    gc.disable()
    try:
        chunks: list[Chunk] = []
        for doc in documents:
            def report(done: int, total: int) -> None:
                if progress:
                    progress("chunk", done, total)
            chunks.extend(chunk_document(doc, tokenizer, chunk_tokens=chunk_tokens, first_id=len(chunks),
                                         progress=report))
        if progress:
            progress("index", 0, len(chunks))
        languages = {d.source: language_of(d) for d in documents}
        index = Bm25Index([c.text for c in chunks], [c.heading for c in chunks],
                          languages=chunk_languages(documents, chunks, languages))
        if progress:
            progress("index", len(chunks), len(chunks))
    finally:
        if paused:
            gc.enable()
    return Context(documents=list(documents), chunks=chunks, bm25=index, terms=defined_terms(documents),
                   languages=languages)


def restricted(ctx: Context, source: str) -> tuple[Context, list[int]]:
    """The context of one of ``ctx``'s documents alone (a summary's points are asked of each document
    separately): its chunks renumbered from 0 (the pre-filter indexes by position), BM25 rebuilt over them,
    the cached embeddings and defined terms carried over; and the original id of each new chunk id. ``ctx``
    itself when it holds that document only."""
    if all(d.source == source for d in ctx.documents):
        return ctx, [c.id for c in ctx.chunks]
    docs = [d for d in ctx.documents if d.source == source]
    own = [c for c in ctx.chunks if c.source == source]
    chunks = [replace(c, id=i) for i, c in enumerate(own)]
    languages = {source: ctx.languages.get(source, "en")}
    index = Bm25Index([c.text for c in chunks], [c.heading for c in chunks],
                      languages=chunk_languages(docs, chunks, languages))
    embeddings = {i: ctx.embeddings[c.id] for i, c in enumerate(own) if c.id in ctx.embeddings}
    return Context(documents=docs, chunks=chunks, bm25=index, embeddings=embeddings,
                   terms=[t for t in ctx.terms if t.source == source], languages=languages), [c.id for c in own]
