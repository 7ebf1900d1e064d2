"""The rewrite loop's stop rule and fallback, routing fallbacks and streaming, with a scripted generator."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from conftest import ScriptedGenerator

from assistant.config import PipelineOptions
from assistant.errors import Cancelled
from assistant.models.base import GenerationRequest
from assistant.records import Document, Retract, Segment, TokenText, TraceStep
from assistant.ttrag.context import Context, build_context
from assistant.ttrag.pipeline import NOT_FOUND_TEXT, Models, ask

FACTS = [f"Warehouse {i} in the town of Place{i} stores {i * 3} crates of tin." for i in range(60)]
FACTS[41] = "The lighthouse keeper of Skarvik is Ingrid Holm, who took the post in 1911."
FACTS[17] = "Ingrid Holm's birthplace was the village of Ostervik on the northern coast."
QUESTION = "Where was the lighthouse keeper of Skarvik born?"


@pytest.fixture(scope="module")
def ctx(tokenizer: object) -> Context:
    text = "\n".join(FACTS)
    doc = Document("facts.txt", text, (Segment(text, page=1),), (0,))
    return build_context([doc], tokenizer, chunk_tokens=30)


def run(ctx: Context, script: object, embedder: object, encoder: object, **opts: object) -> tuple:
    gen = ScriptedGenerator(script)  # type: ignore[arg-type]
    events: list[object] = []
    options = PipelineOptions(**{"router": False, **opts})  # type: ignore[arg-type]
    answer = ask(ctx, QUESTION, Models(gen, embedder, encoder), options, emit=events.append)  # type: ignore[arg-type]
    return answer, gen, events


def reply(short: str, sentence: str = "", passage: int = 1) -> str:
    """The reader's JSON reply (the schema of :func:`assistant.ttrag.generate.answer_schema`)."""
    return json.dumps({"found": True, "passage": passage, "short_answer": short,
                       "answer": sentence or f"The answer is {short}."})


NONE = json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})


def streamed(events: list[object]) -> str:
    return "".join(e.text for e in events if isinstance(e, TokenText))


def test_found_at_once_no_rewrite(ctx: Context, embedder: object, encoder: object) -> None:
    def script(r: GenerationRequest) -> str:
        n = next(i for i, line in enumerate(r.user.split("\n[")[1:], 1) if "Ostervik" in line)
        return reply("Ostervik", "Ingrid Holm was born in Ostervik.", n)

    answer, gen, events = run(ctx, script, embedder, encoder)
    cited = answer.supported_by[0]
    assert answer.found and answer.short_answer == "Ostervik" and answer.rewrites == ()
    assert answer.text == f"Ingrid Holm was born in Ostervik. [{cited}]"
    assert [r.purpose for r in gen.requests] == ["answer"]
    assert gen.requests[0].json_schema is not None  # the reader is constrained to its JSON schema
    assert streamed(events) == answer.text  # the sentence streams, then its marker
    assert len(answer.sources) == 3 and "Ostervik" in answer.sources[cited - 1].snippet


def test_a_yes_cites_the_sentence_that_states_it_not_the_passage_opening(tokenizer: object, embedder: object,
                                                                         encoder: object) -> None:
    text = ("The crates of tin are counted every spring by the harbour office. Ingrid Holm's birthplace was the "
            "village of Ostervik on the northern coast.")
    ctx = build_context([Document("holm.txt", text, (Segment(text, page=1),), (0,))], tokenizer)
    gen = ScriptedGenerator(lambda r: reply("yes", "Yes, Ingrid Holm was born in Ostervik."))
    answer = ask(ctx, "Was Ingrid Holm born in Ostervik?", Models(gen, embedder, encoder),  # type: ignore[arg-type]
                 PipelineOptions(router=False))
    assert answer.found and answer.short_answer == "yes"
    assert answer.sources[0].snippet.startswith("Ingrid Holm's birthplace"), answer.sources


