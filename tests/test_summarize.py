"""Summaries (docs/how-it-answers.md): the reading plan on small structured documents, focus, length and form, and
per-bullet citations checked against the passage cited (a scripted generator of ours writes the bullets)."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest
from conftest import ScriptedGenerator

from assistant.config import PipelineOptions
from assistant.errors import Cancelled
from assistant.models.base import GenerationRequest
from assistant.records import Chunk, Document, Progress, Segment
from assistant.ttrag.compute.summarize import (
    GIST_BUDGET,
    MAX_MAP_CALLS,
    SummaryRequest,
    gist_slots,
    headings,
    parse_request,
    reading_plan,
    summarize,
    supported_by,
    title_page,
    top_level,
)
from assistant.ttrag.context import Context, build_context
from assistant.ttrag.pipeline import Models, ask
from assistant.ttrag.prompts import summary_points_schema

FILLER = ("Under this Section the Parties agree as follows. The Supplier shall keep records of the matter for the "
          "period required by law. Each Party shall bear its own costs in connection with the matter. ")
ARTICLES = [
    ("Definitions", '"Product" means a widget listed in Schedule 1. "Effective Date" means 1 May 2025. '),
    ("Scope of Supply", "The Supplier shall supply widgets and related calibration services to the Buyer. "),
    ("Term and Renewal", "The initial term of this Agreement is three (3) years from the Effective Date. "),
    ("Prices", "Any annual price adjustment shall not exceed 4 percent of the prices in force. "),
    ("Payment Terms", "The Buyer shall pay each undisputed invoice within 30 days of receipt. "),
    ("Warranty", "The warranty period for the Products is 24 months from delivery. "),
    ("Confidentiality", "Confidential information shall be kept secret by the receiving Party. "),
    ("Termination", "Either Party may terminate this Agreement for convenience by giving 90 days' written "
                    "notice. Termination does not affect rights that have accrued before the termination date. "),
    ("Governing Law", "This Agreement is governed by the laws of Austria. "),
]


def _contract() -> Document:
    """A 14-page contract: title page, contents, parties, then one article a page (its fact mid-article)."""
    pages = ['# Widget Supply Agreement\n\n**between**\n\nAcme Tools GmbH (the "Buyer")\n\nand\n\nBolt Parts Ltd. '
             '(the "Supplier")\n\nSupply of widgets for industrial presses.\n\n',
             "## Table of Contents\n\n" + "".join(f"- Article {i} - {t} .... page {i + 3}\n"
                                                  for i, (t, _f) in enumerate(ARTICLES, 1)) + "\n",
             "## Parties and Recitals\n\nThis Agreement is made between Acme Tools GmbH, Vienna (the \"Buyer\"), "
             "and Bolt Parts Ltd., Leeds (the \"Supplier\").\n\n"]
    for i, (title, fact) in enumerate(ARTICLES, 1):
        pages.append(f"## Article {i} - {title}\n\n### {i}.1 General\n\n{FILLER * 2}\n\n{fact}{FILLER}\n\n")
    pages.append("## Signatures\n\nSigned on 14 March 2025.\n")
    offsets, pos = [], 0
    for p in pages:
        offsets.append(pos)
        pos += len(p)
    return Document("widget-agreement.md", "".join(pages),
                    tuple(Segment(p, page=n) for n, p in enumerate(pages, 1)), tuple(offsets))


def _text_doc(source: str, text: str) -> Document:
    return Document(source, text, (Segment(text, page=1),), (0,))


#: the central-passage summary these tests are about (a contract's own summary: test_summary_points.py)
CENTRAL = PipelineOptions(kind_summaries=False)


@pytest.fixture(scope="module")
def ctx(tokenizer: object) -> Context:
    return build_context([_contract()], tokenizer, chunk_tokens=60)


def _page_of(ctx: Context, needle: str) -> int:
    doc = ctx.documents[0]
    return doc.page_at(doc.text.index(needle)) or 0


def test_headings_find_the_parts_not_the_table_of_contents(ctx: Context) -> None:
    doc = ctx.documents[0]
    parts = top_level(headings(doc), doc.text)
    assert [h.title for h in parts] == [f"Article {i} - {t}" for i, (t, _f) in enumerate(ARTICLES, 1)]
    toc_end = doc.text.index("## Parties")
    assert all(h.start > toc_end for h in parts)  # the contents' entries are not parts


def test_gist_plan_reads_title_parties_and_the_facts_that_matter(ctx: Context) -> None:
    plan = reading_plan(ctx, SummaryRequest())
    text = " ".join(p.chunk.text for p in plan)
    roles = [p.role for p in plan]
    assert roles[:2] == ["title", "parties"]
    assert "Acme Tools GmbH" in plan[0].chunk.text and plan[0].chunk.page == 1
    assert "made between" in plan[1].chunk.text and plan[1].chunk.page == 3
    for fact in ("three (3) years", "4 percent", "30 days"):  # term, money: not the articles' boilerplate
        assert fact in text
    assert "...." not in text  # no table-of-contents line
    assert sum(len(p.chunk.text) for p in plan) <= GIST_BUDGET
    for p in plan:  # every passage is the document's own text at its offsets, with its page
        assert ctx.documents[0].text[p.chunk.start:p.chunk.end] == p.chunk.text
        assert p.chunk.page == ctx.documents[0].page_at(p.chunk.start)


def test_detail_plan_reads_more_outline_and_definitions(ctx: Context) -> None:
    gist = reading_plan(ctx, SummaryRequest())
    detail = reading_plan(ctx, SummaryRequest(detail=True), budget=8000)
    roles = {p.role for p in detail}
    assert {"outline", "definitions"} <= roles
    assert len(detail) > len(gist)
    text = " ".join(p.chunk.text for p in detail)
    assert "90 days" in text and "24 months" in text


def test_focus_plan_reads_the_section_it_names(ctx: Context) -> None:
    plan = reading_plan(ctx, parse_request("Summarize the termination provisions"))
    assert plan and all(p.role == "focus" for p in plan)
    assert "90 days' written notice" in " ".join(p.chunk.text for p in plan)
    section = [p for p in plan if p.chunk.text.startswith("## Article 8 - Termination")]
    assert section and section[0].chunk.page == _page_of(ctx, "## Article 8 - Termination")
    assert all("...." not in p.chunk.text for p in plan)  # not the contents' line that names it
    assert "three (3) years" not in " ".join(p.chunk.text for p in plan)


def test_plan_of_a_text_without_headings_reads_its_opening_and_central_sentences(tokenizer: object) -> None:
    topics = ["The harbour crane lifts containers from ships onto trucks at night. " * 3,
              "Apple orchards need pruning in late winter before the buds open. " * 3,
              "The violin section rehearses the symphony twice a week in the hall. " * 3]
    text = "\n\n".join(topics[i % 3] for i in range(30))
    small = build_context([_text_doc("notes.txt", text)], tokenizer, chunk_tokens=40)
    plan = reading_plan(small, SummaryRequest())
    assert plan[0].role == "title" and plan[0].chunk.text.startswith(topics[0].strip())  # the opening
    central = [p for p in plan if p.role == "central"]
    assert central and {w for p in central for w in ("crane", "orchards", "violin") if w in p.chunk.text} == \
        {"crane", "orchards", "violin"}  # each topic the text keeps returning to
    assert len({p.chunk.text for p in plan}) == len(plan)  # no passage twice


def test_plan_of_an_email_thread_reads_first_and_latest_messages(tokenizer: object) -> None:
    msgs = [f"From: person{i}@example.com\nSubject: Re: launch\n\nMessage {i} body: " + "we discuss the launch. " * 8
            for i in range(6)]
    thread = build_context([_text_doc("thread.mbox", "\n".join(msgs))], tokenizer, chunk_tokens=60)
    plan = reading_plan(thread, SummaryRequest())
    texts = [p.chunk.text for p in plan]
    assert all(p.role == "message" for p in plan)
    assert any("Message 0 body" in t for t in texts) and any("Message 5 body" in t for t in texts)


@pytest.mark.parametrize(("question", "focus", "detail", "form", "document"), [
    ("Summarize this agreement", "", False, "bullets", "agreement"),
    ("What is this document about?", "", False, "bullets", ""),
    ("Summarize the termination provisions", "termination provisions", False, "bullets", ""),
    ("What does it say about data protection?", "data protection", False, "bullets", ""),
    ("Summarize this contract in detail", "", True, "bullets", "contract"),
    ("Summarize the payment terms in plain sentences", "payment terms", False, "sentences", ""),
    # the document named is no focus: a kind of document, with the words before it, or a file name
    ("Summarize the minutes", "", False, "bullets", "minutes"),
    ("Please help me summarize this government report.", "", False, "bullets", "government report"),
    ("You are a patent examiner. Please write a summary of this patent.", "", False, "bullets", "patent"),
    ("summarize notes.txt", "", False, "bullets", "notes.txt"),
    ("Summarize the termination provisions of the agreement", "termination provisions", False, "bullets",
     "agreement"),
    ("What does the contract say about payment?", "payment", False, "bullets", "contract"),
])
def test_parse_request(question: str, focus: str, detail: bool, form: str, document: str) -> None:
    assert parse_request(question) == SummaryRequest(focus, detail, form, document)  # type: ignore[arg-type]


def _passages(request: GenerationRequest) -> dict[int, str]:
    body = request.user.split("</passages>")[0]
    return {int(m.group(1)): m.group(2) for m in
            re.finditer(r"^\[(\d+)\] \([^)]*\) (.*?)(?=^\[\d+\] \(|\Z)", body, re.M | re.S)}


def _number_of(request: GenerationRequest, needle: str) -> int:
    return next(n for n, t in _passages(request).items() if needle in t)


def _points(*points: tuple[str, int]) -> str:
    """A gist reply as the model writes it under ``summary_points_schema``."""
    return json.dumps({f"point{i}": {"sentence": s, "passage": n} for i, (s, n) in enumerate(points, 1)})


def test_bullets_cite_their_passage_and_unsupported_ones_are_dropped(ctx: Context) -> None:
    def script(r: GenerationRequest) -> str:
        term, pay = _number_of(r, "three (3) years"), _number_of(r, "30 days")
        return _points(("The initial term of this Agreement is three (3) years from the Effective Date", term),
                       ("The Buyer shall pay each undisputed invoice within 30 days of receipt", term),  # wrong number
                       ("The Supplier pays a bonus of 99 percent on every widget", pay))  # not in the document

    gen = ScriptedGenerator(script)
    answer = ask(ctx, "Summarize this agreement", Models(gen, None, None), CENTRAL)
    assert answer.route == "summarization"
    assert [r.purpose for r in gen.requests] == ["summary"]  # a summary cue alone: no router call
    lines = answer.text.splitlines()
    # what the document is: its title page (title and parties), file and size
    assert lines[0].startswith('Widget Supply Agreement between Acme Tools GmbH (the "Buyer") and Bolt Parts Ltd.')
    assert lines[0].endswith("(widget-agreement.md, 13 pages):")
    bullets = [ln for ln in lines if ln.startswith("- ")]
    assert len(bullets) == 3 and "99 percent" not in answer.text
    pages = {s.n: s.page for s in answer.sources}
    for bullet, needle in zip(bullets, ("three (3) years", "30 days"), strict=False):
        marks = [int(n) for n in re.findall(r"\[(\d+)\]", bullet)]
        assert marks and pages[marks[0]] == _page_of(ctx, needle)  # re-cited to the passage that says it
    # the dropped bullet's place goes to the opening sentence of a planned passage no bullet cited, quoted
    quoted, cite = re.fullmatch(r"- (.+) \[(\d+)\]", bullets[2]).groups()  # type: ignore[union-attr]
    assert quoted in answer.sources[int(cite) - 1].snippet or quoted in ctx.documents[0].text


def test_nothing_supported_falls_back_to_the_passages_own_sentences(ctx: Context) -> None:
    gen = ScriptedGenerator(lambda r: _points(("The moon is made of cheese", 1), ("Prices rise by 77 percent", 2)))
    result = summarize(ctx, SummaryRequest(), gen)
    assert result.bullets and result.dropped == ("The moon is made of cheese", "Prices rise by 77 percent")
    for b in result.bullets:
        assert b.text in result.passages[b.cites[0] - 1].text


def test_detail_runs_bounded_map_calls_with_progress(ctx: Context) -> None:
    def script(r: GenerationRequest) -> str:
        return "\n".join(f"- {t} [{n}]" for n, t in list(_passages(r).items())[:3])

    gen = ScriptedGenerator(script)
    events: list[object] = []
    answer = ask(ctx, "Summarize this agreement in detail", Models(gen, None, None), CENTRAL, emit=events.append)
    gist = ask(ctx, "Summarize this agreement", Models(ScriptedGenerator(script), None, None), CENTRAL)
    calls = [r.purpose for r in gen.requests]
    assert 2 <= len(calls) <= MAX_MAP_CALLS and calls[0] == "summary"
    assert len(answer.text.splitlines()) > len(gist.text.splitlines())
    progress = [e for e in events if isinstance(e, Progress) and e.stage == "summarization" and e.unit == "calls"]
    assert progress[-1].done == progress[-1].total == len(calls)


def test_sentences_form_has_no_bullets(ctx: Context) -> None:
    def script(r: GenerationRequest) -> str:
        n = _number_of(r, "90 days")
        assert "point2: the conditions of termination provisions" in r.user  # a topic's points, not the gist's
        return _points(("Either Party may terminate this Agreement for convenience by giving 90 days' written notice",
                        n))

    result = summarize(ctx, parse_request("Summarize the termination provisions in plain sentences"),
                       ScriptedGenerator(script))
    assert result.text.startswith("Either Party may terminate") and "- " not in result.text
    assert re.search(r"\[\d+\]$", result.text)
    assert {p.role for p in result.plan} == {"focus"}


def test_cancel_stops_the_map_calls(ctx: Context) -> None:
    cancel = threading.Event()

    def script(r: GenerationRequest) -> str:
        cancel.set()  # the person presses Cancel while the first call runs
        return "- The initial term of this Agreement is three (3) years [1]\n"

    gen = ScriptedGenerator(script)
    with pytest.raises(Cancelled):
        ask(ctx, "Summarize this agreement in detail", Models(gen, None, None), CENTRAL, cancel=cancel)
    assert len(gen.requests) == 1


def test_a_bullet_joining_two_cited_passages_cites_both(ctx: Context) -> None:
    def script(r: GenerationRequest) -> str:
        term, pay = _number_of(r, "three (3) years"), _number_of(r, "30 days")
        return (f'{{"point1": {{"sentence": "The initial term is three (3) years and the Buyer shall pay each '
                f'invoice within 30 days [{term}][{pay}]", "passage": {term}}}}}')  # both marked in the sentence

    result = summarize(ctx, SummaryRequest(), ScriptedGenerator(script))
    bullet = result.bullets[0]  # (the others are quoted openings of passages it did not cite)
    assert all(n not in bullet.cites for b in result.bullets[1:] for n in b.cites)
    texts = [result.passages[n - 1].text for n in bullet.cites]
    assert len(texts) == 2 and any("three (3) years" in t for t in texts) and any("30 days" in t for t in texts)


def test_gist_asks_each_point_by_name_under_a_schema(ctx: Context) -> None:
    def script(r: GenerationRequest) -> str:
        return _points(("The initial term of this Agreement is three (3) years", _number_of(r, "three (3) years")),
                       ("The Buyer shall pay each undisputed invoice within 30 days", _number_of(r, "30 days")),
                       ("Either Party may terminate for convenience by giving 90 days' written notice",
                        _number_of(r, "90 days")))

    gen = ScriptedGenerator(script)
    result = summarize(ctx, SummaryRequest(), gen)
    request = gen.requests[0]
    assert request.json_schema == summary_points_schema(3)
    for i, slot in enumerate(gist_slots(result.passages, "contract"), 1):  # the contract's slots, in the prompt
        assert f"point{i}: {slot}." in request.user
    assert "the term" in request.user and "the money" in request.user and "the remedies" in request.user
    assert [b.text[:20] for b in result.bullets] == ["The initial term of ", "The Buyer shall pay ",
                                                       "Either Party may ter"]


def test_a_reply_cut_short_keeps_its_complete_points(ctx: Context) -> None:
    def script(r: GenerationRequest) -> str:
        full = _points(("The initial term of this Agreement is three (3) years", _number_of(r, "three (3) years")),
                       ("The Buyer shall pay each undisputed invoice within 30 days", _number_of(r, "30 days")))
        return full[:full.index("30 days") - 10]  # the token limit ends the second point

    result = summarize(ctx, SummaryRequest(), ScriptedGenerator(script))
    assert result.bullets[0].text == "The initial term of this Agreement is three (3) years"
    assert "30 days" not in result.bullets[0].text and not result.dropped


def test_a_mailbox_of_separate_conversations_gets_a_point_per_message(tokenizer: object) -> None:
    text = ("From: Ximian, Inc. <evolve@example.com>\nSubject: Evolution 0.10 is now available\n\n"
            "Ximian announces Evolution 0.10, a preview with calendar and address book. " * 3 + "\n\n"
            "From: Alexandre Julliard <julliard@example.com>\nSubject: Wine release 20020904\n\n"
            "This is release 20020904 of Wine, a free implementation of Windows on Unix. " * 3 + "\n")
    box = build_context([_text_doc("announce.mbox", text)], tokenizer, chunk_tokens=60)

    def script(r: GenerationRequest) -> str:
        return _points(("Ximian announces Evolution 0.10, a preview with calendar and address book", 1),
                       ("This is release 20020904 of Wine, a free implementation of Windows on Unix", 2))

    gen = ScriptedGenerator(script)
    answer = ask(box, "Summarize this mailbox", Models(gen, None, None))
    first = answer.text.splitlines()[0]
    assert first.startswith("2 conversations: Evolution 0.10 is now available; Wine release 20020904")
    user = gen.requests[0].user
    assert "point1: what the message in passage [1] (from Ximian, Inc.) announces or asks" in user
    assert "point2: what the message in passage [2] (from Alexandre Julliard) announces or asks" in user
    assert "point3" not in user and gen.requests[0].json_schema == summary_points_schema(2)
    assert len([ln for ln in answer.text.splitlines() if ln.startswith("- ")]) == 2


def test_a_point_that_stops_at_a_colon_states_what_follows_it(tokenizer: object) -> None:
    # a newcomer's summary of Ximian's announcement: "The 0.10 release notes are available at [1]"
    text = ("From: Ximian, Inc. <evolve@example.com>\nSubject: Evolution 0.10 is now available\n\n"
            "A new preview release of Ximian Evolution is now available.\n\nTO VIEW 0.10 RELEASE NOTES\n\n"
            "The 0.10 release notes are available at:\nhttp://www.ximian.com/newsitems/evolution-0.10-announce.php3\n")
    box = build_context([_text_doc("001.eml", text)], tokenizer)

    def script(r: GenerationRequest) -> str:
        return _points(("A new preview release of Ximian Evolution is now available.", 1),
                       ("The 0.10 release notes are available at:", 1), ("The notes list every fix made at:", 1))

    result = summarize(box, SummaryRequest(), ScriptedGenerator(script))
    said = [b.text for b in result.bullets]
    assert "The 0.10 release notes are available at: " \
           "http://www.ximian.com/newsitems/evolution-0.10-announce.php3" in said
    assert not any("fix" in b for b in said)  # what the passage does not complete is no point


def test_a_thread_keeps_the_email_slots() -> None:
    thread = [Chunk(1, "From: a@example.com\nSubject: Launch date\n\nCan we launch on Monday?", "t.mbox", 0, 60),
              Chunk(2, "From: b@example.com\nSubject: RE: Launch date\n\nYes, Monday works.", "t.mbox", 60, 120)]
    assert gist_slots(thread, "email")[0] == "who writes and what they announce or ask"


PAPER = ("Dense Retrieval for Question Answering\nAnna Author, Bruno Author, Chen Author\nUniversity of Examples | "
         "Example Research Lab\n\nAbstract\n"
         "We show that retrieval can use dense representations learned by a dual-encoder. Our retriever "
         "outperforms a strong BM25 system by 9%-19% absolute in top-20 passage retrieval accuracy.\n\n"
         "1 Introduction\n" + "Open-domain question answering is a long-studied task with many systems. " * 12 +
         "\n\n2 Background\n" + "Earlier systems used sparse vectors for retrieval of passages. " * 12 +
         "\n\n3 Method\n" + "The encoder maps each passage to a vector of numbers for search. " * 12 +
         "\n\n4 Conclusion\nDense retrieval can outperform and replace sparse retrieval in question answering. "
         "Training needs a few critical ingredients.\n")


def test_a_paper_gist_reads_its_abstract_and_conclusion(tokenizer: object) -> None:
    paper = build_context([_text_doc("dpr.txt", PAPER)], tokenizer, chunk_tokens=60)
    plan = reading_plan(paper, SummaryRequest())
    assert [p.role for p in plan] == ["title", "summary", "summary"]
    assert plan[1].chunk.text.startswith("Abstract") and "9%-19%" in plan[1].chunk.text
    assert "1 Introduction" not in plan[1].chunk.text  # the abstract ends at the next part
    assert plan[2].chunk.text.startswith("4 Conclusion")
    assert gist_slots([p.chunk for p in plan], "report")[1].startswith("how its method or content compares")
    detail = reading_plan(paper, SummaryRequest(detail=True), budget=8000)
    assert any(p.chunk.text.startswith("2 Background") for p in detail)  # "in detail" reads the other parts


def test_named_parts_of_a_repeated_document_are_its_body_not_its_contents(tokenizer: object) -> None:
    body = ("Handbook for\nChapter 13\nStanding Trustees\nTable of Contents\n"
            "CHAPTER 1 - INTRODUCTION\nA. PURPOSE1-1\nCHAPTER 2 - BUDGETS\nA. ANNUAL BUDGETS2-1\n"
            "B. AMENDED BUDGETS2-2\nCHAPTER 3 - AUDITS\nA. ANNUAL AUDIT3-1\n\n"
            "CHAPTER 1 - INTRODUCTION\n\nA.\tPURPOSE\nThe United States Trustee appoints and supervises standing "
            "trustees in every district of the country.\n\n"
            "CHAPTER 2\nBUDGETS\n\nA.\tANNUAL BUDGETS\n1.\tSUBMISSION\nThe standing trustee must submit an annual "
            "budget to the United States Trustee for approval.\n\n"
            "CHAPTER 3 - AUDITS\n\nA.\tANNUAL AUDIT\n1.\tSCOPE\nAn independent auditor examines the trust accounts "
            "of the standing trustee every year.\n\n")
    doc = _text_doc("handbook.docx", body * 3)  # the file holds the handbook three times, contents and all
    parts = top_level(headings(doc), doc.text)
    assert [h.title for h in parts] == ["CHAPTER 1 - INTRODUCTION", "CHAPTER 2", "CHAPTER 3 - AUDITS"]
    assert all(h.start > body.index("\n\n") for h in parts) and all(h.start < len(body) for h in parts)
    assert title_page(doc) == "Handbook for Chapter 13 Standing Trustees"  # "for" carries on past "Chapter 13"


def test_a_statement_without_figures_may_rest_on_several_passages() -> None:
    passages = [Chunk(1, "CHAPTER 6 - BUDGETS. The standing trustee must submit an annual budget.", "h", 0, 70),
                Chunk(2, "CHAPTER 7 - AUDITS. The standing trustee is audited every year by an auditor.", "h", 70, 150),
                Chunk(3, "Penalties of 5% apply to late budgets after 30 days.", "h", 150, 210)]
    joined = "The trustee must submit an annual budget, and an auditor audits the trustee every year"
    assert supported_by(joined, passages, [1]) == [1, 2]
    assert supported_by("The standing trustee pays 5% after 30 days of the annual budget", passages, [1]) == []
    assert supported_by("The moon landing was filmed in a studio by the trustee", passages) == []


def test_the_gist_fill_quotes_sentences_not_headings(ctx: Context) -> None:
    result = summarize(ctx, SummaryRequest(), ScriptedGenerator(lambda r: "{}"))
    assert result.bullets
    for b in result.bullets:  # running text ending in a full stop, not "CHAPTER 2 - APPOINTMENT, ..."
        assert b.text.rstrip().endswith(".") and not b.text.isupper()


def test_sources_are_the_cited_passages_numbered_in_order_with_their_own_sentence(ctx: Context) -> None:
    def script(r: GenerationRequest) -> str:
        return _points(("The Buyer shall pay each undisputed invoice within 30 days of receipt",
                        _number_of(r, "30 days")),
                       ("The initial term of this Agreement is three (3) years", _number_of(r, "three (3) years")))

    answer = ask(ctx, "Summarize this agreement", Models(ScriptedGenerator(script), None, None), CENTRAL)
    bullets = [ln for ln in answer.text.splitlines() if ln.startswith("- ")]
    assert bullets[0].endswith("[1]") and bullets[1].endswith("[2]")  # renumbered in order of citation
    marks = {int(n) for n in re.findall(r"\[(\d+)\]", answer.text)}
    assert [s.n for s in answer.sources] == sorted(marks)  # passages read but not cited are not listed
    assert "30 days" in answer.sources[0].snippet and "three (3) years" in answer.sources[1].snippet
    assert not any(s.snippet.startswith("#") or "**" in s.snippet for s in answer.sources)


def test_a_table_whose_statements_fail_the_check_is_summarized_by_its_rows(tokenizer: object) -> None:
    """A sheet has no running text to quote: when the model's statement is not supported, its rows are
    shown as they stand rather than a title line alone."""
    text = "Part | Warehouse | Units\nHinge H-20 | Bristol | 340\nBracket B-7 | Derby | 125\nValve V-3 | Hull | 58"
    sheet = build_context([_text_doc("stock.xlsx", text)], tokenizer, chunk_tokens=60)
    gen = ScriptedGenerator(lambda r: _points(("The table lists three columns: Part, Warehouse and Units", 1)))
    result = summarize(sheet, SummaryRequest(), gen)
    assert [b.text for b in result.bullets][:2] == ["Hinge H-20 | Bristol | 340", "Bracket B-7 | Derby | 125"]


THREAD = ("From: Jonas Weber <jonas@example.com>\nSubject: Pilot dates\n\nThe pilot can start in January with the "
          "design team. We still need the NDA before then.\n\n"
          "From: Jonas Weber <jonas@example.com>\nSubject: Re: Pilot dates\n\nThanks for the quick answer about the "
          "pilot dates. One more thing: could you sign the attached NDA and return it to me by 3 December? It "
          "covers the pilot data.\n> Could you send the NDA?\nJonas\n")


def _asks(quote: str, *, asks: bool = True, what: str = "", due: str | None = None) -> ScriptedGenerator:
    """The reader of an e-mail summary: the gist's points, and the ask read (``purpose`` "todo") as given."""
    def script(r: GenerationRequest) -> str:
        if r.purpose == "todo":
            return json.dumps({"quote": quote, "asks_me": asks, "what": what, "due": due})
        return _points(("Jonas Weber writes that the pilot can start in January with the design team.", 1),
                       ("The pilot can start in January.", 1))
    return ScriptedGenerator(script)


