"""Pre-filter embeddings with sentence-transformers, loaded from a folder on disk."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from assistant.errors import ModelError
from assistant.models.base import Embedder
from assistant.models.precision import Bf16Switch, Weights


class SentenceTransformerEmbedder(Bf16Switch, Embedder):
    """A sentence-transformers model folder (the bundled all-MiniLM-L6-v2 by default)."""

    def __init__(self, path: str | Path, *, threads: int = 0, bf16: bool = False) -> None:
        import torch
        from sentence_transformers import SentenceTransformer  # slow import (5-7 s): lazy

        from assistant.models import quiet_transformers

        quiet_transformers()

        if threads:
            torch.set_num_threads(threads)
        try:
            self.model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot load the embedding model from {path}: {exc}. "
                             "Set models.embedder_dir to a sentence-transformers folder.") from exc
        self._lock = threading.Lock()
        self._weights = Weights(self.model, bf16)  # bfloat16 weights (:mod:`assistant.models.precision`)

    @property
    def max_tokens(self) -> int:
        """Word pieces of a text the model reads; the rest is cut (sentence-transformers'
        ``max_seq_length``: 256 for the bundled all-MiniLM-L6-v2, which was trained on 128)."""
        length = self.model.max_seq_length
        assert length is not None  # set from the model's config on load
        return int(length)

    @max_tokens.setter
    def max_tokens(self, value: int) -> None:
        self.model.max_seq_length = int(value)

    @property
    def tokenizer(self) -> object:
        """The model's tokenizer (used to measure chunk sizes)."""
        return self.model.tokenizer

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """See :meth:`Embedder.embed_batch`."""
        with self._lock:
            out = self.model.encode(list(texts), batch_size=self.batch_size, convert_to_numpy=True,
                                    normalize_embeddings=True, show_progress_bar=False)
        return np.asarray(out, dtype=np.float32)