def test_never_found_spends_max_rewrites_then_falls_back(ctx: Context, embedder: object,
                                                          encoder: object) -> None:
    counter = iter(range(100))

    def script(r: GenerationRequest) -> str:
        return f"query variant {next(counter)}" if r.purpose == "rewrite" else NONE

    answer, gen, events = run(ctx, script, embedder, encoder, max_rewrites=3, fallback_top_k=10)
    purposes = [r.purpose for r in gen.requests]
    assert purposes[0] == "answer" and purposes[-1] == "answer_fallback"
    assert purposes.count("rewrite") == 3 and len(answer.rewrites) == 3
    # a passage set already read is not read again (the reply at temperature 0 would not change)
    answer_prompts = [r.user for r in gen.requests if r.purpose == "answer"]
    assert 1 <= len(answer_prompts) <= 4 and len(set(answer_prompts)) == len(answer_prompts)
    skipped = [t for t in answer.trace if t["stage"] == "answer" and "same passages" in str(t["reply"])]
    assert len(answer_prompts) + len(skipped) == 4
    assert not answer.found and answer.text == NOT_FOUND_TEXT
    # the NOT FOUND attempts never reach the user; only the final explanation does
    assert streamed(events) == NOT_FOUND_TEXT
    # the fallback reads the top 10 of the original query's pre-filter
    assert gen.requests[-1].user.count("\n[") == 10
    # every answer call asks the ORIGINAL question, whatever the rewrite was
    for r in gen.requests:
        if r.purpose.startswith("answer"):
            assert r.user.endswith(f"Question: {QUESTION}")


def test_found_after_rewrite_uses_original_question(ctx: Context, embedder: object, encoder: object) -> None:
    def script(r: GenerationRequest) -> str:
        if r.purpose == "rewrite":
            return "Ingrid Holm birthplace village"
        return reply("Ostervik") if "Ostervik" in r.user else NONE

    answer, gen, _ = run(ctx, script, embedder, encoder, ce_top_k=1, max_rewrites=3)
    assert answer.found and answer.short_answer == "Ostervik" and answer.text.endswith("[1]")
    assert answer.rewrites == ("Ingrid Holm birthplace village",)
    assert any("Ostervik" in s.snippet for s in answer.sources)
    assert gen.requests[-1].user.endswith(f"Question: {QUESTION}")


def test_repeated_rewrite_stops_the_loop(ctx: Context, embedder: object, encoder: object) -> None:
    answer, gen, events = run(ctx, lambda r: QUESTION.upper() if r.purpose == "rewrite" else NONE,
                              embedder, encoder, max_rewrites=3, fallback_top_k=10)
    assert [r.purpose for r in gen.requests] == ["answer", "rewrite", "answer_fallback"]
    assert answer.rewrites == ()
    # no "Attempt 2 of 4: searching again with ..." for a search that does not happen (a newcomer saw one)
    notes = [e.detail for e in events if isinstance(e, TraceStep) and e.stage == "rewrite"]
    assert notes and not any("attempt" in d for d in notes)


def test_zero_rewrites_goes_straight_to_fallback(ctx: Context, embedder: object, encoder: object) -> None:
    _, gen, _ = run(ctx, lambda r: NONE, embedder, encoder, max_rewrites=0, fallback_top_k=10)
    assert [r.purpose for r in gen.requests] == ["answer", "answer_fallback"]


def test_no_fallback_read_by_default(ctx: Context, embedder: object, encoder: object) -> None:
    answer, gen, events = run(ctx, lambda r: NONE, embedder, encoder, max_rewrites=0)
    assert [r.purpose for r in gen.requests] == ["answer"]
    assert not answer.found and streamed(events) == NOT_FOUND_TEXT
    assert not any(t["stage"] == "fallback" for t in answer.trace) and len(answer.sources) == 3


