"""The in-memory context of a session: documents, chunks, the BM25 index and cached chunk embeddings.

Nothing here is ever written to disk; it is built at question time and dropped with the session.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from assistant.documents.chunk import chunk_document
from assistant.records import Chunk, Document

ProgressFn = Callable[[str, int, int], None]


@dataclass
class Context:
    """Documents and their chunks with a BM25 index; ``embeddings`` caches pre-filter vectors by chunk id."""

    documents: list[Document]
    chunks: list[Chunk]
    bm25: Any
    stemmer: Any
    embeddings: dict[int, np.ndarray] = field(default_factory=dict)

    @property
    def n_tokens(self) -> int:
        """Total encoder tokens over all chunks."""
        return sum(c.n_tokens for c in self.chunks)


def build_context(documents: Sequence[Document], tokenizer: Any, *, chunk_tokens: int = 200,
                  progress: ProgressFn | None = None) -> Context:
    """Chunk every document and index the chunks with BM25 (bm25s, English stop words, Snowball stems).

    ``progress(stage, done, total)`` reports ``chunk`` (sentences) and ``index`` (chunks).
    """
    import bm25s
    import Stemmer

    chunks: list[Chunk] = []
    for doc in documents:
        def report(done: int, total: int) -> None:
            if progress:
                progress("chunk", done, total)
        chunks.extend(chunk_document(doc, tokenizer, chunk_tokens=chunk_tokens, first_id=len(chunks),
                                     progress=report))
    stemmer = Stemmer.Stemmer("english")
    if progress:
        progress("index", 0, len(chunks))
    tokens = bm25s.tokenize([c.text for c in chunks], stopwords="en", stemmer=stemmer, show_progress=False)
    retriever = bm25s.BM25()
    retriever.index(tokens, show_progress=False)
    if progress:
        progress("index", len(chunks), len(chunks))
    return Context(documents=list(documents), chunks=chunks, bm25=retriever, stemmer=stemmer)
