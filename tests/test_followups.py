"""Follow-up questions (docs/how-it-answers.md): the standalone rewrite, the no-call path, the history bound, carried
sources, the export, and `assistant chat` with /new and /export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ScriptedGenerator

from assistant.config import Settings
from assistant.models.base import GenerationRequest, Generator
from assistant.records import Answer, Document, Segment, Source
from assistant.service import ModelStore, Session
from assistant.ttrag import prefilter
from assistant.ttrag.context import build_context
from assistant.ttrag.conversation import (
    Conversation,
    Turn,
    answer_items,
    check_standalone,
    context_cues,
    history_window,
    needs_context,
    render_turn,
    resolve,
    resolve_ordinal,
)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "samples" / "supply-agreement.md"
ROUTE = '{"route": "question_answering", "target": ""}'


def _answer(question: str, text: str, *sources: Source, found: bool = True) -> Answer:
    return Answer(question=question, text=text, found=found, route="question_answering", sources=tuple(sources),
                  rewrites=(), timings={}, usage=())


PENALTY = Turn("What is the penalty for late delivery?", "What is the penalty for late delivery?", _answer(
    "What is the penalty for late delivery?", "The penalty is 0.5% of the order value per calendar day. [1]",
    Source(1, "supply-agreement.md", 39, 0, 100, "liquidated damages of 0.5% of the order value per day", 7)))
SITES = Turn("Which sites receive deliveries?", "Which sites receive deliveries?", _answer(
    "Which sites receive deliveries?", "Bremen Assembly Plant, Leer Sterile Packaging Centre and Rheine Service "
    "Hub. [1]", Source(1, "supply-agreement.md", 136, 0, 100, "Bremen Assembly Plant, Hafenrandweg 41", 9)))


# ---- "the second one": resolved from the last answer's list (no model) ----

def test_the_second_one_is_taken_from_the_last_answers_list() -> None:
    assert answer_items(SITES.answer.text) == ["Bremen Assembly Plant", "Leer Sterile Packaging Centre",
                                               "Rheine Service Hub"]
    assert answer_items("The sites are Bremen, Leer and Rheine. [2]") == ["Bremen", "Leer", "Rheine"]
    assert answer_items(PENALTY.answer.text) == []  # a sentence, not a list
    assert resolve_ordinal("What is the address of the second one?", [SITES]) == \
        "What is the address of Leer Sterile Packaging Centre?"
    assert resolve_ordinal("And the last one?", [SITES]) == "And Rheine Service Hub?"
    assert resolve_ordinal("What is the address of the fourth one?", [SITES]) == ""  # only three
    assert resolve_ordinal("What is the address of the second one?", [PENALTY]) == ""


def test_an_ordinal_resolved_from_the_list_needs_no_model_call() -> None:
    generator = ScriptedGenerator(lambda r: '{"question": "should not be asked"}')
    r = resolve(generator, "What is the address of the second one?", [SITES])
    assert r.standalone == "What is the address of Leer Sterile Packaging Centre?" and not r.asked_model
    assert generator.requests == []


# ---- the detector: which questions lean on the conversation (no model) ----

@pytest.mark.parametrize("question", [
    "Is there a cap on it?", "And Norhaven's?", "What is the address of the second one?", "What is her role?",
    "What about Germany?", "and for the second lot?", "Who signs it?", "When does production start there?",
    "Until what time does that dock accept deliveries?", "And for a major one?", "Why?"])
def test_follow_ups_are_detected(question: str) -> None:
    assert context_cues(question)


@pytest.mark.parametrize("question", [
    "What is the penalty for late delivery?", "Is there a clause that allows termination?",
    "What does this agreement say about quality audits?", "Which law governs the supply agreement?",
    "Are there any penalties for late payment?", "Who is Calder's contract manager for this agreement?",
    "Summarise the document", "Summarize this contract"])
def test_self_contained_questions_have_no_cue(question: str) -> None:
    assert context_cues(question) == []


def test_no_model_call_for_a_self_contained_question_or_an_empty_history() -> None:
    generator = ScriptedGenerator(lambda r: '{"question": "should not be asked"}')
    r = resolve(generator, "Which law governs the supply agreement?", [PENALTY])
    assert r.standalone == r.question and not r.asked_model and not r.needs_context
    r = resolve(generator, "Is there a cap on it?", [])  # a first question has nothing to refer to
    assert r.standalone == "Is there a cap on it?" and not r.asked_model
    assert generator.requests == []
    assert needs_context("Is there a cap on it?", [PENALTY]) and not needs_context("Is there a cap on it?", [])


def test_the_follow_up_stage_is_shown_only_around_a_model_call() -> None:
    """The app's status bar shows the ``standalone`` stage only for a question that refers back."""
    generator = ScriptedGenerator(lambda r: '{"question": "Is there a cap on the penalty for late delivery?"}')
    events: list[object] = []
    resolve(generator, "Summarise the contract", [PENALTY], emit=events.append)
    resolve(generator, "What is the address of the second one?", [SITES], emit=events.append)  # no call
    assert events == [] and generator.requests == []
    resolve(generator, "Is there a cap on it?", [PENALTY], emit=events.append)
    assert [(e.stage, e.done, e.detail) for e in events] == [  # type: ignore[attr-defined]
        ("standalone", 0, "\u201cit\u201d"), ("standalone", 1, "\u201cit\u201d")]


