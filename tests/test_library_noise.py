"""Library noise: counting and cutting long texts with the encoder's tokenizer prints no warning."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from assistant.documents.chunk import chunk_document
from assistant.documents.tokens import token_lengths
from assistant.records import Document, Segment

_LONG_WARNING = "Token indices sequence length is longer than the specified maximum"


class _Collect(logging.Handler):
    """Keeps every record the transformers loggers emit."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture()
def fresh_tokenizer(minilm_dir: Path) -> object:
    # A tokenizer warns about a long sequence once per instance: a fresh one, so an earlier test cannot hide it.
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(minilm_dir, local_files_only=True)


def test_long_texts_are_counted_and_cut_without_the_length_warning(
        fresh_tokenizer: object, capfd: pytest.CaptureFixture[str]) -> None:
    collect = _Collect()
    logger = logging.getLogger("transformers")
    logger.addHandler(collect)
    try:
        long_text = "Überprüfung der Zuständigkeit für Straßenbau, Größe und Maße. " * 200  # ~3,000 tokens
        assert token_lengths(fresh_tokenizer, [long_text])[0] > 512
        doc = Document(source="long.txt", text=long_text.replace(". ", ", "), segments=(Segment(text=""),),
                       offsets=(0,))
        assert len(chunk_document(doc, fresh_tokenizer, chunk_tokens=200)) > 5
    finally:
        logger.removeHandler(collect)
    assert not any(_LONG_WARNING in m for m in collect.messages)
    assert _LONG_WARNING not in capfd.readouterr().err
