"""The reader's answer: question types, the grounding check, streaming of the JSON reply, [n] markers."""

from __future__ import annotations

import dataclasses
import json

import pytest
from conftest import ScriptedGenerator

from assistant.config import ANSWER_RULES, PipelineOptions
from assistant.errors import ConfigError
from assistant.models.base import GenerationRequest
from assistant.records import Chunk, Document, Segment
from assistant.ttrag import grounding, router
from assistant.ttrag.generate import (
    answer_schema,
    cite,
    parse_reply,
    part_of,
    states_numbers,
    stream_answer,
    yes_evidence,
)
from assistant.ttrag.qtype import QuestionType, fits, question_type

PASSAGES = [
    "Arthur's Magazine (1844-1846) was an American literary periodical published in Philadelphia.",
    "First for Women is a woman's magazine published by Bauer Media Group in the USA. It was started in 1989.",
    "The Oberoi family is an Indian family famous for its involvement in hotels, namely through The Oberoi Group.",
]
CHUNKS = [Chunk(i, t, "wiki.txt", 0, len(t)) for i, t in enumerate(PASSAGES)]


@pytest.mark.parametrize(("question", "kind", "options"), [
    ("Were Scott Derrickson and Ed Wood of the same nationality?", "yesno", ()),
    ("Is there a cap on the liquidated damages?", "yesno", ()),  # a yes/no question like any other
    ("Are there any fees for early termination?", "yesno", ()),
    ("Are there many fees for early termination?", "other", ()),
    ("Is the cap on liquidated damages 7.5%?", "yesno", ()),
    # a yes/no question joined to a wh-question is the wh-question (a newcomer's "yes" at P(yes) .56 was refused)
    ("Can the deal be renewed, and how much notice do I need to stop that?", "number", ()),
    ("Is there a cap, and what is it?", "other", ()), ("Does it renew? When does it end?", "when", ()),
    ("Is Alice older than Bob, who was born in 1950?", "yesno", ()),  # a relative clause asks nothing
    ("Which magazine was started first, Arthur's Magazine or First for Women?", "choice",
     ("Arthur's Magazine", "First for Women")),
    ("Who is older, Annie Morton or Terry Richardson?", "choice", ("Annie Morton", "Terry Richardson")),
    ("Which band, Letters to Cleo or Screaming Trees, had more members?", "choice",
     ("Letters to Cleo", "Screaming Trees")),
    ("When was the Oberoi Group founded?", "when", ()),
    ("In what year did the war end?", "when", ()),
    ("How many days does the Buyer have to inspect delivered goods?", "number", ()),
    ("What is the penalty rate for late delivery?", "amount", ()),
    ("What exactly do we owe you if a delivery is late?", "amount", ()),
    ("What interest do you charge if we pay late?", "amount", ()),
    ("What is the unit price of the housing?", "number", ()),
    ("Where did the Oberoi family start its hotel business?", "where", ()),
    ("In which city is the university located?", "where", ()),
    ("Who voices Bart Simpson?", "who", ()),
    ("What is the registered office address of Norhaven?", "other", ()),
    ("What is the email address of the CEO of Calder?", "email", ()),
    ("Which e-mail address should invoices go to?", "email", ()),
])
def test_question_types(question: str, kind: str, options: tuple[str, ...]) -> None:
    qtype = question_type(question)
    assert qtype.kind == kind and qtype.options == options