# ---- the rewrite with a scripted model: the prompt, the check, the fallback ----

def test_rewrite_uses_the_earlier_turn_and_its_sources() -> None:
    generator = ScriptedGenerator(lambda r: '{"question": "Is there a cap on the penalty for late delivery?"}')
    r = resolve(generator, "Is there a cap on it?", [PENALTY])
    assert r.standalone == "Is there a cap on the penalty for late delivery?" and r.asked_model and not r.reason
    (request,) = generator.requests
    assert request.purpose == "standalone" and request.json_schema is not None
    assert "Q1: What is the penalty for late delivery?" in request.user
    assert "0.5% of the order value" in request.user and "p. 39" in request.user  # answer and source snippet
    assert request.user.rstrip().endswith('{"question": "the standalone question"}')


@pytest.mark.parametrize("reply, reason", [
    ('{"question": "What is the penalty for late delivery?"}', "copied an earlier question"),
    ('{"question": ""}', "empty"),
    ("not json at all", "empty"),
    ('{"question": "The cap is 7.5% of the order value."}', "not a question"),
    ('{"question": "What is the late delivery penalty?"}', "dropped the person's own words"),
])
def test_a_bad_rewrite_falls_back_to_the_person_s_words(reply: str, reason: str) -> None:
    r = resolve(ScriptedGenerator(lambda req: reply), "Is there a cap on it?", [PENALTY])
    assert r.asked_model and r.standalone == "Is there a cap on it?" and reason in r.reason


def test_check_accepts_a_faithful_rewrite() -> None:
    assert check_standalone("What is the address of Leer Sterile Packaging Centre?",
                            "What is the address of the second one?", [SITES]) == ""


# ---- the history bound ----

def _words(text: str) -> int:
    return len(text.split())


class WordCounting(ScriptedGenerator):
    """A scripted generator whose tokens are words (so the bound is easy to reason about)."""

    def count_tokens(self, text: str) -> int:
        return _words(text)


def test_history_keeps_the_newest_turns_within_the_bound_and_reports_the_dropped() -> None:
    turns = [Turn(f"Question {i} about clause {i}?", f"Question {i} about clause {i}?",
                  _answer(f"q{i}", f"Clause {i} says something long enough to count. [1]"))
             for i in range(6)]
    one = _words(history_window(turns[-1:], _words, max_tokens=1000)[0][0])
    rendered, dropped = history_window(turns, _words, max_tokens=3 * one)
    assert (len(rendered), dropped) == (3, 3)
    assert rendered[0].startswith("Q4: Question 3") and rendered[-1].startswith("Q6: Question 5")  # oldest first
    assert sum(_words(t) for t in rendered) <= 3 * one
    assert history_window(turns, _words, max_tokens=1)[1] == 5  # the last turn is always kept
    conversation = Conversation(turns=list(turns), max_history_tokens=3 * one)
    assert conversation.dropped_turns(_words) == 3
    r = resolve(WordCounting(lambda req: '{"question": "What does clause 5 say about it?"}'),
                "What does it say about it?", turns, max_history_tokens=3 * one)
    assert (r.history_turns, r.dropped_turns) == (3, 3)


