"""Every read fits the reader's window: long passages are left out (lowest-ranked first) or cut at a sentence,
the reply's tokens stay free, and the ask's trace says what was cut."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from conftest import ScriptedGenerator

from assistant.config import PipelineOptions
from assistant.errors import ModelError
from assistant.models.base import GenerationRequest
from assistant.records import Chunk, Document, Segment
from assistant.ttrag.context import build_context
from assistant.ttrag.generate import stream_answer
from assistant.ttrag.pipeline import Models, ask
from assistant.ttrag.prompts import SYSTEM, answer_prompt
from assistant.ttrag.window import CUT_MARK, TEMPLATE_TOKENS, cut_tail, fit_passages


def words(text: str) -> int:
    """A token counter for the unit tests: one token a word."""
    return len(text.split())


def prompt_for(chunks: Sequence[Chunk]) -> str:
    return "Passages:\n" + "\n".join(f"[{n}] {c.text}" for n, c in enumerate(chunks, 1)) + "\nQuestion: why?"


def passage(i: int, sentences: int, size: int = 10) -> Chunk:
    text = " ".join(f"Passage {i} sentence {k} says" + " word" * (size - 5) + "." for k in range(sentences))
    return Chunk(i, text, "contract.md", 0, len(text))


def test_a_prompt_within_the_budget_is_read_whole() -> None:
    chunks = [passage(i, 3) for i in range(4)]
    fit = fit_passages(chunks, prompt_for, count_tokens=words, window=1000, reserve=100, system="Be brief.")
    assert fit.chunks == chunks and not fit.cut
    assert fit.prompt_tokens == words(prompt_for(chunks)) <= fit.limit == 1000 - 100 - TEMPLATE_TOKENS - 2
    assert fit_passages(chunks, prompt_for, count_tokens=words, window=0, reserve=100).chunks == chunks


def test_the_lowest_ranked_passages_go_first_then_the_longest_loses_its_tail() -> None:
    chunks = [passage(0, 3), passage(1, 30), passage(2, 3), passage(3, 3), passage(4, 3)]  # 30, 300, 30, 30, 30
    fit = fit_passages(chunks, prompt_for, count_tokens=words, window=300, reserve=50, system="Be brief.",
                       min_passages=3)
    assert fit.dropped == (4, 3)  # the lowest-ranked first, down to min_passages
    assert fit.trimmed == (1,)  # then the longest one, not the best one
    assert [c.id for c in fit.chunks] == [0, 1, 2] and fit.chunks[0] == chunks[0] and fit.chunks[2] == chunks[2]
    cut = fit.chunks[1].text
    assert cut.endswith("." + CUT_MARK)  # at a sentence boundary, marked
    assert chunks[1].text.startswith(cut.removesuffix(CUT_MARK)) and len(cut) < len(chunks[1].text)
    assert fit.prompt_tokens == words(prompt_for(fit.chunks)) <= fit.limit
    assert fit.limit - fit.prompt_tokens < 10  # no more than a sentence cut beyond what was needed
    assert fit.trace() == {"prompt_tokens": fit.prompt_tokens, "limit": fit.limit, "dropped": [4, 3],
                           "trimmed": [1]}


def test_a_passage_without_sentence_breaks_is_cut_at_a_word_and_nothing_loops() -> None:
    one = Chunk(0, " ".join(f"w{k}" for k in range(500)), "table.csv", 0, 10)
    fit = fit_passages([one], prompt_for, count_tokens=words, window=200, reserve=20, system="")
    assert fit.trimmed == (0,) and fit.prompt_tokens <= fit.limit
    kept = fit.chunks[0].text.removesuffix(CUT_MARK).split()
    assert kept == [f"w{k}" for k in range(len(kept))]
    # a question longer than the window: the passages are cut to nothing and the call reports it
    fit = fit_passages([one], lambda cs: prompt_for(cs) + " why" * 300, count_tokens=words, window=200, reserve=20)
    assert fit.prompt_tokens > fit.limit and fit.chunks[0].text == CUT_MARK.strip()
    assert len(cut_tail("Short one. Then another sentence here.", 3, words)) < len("Short one.") + 1


class WindowedGenerator(ScriptedGenerator):
    """A reader with a 4,096-token window that refuses a longer prompt, as llama.cpp does (it counts
    4 characters a token, the base estimate, and so does the budgeting)."""

    @property
    def context_window(self) -> int:
        return 4096

    def stream(self, request: GenerationRequest):  # type: ignore[no-untyped-def]
        used = self.count_tokens(request.system) + self.count_tokens(request.user) + TEMPLATE_TOKENS
        if used + request.max_tokens > self.context_window:
            raise ModelError(f"the prompt does not fit the model's 4096-token context: Requested tokens ({used})")
        yield from super().stream(request)


CLAUSE = ("The Supplier shall deliver the Goods to the Buyer's warehouse in Tilbury within the period stated in the "
          "Purchase Order, packed for sea freight and marked with the order number. ")


def long_contract(n_chunks: int, tokenizer: object, *, chunk_tokens: int = 600):  # type: ignore[no-untyped-def]
    paragraphs = [f"## Clause {i}\n\n" + f"Clause {i}. " + CLAUSE * 14 for i in range(n_chunks)]
    paragraphs[4] += "The Buyer's invoice contact is Imogen Tallis. "
    text = "\n\n".join(paragraphs)
    return build_context([Document("contract.md", text, (Segment(text, page=1),), (0,))], tokenizer,
                         chunk_tokens=chunk_tokens)


def test_the_top_10_fallback_of_long_chunks_fits_and_the_trace_says_what_was_cut(tokenizer: object) -> None:
    ctx = long_contract(14, tokenizer)
    assert len(ctx.chunks) >= 10 and min(c.n_tokens for c in ctx.chunks[:10]) > 400
    gen = WindowedGenerator(lambda r: '{"found": false, "passage": 0, "short_answer": "", "answer": ""}')
    options = PipelineOptions(router=False, max_rewrites=0, ce_top_k=3, fallback_top_k=10)
    answer = ask(ctx, "Who signs for the Buyer's deliveries in Tilbury?", Models(gen, None, None), options)
    assert not answer.found
    fits = [step for step in answer.trace if step["stage"] == "fit"]
    assert fits and fits[-1]["window"] == 4096 and fits[-1]["dropped"]  # the fallback of 10 left some out
    assert fits[-1]["prompt_tokens"] <= fits[-1]["limit"]  # type: ignore[operator]
    fallback = gen.requests[-1]
    assert fallback.purpose == "answer_fallback" and "[3] (contract.md" in fallback.user
    assert gen.count_tokens(SYSTEM) + gen.count_tokens(fallback.user) + TEMPLATE_TOKENS + fallback.max_tokens <= 4096


def test_ten_passages_of_600_tokens_are_read_by_the_fast_model(fast_llm: object) -> None:
    count = fast_llm.count_tokens  # type: ignore[attr-defined]
    body = CLAUSE * 19
    chunks = [Chunk(i, f"Clause {i}. {body}" + ("The invoice contact is Imogen Tallis." if i == 4 else ""),
                    "contract.md", 0, 10) for i in range(10)]
    assert all(550 <= count(c.text) <= 700 for c in chunks)
    question = "Who is the invoice contact?"
    assert count(answer_prompt(question, chunks)) > 4096  # as given, the read would not fit
    shown: list[str] = []
    reading = stream_answer(fast_llm, question, chunks, max_tokens=64, on_text=shown.append,  # type: ignore[arg-type]
                            min_passages=3)
    assert reading.fit is not None and reading.fit.cut and reading.fit.dropped
    assert reading.fit.chunks[:3] == chunks[:3]
    used = fast_llm.usage[-1].prompt_tokens  # type: ignore[attr-defined]
    assert used + 64 <= 4096  # the reply's tokens stayed free
    assert used <= reading.fit.prompt_tokens + count(SYSTEM) + TEMPLATE_TOKENS


def test_without_a_known_window_nothing_is_cut() -> None:
    gen = ScriptedGenerator(lambda r: '{"found": false, "passage": 0, "short_answer": "", "answer": ""}')
    chunks = [passage(i, 300) for i in range(3)]
    reading = stream_answer(gen, "Why?", chunks, max_tokens=64, on_text=lambda s: None)
    assert reading.fit is not None and not reading.fit.cut and reading.fit.chunks == chunks


@pytest.mark.parametrize("target", [0, 1, 5, 17, 40])
def test_cut_tail_is_always_shorter(target: int) -> None:
    text = passage(0, 4).text
    cut = cut_tail(text, target, words)
    assert len(cut) < len(text) and text.startswith(cut)