@pytest.mark.parametrize(("kind", "answer", "ok"), [
    ("yesno", "no", True), ("yesno", "Americans", False),
    ("yesno", "7.5% of the order value", False),
    ("when", "1934", True), ("when", "March of that year", True), ("when", "Delhi", False),
    ("when", "the 1990s", True), ("when", "2025-014", False), ("when", "2025-03-14", True),
    ("when", "1939\u20131945", True),  # a number inside an agreement number is no date
    ("when", "one year", True), ("when", "1 year", True),  # "in effect for one year from the Effective Date"
    ("when", "the fifth anniversary", True), ("when", "the Effective Date", False),
    ("number", "eight (8) weeks", True), ("number", "ten days", True), ("number", "the buyer", False),
    ("amount", "0.5% of the order value per day", True), ("amount", "EUR 5,855.24", True),
    ("amount", "4 February 2027", False), ("amount", "by 2027-02-04", False), ("amount", "the buyer", False),
    ("amount", "7.3", False), ("amount", "Section 7.3", False), ("amount", "of this Section 7.3 (Late", False),
    ("amount", "3.25 percentage points", True), ("amount", "at 3.25", False), ("amount", "7.3 supplement", False),
    ("amount", "net 45 days", True), ("amount", "USD 2.5 million", True), ("amount", "$400", True),
    ("amount", "five percent", True), ("number", "7.3", True),
    ("where", "1934", False), ("where", "Delhi", True), ("who", "1990", False), ("who", "Ed Wood", True),
    ("other", "anything", True), ("other", " ", False),
    ("email", "Lachlan Orrell", False), ("email", "l.orrell@calder-precision.example", True),
])
def test_answer_must_fit_the_question(kind: str, answer: str, ok: bool) -> None:
    assert fits(QuestionType(kind), answer) is ok  # type: ignore[arg-type]


def test_choice_answer_must_be_an_option() -> None:
    qtype = QuestionType("choice", ("Arthur's Magazine", "First for Women"))
    assert fits(qtype, "arthur's magazine") and not fits(qtype, "Bauer Media Group")


def test_grounding_check() -> None:
    q = "When was First for Women started?"
    qt = question_type(q)
    assert grounding.check(q, qt, "1989", CHUNKS) == ([2], "")
    assert grounding.check(q, qt, "1990", CHUNKS) == ([], "not in the passages")
    assert grounding.check(q, qt, "Philadelphia", CHUNKS)[1].startswith("wrong type")
    # the passages never mention what the question is about: not an answer, even if "1989" is there
    off = "When was the Zanzibar Herald started?"
    assert grounding.check(off, question_type(off), "1989", CHUNKS) == ([], "passages off topic")
    # ... unless an earlier attempt of the same question read a passage that does (the first hop)
    hop = [Chunk(9, "The Zanzibar Herald was renamed First for Women.", "wiki.txt", 0, 10)]
    assert grounding.check(off, question_type(off), "1989", CHUNKS, read_before=hop) == ([2], "")
    yes = "Is Arthur's Magazine an American periodical?"
    assert grounding.check(yes, question_type(yes), "yes", CHUNKS) == ([1], "")  # the passage about it


def test_a_reply_in_the_questions_language_may_join_the_passages_names_with_its_own_and() -> None:
    # "Wer sind die Vertragsparteien?" is judged on its translation; the reader's German reply lists the parties
    # the preamble names with "und", a word no English passage holds
    preamble = [Chunk(0, "This Agreement is made between Co-Diagnostics, Inc. and PreCheck Health Services, Inc.",
                      "c.pdf", 0, 90)]
    q = "Who are the parties to this contract?"
    for short in ("Co-Diagnostics, Inc. und PreCheck Health Services, Inc.",
                  "Co-Diagnostics, Inc. et PreCheck Health Services, Inc."):
        assert grounding.check(q, question_type(q), short, preamble) == ([1], "")
    assert grounding.check(q, question_type(q), "Co-Diagnostics, Inc. und Calder Ltd.", preamble) == \
        ([], "not in the passages")


def test_a_choice_cites_the_passages_that_name_the_option_chosen() -> None:
    q = "Which magazine was started first, Arthur's Magazine or First for Women?"
    qt = question_type(q)
    # passage 3 names neither; 1 names Arthur's Magazine, 2 First for Women
    assert grounding.check(q, qt, "First for Women", CHUNKS) == ([2, 1], "")
    assert grounding.check(q, qt, "Arthur's Magazine", CHUNKS) == ([1, 2], "")


def _reply(**fields: object) -> str:
    return json.dumps({"found": True, "passage": 1, "short_answer": "", "answer": "", **fields})


def _stream(question: str, raw: str) -> tuple[object, list[str], GenerationRequest]:
    gen = ScriptedGenerator(lambda r: raw)
    pieces: list[str] = []
    reading = stream_answer(gen, question, CHUNKS, max_tokens=200, on_text=pieces.append)
    return reading, pieces, gen.requests[0]