def test_an_older_long_answer_is_shortened_before_its_turn_is_dropped() -> None:
    """An answer for each of two contracts runs long; the next follow-up keeps its question with the answer's
    first words, not nothing."""
    long_answer = " ".join(["Virtuoso: the laws of the State of Maryland govern this agreement. [1]"] +
                           ["NETGEAR: the laws of the State of California govern it, without regard to its conflict "
                            "of laws rules, and the parties submit to the courts of Santa Clara County. [2]"] * 4)
    turns = [Turn("What law applies?", "What law applies to each agreement?", _answer("law", long_answer)),
             Turn("When does it end?", "When does the NETGEAR agreement end?",
                  _answer("end", "It runs one year from the Effective Date and renews. [1]"))]
    last = _words(history_window(turns[-1:], _words, max_tokens=1000)[0][0])
    rendered, dropped = history_window(turns, _words, max_tokens=last + 40)
    assert dropped == 0
    assert rendered[0].startswith("Q1: What law applies to each agreement?\nA1: Virtuoso: the laws")
    assert rendered[0].endswith(" ...") and _words(rendered[0]) <= 40
    assert history_window(turns, _words, max_tokens=last + 10)[1] == 1  # not even that fits: dropped


def test_history_is_counted_with_the_model_s_tokenizer(fast_llm: Generator) -> None:
    rendered, dropped = history_window([PENALTY, SITES], fast_llm.count_tokens, max_tokens=10_000)
    assert dropped == 0 and len(rendered) == 2
    cost = fast_llm.count_tokens(rendered[-1])
    assert history_window([PENALTY, SITES], fast_llm.count_tokens, max_tokens=cost)[1] == 0  # its sources give way
    alone = fast_llm.count_tokens(render_turn(2, SITES))  # the last turn, its sources left out
    assert history_window([PENALTY, SITES], fast_llm.count_tokens, max_tokens=alone)[1] == 1


# ---- export ----

def test_export_is_markdown_with_questions_rewrites_answers_and_sources() -> None:
    conversation = Conversation()
    conversation.add(PENALTY)
    conversation.add(Turn("Is there a cap on it?", "Is there a cap on the penalty for late delivery?", _answer(
        "Is there a cap on the penalty for late delivery?", "Yes, capped at 7.5% of the order value. [1]",
        Source(1, "/docs/supply-agreement.md", 40, 5, 90, "capped at 7.5% of the order value", 8))))
    md = conversation.to_markdown(about=["/docs/supply-agreement.md"])
    assert md.startswith("# Conversation\n")
    assert "## 2. Is there a cap on it?" in md
    assert "*Answered as:* Is there a cap on the penalty for late delivery?" in md
    assert "1. /docs/supply-agreement.md, p. 40: \u201ccapped at 7.5% of the order value\u201d" in md
    assert md.count("*Answered as:*") == 1  # the first turn was not rewritten
    conversation.clear()
    assert conversation.turns == [] and conversation.carried() == ()


# ---- the service: carried sources, no-call path end to end ----

FACTS = "\n\n".join([f"Clause {i}. Warehouse {i} stores {i * 3} crates of tin." for i in range(30)] +
                    ["Clause 99. Late delivery costs 0.5% of the order value per day.",
                     "Clause 100. Such damages are limited to 7.5% of the order value in total."])


def _session(tokenizer: object, embedder: object, encoder: object, generator: Generator, tmp_path: Path) -> Session:
    store = ModelStore(Settings())
    store._tokenizer, store._embedder, store._encoder = tokenizer, embedder, encoder  # type: ignore[assignment]
    store._generator = generator
    doc = Document(source=str(tmp_path / "terms.md"), text=FACTS, segments=(Segment(FACTS),), offsets=(0,))
    return Session(store, [doc])


