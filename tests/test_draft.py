"""Grounded draft replies: the email's requests listed, each answered by the pipeline, the reply written
from the answers only; mail bodies split so greetings and quoted history do not crowd the evidence."""

from __future__ import annotations

import json

import pytest
from conftest import ScriptedGenerator

from assistant.accounts import Account
from assistant.documents.mime.attachments import evidence_documents
from assistant.documents.mime.body import split_body
from assistant.documents.mime.parse import parse_message
from assistant.models.base import GenerationRequest, Generator
from assistant.records import Answer, Document, Segment, Source, TokenText
from assistant.ttrag.compute.draft import (
    DRAFT_REWRITES,
    clean_body,
    clean_opening,
    greeting,
    list_requests,
    write_draft,
)
from assistant.ttrag.compute.draft_followups import leans_on_previous, standalone_point
from assistant.ttrag.context import Context, build_context
from assistant.ttrag.pipeline import Models

AGREEMENT = [
    "Late delivery. If the Supplier fails to deliver by the agreed Delivery Date, the Buyer is entitled to "
    "liquidated damages of 0.5% of the order value per calendar day of delay.",
    "Cap. The total liquidated damages for late delivery under any single Purchase Order are capped at 7.5% "
    "of the order value.",
    "Initial term. This Agreement has an initial term of five (5) years from the Effective Date.",
] + [f"Schedule {i}. Packaging unit {i} holds {i * 4} cartons of sterile gloves." for i in range(40)]
EMAIL = ("From: Bob Miller <bob@buyer.example>\nSubject: Questions on the agreement\n\n"
         "Hi Alice,\n\nwhat exactly do we owe you if a delivery is late? How long is the initial term? "
         "And what colour is your logo?\n\nBest regards,\nBob")
REQUESTS = ["What is owed if a delivery is late?", "How long is the initial term of the agreement?",
            "What colour is the supplier's logo?"]


@pytest.fixture(scope="module")
def ctx(tokenizer: object) -> Context:
    text = "\n\n".join(AGREEMENT)
    return build_context([Document("agreement.txt", text, (Segment(text, page=1),), (0,))], tokenizer,
                         chunk_tokens=60)


def _answer(request: GenerationRequest) -> str:
    for marker, short, sentence, asked in (("0.5% of the order value", "0.5% of the order value per day",
                                            "Late delivery costs 0.5% of the order value per calendar day.", "late?"),
                                           ("five (5) years", "five (5) years", "The initial term is five (5) years.",
                                            "agreement?")):
        if marker in request.user and request.user.rstrip().endswith(asked):
            n = next(i for i, line in enumerate(request.user.split("\n[")[1:], 1) if marker in line)
            return json.dumps({"found": True, "passage": n, "short_answer": short, "answer": sentence})
    return json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})


def script(request: GenerationRequest) -> str:
    if request.purpose == "draft_requests":
        return json.dumps({"requests": REQUESTS + [REQUESTS[0].upper()]})
    if request.purpose == "draft" and "Answers that follow" in request.user:  # the opening paragraph
        return "Subject: Re: Questions\nHi Bob,\n\nHappy to help, and I will keep it short.\n\nBest regards,\nAlice"
    if request.purpose == "draft":
        return ("Subject: Re: Questions on the agreement\n\nHi Bob,\n\nLate delivery costs 0.5% of the order value "
                "per calendar day, and the initial term is five (5) years. The agreement does not say what "
                "colour our logo is.\n\nBest regards,")
    if request.purpose == "rewrite":
        return "another query"
    return _answer(request)