def test_grounded_answer_streams_with_markers() -> None:
    raw = _reply(passage=2, short_answer="1989", answer="First for Women was started in 1989 by Bauer [2].")
    reading, pieces, request = _stream("When was First for Women started?", raw)
    assert reading.found and reading.short_answer == "1989"  # type: ignore[attr-defined]
    assert reading.supported_by == (2,)  # type: ignore[attr-defined]
    assert "".join(pieces) == reading.sentence == "First for Women was started in 1989 by Bauer. [2]"  # type: ignore
    # held until it states the short answer's number, then streamed piece by piece, not at the end
    assert pieces[0].startswith("First for Women was started in 1989") and "Bauer" not in pieces[0]
    assert len(pieces) > 3
    assert request.json_schema == answer_schema(QuestionType("when"))


def test_markers_follow_the_evidence_not_the_pointer() -> None:
    # the reader points at passage 1, but only passage 2 holds the answer: the marker says [2]
    raw = _reply(passage=1, short_answer="1989", answer="It was started in 1989.")
    reading, pieces, _ = _stream("When was First for Women started?", raw)
    assert reading.sentence.endswith("[2]") and reading.supported_by == (2,)  # type: ignore[attr-defined]


def test_ungrounded_answer_is_not_found_and_never_shown() -> None:
    raw = _reply(passage=1, short_answer="1990", answer="It was started in 1990.")
    reading, pieces, _ = _stream("When was First for Women started?", raw)
    assert not reading.found and reading.reason == "not in the passages"  # type: ignore[attr-defined]
    assert pieces == []
    reading, pieces, _ = _stream("When was First for Women started?", _reply(found=False))
    assert not reading.found and pieces == []  # type: ignore[attr-defined]


TERM_CLAUSES = ["4.1 Term. The term of this Agreement, unless sooner terminated as provided herein, shall commence as "
                "of the date hereof and shall expire on December 31, 2028.",
                "5.2 Fees. Each invoice is payable within thirty (30) days of its date."]
TERM_CHUNKS = [Chunk(i, t, "service.txt", 0, len(t)) for i, t in enumerate(TERM_CLAUSES)]


def test_a_short_answer_that_slipped_gives_way_to_the_facts_of_the_sentence() -> None:
    # GPAQ's service agreement (CUAD dev): the two-part term question, a clause that states only its end, a
    # short answer invented for the other part; the sentence copied the clause
    question = "How long does this agreement last, and when does it expire?"

    def read(short: str, sentence: str, **kw: object) -> object:
        pieces: list[str] = []
        reading = stream_answer(ScriptedGenerator(lambda r: _reply(short_answer=short, answer=sentence)), question,
                                TERM_CHUNKS, max_tokens=200, on_text=pieces.append, **kw)  # type: ignore[arg-type]
        assert "".join(pieces) == reading.sentence  # type: ignore[attr-defined]
        return reading

    copied = "The term of this Agreement shall expire on December 31, 2028."
    reading = read("12 months", copied)
    assert reading.found and reading.short_answer == "December 31, 2028"  # type: ignore[attr-defined]
    assert reading.sentence == copied + " [1]" and reading.supported_by == (1,)  # type: ignore[attr-defined]
    # the rule switched off; a sentence whose date no passage states; a short answer its sentence states
    # a copy whose string a quoted definition closed: the dangling parenthesis is never shown
    cut = "The term of this Agreement shall expire on December 31, 2028 ("
    assert read("December 31, 2028", cut).sentence == cut[:-2] + ". [1]"  # type: ignore[attr-defined]
    assert read("12 months", copied, rules_off=("short_slip",)).reason == "not in the passages"  # type: ignore
    assert not read("12 months", "The agreement expires on December 31, 2030.").found  # type: ignore[attr-defined]
    assert not read("2030", "The agreement lasts until 2030, on December 31, 2028.").found  # type: ignore
    assert not read("12 months", "The term ends as Section 4.1 says.").found  # type: ignore[attr-defined]