def _reply(request: GenerationRequest) -> str:
    if request.purpose == "route":
        return ROUTE
    if request.purpose == "standalone":
        return '{"question": "Are the late delivery damages limited?"}'
    if "limited" in request.user.split("Question:")[-1]:
        return json.dumps({"found": True, "passage": 1, "short_answer": "yes",
                           "answer": "Yes, they are limited to 7.5% of the order value."})
    return json.dumps({"found": True, "passage": 1, "short_answer": "0.5% of the order value per day",
                       "answer": "Late delivery costs 0.5% of the order value per day."})


def test_follow_up_is_rewritten_retrieved_and_answered_with_the_standalone_question(
        tokenizer: object, embedder: object, encoder: object, tmp_path: Path) -> None:
    generator = ScriptedGenerator(_reply)
    session = _session(tokenizer, embedder, encoder, generator, tmp_path)
    conversation = Conversation()
    first = session.ask_followup(conversation, "What does late delivery cost?")
    assert first.standalone == first.question and "standalone" not in [r.purpose for r in generator.requests]
    conversation.add(first)
    generator.requests.clear()
    second = session.ask_followup(conversation, "Are they limited?")
    assert generator.requests[0].purpose == "standalone"
    assert "standalone" not in [r.purpose for r in generator.requests[1:]]
    assert second.question == "Are they limited?" and second.standalone == "Are the late delivery damages limited?"
    assert all(r.user.endswith("Question: Are the late delivery damages limited?")
               for r in generator.requests if r.purpose.startswith("answer"))
    step = second.answer.trace[0]
    assert step["stage"] == "standalone" and step["asked"] == "Are they limited?" and step["llm_call"] is True
    assert "7.5%" in second.answer.text
    assert second.answer.usage[0].purpose == "standalone"
    carried = next(t for t in second.answer.trace if t["stage"] == "prefilter")["carried"]
    assert carried == session.chunk_ids(first.sources) and carried


def test_self_contained_follow_up_spends_no_rewrite_call(tokenizer: object, embedder: object, encoder: object,
                                                        tmp_path: Path) -> None:
    generator = ScriptedGenerator(_reply)
    session = _session(tokenizer, embedder, encoder, generator, tmp_path)
    conversation = Conversation()
    conversation.add(session.ask_followup(conversation, "What does late delivery cost?"))
    turn = session.ask_followup(conversation, "How many crates does warehouse 3 store?")
    assert turn.standalone == turn.question and turn.rewrite is not None and not turn.rewrite.asked_model
    assert "standalone" not in [r.purpose for r in generator.requests]


def test_carried_passages_are_ranked_with_the_rest_not_forced_in(tokenizer: object, embedder: object) -> None:
    doc = Document(source="terms.md", text=FACTS, segments=(Segment(FACTS),), offsets=(0,))
    ctx = build_context([doc], tokenizer, chunk_tokens=24)
    damages = next(c.id for c in ctx.chunks if "7.5%" in c.text)

    def top(query: str, also: list[int]) -> list[int]:
        hits = prefilter.prefilter(ctx, query, embedder, shortlist=5, top_k=3, fusion="dense",  # type: ignore[arg-type]
                                   also=also)
        return [h.chunk.id for h in hits]

    # no word of this follow-up is in the text: BM25 cannot short-list the passage that answered before
    assert damages not in top("Is there a ceiling on the penalty?", [])
    assert top("Is there a ceiling on the penalty?", [damages])[0] == damages  # carried, it ranks first
    assert damages not in top("How many crates does warehouse 7 store?", [damages])  # carried, but not forced in


def test_carried_sources_follow_a_new_context_by_file_and_offset(tokenizer: object, embedder: object,
                                                                  encoder: object, tmp_path: Path) -> None:
    session = _session(tokenizer, embedder, encoder, ScriptedGenerator(_reply), tmp_path)
    chunk = session.context.chunks[3]
    moved = Source(1, chunk.source, chunk.page, chunk.start, chunk.end, "x", chunk_id=999)
    gone = Source(2, "/elsewhere/closed.pdf", 1, 0, 10, "y", chunk_id=3)
    assert session.chunk_ids([moved, gone]) == [3]