@pytest.mark.parametrize("raw", ["", "{not json", '{"route": "poetry", "target": ""}',
                                 '{"route": "needle_lookup", "target": ""}', '["counting"]'])
def test_router_falls_back_on_malformed_output(ctx: Context, embedder: object, encoder: object,
                                               raw: str) -> None:
    gen = ScriptedGenerator(lambda r: raw if r.purpose == "route" else reply("Ostervik"))
    answer = ask(ctx, "Give an overview: " + QUESTION, Models(gen, embedder, encoder))
    assert answer.route == "question_answering" and answer.short_answer == "Ostervik"
    assert answer.trace[0]["fallback"] is True
    assert gen.requests[0].json_schema is not None  # the router call is constrained


def test_counting_route_counts_exactly(ctx: Context, embedder: object, encoder: object) -> None:
    gen = ScriptedGenerator(lambda r: json.dumps({"route": "counting", "target": "crates of tin"}))
    answer = ask(ctx, "How many times are crates of tin mentioned?", Models(gen, embedder, encoder))
    assert answer.route == "counting"
    assert "58 times" in answer.text  # 60 warehouses minus the two replaced lines
    assert [r.purpose for r in gen.requests] == ["route"]


def test_needle_route_reads_the_chunks_that_hold_the_key(ctx: Context, embedder: object, encoder: object) -> None:
    def script(r: GenerationRequest) -> str:
        if r.purpose == "route":
            return json.dumps({"route": "needle_lookup", "target": "Place33"})
        return reply("99 crates") if "Place33 stores 99 crates" in r.user else NONE

    gen = ScriptedGenerator(script)
    answer = ask(ctx, "How many crates does Place33 store?", Models(gen, embedder, encoder))
    assert answer.route == "needle_lookup" and answer.short_answer == "99 crates"
    assert [r.purpose for r in gen.requests] == ["route", "answer"]  # no pre-filter, no rewrite
    assert "Place33" in ctx.chunks[answer.sources[0].chunk_id].text


def test_needle_without_match_falls_back_to_qa(ctx: Context, embedder: object, encoder: object) -> None:
    gen = ScriptedGenerator(lambda r: json.dumps({"route": "needle_lookup", "target": "ZZ-404"})
                            if r.purpose == "route" else reply("Ostervik"))
    answer = ask(ctx, "Where was the keeper with badge ZZ-404 born?", Models(gen, embedder, encoder))
    assert answer.route == "question_answering"
    assert [r.purpose for r in gen.requests][:2] == ["route", "answer"]


def test_cancel_stops_before_the_next_stage(ctx: Context, embedder: object, encoder: object) -> None:
    cancel = threading.Event()
    cancel.set()
    gen = ScriptedGenerator(lambda r: reply("Ostervik"))
    with pytest.raises(Cancelled):
        ask(ctx, QUESTION, Models(gen, embedder, encoder), cancel=cancel)
    assert gen.requests == []


@pytest.mark.parametrize(("raw", "route"), [
    ('{"route": "needle_lookup", "target": "127 Hours"}', "question_answering"),
    ('{"route": "needle_lookup", "target": "712 Fifth Avenue"}', "question_answering"),
    ('{"route": "needle_lookup", "target": "review meeting"}', "question_answering"),
    ('{"route": "needle_lookup", "target": "ESC-4471-QZ"}', "needle_lookup"),
    ('{"route": "counting", "target": "Hours"}', "question_answering"),
    ('{"route": "summarization", "target": ""}', "question_answering"),
])
def test_router_guards(raw: str, route: str) -> None:
    from assistant.ttrag.router import parse_decision

    question = 'Which film with "127 Hours" star at 712 Fifth Avenue had the review meeting about ESC-4471-QZ?'
    assert parse_decision(raw, question).route == route