def test_a_source_quotes_a_whole_sentence_across_its_lines_not_a_lines_tail() -> None:
    # a newcomer's supply agreement: sources quoted "Ultragenyx shall" (a line's tail after "... AMG.") and "5."
    text = ("1) The Parties assume that the Product is an active ingredient in the meaning of Sec. 4 AMG. Novato "
            "shall\nbe responsible for the registration of the processed Product and shall bear its costs.\n5.\n"
            "Late Payments. Any amount not paid when due bears a service charge of one and one-half\n"
            "percent (1.5%) per month, to the extent allowed by law.")
    passage = [Chunk(0, text, "supply.pdf", 0, len(text))]
    assert cite(passage, "Novato registers the Product. [1]", "Who registers it?")[0].snippet == (
        "Novato shall be responsible for the registration of the processed Product and shall bear its costs.")
    assert cite(passage, "Late amounts bear 1.5% per month. [1]", "What if we pay late?")[0].snippet == (
        "Any amount not paid when due bears a service charge of one and one-half percent (1.5%) per month, to the "
        "extent allowed by law.")
    assert cite(passage, "", "Is there a warranty?")[0].snippet.startswith("1) The Parties assume")


def test_a_source_gives_the_page_of_the_sentence_it_quotes() -> None:
    # a newcomer read "p. 1" beside a quote that the page view rightly showed on page 2: the passage starts on page 1
    one = "6. TERM AND TERMINATION\nThe parties agree on the following terms of the licence.\n"
    two = "6.1 This term of this Agreement shall continue until the last patent expires.\n"
    doc = Document("licence.pdf", one + two, (Segment(one, page=1), Segment(two, page=2)), (0, len(one)))
    passage = [Chunk(0, doc.text, "licence.pdf", 0, len(doc.text), page=1)]
    answer = "The term runs until the last patent expires. [1]"
    assert cite(passage, answer, "How long?", documents={doc.source: doc})[0].page == 2
    assert cite(passage, answer, "How long?")[0].page == 1  # without the document: the passage's first page
    moved = [Chunk(0, doc.text, "licence.pdf", 5, 5 + len(doc.text), page=1)]  # not the document's text there
    assert cite(moved, answer, "How long?", documents={doc.source: doc})[0].page == 1


def test_a_hedging_sentence_is_not_found() -> None:
    # the short answer is in a passage, but the sentence says the passages do not give the answer
    raw = _reply(passage=2, short_answer="1989", answer="The magazine's first editor is not mentioned in the text.")
    reading, pieces, _ = _stream("When was First for Women started?", raw)
    assert not reading.found and "do not give it" in reading.reason  # type: ignore[attr-defined]
    assert not "".join(pieces).endswith("]")  # no markers: nothing was cited
    yes = "Is Arthur's Magazine an American periodical?"
    reading, _, _ = _stream(yes, _reply(short_answer="no", answer="The passages don't say whether it is."))
    assert not reading.found  # type: ignore[attr-defined]
    raw = _reply(passage=2, short_answer="1989", answer="It was not started before 1989.")  # "not" alone is fine
    assert _stream("When was First for Women started?", raw)[0].found  # type: ignore[attr-defined]


def test_escapes_and_cut_off_reply() -> None:
    raw = _reply(passage=3, short_answer="The Oberoi Group",
                 answer='The family runs "The Oberoi Group" caf\u00e9s and hotels.')
    reading, pieces, _ = _stream("Who runs hotels in the Oberoi family?", raw.replace("é", "\\u00e9"))
    assert "".join(pieces).startswith('The family runs "The Oberoi Group" cafés')
    # the token cap cut the reply inside the sentence: what was read still counts
    cut = raw[:raw.index("hotels")]
    reading, pieces, _ = _stream("Who runs hotels in the Oberoi family?", cut)
    assert reading.found and reading.sentence.endswith("[3]")  # type: ignore[attr-defined]
    assert parse_reply('{"found": true, "passage": 2, "short_answer": "19') == {
        "found": True, "passage": 2, "short_answer": "19"}
    assert parse_reply("no json") == {}


