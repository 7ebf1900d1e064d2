"""Evidence selection (docs/design.md §7): each chunk read is cut to the sentences that bear on the question."""

from __future__ import annotations

from assistant.records import Chunk
from assistant.ttrag import evidence


def words(text: str) -> int:
    return len(text.split())


CLAUSE = ("### 9.2 Liquidated Damages\n"
          "The Supplier shall keep the Buyer informed of the progress of any recovery plan. "
          "Personnel involved in deliveries shall be appropriately qualified and trained. "
          "If the Supplier fails to deliver by the agreed Delivery Date, the Buyer is entitled to liquidated "
          "damages of 0.5% of the order value per calendar day of delay. "
          "The obligations in this Section apply equally to any Affiliate or subcontractor. "
          "Meetings to discuss delivery dates may be requested at any time.")


def test_shares_give_what_a_short_chunk_leaves_to_the_others() -> None:
    assert evidence._shares([50, 200, 200], 300) == [50, 125, 125]
    assert evidence._shares([40, 60, 80], 300) == [40, 60, 80]  # all fit: every chunk whole
    assert evidence._shares([400, 400, 400], 300) == [100, 100, 100]


def test_the_sentence_that_answers_is_kept_and_the_rest_cut(embedder: object) -> None:
    chunk = Chunk(7, CLAUSE, "contract.md", 100, 100 + len(CLAUSE), page=3, heading="Article 9 - Late Delivery")
    other = Chunk(8, "The Buyer's address is Keizersgracht 1, Amsterdam.", "contract.md", 900, 950)
    q = "What liquidated damages is the Buyer entitled to for late delivery?"
    shown = evidence.select(q, [chunk, other], embedder, budget=60, count_tokens=words)
    cut, whole = shown
    assert "0.5% of the order value per calendar day" in cut.text
    assert cut.text.startswith("### 9.2 Liquidated Damages")  # a heading line inside the chunk stays
    assert "Meetings to discuss" not in cut.text and evidence.GAP.strip() in cut.text
    assert words(cut.text) < words(CLAUSE)
    assert (cut.id, cut.source, cut.start, cut.page, cut.heading) == (7, "contract.md", 100, 3, chunk.heading)
    assert whole == other  # within its share: untouched


def test_no_budget_or_enough_budget_keeps_every_chunk_whole(embedder: object) -> None:
    chunk = Chunk(1, CLAUSE, "c.md", 0, len(CLAUSE))
    assert evidence.select("late delivery damages?", [chunk], embedder, budget=0, count_tokens=words) == [chunk]
    assert evidence.select("late delivery damages?", [chunk], embedder, budget=500, count_tokens=words) == [chunk]


def test_the_best_sentence_stays_even_past_a_tiny_budget() -> None:
    chunk = Chunk(1, CLAUSE, "c.md", 0, len(CLAUSE))
    (cut,) = evidence.select("What liquidated damages per calendar day of delay?", [chunk], None, budget=5,
                             count_tokens=words)
    assert "0.5% of the order value per calendar day of delay" in cut.text  # scored by its words alone
    assert "recovery plan" not in cut.text


def test_the_reader_reads_the_cut_chunks_and_the_sources_point_at_the_whole_ones(tokenizer: object,
                                                                                    embedder: object,
                                                                                    encoder: object) -> None:
    import json

    from conftest import ScriptedGenerator

    from assistant.config import PipelineOptions
    from assistant.records import Document, Segment
    from assistant.ttrag.context import build_context
    from assistant.ttrag.pipeline import Models, ask

    filler = [f"Warehouse {i} in the town of Place{i} stores {i * 3} crates of tin." for i in range(12)]
    text = " ".join(filler[:6] + ["Ingrid Holm, the lighthouse keeper, was born in the village of Ostervik."]
                    + filler[6:])
    ctx = build_context([Document("facts.txt", text, (Segment(text, page=1),), (0,))], tokenizer)
    assert len(ctx.chunks) == 1  # one ~200-token chunk holds every sentence

    def script(r: object) -> str:
        return json.dumps({"found": True, "passage": 1, "short_answer": "Ostervik",
                           "answer": "Ingrid Holm was born in Ostervik."})

    gen = ScriptedGenerator(script)  # type: ignore[arg-type]
    question = "Where was the lighthouse keeper Ingrid Holm born?"
    answer = ask(ctx, question, Models(gen, embedder, encoder),  # type: ignore[arg-type]
                 PipelineOptions(router=False, evidence_tokens=30))
    read = gen.requests[0].user
    assert "born in the village of Ostervik" in read and evidence.GAP.strip() in read
    assert read.count("crates of tin") < len(filler)  # the reader was spared most of the filler
    assert answer.found and answer.short_answer == "Ostervik"
    assert answer.sources[0].end - answer.sources[0].start == len(text)  # the source is the whole chunk
    assert any(t["stage"] == "evidence" for t in answer.trace) or "evidence" in answer.timings