def test_new_embedder_drops_cached_vectors(ctx: Context, tokenizer: object) -> None:
    """A session re-bound to other settings keeps its chunks, but not vectors of another embedding model."""
    import dataclasses

    from assistant.config import ModelSettings, Settings
    from assistant.service import ModelStore, Session

    session = Session.__new__(Session)
    session.store, session.context, session.build_seconds = ModelStore(Settings()), ctx, 0.0
    same = session.with_store(ModelStore(Settings(pipeline=dataclasses.replace(PipelineOptions(), max_rewrites=1))))
    other = session.with_store(ModelStore(Settings(models=ModelSettings(embedder_dir="/elsewhere"))))
    assert same is not None and same.context is ctx
    assert other is not None and other.context.chunks is ctx.chunks and other.context.embeddings == {}


def citing(text: str, answer: str, rewrite: str) -> Any:
    """A scripted reader: ``answer`` (a :func:`reply`) citing the first passage read that holds ``text``, "not
    found" when none does; ``rewrite`` for a rewrite."""
    def script(r: GenerationRequest) -> str:
        if r.purpose == "rewrite":
            return rewrite
        n = next((i for i, b in enumerate(r.user.split("\n[")[1:], 1) if text in b), 0)
        return json.dumps({**json.loads(answer), "passage": n}) if n else NONE
    return script


CLAUSES = [f"Clause {i}. Each of the parties to this agreement shall keep the records of shipment {i} for the other "
           f"parties for {i + 2} years." for i in range(1, 40)]
PREAMBLE = ('SUPPLY AGREEMENT\n\nThis Supply Agreement is made on 3 March 2025 between Norhaven Ltd (the "Buyer") '
            'and Calder GmbH (the "Supplier").')


def test_a_question_for_the_parties_reads_the_contracts_opening(tokenizer: object, embedder: object,
                                                                encoder: object) -> None:
    text = "\n".join([PREAMBLE, *CLAUSES])
    ctx = build_context([Document("supply.txt", text, (Segment(text, page=1),), (0,))], tokenizer, chunk_tokens=40)

    script = citing("Norhaven", reply("Norhaven Ltd and Calder GmbH", "The parties are Norhaven Ltd and Calder GmbH.",
                                      0), "the parties who keep records of shipments")

    def asked(question: str, **opts: object) -> tuple[Any, list[str]]:
        gen = ScriptedGenerator(script)
        answer = ask(ctx, question, Models(gen, embedder, encoder),  # type: ignore[arg-type]
                     PipelineOptions(**{"router": False, "opening_chars": 700, "exact_parties": False,  # the read
                                        **opts}))  # type: ignore[arg-type]
        return answer, [r.user for r in gen.requests if r.purpose == "answer"]

    # the preamble shares few words with the question: the three passages ranked best are clauses that say
    # "parties"; the question asks what a contract's opening states, so its first read has the opening too
    answer, reads = asked("Who are the parties to this agreement?")
    assert len(reads) == 1 and reads[0].count("\n[") == 4, reads
    assert answer.found and answer.text == "The parties are Norhaven Ltd and Calder GmbH. [4]"
    assert len(answer.sources) == 4 and answer.sources[3].snippet.startswith("This Supply Agreement is made on")
    assert answer.sources[3].start < text.index("Norhaven") and all("shipment" in s.snippet for s in answer.sources[:3])
    # a question for a clause is read from the passages ranked best alone, in every read
    answer, reads = asked("How long must each party keep the shipment records?")
    assert reads and all(r.count("\n[") == 3 and "Norhaven" not in r for r in reads), reads
    # opening_chars 0: the opening is never read
    answer, reads = asked("Who are the parties to this agreement?", opening_chars=0)
    assert not answer.found and not any("Norhaven" in r for r in reads)