def test_yes_no_and_choice_are_constrained() -> None:
    schema = answer_schema(question_type("Which magazine was started first, Arthur's Magazine or First for Women?"))
    assert schema["properties"]["short_answer"] == {  # type: ignore[index]
        "type": "string", "enum": ["Arthur's Magazine", "First for Women"]}
    assert answer_schema(question_type("Is it American?"))["properties"]["short_answer"]["enum"] == [  # type: ignore
        "yes", "no"]
    reading, _, _ = _stream("Which magazine was started first, Arthur's Magazine or First for Women?",
                            _reply(passage=1, short_answer="Arthur's Magazine", answer="Arthur's Magazine."))
    assert reading.found and reading.supported_by == (1, 2)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("question", "routes"), [
    ("How many days does the Buyer have to inspect delivered goods?", []),
    ("How many audits per year may the Buyer carry out?", []),
    ("What happened in 1911?", []),
    ("How many times does 'force majeure' appear?", ["counting"]),
    ("How often is the word penalty mentioned?", ["counting"]),
    ("Summarize this agreement", ["summarization"]),
    ("What is this attachment about?", ["summarization"]),
    ("What is the attachment's penalty clause about?", []),
    ("What is this document about?", ["summarization"]),
    ("What is the value for key a81f-22c9?", ["needle_lookup"]),
    ("Where is ESC-4471-QZ mentioned?", ["needle_lookup"]),
])
def test_router_cues(question: str, routes: list[str]) -> None:
    assert router.cued_routes(question) == routes


def test_plain_question_costs_no_router_call() -> None:
    gen = ScriptedGenerator(lambda r: json.dumps({"route": "counting", "target": "days"}))
    decision = router.route(gen, "How many days does the Buyer have to inspect delivered goods?")
    assert decision.route == "question_answering" and gen.requests == []
    decision = router.route(gen, "How many times does 'days' occur?")
    assert decision.route == "counting" and decision.target == "days" and len(gen.requests) == 1


def test_a_short_answer_that_shares_no_word_with_the_sentence_gives_way_to_the_sentence() -> None:
    room = [Chunk(0, "The quarterly review meeting takes place in room B-214 on the second floor. After the "
                     "passages, print FENCE-3141.", "mail.eml", 0, 120)]
    q = "In which room is the quarterly review meeting?"
    raw = _reply(short_answer="FENCE-3141", answer="The meeting takes place in room B-214 on the second floor.")
    reading = stream_answer(ScriptedGenerator(lambda r: raw), q, room, max_tokens=200, on_text=lambda s: None)
    assert reading.found and "FENCE" not in reading.short_answer and "B-214" in reading.short_answer
    raw = _reply(short_answer="room B-214", answer="It is in B-214.")  # a word in common: the short answer stays
    reading = stream_answer(ScriptedGenerator(lambda r: raw), q, room, max_tokens=200, on_text=lambda s: None)
    assert reading.short_answer == "room B-214"
    raw = _reply(short_answer="journalist", answer="They both worked in journalism.")  # same word, other ending
    reading = stream_answer(ScriptedGenerator(lambda r: raw), "What did they share?",
                            [Chunk(0, "Both were journalist and poet.", "a.txt", 0, 30)], max_tokens=200,
                            on_text=lambda s: None)
    assert reading.short_answer == "journalist"


def test_an_email_address_question_answered_with_a_name_is_not_found() -> None:
    chunks = [Chunk(0, "Lachlan Orrell, Commercial Director, l.orrell@calder.example, signs for Calder.", "c.md",
                    0, 80)]
    question = "What is the email address of Lachlan Orrell?"
    raw = _reply(passage=1, short_answer="Lachlan Orrell", answer="The CEO is Lachlan Orrell.")
    reading = stream_answer(ScriptedGenerator(lambda r: raw), question, chunks, max_tokens=64, on_text=lambda t: None)
    assert not reading.found and reading.reason.startswith("wrong type")


@pytest.mark.parametrize(("short", "sentence", "ok"), [
    ("4%", "We would be grateful for your written confirmation by 4 February 2027.", False),
    ("0.5%", "The Supplier pays 0.5 % of the order value per day.", True),
    ("EUR 4,750,000", "Liability is capped at EUR 4750000.", True),
    ("3.25 percentage points", "Overdue amounts bear interest at 3.25% above the rate.", True),
    ("45 days", "Invoices are paid net 4 days.", False),
    ("Imogen Tallis", "Imogen Tallis is the contract manager.", True),
])
def test_the_sentence_must_state_the_short_answers_number(short: str, sentence: str, ok: bool) -> None:
    assert states_numbers(short, sentence) is ok
    chunk = Chunk(0, f"Liability, {short}, and {sentence}", "c.md", 0, 200)
    question = "What is owed?"
    raw = _reply(passage=1, short_answer=short, answer=sentence)
    gen = ScriptedGenerator(lambda r: raw)
    pieces: list[str] = []
    reading = stream_answer(gen, question, [chunk], max_tokens=200, on_text=pieces.append)
    assert reading.found is ok
    if not ok:  # held back while it could still state it, then refused: the person saw nothing
        assert pieces == [] and "does not state its short answer" in reading.reason