def test_an_email_summary_quotes_what_its_latest_message_asks(tokenizer: object) -> None:
    # a newcomer's "Summarize this email" of a team announcement dropped its "Make sure to RSVP!": the model's
    # point ("RSVP is required.") did not stand in the message's words
    box = build_context([_text_doc("pilot.eml", THREAD)], tokenizer, chunk_tokens=60)
    gen = _asks("could you sign the attached NDA and return it to me", due="3 December")
    result = summarize(box, SummaryRequest(), gen)
    said = [b.text for b in result.bullets]
    assert said[-1] == ('Asks you: "One more thing: could you sign the attached NDA and return it to me by 3 '
                        'December?"')  # the whole sentence, its date in it, so no "(by ...)"
    assert "sign the attached NDA" in result.passages[result.bullets[-1].cites[0] - 1].text
    summary_call, ask_call = gen.requests
    assert "point3" not in summary_call.user and "point2" in summary_call.user  # the ask is not the model's point
    assert "Subject: Re: Pilot dates" in ask_call.user and "We still need the NDA" not in ask_call.user
    assert "Could you send the NDA?" not in ask_call.user  # the quoted history is not the latest message's ask


def test_an_ask_gives_its_date_where_the_sentence_does_not(tokenizer: object) -> None:
    box = build_context([_text_doc("pilot.eml", THREAD.replace(" by 3 December", "") + "By 3 December, please.\n")],
                        tokenizer, chunk_tokens=60)
    result = summarize(box, SummaryRequest(), _asks("could you sign the attached NDA", due="3 December"))
    assert result.bullets[-1].text.endswith('return it to me?" (by 3 December)')
    # a date the message does not hold is not given; a quote it does not hold cites the model's few words, where
    # the message's passage holds them
    made_up = summarize(box, SummaryRequest(), _asks("Please sign it today.", what="Sign the attached NDA",
                                                     due="1 May"))
    assert made_up.bullets[-1].text == "Asks you to sign the attached NDA."
    unsupported = summarize(box, SummaryRequest(), _asks("Please sign it today.", what="Pay the invoice"))
    assert not any(b.text.startswith("Asks you") for b in unsupported.bullets)


