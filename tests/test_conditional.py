"""Conditional embeddings: the joint pass, masks and mean pooling checked against a hand computation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from assistant.models.encoder import TransformersEncoder
from assistant.records import Chunk, Hit
from assistant.ttrag.conditional import rerank

QUERY = "Who founded the harbour town?"
CHUNKS = ["The harbour town was founded by Ada Lindqvist in 1702.",
          "Rainfall is heavy in autumn."]


def hand_similarity(model: torch.nn.Module, tok: object, query: str, chunk: str, *,
                    token_types: bool) -> float:
    """[CLS] q [SEP] c [SEP] through the model alone (no padding), rows picked by position, mean, cosine."""
    q = tok(query, add_special_tokens=False)["input_ids"]  # type: ignore[operator]
    c = tok(chunk, add_special_tokens=False)["input_ids"]  # type: ignore[operator]
    ids = [tok.cls_token_id, *q, tok.sep_token_id, *c, tok.sep_token_id]  # type: ignore[attr-defined]
    inputs = {"input_ids": torch.tensor([ids]), "attention_mask": torch.ones(1, len(ids), dtype=torch.long)}
    if token_types:
        inputs["token_type_ids"] = torch.tensor([[0] * (len(q) + 2) + [1] * (len(c) + 1)])
    with torch.no_grad():
        hidden = model(**inputs).last_hidden_state[0].numpy()
    q_emb = hidden[1:1 + len(q)].mean(axis=0)
    c_emb = hidden[2 + len(q):2 + len(q) + len(c)].mean(axis=0)
    return float(q_emb @ c_emb / (np.linalg.norm(q_emb) * np.linalg.norm(c_emb)))


def test_bundled_encoder_matches_hand_computation(encoder: TransformersEncoder) -> None:
    # Two chunks of different lengths are batched with padding: the masks must hide it.
    got = encoder.similarities(QUERY, CHUNKS)
    want = [hand_similarity(encoder.model, encoder.tokenizer, QUERY, c, token_types=True) for c in CHUNKS]
    np.testing.assert_allclose(got, want, atol=1e-5)
    assert got[0] > got[1]  # the chunk that answers is closer


def test_query_and_chunk_embeddings_differ_by_context(encoder: TransformersEncoder) -> None:
    # Conditional: the same query gets a different embedding next to each chunk.
    q, c = encoder.encode_pairs(QUERY, CHUNKS)
    assert q.shape == c.shape == (2, encoder.model.config.hidden_size)
    assert not np.allclose(q[0], q[1])


def _save_tokenizer(minilm_dir: Path, target: Path, cls_name: str) -> None:
    import transformers

    cls = getattr(transformers, cls_name)
    cls(vocab_file=str(minilm_dir / "vocab.txt"), do_lower_case=True).save_pretrained(target)


def test_distilbert_path(tmp_path: Path, minilm_dir: Path) -> None:
    """A small DistilBERT built from a config (no weights can be installed here) runs the same maths."""
    from transformers import DistilBertConfig, DistilBertModel

    torch.manual_seed(0)
    config = DistilBertConfig(vocab_size=30522, dim=64, n_layers=2, n_heads=2, hidden_dim=128,
                              max_position_embeddings=512)
    DistilBertModel(config).save_pretrained(tmp_path)
    _save_tokenizer(minilm_dir, tmp_path, "DistilBertTokenizerFast")
    enc = TransformersEncoder(tmp_path)
    assert type(enc.model).__name__ == "DistilBertModel"
    assert "token_type_ids" not in enc.tokenizer.model_input_names
    got = enc.similarities(QUERY, CHUNKS)
    want = [hand_similarity(enc.model, enc.tokenizer, QUERY, c, token_types=False) for c in CHUNKS]
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_long_chunk_is_truncated_not_the_query(encoder: TransformersEncoder) -> None:
    long_chunk = "word " * 2000
    q, c = encoder.encode_pairs(QUERY, [long_chunk])
    q_alone, _ = encoder.encode_pairs(QUERY, ["word " * 700])
    assert np.isfinite(q).all() and np.isfinite(c).all()
    np.testing.assert_allclose(q, q_alone, atol=1e-4)  # both truncated to the same 512 tokens


def _hits(n: int) -> list[Hit]:
    return [Hit(Chunk(i, t, "f.txt", 0, len(t)), 1.0 - i / 10, {"prefilter": 1.0 - i / 10})
            for i, t in enumerate(CHUNKS[::-1][:n])]


def test_rerank_modes(encoder: TransformersEncoder) -> None:
    hits = _hits(2)  # pre-filter puts the wrong chunk first
    alone = rerank(QUERY, hits, encoder, mode="alone", top_k=2)
    assert alone[0].chunk.text == CHUNKS[0]
    assert alone[0].scores["ce"] == pytest.approx(alone[0].score)
    off = rerank(QUERY, hits, encoder, mode="off", top_k=1)
    assert [h.chunk.text for h in off] == [CHUNKS[1]]
    fused_light = rerank(QUERY, hits, encoder, mode="fused", weight=0.25, top_k=2)
    fused_heavy = rerank(QUERY, hits, encoder, mode="fused", weight=0.75, top_k=2)
    assert fused_light[0].chunk.text == CHUNKS[1]  # z-scores of 2 items are +-1: weight decides
    assert fused_heavy[0].chunk.text == CHUNKS[0]


def test_maxsim_matches_hand_computation(encoder: TransformersEncoder) -> None:
    got = encoder.similarities(QUERY, CHUNKS, pooling="maxsim")
    tok = encoder.tokenizer
    for chunk, value in zip(CHUNKS, got, strict=True):
        q = tok(QUERY, add_special_tokens=False)["input_ids"]
        c = tok(chunk, add_special_tokens=False)["input_ids"]
        ids = [tok.cls_token_id, *q, tok.sep_token_id, *c, tok.sep_token_id]
        types = [0] * (len(q) + 2) + [1] * (len(c) + 1)
        with torch.no_grad():
            h = encoder.model(input_ids=torch.tensor([ids]), token_type_ids=torch.tensor([types]),
                              attention_mask=torch.ones(1, len(ids), dtype=torch.long)).last_hidden_state[0]
        h = torch.nn.functional.normalize(h, dim=-1).numpy()
        qt, ct = h[1:1 + len(q)], h[2 + len(q):2 + len(q) + len(c)]
        assert value == pytest.approx(float((qt @ ct.T).max(axis=1).mean()), abs=1e-5)