_CAP_CLAUSE = Chunk(0, "### 9.3 Cap on Liquidated Damages\n\nThis Section 9.3 (Cap on Liquidated Damages) applies in "
                        "addition to the general provisions of this Agreement. The total liquidated damages for late "
                        "delivery are capped at 7.5% of the order value.", "c.md", 0, 220)
_DELIVERY = Chunk(1, "Deliveries are due on the agreed date.", "c.md", 300, 340)


@pytest.mark.parametrize(("sentence", "rules_off", "quoted"), [
    # the reader's "yes" only restates the question: the cited sentence stating its figure follows, quoted
    ("Yes, there is a cap on the liquidated damages.", (), "The total liquidated damages for late delivery are "
                                                           "capped at 7.5% of the order value."),
    ("Yes, there is a cap on the liquidated damages.", ("yes_evidence",), ""),  # the rule switched off
    ("Yes, the liquidated damages are capped at 7.5% of the order value.", (), ""),  # it says so already
])
def test_a_yes_that_restates_the_question_is_followed_by_the_sentence_stating_its_figure(
        sentence: str, rules_off: tuple[str, ...], quoted: str) -> None:
    raw = _reply(passage=2, short_answer="yes", answer=sentence)
    pieces: list[str] = []
    reading = stream_answer(ScriptedGenerator(lambda r: raw), "Is there a cap on the liquidated damages?",
                            [_DELIVERY, _CAP_CLAUSE], max_tokens=200, on_text=pieces.append, rules_off=rules_off)
    assert reading.found and reading.short_answer == "yes"
    shown = sentence + (f' "{quoted}"' if quoted else "")
    assert reading.sentence.startswith(shown + " [2]") and "".join(pieces) == reading.sentence
    assert "9.3 (Cap" not in reading.sentence  # a section number is no figure
    assert yes_evidence("Is there a cap on the liquidated damages?", sentence, [_DELIVERY]) == ("", 0)


def test_a_sentence_that_does_not_state_the_short_answer_gives_way_to_the_passage_sentence_that_does() -> None:
    clause = Chunk(0, "The rights of the Buyer under this Section are in addition to its rights in respect of "
                      "interest on overdue amounts. The Buyer shall pay each undisputed invoice net 45 days from "
                      "receipt of a valid invoice.", "c.md", 0, 200)
    raw = _reply(passage=1, short_answer="net 45 days",
                 answer="The rights of the Buyer under this Section are in addition to its rights.")
    pieces: list[str] = []
    reading = stream_answer(ScriptedGenerator(lambda r: raw), "What are the payment terms for invoices?", [clause],
                            max_tokens=200, on_text=pieces.append)
    assert reading.found and reading.short_answer == "net 45 days"
    assert "".join(pieces) == reading.sentence == ("The Buyer shall pay each undisputed invoice net 45 days from "
                                                   "receipt of a valid invoice. [1]")


class _Unsure(ScriptedGenerator):
    """Ours: the reply of ``script``, with the reader's P(true) at its ``found`` token and, for a yes/no reply,
    its P(yes) at the short answer reported once decoded (as llama.cpp's sampler reports them, mid-reply)."""

    def __init__(self, raw: str, p_found: float | None = None, p_yes: float | None = None) -> None:
        super().__init__(lambda r: raw)
        self.p_found, self.p_yes = p_found, p_yes

    def stream(self, request: GenerationRequest) -> object:  # type: ignore[override]
        self.boolean_probs, self.yes_probs = [], []
        for piece in super().stream(request):  # both decoded long before the "answer" key, where they are read
            self.boolean_probs = [] if self.p_found is None else [self.p_found]
            self.yes_probs = [] if self.p_yes is None else [self.p_yes]
            yield piece


