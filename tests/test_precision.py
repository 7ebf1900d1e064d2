"""bfloat16 autocast for the torch models and the ask that starts before they are loaded."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import ScriptedGenerator

from assistant.config import ModelSettings, Settings, load_settings
from assistant.errors import ConfigError
from assistant.models.base import GenerationRequest
from assistant.models.precision import use_bf16
from assistant.records import Document, Event, Progress, Segment
from assistant.service import ModelStore, Session

TEXTS = ["Late delivery costs 0.5% of the order value for each day of delay.",
         "The Supplier's contract manager is Imogen Tallis, Key Account Manager.",
         "Overdue amounts bear interest at 3.25 percentage points above the ECB rate.",
         "The initial term of this Agreement is five years from the Effective Date."]


def test_the_setting_resolves_and_a_wrong_value_is_refused_with_its_name(tmp_path: Path) -> None:
    assert use_bf16("on") is True and use_bf16("off") is False
    assert isinstance(use_bf16("auto"), bool)
    with pytest.raises(ConfigError, match="'fast'"):
        use_bf16("fast")
    with pytest.raises(ConfigError, match="models.bf16"):
        ModelSettings(bf16="yes")
    path = tmp_path / "config.toml"
    path.write_text('[models]\nbf16 = "sometimes"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="sometimes"):
        load_settings(path)
    path.write_text('[models]\nbf16 = "off"\n', encoding="utf-8")
    assert load_settings(path).models.bf16 == "off"


def test_bfloat16_embeddings_and_joint_scores_match_float32(minilm_dir: Path, embedder: object,
                                                            encoder: object) -> None:
    from assistant.models.embedder import SentenceTransformerEmbedder
    from assistant.models.encoder import TransformersEncoder

    fast_embedder = SentenceTransformerEmbedder(minilm_dir, bf16=True)
    exact = embedder.embed(TEXTS)  # type: ignore[attr-defined]
    fast = fast_embedder.embed(TEXTS)
    assert fast.dtype == np.float32 and fast.shape == exact.shape
    assert float((fast * exact).sum(axis=1).min()) > 0.999
    fast_encoder = TransformersEncoder(minilm_dir, bf16=True)
    query = "How much interest is charged on overdue amounts?"
    a = encoder.similarities(query, TEXTS, pooling="maxsim")  # type: ignore[attr-defined]
    b = fast_encoder.similarities(query, TEXTS, pooling="maxsim")
    assert np.abs(a - b).max() < 0.01
    assert int(np.argmax(a)) == int(np.argmax(b)) == 2


def test_the_first_stage_starts_before_the_torch_models_are_loaded(tokenizer: object, tmp_path: Path) -> None:
    store = ModelStore(Settings())
    store._tokenizer = tokenizer

    def reply(request: GenerationRequest) -> str:
        if request.purpose == "route":
            return '{"route": "question_answering", "target": ""}'
        return json.dumps({"found": True, "passage": 1, "short_answer": "Imogen Tallis",
                           "answer": "The contract manager is Imogen Tallis."})

    store._generator = ScriptedGenerator(reply)
    text = "\n\n".join(TEXTS)
    session = Session(store, [Document(source=str(tmp_path / "terms.md"), text=text, segments=(Segment(text),),
                                       offsets=(0,))])
    loaded_at_stage: dict[str, bool] = {}

    def emit(event: Event) -> None:
        if isinstance(event, Progress) and event.done == 0:
            loaded_at_stage.setdefault(event.stage, store._embedder is not None)

    answer = session.ask("Who is the Supplier's contract manager?", emit=emit)
    assert loaded_at_stage["route"] is False  # the router did not wait for torch
    assert loaded_at_stage["load_models"] is False  # the wait for them is a stage of its own
    assert loaded_at_stage["prefilter"] is True and store._encoder is not None
    assert answer.found and answer.short_answer == "Imogen Tallis"


def test_the_embedder_reads_the_word_pieces_the_setting_allows(minilm_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="models.embed_max_tokens"):
        ModelSettings(embed_max_tokens=8)
    path = tmp_path / "config.toml"
    path.write_text(f'[models]\nembed_max_tokens = 64\nembedder_dir = "{minilm_dir}"\n', encoding="utf-8")
    settings = load_settings(path)
    assert settings.models.embed_max_tokens == 64 and ModelSettings().embed_max_tokens == 256
    embedder = ModelStore(settings).embedder()
    assert embedder is not None and embedder.max_tokens == 64  # type: ignore[attr-defined]
    head = " ".join(f"word{i}" for i in range(40))  # ~120 word pieces
    a, b = embedder.embed([head + " the contract ends in May.", head + " the weather is fine today."])
    assert float(a @ b) > 0.999  # what differs lies past the 64th word piece: cut, as configured


def test_bfloat16_weights_switch_back_to_the_exact_float32_ones(minilm_dir: Path) -> None:
    import torch

    from assistant.models.encoder import TransformersEncoder

    encoder = TransformersEncoder(minilm_dir, bf16=False)
    query = "How much interest is charged on overdue amounts?"
    exact = encoder.similarities(query, TEXTS)
    encoder.bf16 = True
    assert next(encoder.model.parameters()).dtype == torch.bfloat16
    rounded = encoder.similarities(query, TEXTS)
    assert np.abs(rounded - exact).max() < 0.01 and not np.array_equal(rounded, exact)
    encoder.bf16 = False
    assert next(encoder.model.parameters()).dtype == torch.float32
    assert np.array_equal(encoder.similarities(query, TEXTS), exact)