def test_a_message_that_asks_nothing_gets_no_ask(tokenizer: object) -> None:
    box = build_context([_text_doc("pilot.eml", THREAD)], tokenizer, chunk_tokens=60)
    result = summarize(box, SummaryRequest(), _asks("", asks=False))
    assert result.bullets and not any(b.text.startswith("Asks you") for b in result.bullets)
    off = _asks("could you sign the attached NDA")
    summarize(box, SummaryRequest(), off, asks=False)  # the earlier way: the model's third point, no ask read
    assert [r.purpose for r in off.requests] == ["summary"] and "point3" in off.requests[0].user


def test_the_latest_message_of_a_real_email_file(data_root: Path) -> None:
    from assistant.documents import extract
    from assistant.ttrag.compute.summarize.asks import latest_message

    latest = latest_message(extract(data_root / "emails" / "unstructured_eml" / "family-day.eml"))
    assert latest is not None and latest.subject == "Family Day" and latest.sender.startswith("Mallori Harrell")
    assert "Make sure to RSVP!" in latest.body and not latest.body.startswith("From:")
    mbox = extract(data_root / "emails" / "sa_nice.mbox")
    last = latest_message(mbox)
    assert last is not None and last.subject == "Wine release 20020904" and "release 20020904" in last.body


def test_a_message_quoted_below_a_reply_or_a_forward_is_no_later_message() -> None:
    from assistant.ttrag.compute.summarize.asks import latest_message

    reply = ("From: Maria Lopez <maria@example.com>\nSubject: RE: Contract\n\nCould you send the signed copy by "
             "Friday?\n\n-----Original Message-----\nFrom: Sam Carter <sam@example.com>\nSubject: Contract\n\n"
             "Here is the contract. Please review it.\n")
    latest = latest_message(_text_doc("reply.eml", reply))
    assert latest is not None and latest.sender.startswith("Maria") and "signed copy" in latest.body
    assert "Please review it" not in latest.body
    forward = ("From: Ana <ana@example.com>\nSubject: Fwd: Offer\n\nFYI: can you answer them by Monday?\n\n"
               "---------- Forwarded message ---------\nFrom: Shop <shop@example.com>\nSubject: Offer\n\nBuy now.\n")
    latest = latest_message(_text_doc("fwd.eml", forward))
    assert latest is not None and latest.subject == "Fwd: Offer"
    outlook = ("From: Maria Lopez <maria@example.com>\nSubject: RE: Expo\n\nDid you get a chance to review my "
               "previous email?\n\nFrom: Maria Lopez [mailto:maria@example.com]\nSent: Wednesday, March 29, 2023 "
               "12:30 PM\nSubject: Expo\n\nWould you like the attendee list?\n")
    latest = latest_message(_text_doc("outlook.eml", outlook))
    assert latest is not None and latest.subject == "RE: Expo" and "attendee list" not in latest.body
    thread = latest_message(_text_doc("pilot.eml", THREAD))  # two messages one after the other: the second
    assert thread is not None and thread.subject == "Re: Pilot dates"