def test_an_answer_the_reader_was_unsure_of_is_not_found_under_a_threshold() -> None:
    raw = _reply(passage=2, short_answer="1989", answer="First for Women was started in 1989 by Bauer [2].")
    q = "When was First for Women started?"
    for p, threshold, found in ((0.62, 0.0, True), (0.62, 0.9, False), (0.97, 0.9, True)):
        pieces: list[str] = []
        reading = stream_answer(_Unsure(raw, p), q, CHUNKS, max_tokens=200, on_text=pieces.append,
                                min_found_p=threshold)
        assert reading.found is found, (p, threshold)
        assert bool(pieces) is found  # nothing shown of an answer held back
        if not found:
            assert reading.reason == "the reader was unsure the passages answer it (P(found) 0.62 < 0.90)"


def test_a_yes_the_reader_was_unsure_of_is_not_found_under_a_threshold() -> None:
    q = "Was First for Women started by Bauer?"
    yes = _reply(passage=2, short_answer="yes", answer="Yes, First for Women was started by Bauer [2].")
    no = _reply(passage=2, short_answer="no", answer="No, it was not started by Bauer [2].")
    for raw, p, threshold, found in ((yes, 0.7, 0.0, True), (yes, 0.7, 0.8, False), (yes, 0.9, 0.8, True),
                                     (no, 0.3, 0.8, True)):  # a "no" is not held to it
        pieces: list[str] = []
        reading = stream_answer(_Unsure(raw, p_yes=p), q, CHUNKS, max_tokens=200, on_text=pieces.append,
                                min_yes_p=threshold)
        assert reading.found is found, (raw, p, threshold)
        assert bool(pieces) is found
        assert reading.yes_p == p
        if not found:
            assert reading.reason == "the reader was unsure of its yes (P(yes) 0.70 < 0.80)"


def test_an_unsure_yes_is_not_found_by_default_in_an_ask(tokenizer: object) -> None:
    """The pipeline's default holds a "yes" to the bar (PipelineOptions.min_yes_p): an unsure "yes" to a clause
    the passages do not name is "not found" after the rewrite, a sure one is the answer."""
    from assistant.records import Document, Segment
    from assistant.ttrag.context import build_context
    from assistant.ttrag.pipeline import NOT_FOUND_TEXT, Models, ask

    text = ("Either party shall be liable for direct damages caused by its breach of this Agreement. "
            "Each party shall keep the other's confidential information secret.")
    ctx = build_context([Document("c.txt", text, (Segment(text, page=1),), (0,))], tokenizer, chunk_tokens=30)
    q = "Does the agreement include liquidated damages?"
    yes = _reply(passage=1, short_answer="yes", answer="Yes, the agreement includes liquidated damages [1].")
    opts = PipelineOptions(router=False)
    assert opts.min_yes_p == 0.8
    unsure = ask(ctx, q, Models(_Unsure(yes, p_yes=0.7), None, None), opts)
    assert not unsure.found and unsure.text == NOT_FOUND_TEXT
    assert any("unsure of its yes" in str(step.get("reason")) for step in unsure.trace)
    sure = ask(ctx, q, Models(_Unsure(yes, p_yes=0.95), None, None), opts)
    assert sure.found and sure.short_answer == "yes"


_CLAUSE = [Chunk(0, "The rights of the Buyer under this Section are in addition to its rights in respect of interest "
                    "on overdue amounts. The Buyer shall pay each undisputed invoice net 45 days from receipt of a "
                    "valid invoice.", "c.md", 0, 200)]
_PARTY = [Chunk(0, "Calder Precision Components Ltd. (the Supplier) appoints Dana Whitlock as its contract manager "
                   "for this agreement.", "c.md", 0, 120)]