def test_draft_answers_each_point_from_the_documents(ctx: Context, embedder: object, encoder: object) -> None:
    gen = ScriptedGenerator(script)
    draft = write_draft(ctx, EMAIL, Models(gen, embedder, encoder), signer="Alice Meyer",  # type: ignore[arg-type]
                        instructions="keep it short")
    assert [p.request for p in draft.points] == REQUESTS  # listed once each, duplicates dropped
    late, term, logo = draft.points
    assert late.answer.found and "0.5%" in late.answer.short_answer
    assert term.answer.found and term.answer.short_answer == "five (5) years"
    assert not logo.answer.found  # not in the documents: never invented
    opening = next(r for r in gen.requests if r.purpose == "draft")  # only the instructions go to the LLM
    assert "keep it short" in opening.user and "do not state any fact" in opening.user
    assert opening.user.index("<passages>") < opening.user.index("what colour") < opening.user.index("</passages>")
    # every point was asked as its own question, the router off (a draft point is question answering)
    asked = [r for r in gen.requests if r.purpose.startswith("answer")]
    assert {r.user.rsplit("Question: ", 1)[1] for r in asked} == set(REQUESTS)
    assert not any(r.purpose == "route" for r in gen.requests)
    # the point not found spends one rewrite, then the top-10 read (as an ask does by default)
    assert sum(r.purpose == "rewrite" for r in gen.requests) == DRAFT_REWRITES == 1
    # the reply: greeting, the opening without its header/greeting/closing, each answer as the reader wrote it
    # (no [n] markers), the point not found said plainly, one closing and the signer
    assert draft.body == (
        "Hi Bob,\n\nThank you for your email. Happy to help, and I will keep it short.\n\n"
        "Here is what the attached documents say:\n"
        "1. What is owed if a delivery is late? Late delivery costs 0.5% of the order value per calendar day.\n"
        "2. How long is the initial term of the agreement? The initial term is five (5) years.\n"
        "3. What colour is the supplier's logo? This is not stated in the attached documents.\n\n"
        "Best regards,\nAlice Meyer")


def test_one_point_and_no_instructions_need_no_composing_call(ctx: Context, embedder: object,
                                                             encoder: object) -> None:
    gen = ScriptedGenerator(lambda r: json.dumps({"requests": [REQUESTS[1]]}) if r.purpose == "draft_requests"
                            else script(r))
    streamed: list[str] = []
    draft = write_draft(ctx, EMAIL.replace("Bob Miller", '"Miller, Bob"'), Models(gen, embedder, encoder),  # type: ignore
                        signer="Alice", emit=lambda e: streamed.append(e.text) if isinstance(e, TokenText) else None)
    assert draft.body == ("Hi Bob,\n\nThank you for your email.\n\nThe initial term is five (5) years.\n\n"
                          "Best regards,\nAlice")
    assert "".join(streamed) == draft.body and not any(r.purpose == "draft" for r in gen.requests)


def test_a_point_the_reader_cut_mid_sentence_is_the_whole_sentence(ctx: Context, embedder: object,
                                                                  encoder: object) -> None:
    cut = ("If the Supplier fails to deliver by the agreed Delivery Date, the Buyer is entitled to liquidated damages "
           "of 0.5% of the order value per calendar")

    def reader(request: GenerationRequest) -> str:
        if request.purpose == "draft_requests":
            return json.dumps({"requests": [REQUESTS[0]]})
        reply = script(request)
        return reply.replace("Late delivery costs 0.5% of the order value per calendar day.", cut)

    draft = write_draft(ctx, EMAIL, Models(ScriptedGenerator(reader), embedder, encoder),  # type: ignore[arg-type]
                        signer="Alice")
    whole = cut + " day of delay."
    (point,) = draft.points
    assert point.confirmed and point.answer.text.startswith(f"{whole} [")
    assert draft.body == f"Hi Bob,\n\nThank you for your email.\n\n{whole}\n\nBest regards,\nAlice"


def test_no_documents_means_no_points(embedder: object, encoder: object) -> None:
    gen = ScriptedGenerator(script)
    draft = write_draft(None, EMAIL, Models(gen, embedder, encoder), signer="Alice")  # type: ignore[arg-type]
    assert draft.points == () and [r.purpose for r in gen.requests] == ["draft_requests", "draft"]
    assert "(no questions to answer from the documents)" in gen.requests[-1].user


def test_list_requests_tolerates_bad_json() -> None:
    assert list_requests(ScriptedGenerator(lambda r: "{oops"), EMAIL) == []
    many = json.dumps({"requests": [f"Question number {i}?" for i in range(9)]})
    gen = ScriptedGenerator(lambda r: many)
    assert len(list_requests(gen, EMAIL, "ask about the price too")) == 5
    assert gen.requests[0].json_schema is not None and "ask about the price too" in gen.requests[0].user


