"""A question's memory is bounded: long sentences are tokenized a window at a time, BM25 holds term ids in
arrays, and a context over ``max_context_mb`` of text is refused with the limit and the setting named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assistant.cli import main
from assistant.config import Settings
from assistant.documents.chunk import LONG_SPAN_CHARS, chunk_document
from assistant.documents.limits import DEFAULT_MAX_CONTEXT_MB, MIB, Limits
from assistant.errors import AssistantError
from assistant.records import Document, Segment
from assistant.service import ModelStore, Session
from assistant.ttrag import lexical
from assistant.ttrag.lexical import Bm25Index

WORDS = "the harbour master logs every vessel entering port with its cargo manifest and crew".split()


def _doc(text: str, source: str = "one-paragraph.docx") -> Document:
    return Document(source, text, (Segment(text),), (0,))


class RecordingTokenizer:
    """The real tokenizer, recording the longest text it was handed."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.backend_tokenizer = tokenizer.backend_tokenizer
        self.longest = 0

    def __call__(self, text: str | list[str], **kw: Any) -> Any:
        texts = [text] if isinstance(text, str) else text
        self.longest = max([self.longest, *map(len, texts)])
        return self.tokenizer(text, **kw)


def test_a_sentence_longer_than_a_window_is_never_tokenized_whole(tokenizer: Any) -> None:
    # one paragraph with no sentence end, 4 windows long: tokenized whole, a 10 MiB one took 1.6 GB
    text = " ".join(WORDS[i % len(WORDS)] + str(i % 7) * (i % 3) for i in range(4 * LONG_SPAN_CHARS // 7))
    assert len(text) > 3 * LONG_SPAN_CHARS and "." not in text
    recorder = RecordingTokenizer(tokenizer)
    chunks = chunk_document(_doc(text), recorder, chunk_tokens=50)
    assert recorder.longest <= LONG_SPAN_CHARS
    # the same cuts as the whole text's tokens every 50
    offsets = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)["offset_mapping"]
    want = [(offsets[i][0], offsets[min(i + 50, len(offsets)) - 1][1], len(offsets[i:i + 50]))
            for i in range(0, len(offsets), 50)]
    assert [(c.start, c.end, c.n_tokens) for c in chunks] == want


def test_a_long_run_of_few_tokens_is_packed_as_a_sentence(tokenizer: Any) -> None:
    # a "sentence" over the window but of few tokens (words over 100 characters are one [UNK] each)
    long_words = " ".join(["x" * 120] * (LONG_SPAN_CHARS // 100)) + "."
    text = "A short sentence first. " + long_words + " A short one after."
    chunks = chunk_document(_doc(text), tokenizer, chunk_tokens=200)
    assert len(chunks) == 1 and chunks[0].text == text


def test_bm25_built_in_batches_scores_as_built_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [f"{WORDS[i % 14]} {WORDS[(i * 5) % 14]} delivery {i} der Lieferungen {WORDS[i % 3]}" for i in range(40)]
    langs = ["en"] * 25 + ["de"] * 15
    whole = Bm25Index(texts, [f"Part {i % 4}" for i in range(40)], languages=langs)
    monkeypatch.setattr(lexical, "_BATCH", 3)
    batched = Bm25Index(texts, [f"Part {i % 4}" for i in range(40)], languages=langs)
    for query in ("harbour cargo delivery", "Lieferung der Crew", "part 2 manifest", "nothing here"):
        assert whole.search(query, 10) == batched.search(query, 10)


def test_a_context_over_the_limit_is_refused_before_it_is_built() -> None:
    store = ModelStore(Settings(documents=Limits(max_context_mb=1)))
    big = _doc("word " * (MIB // 5 + 1000), "big.docx")
    small = _doc("a short note", "note.txt")
    with pytest.raises(AssistantError) as caught:
        Session(store, [big])
    assert str(caught.value) == ("too much text for one question: big.docx holds 1.0 MiB of text (limit 1 MiB); "
                                 "raise max_context_mb in [documents] of config.toml")
    with pytest.raises(AssistantError, match=r"the 2 files hold 1\.0 MiB of text \(limit 1 MiB; big\.docx 1\.0 "
                                             r"MiB, note\.txt 0\.0 MiB\); raise max_context_mb .* or open fewer files"):
        Session(store, [small, big])
    assert Session(store, [small]).context.chunks  # under the limit: built as before
    unlimited = ModelStore(Settings(documents=Limits(max_context_mb=0)))
    assert Session(unlimited, [big]).context.chunks


def test_the_default_limit_keeps_the_scale_benchmark_s_4m_tokens() -> None:
    # benchmarks/scale.py goes to 4M MiniLM tokens at 4.6 characters a token
    assert DEFAULT_MAX_CONTEXT_MB * MIB >= 4_000_000 * 4.6


def test_ask_over_the_limit_says_so_and_names_the_setting(capsys: pytest.CaptureFixture[str], user_dirs: Path) -> None:
    (user_dirs / "config").mkdir()
    (user_dirs / "config" / "config.toml").write_text("[documents]\nmax_context_mb = 1\n")
    path = user_dirs / "one-paragraph.txt"
    path.write_text("Harbour logs. " + "every vessel entering port " * (MIB // 26))
    code = main(["ask", "--fast", str(path), "What do the harbour logs hold?"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"error: too much text for one question: {path} holds 1.0 MiB of text (limit 1 MiB); raise " \
           "max_context_mb in [documents] of config.toml" in err
    assert "Traceback" not in err
