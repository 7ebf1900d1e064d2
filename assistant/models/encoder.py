"""Conditional embeddings on a transformers BERT-family encoder (BERT, MiniLM, DistilBERT, RoBERTa...)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from assistant.errors import ModelError
from assistant.models.base import ConditionalEncoder, JointStates
from assistant.models.precision import Bf16Switch, Weights


class TransformersEncoder(Bf16Switch, ConditionalEncoder):
    """Any encoder folder that ``AutoModel`` loads, read from disk only.

    The joint pass follows Test-Time RAG §3.2 (OpenReview zgs450VzkU): query and chunk are one
    sequence (the tokenizer's sentence-pair form), the encoder's last hidden state is taken, and
    query and chunk embeddings are the masked mean over their own tokens.
    """

    def __init__(self, path: str | Path, *, threads: int = 0, max_length: int = 512,
                 batch_size: int = 16, layer: int = -1, bf16: bool = False) -> None:
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
        self.layer = layer  # hidden-state index: -1 = last (the paper), 0 = embeddings, 1..n = layer outputs
        self._lock = threading.Lock()
        self._weights = Weights(self.model, bf16)  # bfloat16 weights (:mod:`assistant.models.precision`)

    def joint_states(self, query: str, chunks: Sequence[str]) -> JointStates:
        """See :meth:`ConditionalEncoder.joint_states`; chunks are truncated to fit ``max_length``.
        The states are those of hidden layer ``self.layer`` (the last by default, as in the paper)."""
        return self.joint_states_at(query, chunks, (self.layer,))[0]

    def joint_states_at(self, query: str, chunks: Sequence[str], layers: Sequence[int]) -> list[JointStates]:
        """Joint states of several hidden layers from one pass (for the layer variants of the evaluation).

        Args:
            layers: indices into ``hidden_states`` (0 = embedding output, -1 = last layer).

        Returns:
            One :class:`JointStates` per entry of ``layers``, each (len(chunks), L, dim).
        """
        parts = [self._batch(query, list(chunks[i:i + self.batch_size]), layers)
                 for i in range(0, len(chunks), self.batch_size)]
        width = max(p[0].hidden.shape[1] for p in parts)

        def pad(x: np.ndarray) -> np.ndarray:
            return np.pad(x, [(0, 0), (0, width - x.shape[1])] + [(0, 0)] * (x.ndim - 2))

        return [JointStates(np.concatenate([pad(p[n].hidden) for p in parts]),
                            np.concatenate([pad(p[n].query_mask) for p in parts]),
                            np.concatenate([pad(p[n].chunk_mask) for p in parts])) for n in range(len(layers))]

    def _batch(self, query: str, chunks: list[str], layers: Sequence[int]) -> list[JointStates]:
        import torch

        enc = self.tokenizer([query] * len(chunks), chunks, truncation="only_second",
                             max_length=self.max_length, padding=True, return_tensors="pt")
        # sequence_ids: 0 = query token, 1 = chunk token, None = special or padding.
        seq = [enc.sequence_ids(i) for i in range(len(chunks))]
        q_mask = np.array([[s == 0 for s in row] for row in seq], dtype=np.float32)
        c_mask = np.array([[s == 1 for s in row] for row in seq], dtype=np.float32)
        inputs = {k: v for k, v in enc.items() if k in self.tokenizer.model_input_names}
        with self._lock, torch.inference_mode():
            if tuple(layers) == (-1,):
                states = [self.model(**inputs).last_hidden_state]  # (batch, seq_len, hidden)
            else:
                every = self.model(**inputs, output_hidden_states=True).hidden_states
                states = [every[n] for n in layers]
        return [JointStates(h.float().numpy(), q_mask, c_mask) for h in states]