# ---- assistant chat ----

def test_chat_new_and_export(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                             tmp_path: Path) -> None:
    from assistant.cli.main import main

    doc = tmp_path / "notes.md"
    doc.write_text("# Notes\n\nThe boiler was serviced on 3 June by Hollis Heating. The service cost 180 pounds.\n")
    out = tmp_path / "chat.md"
    lines = iter(["Who serviced the boiler?", "/export", f"/export {out}", "/new", "/export " + str(tmp_path / "x.md"),
                  "/help", ""])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    before = set(tmp_path.iterdir())
    assert main(["chat", "--fast", "--no-router", str(doc)]) == 0
    err = capsys.readouterr().err
    assert "usage: /export FILE.md" in err and f"Exported 1 question to {out}" in err
    assert "New conversation" in err and "nothing to export yet" in err and "/new starts" in err
    assert set(tmp_path.iterdir()) - before == {out}  # nothing else written
    text = out.read_text()
    assert text.startswith("# Conversation") and "## 1. Who serviced the boiler?" in text and str(doc) in text


@pytest.mark.slow
@pytest.mark.skipif(not SAMPLE.exists(), reason="sample contract missing")
def test_rewrites_with_the_bundled_model(big_llm: Generator) -> None:
    r = resolve(big_llm, "Is there a cap on it?", [PENALTY])
    low = r.standalone.lower()
    assert r.asked_model and not r.reason, r
    assert "cap" in low and ("penalty" in low or "late delivery" in low), r
    r = resolve(big_llm, "What is the address of the second one?", [SITES])
    assert "leer" in r.standalone.lower(), r


@pytest.mark.slow
@pytest.mark.skipif(not SAMPLE.exists(), reason="sample contract missing")
def test_chat_answers_the_issue_example_with_the_cap(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.cli.main import main

    lines = iter(["What is the penalty for late delivery?", "Is there a cap on it?", ""])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["chat", "--trace", str(SAMPLE)]) == 0
    captured = capsys.readouterr()
    between = captured.out.split("\nSources")[1].splitlines()[1:]  # the first sources block, then answer 2
    second = " ".join(line for line in between if not line.startswith("  ["))
    assert "7.5%" in second, captured.out
    assert "answered as:" in captured.err and "'Is there a cap on it?'" in captured.err
    assert "needs_context" in captured.err  # the standalone trace step


# ---- the app's Ask panel ----

