"""Chunking: token budget measured with the encoder's tokenizer, sentence cuts, offsets, pages."""

from __future__ import annotations

from pathlib import Path

from assistant.documents import extract
from assistant.documents.chunk import chunk_document, sentence_spans, whole_sentence_spans


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


def test_a_chunk_carries_its_section_heading_into_retrieval(tmp_path: Path, tokenizer: object) -> None:
    # a paragraph deep in a section does not say what the section is about: its heading does
    filler = " ".join(f"The Parties shall cooperate on item {i} in good faith." for i in range(12))
    path = tmp_path / "contract.md"
    path.write_text(f"# Agreement\n\n## Article 7 - Payment\n\n### 7.3 **Late Payment** Interest\n\n"
                    f"{filler}\n\n{filler}\n\n"
                    "Overdue amounts bear interest at 3.25 percentage points above the main refinancing rate of the "
                    "European Central Bank, from the due date until the amount is settled.\n\n"
                    "## 8. Delivery\n\nGoods ship.\n")
    doc = extract(path)
    chunks = chunk_document(doc, tokenizer, chunk_tokens=120)
    first, *rest = [c for c in chunks if c.start < doc.text.index("## 8.")]
    assert "### 7.3" in first.text and first.heading == ""  # the headings join the first paragraph
    # the section's path: its own title under the enclosing part's, the document's title left out
    assert rest and all(c.heading == "Article 7 - Payment > 7.3 Late Payment Interest" for c in rest)
    late = next(c for c in rest if "Overdue" in c.text)
    assert late.indexed_text == late.heading + "\n" + late.text and late.text == doc.text[late.start:late.end]
    assert chunks[-1].text.startswith("## 8.") and chunks[-1].heading == ""  # starts with its own, at level 2

    from assistant.ttrag.context import build_context
    from assistant.ttrag.lexical import Bm25Index
    from assistant.ttrag.prefilter import bm25_search
    ctx = build_context([doc], tokenizer, chunk_tokens=120)
    query = "late payment"  # the clause's words are "overdue" and "interest": only its heading says this
    assert late.id in [i for i, _ in bm25_search(ctx, query, 10)]
    assert late.id not in [i for i, _ in Bm25Index([c.text for c in ctx.chunks]).search(query, 10)]


def test_a_heading_starts_a_chunk_and_never_ends_one(tmp_path: Path, tokenizer: object) -> None:
    # a letter's short sign-off used to take the next letter's title at its end
    letter = ("Dear Ms Halloran,\n\nSix order lines were delivered late in November.\n\nYours sincerely,\n\n"
              "Birte Crombie\n\n")
    path = tmp_path / "letters.md"
    path.write_text(f"## Schedule 8 - Correspondence\n\n### S8.1 Letter - Late deliveries\n\n{letter}"
                    f"### S8.2 Letter - Price review\n\n{letter}")
    doc = extract(path)
    chunks = chunk_document(doc, tokenizer, chunk_tokens=200)
    for c in chunks:  # headings open a chunk (nested titles together) and never follow its text
        body = c.text.split("\n\n")
        assert all(not part.startswith("#") for part in body[[p.startswith("#") for p in body].index(False):])
    second = next(c for c in chunks if c.text.startswith("### S8.2"))
    assert second.heading == "Schedule 8 - Correspondence"
    assert chunks[0].text.startswith("## Schedule 8") and "### S8.1" in chunks[0].text  # nested titles stay together


def test_a_short_chunk_does_not_win_on_its_section_title_alone(tmp_path: Path, tokenizer: object) -> None:
    # the sample contract's fault: a letter's sign-off, under the title "Late deliveries", outranked the
    # late-delivery clause for "What do we owe you if a delivery is late?" when the path was part of the text
    letter = " ".join(f"Order line {i} was discussed at the review meeting of the quality team." for i in range(14))
    clause = ("If a delivery is late, the Supplier shall pay liquidated damages of 0.5% of the order value for "
              "each week of delay. ") + " ".join(f"The Buyer may review item {i} on request." for i in range(10))
    path = tmp_path / "contract.md"
    path.write_text("# Agreement\n\n## Article 9 - Late Delivery and Liquidated Damages\n\n"
                    "### 9.2 Liquidated Damages\n\nIntro to the remedies.\n\n"
                    f"{clause}\n\n"
                    "## Schedule 8 - Correspondence\n\n### S8.1 Letter - Late deliveries in November\n\n"
                    f"{letter}\n\nPlease contact me with any questions.\n\nYours sincerely,\n\nBirte Crombie\n")
    doc = extract(path)

    from assistant.ttrag.context import build_context
    from assistant.ttrag.lexical import Bm25Index
    from assistant.ttrag.prefilter import bm25_search
    ctx = build_context([doc], tokenizer, chunk_tokens=120)
    sign_off = next(c for c in ctx.chunks if "Yours sincerely" in c.text)
    assert "Late deliveries" in sign_off.heading and "Order line" not in sign_off.text  # a chunk of its own
    damages = next(c for c in ctx.chunks if "liquidated damages of 0.5%" in c.text)
    query = "What exactly do we owe you if a delivery is late?"
    ranked = [i for i, _ in bm25_search(ctx, query, len(ctx.chunks))]
    assert ranked.index(damages.id) < ranked.index(sign_off.id)
    together = Bm25Index([c.indexed_text for c in ctx.chunks])  # the path inside the text, as before
    ranked = [i for i, _ in together.search(query, len(ctx.chunks))]
    assert ranked.index(sign_off.id) < ranked.index(damages.id)


def test_whole_sentences_do_not_end_at_an_abbreviation_or_an_initial() -> None:
    # A report's summary quoted "113-2 ), tribes are equivalent to states ...": the sentence had been cut after
    # "P.L."; on the 13 government reports, 524 of 3,125 sentence ends were such stops ("U.S.", "W.", "H.R.").
    text = ("Under the Sandy Recovery Improvement Act of 2013 (SRIA, Division B of P.L. 113-2 ), tribes are "
            "equivalent to states. It was signed by George H. W. Bush in the U.S. capital. See Exhibit A. Done.")
    assert [text[s:e] for s, e in whole_sentence_spans(text)] == [
        "Under the Sandy Recovery Improvement Act of 2013 (SRIA, Division B of P.L. 113-2 ), tribes are "
        "equivalent to states.", "It was signed by George H. W. Bush in the U.S. capital.", "See Exhibit A.", "Done."]
    assert len(sentence_spans(text)) == 8  # the plain split, which chunking keeps