def test_a_parties_reply_by_defined_terms_states_the_names_the_preamble_gives(tokenizer: object, embedder: object,
                                                                           encoder: object) -> None:
    text = "\n".join([PREAMBLE, *CLAUSES])
    ctx = build_context([Document("supply.txt", text, (Segment(text, page=1),), (0,))], tokenizer, chunk_tokens=40)
    by_terms = reply("Buyer and Supplier", "The Buyer and the Supplier are the parties.", 4)

    def asked(question: str, **opts: object) -> tuple[Any, str]:
        shown = ""

        def on_event(event: object) -> None:  # what a person sees: the streamed text, less what was withdrawn
            nonlocal shown
            if isinstance(event, TokenText):
                shown += event.text
            elif isinstance(event, Retract):
                assert shown.endswith(event.text)
                shown = shown[:len(shown) - len(event.text)]

        answer = ask(ctx, question, Models(ScriptedGenerator(lambda r: by_terms), embedder, encoder),  # type: ignore[arg-type]
                     PipelineOptions(**{"router": False, "opening_chars": 700, "exact_parties": False,
                                        **opts}),  # type: ignore[arg-type]
                     emit=on_event)
        return answer, shown

    answer, shown = asked("Which companies is this contract between?")
    assert answer.found and answer.text == shown
    assert answer.text.startswith('Norhaven Ltd ("Buyer") and Calder GmbH ("Supplier") are the parties. [')
    assert answer.short_answer == 'Norhaven Ltd ("Buyer") and Calder GmbH ("Supplier")'
    # the rule off: the terms as the reader wrote them
    answer, shown = asked("Which companies is this contract between?", answer_rules_off=("party_names",))
    assert answer.text == shown and answer.text.startswith("The Buyer and the Supplier are the parties. [")
    # a question not for the parties keeps its reply as written
    answer, _ = asked("How long must each party keep the shipment records?")
    assert "Norhaven" not in answer.text


def test_a_question_for_the_parties_is_answered_from_the_contracts_text(tokenizer: object, embedder: object,
                                                                        encoder: object) -> None:
    """Routed to a contract's parties, a question is answered with the parties its text names, as its summary
    states them, cited, and no model read; a question naming someone the contract holds who is no party is
    read as before."""
    text = "\n".join([PREAMBLE, "Clause 0. The Supplier ships through Oskar Freight.", *CLAUSES])
    ctx = build_context([Document("supply.txt", text, (Segment(text, page=1),), (0,))], tokenizer, chunk_tokens=40)
    gen = ScriptedGenerator(lambda r: reply("Oskar", "The parties are Oskar and Calder.", 1))
    models = Models(gen, embedder, encoder)  # type: ignore[arg-type]
    answer = ask(ctx, "Who are the parties to this agreement?", models, PipelineOptions(router=False))
    assert answer.found and answer.text == 'Norhaven Ltd (the "Buyer") and Calder GmbH (the "Supplier").'
    assert not gen.requests and answer.sources[0].snippet.startswith("This Supply Agreement is made on")
    assert any(s.get("stage") == "exact_parties" for s in answer.trace)
    # the question names Oskar, whom the contract holds and who is no party: the reader reads
    named = ask(ctx, "Who are the parties to the agreement with Oskar?", models, PipelineOptions(router=False))
    assert gen.requests and any(s.get("stage") == "exact_parties" and s.get("skipped") for s in named.trace)
    # off: the reader reads
    gen.requests.clear()
    ask(ctx, "Who are the parties to this agreement?", models, PipelineOptions(router=False, exact_parties=False))
    assert gen.requests