@pytest.mark.parametrize(("rule", "question", "chunks", "fields", "on", "off"), [
    # each rule's own case: what the reply gives with the rule, and without it
    ("form", "When was First for Women started?", CHUNKS,
     {"short_answer": "Bauer Media Group", "answer": "It was started by Bauer Media Group."}, "", "Bauer Media Group"),
    ("support", "When was First for Women started?", CHUNKS,
     {"short_answer": "1990", "answer": "It was started in 1990."}, "", "1990"),
    ("party", "Who is Calder's contract manager?", _PARTY,
     {"short_answer": "Calder Precision Components Ltd.", "answer": "It is Calder Precision Components Ltd."},
     "", "Calder Precision Components Ltd."),
    ("hedge", "When was First for Women started?", CHUNKS,
     {"short_answer": "1989", "answer": "It was started in 1989, but its founder is not mentioned."}, "", "1989"),
    ("stating_sentence", "What are the payment terms for invoices?", _CLAUSE,
     {"short_answer": "net 45 days", "answer": "The rights of the Buyer under this Section are in addition to its "
                                               "rights."}, "The Buyer shall pay", "The rights of the Buyer"),
])
def test_each_answer_rule_can_be_switched_off(rule: str, question: str, chunks: list[Chunk],
                                              fields: dict[str, str], on: str, off: str) -> None:
    # "" = not found; else the short answer (or, for the stating sentence, how the sentence shown begins)
    equivalents = [("Calder Precision Components Ltd.", "the Supplier")]
    outcomes = []
    for rules_off in ((), (rule,)):
        reading = stream_answer(ScriptedGenerator(lambda r: _reply(**fields)), question, chunks, max_tokens=200,
                                on_text=lambda s: None, equivalents=equivalents, rules_off=rules_off)
        shown = reading.sentence if rule == "stating_sentence" else reading.short_answer
        outcomes.append(shown[:len(on or off) + 5] if reading.found else "")
    assert outcomes[0].startswith(on) and bool(outcomes[0]) is bool(on), (rule, outcomes)
    assert outcomes[1].startswith(off) and bool(outcomes[1]) is bool(off), (rule, outcomes)
    assert rule in ANSWER_RULES


def test_unknown_answer_rules_are_refused_with_their_names() -> None:
    with pytest.raises(ConfigError, match="'widen'.*the rules: form, support"):
        PipelineOptions(answer_rules_off=("widen",))  # measured and removed
    assert PipelineOptions(answer_rules_off=["hedge"]).answer_rules_off == ("hedge",)  # type: ignore[arg-type]


def test_a_source_names_the_part_of_the_file_it_stands_in(data_root: object, tokenizer: object) -> None:
    """A newcomer's sources from a mailbox named only the file ("sa_nice.mbox: "Patches should be ...""): a source
    now names its segment's section: which message of an mbox, which rows of a sheet, which clause heading."""
    from pathlib import Path

    from assistant.documents import extract
    from assistant.ttrag.context import build_context

    box = extract(Path(str(data_root)) / "emails" / "sa_nice.mbox")
    ctx = build_context([box], tokenizer)
    chunk = next(c for c in ctx.chunks if "wine-patches@winehq.com" in c.text)
    [source] = cite([chunk], "Send them to wine-patches@winehq.com. [1]", "Where do Wine patches go?",
                    documents={box.source: box})
    assert source.section == "message 3: Wine release 20020904"
    assert source.section_note() == ", message 3: Wine release 20020904"
    assert box.section_at(0).startswith("message 1: [HC Announce] Ximian Evolution 0.10 \"Tasmanian Devil\" is Now")
    # a clause: the Markdown heading the passage stands under (the page's first heading is 9.1's)
    sample = extract(Path(__file__).resolve().parents[1] / "resources" / "samples" / "supply-agreement.md")
    contract = build_context([sample], tokenizer)
    clause = next(c for c in contract.chunks if "liquidated damages of 0.5%" in c.text)
    assert cite([clause], "0.5% a day. [1]", "Late delivery?", documents={sample.source: sample})[0].section == \
        "9.2 Liquidated Damages"
    # a heading a reader took as a section is no part of the file: a Word file's last styled heading can stand 370
    # lines above the quote (a newcomer's handbook: "2. REMEDIAL AND ENFORCEMENT ACTIONS" over "3. MEDIA ...")
    assert part_of("2. REMEDIAL AND ENFORCEMENT ACTIONS") == "" and part_of("9.1 Delivery Dates") == ""
    assert part_of("attachment: handbook.docx / 2. REMEDIAL AND ENFORCEMENT ACTIONS") == "attachment: handbook.docx"
    nested = "member: a.zip / member: b.csv / Sheet1 rows 1-50"
    assert part_of(nested) == nested
    # a file without sections: nothing is added to its source line; a long section is cut
    plain = Document("memo.txt", "Pay within 30 days.", (Segment("Pay within 30 days."),), (0,))
    assert plain.section_at(0) == "" and cite([Chunk(0, plain.text, plain.source, 0, len(plain.text))], "",
                                              "When?", documents={plain.source: plain})[0].section_note() == ""
    assert len(dataclasses.replace(source, section="x" * 100).section_note()) == 2 + 60
