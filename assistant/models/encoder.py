"""Conditional embeddings on a transformers BERT-family encoder (BERT, MiniLM, DistilBERT, RoBERTa...)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from assistant.errors import ModelError
from assistant.models.base import ConditionalEncoder


class TransformersEncoder(ConditionalEncoder):
    """Any encoder folder that ``AutoModel`` loads, read from disk only.

    The joint pass follows Test-Time RAG §3.2 (OpenReview zgs450VzkU): query and chunk are one
    sequence (the tokenizer's sentence-pair form), the encoder's last hidden state is taken, and
    query and chunk embeddings are the masked mean over their own tokens.
    """

    def __init__(self, path: str | Path, *, threads: int = 0, max_length: int = 512,
                 batch_size: int = 16) -> None:
        import torch
        from transformers import AutoModel, AutoTokenizer

        from assistant.models import quiet_transformers

        quiet_transformers()
        self.path = Path(path)
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(self.path, local_files_only=True)
            self.model = AutoModel.from_pretrained(self.path, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot load the encoder from {self.path}: {exc}. "
                             "Set models.encoder_dir to a BERT-family model folder.") from exc
        if not self.tokenizer.is_fast:
            raise ModelError(f"{self.path}: a fast tokenizer (tokenizer.json) is needed to find segments")
        self.model.eval()
        if threads:
            torch.set_num_threads(threads)
        limit = getattr(self.model.config, "max_position_embeddings", max_length)
        self.max_length = min(max_length, int(limit))
        self.batch_size = batch_size
        self._lock = threading.Lock()

    def encode_pairs(self, query: str, chunks: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """See :meth:`ConditionalEncoder.encode_pairs`; chunks are truncated to fit ``max_length``."""
        qs, cs = [], []
        for i in range(0, len(chunks), self.batch_size):
            q, c = self._encode_batch(query, list(chunks[i:i + self.batch_size]))
            qs.append(q)
            cs.append(c)
        return np.concatenate(qs), np.concatenate(cs)

    def _encode_batch(self, query: str, chunks: list[str]) -> tuple[np.ndarray, np.ndarray]:
        import torch

        enc = self.tokenizer([query] * len(chunks), chunks, truncation="only_second",
                             max_length=self.max_length, padding=True, return_tensors="pt")
        # sequence_ids: 0 = query token, 1 = chunk token, None = special or padding.
        seq = [enc.sequence_ids(i) for i in range(len(chunks))]
        q_mask = torch.tensor([[s == 0 for s in row] for row in seq], dtype=torch.float32)
        c_mask = torch.tensor([[s == 1 for s in row] for row in seq], dtype=torch.float32)
        inputs = {k: v for k, v in enc.items() if k in self.tokenizer.model_input_names}
        with self._lock, torch.inference_mode():
            hidden = self.model(**inputs).last_hidden_state  # (batch, seq_len, hidden)
        return _masked_mean(hidden, q_mask), _masked_mean(hidden, c_mask)


def _masked_mean(hidden: object, mask: object) -> np.ndarray:
    """Mean of ``hidden`` (batch, seq, dim) over positions where ``mask`` (batch, seq) is 1."""
    import torch

    assert isinstance(hidden, torch.Tensor) and isinstance(mask, torch.Tensor)
    summed = (hidden * mask.unsqueeze(-1)).sum(dim=1)
    counts = mask.sum(dim=1, keepdim=True).clamp(min=1.0)
    return (summed / counts).float().numpy()