def test_a_question_for_a_contracts_term_is_searched_with_the_term_clauses_wording(tokenizer: object,
                                                                                  embedder: object,
                                                                                  encoder: object) -> None:
    """"When does this contract run out?" shares no word with "shall continue in full force and effect for a
    period of five (5) years": routed to the contract's Term, it is searched as the summary's Term point is, with
    the clause as contracts word it, and the reader reads that clause; the reader still reads the question."""
    term = "Clause 40. This Agreement shall continue in full force and effect for a period of five (5) years."
    lasts = [f"Clause {40 + i}. When this contract's stock of part {i} runs out, the Supplier ships more within "
             f"{i + 1} days, and when the stock of its spare parts runs out too." for i in range(1, 12)]
    text = "\n".join([PREAMBLE, *CLAUSES[:20], term, *lasts])
    ctx = build_context([Document("supply.txt", text, (Segment(text, page=1),), (0,))], tokenizer, chunk_tokens=40)

    script = citing("five (5) years", reply("5 years", "This Agreement runs out 5 years after it starts.", 0),
                    "how long the agreement lasts")

    def asked(**opts: object) -> tuple[Any, list[str], list[str]]:
        gen = ScriptedGenerator(script)
        answer = ask(ctx, "When does this contract run out?", Models(gen, embedder, encoder),  # type: ignore[arg-type]
                     PipelineOptions(**{"router": False, "max_rewrites": 0, "fallback_top_k": 0,
                                        **opts}))  # type: ignore[arg-type]
        return answer, [r.user for r in gen.requests if r.purpose == "answer"], \
            [r.user for r in gen.requests]

    answer, reads, _ = asked()
    assert answer.found and answer.text.startswith("This Agreement runs out 5 years after it starts."), answer.text
    assert "When does this contract run out?" in reads[0]
    assert any(s.get("stage") == "point_search" and s.get("point") == "Term" for s in answer.trace)
    # off: searched with the question, the passages about stock that runs out are read instead
    answer, reads, _ = asked(point_search=False)
    assert not answer.found and reads and not any("five (5) years" in r for r in reads)


def _contract(name: str, supplier: str, distributor: str, law: str, title: str = "DISTRIBUTION AGREEMENT") -> Document:
    text = (f"{title}\n\nThis Distribution Agreement (the \"Agreement\") is made on March 1, 2020 between "
            f"{supplier} (\"Supplier\") and {distributor} (\"Distributor\").\n\nWHEREAS the Supplier makes pumps;\n\n"
            "1. Appointment. The Supplier appoints the Distributor as its distributor of pumps in the Territory.\n\n"
            "2. Term. This Agreement shall commence on the Effective Date and continue for three (3) years.\n\n"
            "3. Payment. The Distributor shall pay each invoice within thirty (30) days.\n\n"
            + (f"4. Governing Law. This Agreement shall be governed by the laws of the State of {law}.\n\n"
               if law else "")
            + "5. Notices. Notices shall be in writing and delivered by hand or courier.\n")
    return Document(name, text, (Segment(text, page=1),), (0,))


def _law_reader(request: GenerationRequest) -> str:
    """The reader: the state whose law a passage names, else not found."""
    if request.purpose == "rewrite":
        return json.dumps({"query": "law governing the agreement"})
    for n, passage in enumerate(request.user.split("\n[")[1:], 1):
        for state in ("Texas", "California"):
            if f"State of {state}" in passage:
                return reply(state, f"This Agreement is governed by the laws of the State of {state}.", n)
    return NONE