def test_a_short_follow_up_point_is_asked_with_the_subject_of_the_point_before(ctx: Context, embedder: object,
                                                                              encoder: object) -> None:
    cap = "What is the cap on the liquidated damages for late delivery?"

    def model(request: GenerationRequest) -> str:
        if request.purpose == "draft_requests":
            return json.dumps({"requests": [REQUESTS[0], "Is there a cap?"]})
        if request.purpose == "standalone":  # the point before is its conversation
            assert "Q1: What is owed if a delivery is late?" in request.user and "0.5%" in request.user
            return json.dumps({"question": cap})
        if request.purpose.startswith("answer") and request.user.rstrip().endswith(cap):
            n = next(i for i, line in enumerate(request.user.split("\n[")[1:], 1) if "capped at 7.5%" in line)
            return json.dumps({"found": True, "passage": n, "short_answer": "7.5% of the order value",
                               "answer": "The total liquidated damages are capped at 7.5% of the order value."})
        return script(request)

    gen = ScriptedGenerator(model)
    draft = write_draft(ctx, EMAIL, Models(gen, embedder, encoder), signer="Alice")  # type: ignore[arg-type]
    assert [p.request for p in draft.points] == [REQUESTS[0], cap]
    assert "7.5%" in draft.points[1].answer.text
    assert [r.purpose for r in gen.requests].count("standalone") == 1  # the first point and long ones: no call
    assert standalone_point(gen, REQUESTS[1], (REQUESTS[0], draft.points[0].answer)) == REQUESTS[1]
    assert leans_on_previous("Is there a cap?") and leans_on_previous("Can it be shorter for a breach?")
    assert not leans_on_previous("How long is the initial term of the agreement?")


@pytest.mark.slow
def test_a_follow_up_point_gets_its_subject_from_the_bundled_model(big_llm: Generator) -> None:
    late = "What exactly do we owe you if a delivery is late?"
    source = Source(n=1, source="supply-agreement.md", page=None, start=0, end=10, chunk_id=0,
                    snippet="If the Supplier fails to deliver by the agreed Delivery Date, the Buyer is entitled to "
                            "liquidated damages of 0.5% of the order value per calendar day of delay.")
    answer = Answer(late, "The Buyer is entitled to liquidated damages of 0.5% of the order value per calendar day "
                    "of delay. [1]", True, "question_answering", (source,), (), {}, ())
    asked = standalone_point(big_llm, "Is there a cap?", (late, answer)).lower()
    assert "cap" in asked and any(w in asked for w in ("late", "delay", "liquidated damages")), asked


def test_clean_body() -> None:
    assert clean_body("To: x@y.z\nSubject: Re: A\n\nHello Bob,\nYes.\n\nRegards,\nAlice", "Alice") == \
        "Hello Bob,\nYes.\n\nRegards,\nAlice"
    assert clean_body("Hello Bob,\nYes.", "Alice Meyer").endswith("Yes.\n\nAlice Meyer")
    assert clean_body("  ", "A") == "(write your reply here)\n\nA"


def test_split_body_keeps_every_line() -> None:
    body = ("Hi Alice,\n\nwhat do we owe you for late delivery?\n\nThanks,\nBob\n\n"
            "On Mon, 3 Nov 2026 at 10:00, Alice <alice@x.org> wrote:\n> The agreement is attached.\n> Alice")
    parts = split_body(body)
    assert parts.text == "Hi Alice, what do we owe you for late delivery?"  # the greeting is no chunk of its own
    assert parts.signature == "Thanks,\nBob"
    assert parts.quoted.startswith("On Mon, 3 Nov 2026") and "The agreement is attached." in parts.quoted
    sig = split_body("See the attachment.\n-- \nBob Miller\nPurchasing, +49 421 555 0101")
    assert sig.text == "See the attachment." and "+49 421 555 0101" in sig.signature and sig.quoted == ""


def test_evidence_documents_rank_apart() -> None:
    raw = (b"From: Bob <bob@x.org>\r\nSubject: Terms\r\n\r\nDear Alice,\r\n\r\nHow long is the term?\r\n\r\n"
           b"Kind regards,\r\nBob\r\n\r\n> Earlier: the term is five years.\r\n")
    docs = evidence_documents(parse_message(raw), "acc:INBOX:7")
    assert [d.source for d in docs] == ["acc:INBOX:7", "acc:INBOX:7 (signature)", "acc:INBOX:7 (earlier messages)"]
    assert "Dear Alice, How long is the term?" in docs[0].text and "Subject: Terms" in docs[0].text
    assert docs[2].text == "Earlier: the term is five years."


def test_account_signer() -> None:
    assert Account("w", "h", "alice.meyer@x.org").signer == "Alice Meyer"
    assert Account("w", "h", "alice", display_name="Dr. Alice Meyer").signer == "Dr. Alice Meyer"


def test_greeting_and_opening_cleanup() -> None:
    assert greeting("From: Bob Miller <bob@x.org>\nSubject: A") == "Hi Bob,"
    assert greeting("From: bob@x.org\nSubject: A") == "Hello,"
    assert greeting("Subject: no sender") == "Hello,"
    assert clean_opening("Dear Bob,\nI accept the offer.\nWe will sign on Friday.\nKind regards,\nAlice") == \
        "I accept the offer. We will sign on Friday."