def test_ask_panel_shows_the_conversation_exports_and_starts_anew(qtbot: object, tokenizer: object,
                                                                  embedder: object, encoder: object,
                                                                  tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    from assistant.gui.ask_panel import AskPanel
    from assistant.gui.tasks import TaskRunner

    generator = ScriptedGenerator(_reply)
    session = _session(tokenizer, embedder, encoder, generator, tmp_path)
    runner = TaskRunner()
    panel = AskPanel(runner)
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.set_session(session, "terms.md")
    assert not panel.export_button.isEnabled() and not panel.new_button.isEnabled()
    panel.conversation.max_history_tokens = 1  # only the newest turn fits: the note must say so

    def ask(question: str) -> None:
        panel.answer = None
        panel.question.setText(question)
        panel.ask()
        qtbot.waitUntil(lambda: panel.answer is not None, timeout=60000)  # type: ignore[attr-defined]

    ask("What does late delivery cost?")
    assert panel.history.toPlainText() == "" and panel.history_note.isHidden()
    assert panel.history.isHidden()  # no empty box while there is no earlier turn
    ask("Are they limited?")
    assert not panel.history.isHidden()
    assert "7.5%" in panel.answer_text.toPlainText()
    assert "answered as \u201cAre the late delivery damages limited?\u201d" in panel.meta.text()
    assert panel.meta.text().endswith(" s")
    history = panel.history.toPlainText()
    assert "What does late delivery cost?" in history and "0.5%" in history and "Sources: [1] terms.md" in history
    # a 1-token bound keeps only the newest turn (always sent): the first is dropped, and the panel says so
    assert not panel.history_note.isHidden() and "oldest question is no longer used" in panel.history_note.text()
    ask("And are they limited per order?")
    assert "oldest 2 questions are no longer used" in panel.history_note.text()
    panel.history.anchorClicked.emit(QUrlFor("source:0:0"))
    assert panel.passage.title.text().startswith("[1] ")
    out = tmp_path / "conversation.md"
    assert panel.export_to(out) and "Exported 3 questions" in panel.meta.text()
    text = out.read_text()
    assert "## 2. Are they limited?" in text and "*Answered as:* Are the late delivery damages limited?" in text
    assert "terms.md" in text and "7.5%" in text
    assert not panel.export_to(tmp_path / "missing" / "x.md") and "Could not export" in panel.meta.text()
    panel.new_conversation()
    assert panel.conversation.turns == [] and panel.history.toPlainText() == "" and panel.history_note.isHidden()
    assert not panel.export_button.isEnabled()
    generator.requests.clear()
    ask("Are they limited?")  # a new conversation: nothing to refer to, no rewrite call
    assert "standalone" not in [r.purpose for r in generator.requests]
    runner.wait(5000)


def test_adding_a_file_keeps_the_conversation_and_another_context_starts_a_new_one(
        qtbot: object, tokenizer: object, embedder: object, encoder: object, tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    from assistant.gui.ask_panel import AskPanel
    from assistant.gui.tasks import TaskRunner

    session = _session(tokenizer, embedder, encoder, ScriptedGenerator(_reply), tmp_path)
    runner = TaskRunner()
    panel = AskPanel(runner)
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.set_session(session, "terms.md")
    panel.question.setText("What does late delivery cost?")
    panel.ask()
    qtbot.waitUntil(lambda: panel.answer is not None, timeout=60000)  # type: ignore[attr-defined]
    assert len(panel.conversation.turns) == 1
    contract = session.context.documents[0]
    amendment = Document(source=str(tmp_path / "amendment.md"), text="Amendment 1.",
                         segments=(Segment("Amendment 1."),), offsets=(0,))
    panel.set_session(Session(session.store, [contract, amendment]), "terms.md, amendment.md")
    assert len(panel.conversation.turns) == 1  # the amendment joins the contract: "it" still means the same
    panel.set_session(Session(session.store, [amendment]), "amendment.md")
    assert panel.conversation.turns == [] and panel.history.toPlainText() == ""
    assert not panel.export_button.isEnabled()
    runner.wait(5000)


@pytest.mark.slow
@pytest.mark.skipif(not SAMPLE.exists(), reason="sample contract missing")
def test_the_app_answers_the_issue_example_with_the_cap(qtbot: object, big_llm: Generator) -> None:
    """The issue's example in the app's Ask panel, bundled 1.5B model, the 305-page sample contract."""
    pytest.importorskip("PySide6")
    from assistant.documents import extract
    from assistant.gui.ask_panel import AskPanel
    from assistant.gui.tasks import TaskRunner

    store = ModelStore(Settings())
    store._generator = big_llm
    runner = TaskRunner()
    panel = AskPanel(runner)
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.set_session(Session(store, [extract(SAMPLE)]), SAMPLE.name)
    for question in ("What is the penalty for late delivery?", "Is there a cap on it?"):
        panel.answer = None
        panel.question.setText(question)
        panel.ask()
        qtbot.waitUntil(lambda: panel.answer is not None, timeout=240000)  # type: ignore[attr-defined]
    assert "7.5%" in panel.answer_text.toPlainText(), panel.answer_text.toPlainText()
    assert "answered as" in panel.meta.text() and "cap" in panel.meta.text()
    runner.wait(5000)


def QUrlFor(text: str) -> object:  # noqa: N802  (reads like the Qt type it builds)
    from PySide6.QtCore import QUrl

    return QUrl(text)