def test_with_two_contracts_open_a_question_is_answered_for_each(tokenizer: object, embedder: object,
                                                                  encoder: object) -> None:
    # A newcomer with two contracts open asked "what law applies?" and got California alone, not saying whose.
    docs = [_contract("etelos.txt", "Acme Pumps, Inc.", "Beta Trading LLC", "Texas"),
            _contract("virtuoso.txt", "Gamma Medical Corp.", "Delta Surgical Ltd.", "California"),
            _contract("third.txt", "Epsilon Tools Inc.", "Zeta Supply Co.", "")]
    ctx = build_context(docs, tokenizer, chunk_tokens=40)
    events: list[object] = []
    answer = ask(ctx, "What law applies?", Models(ScriptedGenerator(_law_reader), embedder, encoder),  # type: ignore[arg-type]
                 PipelineOptions(router=False), emit=events.append)
    blocks = answer.text.split("\n\n")
    assert len(blocks) == 3 and [b.split("\n")[0].split(" (")[1] for b in blocks] == \
        ["etelos.txt):", "virtuoso.txt):", "third.txt):"], answer.text
    assert blocks[0].endswith("State of Texas. [1]") and blocks[2].endswith(NOT_FOUND_TEXT)
    texas = answer.sources[0]
    assert texas.source == "etelos.txt" and "Texas" in texas.snippet
    marker = int(blocks[1].rsplit("[", 1)[1].rstrip("]"))
    california = answer.sources[marker - 1]
    assert marker > 1 and california.source == "virtuoso.txt" and "California" in california.snippet
    assert answer.found and answer.short_answer == "Texas; California" and streamed(events) == answer.text
    # the parties each contract names (no read): found, each cited where it names them (a newcomer saw them
    # under each title and "not found in the documents" beside them)
    answer = ask(ctx, "Who are the parties to this agreement?", Models(ScriptedGenerator(_law_reader), embedder,
                 encoder), PipelineOptions(router=False))  # type: ignore[arg-type]
    blocks = answer.text.split("\n\n")
    assert answer.found and len(blocks) == 3 and "Acme Pumps, Inc." in blocks[0] and "Gamma Medical" in blocks[1]
    assert all(b.endswith("]") for b in blocks) and answer.supported_by
    assert {s.source for s in answer.sources} == {"etelos.txt", "virtuoso.txt", "third.txt"}
    # a question that names one contract's party is asked as before: one answer from all the passages
    answer = ask(ctx, "Which law governs the agreement with Gamma?", Models(ScriptedGenerator(_law_reader), embedder,
                 encoder), PipelineOptions(router=False))  # type: ignore[arg-type]
    assert answer.found and "\n" not in answer.text
    # each_contract off: one answer, as before
    answer = ask(ctx, "What law applies?", Models(ScriptedGenerator(_law_reader), embedder, encoder),  # type: ignore[arg-type]
                 PipelineOptions(router=False, each_contract=False))
    assert answer.found and "\n" not in answer.text
    # a contract and its amendment are read together, the later governing (assistant.ttrag.dated)
    amended = [docs[0], _contract("amendment.txt", "Acme Pumps, Inc.", "Beta Trading LLC", "California",
                                  title="AMENDMENT No. 1 TO THE DISTRIBUTION AGREEMENT OF 1 MARCH 2020")]
    answer = ask(build_context(amended, tokenizer, chunk_tokens=40), "What law applies?",
                 Models(ScriptedGenerator(_law_reader), embedder, encoder), PipelineOptions(router=False))  # type: ignore[arg-type]
    assert answer.found and "\n" not in answer.text


def test_an_answer_copied_from_the_middle_of_a_sentence_is_shown_whole(tokenizer: object, embedder: object,
                                                                        encoder: object) -> None:
    # The reader copied "of the Commonwealth of Virginia, without regard to any of its conflicts of laws" out of
    # a CUAD dev contract's governing-law sentence; a person read a fragment.
    doc = _contract("sponsorship.txt", "Acme Pumps, Inc.", "Beta Trading LLC", "Texas")
    ctx = build_context([doc], tokenizer, chunk_tokens=40)

    def reader(request: GenerationRequest) -> str:
        n = next(i for i, p in enumerate(request.user.split("\n[")[1:], 1) if "State of Texas" in p)
        return reply("Texas", "governed by the laws of the State of Texas", n)

    events: list[object] = []
    answer = ask(ctx, "Which law governs this agreement?", Models(ScriptedGenerator(reader), embedder, encoder),  # type: ignore[arg-type]
                 PipelineOptions(router=False), emit=events.append)
    assert answer.found
    # the clause's whole sentence, read with its heading as the passage holds it
    assert answer.text == "4. Governing Law. This Agreement shall be governed by the laws of the State of Texas. [1]"
    shown = streamed(events)
    for e in events:
        if isinstance(e, Retract):
            shown = shown.replace(e.text, "", 1)
    assert shown == answer.text
