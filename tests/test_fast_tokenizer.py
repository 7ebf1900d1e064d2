"""The tokenizer read from tokenizer.json alone counts and cuts exactly as transformers' AutoTokenizer."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.documents.chunk import chunk_document
from assistant.documents.tokens import token_lengths
from assistant.models.tokenizer import JsonTokenizer, load_tokenizer
from assistant.records import Document, Segment

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ["Hello, world! Ünïcödé façade naïve 東京 — “quoted” 3.14159 e-mail@example.org",
         "x" * 700, "", "   \n\t", "Don't stop—keep going... (really?) [1] {a:b}", "ＡＢＣ ﬁ ß İstanbul"]


@pytest.fixture(scope="module")
def fast(minilm_dir: Path) -> JsonTokenizer:
    return JsonTokenizer(minilm_dir)


@pytest.mark.parametrize("special", [False, True])
def test_ids_and_offsets_match_autotokenizer(fast: JsonTokenizer, tokenizer: object, special: bool) -> None:
    for text in TEXTS:
        ours = fast(text, add_special_tokens=special, return_offsets_mapping=True)
        theirs = tokenizer(text, add_special_tokens=special, return_offsets_mapping=True,  # type: ignore[operator]
                           verbose=False)
        assert ours["input_ids"] == theirs["input_ids"] and ours["offset_mapping"] == theirs["offset_mapping"]
    batch = fast(TEXTS, add_special_tokens=False)
    assert batch["input_ids"] == tokenizer(TEXTS, add_special_tokens=False, verbose=False)["input_ids"]  # type: ignore[operator]


def test_chunks_are_the_same(fast: JsonTokenizer, tokenizer: object) -> None:
    text = (ROOT / "resources" / "samples" / "supply-agreement.md").read_text(encoding="utf-8")[:200_000]
    text += "\n" + "y" * 3000 + " Ünïcödé façade 東京. " * 40  # a run longer than a chunk, and non-ASCII
    doc = Document("sample.md", text, (Segment(text),), (0,))
    ours = chunk_document(doc, fast)
    assert len(ours) > 100 and ours == chunk_document(doc, tokenizer)
    assert token_lengths(fast, TEXTS) == token_lengths(tokenizer, TEXTS)


def test_folder_without_tokenizer_json_falls_back(tmp_path: Path, minilm_dir: Path) -> None:
    (tmp_path / "vocab.txt").write_bytes((minilm_dir / "vocab.txt").read_bytes())
    (tmp_path / "tokenizer_config.json").write_text('{"tokenizer_class": "BertTokenizer", "do_lower_case": true}')
    slow = load_tokenizer(tmp_path)
    assert not isinstance(slow, JsonTokenizer)
    assert isinstance(load_tokenizer(minilm_dir), JsonTokenizer)
