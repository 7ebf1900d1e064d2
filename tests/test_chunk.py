"""Chunking: token budget measured with the encoder's tokenizer, sentence cuts, offsets, pages."""

from __future__ import annotations

from pathlib import Path

from assistant.documents import extract
from assistant.documents.chunk import chunk_document, sentence_spans


def test_sentence_spans_cut_after_punctuation_and_lines() -> None:
    text = 'First one. "Second?" Third!\nA line without stop\n\nLast'
    pieces = [text[s:e] for s, e in sentence_spans(text)]
    assert pieces == ["First one.", '"Second?"', "Third!", "A line without stop", "Last"]


def test_chunks_respect_budget_and_offsets(tmp_path: Path, tokenizer: object) -> None:
    sentences = [f"Sentence number {i} talks about item {i * 7} and the harbour." for i in range(300)]
    path = tmp_path / "doc.txt"
    path.write_text(" ".join(sentences) + "\n" + "x" * 3000)  # the last "sentence" is one huge token run
    doc = extract(path)
    chunks = chunk_document(doc, tokenizer, chunk_tokens=50)
    assert len(chunks) > 10
    for c in chunks:
        assert doc.text[c.start:c.end] == c.text
        n = len(tokenizer(c.text, add_special_tokens=False)["input_ids"])  # type: ignore[operator]
        assert n <= 50
        assert c.n_tokens == n
    # cut at sentence ends, except inside the long run
    normal = [c for c in chunks if "x" * 10 not in c.text]
    assert all(c.text.endswith(".") for c in normal)
    assert [c.id for c in chunks] == list(range(len(chunks)))
    # no text lost: every sentence is in exactly one chunk
    assert sum(c.text.count("Sentence number") for c in chunks) == 300


def test_pages_from_markers(tmp_path: Path, tokenizer: object) -> None:
    body = "\n".join(f"<!-- page {p} -->\n## Part {p}\n" + f"Text of page {p}. " * 40 for p in range(1, 6))
    path = tmp_path / "doc.md"
    path.write_text(body)
    doc = extract(path)
    chunks = chunk_document(doc, tokenizer, chunk_tokens=60)
    for c in chunks:
        first = c.text.split("Text of page ")[1].split(".")[0] if "Text of page " in c.text else None
        if first:
            assert c.page == int(first)
    assert {c.page for c in chunks} == {1, 2, 3, 4, 5}


def test_fast_token_counts_equal_the_tokenizer(tokenizer: object, data_root: Path) -> None:
    from assistant.documents.tokens import _is_uncased_wordpiece, token_lengths
    from assistant.eval.hotpot import build_haystack

    assert _is_uncased_wordpiece(tokenizer)  # the bundled MiniLM takes the fast path
    text = build_haystack(data_root).document.text[:400_000]
    text += " Ünïcode façade — “quoted” \x01control\x7f 5€ ﬁne İstanbul 東京 " + "x" * 150 + " a_b-c"
    sentences = [text[s:e] for s, e in sentence_spans(text)]
    want = [len(x) for x in tokenizer(sentences, add_special_tokens=False)["input_ids"]]  # type: ignore[operator]
    assert token_lengths(tokenizer, sentences) == want
