"""Languages: detection of questions and documents, per-language BM25, and the translated search."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from conftest import ScriptedGenerator, visible

from assistant.config import PipelineOptions
from assistant.models.base import GenerationRequest
from assistant.records import Document, Retract, Segment, TokenText
from assistant.text.language import document_language, question_language
from assistant.ttrag.context import Context, build_context, chunk_languages
from assistant.ttrag.lexical import Bm25Index
from assistant.ttrag.pipeline import Models, ask, not_found_text
from assistant.ttrag.rewrite import translate_query


@pytest.mark.parametrize(("text", "code"), [
    ("Wie hoch ist die Vertragsstrafe bei verspäteter Lieferung?", "de"),
    ("Quel est le montant de la pénalité en cas de livraison tardive ?", "fr"),
    ("¿Cuál es la penalización por entrega tardía?", "es"),
    ("What is the penalty for late delivery?", "en"),
    ("Wer hat den Vertrag unterschrieben?", "de"),
    ("¿Quién firmó el contrato?", "es"),
])
def test_question_language(text: str, code: str) -> None:
    assert question_language(text, fallback="xx") == code


@pytest.mark.parametrize("text", ["Calder GmbH?", "ESC-4471-QZ", "42"])
def test_a_name_or_code_alone_is_taken_to_be_in_the_documents_language(text: str) -> None:
    assert question_language(text, fallback="it") == "it"


def test_document_language_goes_by_most_of_the_text() -> None:
    german = ("Der Lieferant liefert die Waren monatlich an den Käufer. Bei verspäteter Lieferung zahlt der "
              "Lieferant eine Vertragsstrafe von einem halben Prozent je Woche. ") * 20
    footer = "This e-mail is confidential. If you are not the intended recipient, delete it."
    assert document_language(german[:2500] + footer + german[2500:]) == "de"
    assert document_language(footer) == "en"


def test_a_german_query_finds_a_german_inflected_form() -> None:
    texts = ["Die Lieferungen erfolgen jeden Monat an das Lager in Bremen.",
             "Der Preis der Waren beträgt zehn Euro je Stück.",
             "Die Kündigung ist schriftlich zu erklären."]
    index = Bm25Index(texts, languages=["de"] * 3)
    assert [i for i, _ in index.search("Wann kommt die Lieferung?", 3)] == [0]
    assert index.search("der die das", 3) == []  # German stop words only


def test_a_mixed_index_stems_each_text_in_its_own_language() -> None:
    texts = ["The deliveries arrive at the Bremen warehouse every month.",
             "Die Lieferungen erfolgen jeden Monat.",
             "Prices are fixed for the whole term."]
    index = Bm25Index(texts, languages=["en", "de", "en"])
    assert index.languages == ("en", "de")
    assert index.search("delivery", 3)[0][0] == 0
    assert index.search("Lieferung", 3)[0][0] == 1


def test_build_context_detects_each_documents_language(tokenizer: object) -> None:
    de = "Der Mieter zahlt die Miete bis zum dritten Werktag eines jeden Monats auf das Konto des Vermieters."
    en = "The tenant pays the rent by the third working day of each month into the landlord's account."
    docs = [Document(name, text, (Segment(text, page=1),), (0,)) for name, text in
            (("mietvertrag.txt", de * 3), ("lease.txt", en), ("note.txt", en))]
    ctx = build_context(docs, tokenizer, chunk_tokens=40)
    assert ctx.languages == {"mietvertrag.txt": "de", "lease.txt": "en", "note.txt": "en"}
    assert ctx.language == "de"  # the most text
    assert set(ctx.bm25.languages) == {"de", "en"}


FACTS = [f"Warehouse {i} in the town of Place{i} stores {i * 3} crates of tin." for i in range(60)]
FACTS[41] = "The lighthouse keeper of Skarvik is Ingrid Holm, who took the post in 1911."
FACTS[17] = "Ingrid Holm's birthplace was the village of Ostervik on the northern coast."
GERMAN = "Wo wurde die Leuchtturmwärterin von Skarvik geboren?"
ENGLISH = "Where was the lighthouse keeper of Skarvik born?"


@pytest.fixture(scope="module")
def ctx(tokenizer: object) -> Context:
    text = "\n".join(FACTS)
    return build_context([Document("facts.txt", text, (Segment(text, page=1),), (0,))], tokenizer, chunk_tokens=30)


def _script(r: GenerationRequest) -> str:
    if r.purpose == "translate":
        return f"Translation: \"{ENGLISH}\""
    n = next((i for i, line in enumerate(r.user.split("\n[")[1:], 1) if "Ostervik" in line), 0)
    if not n:
        return json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})
    return json.dumps({"found": True, "passage": n, "short_answer": "Ostervik",
                       "answer": "Ingrid Holm wurde in Ostervik geboren."})


def test_a_question_in_another_language_is_searched_in_the_documents(ctx: Context, embedder: object,
                                                                      encoder: object) -> None:
    gen = ScriptedGenerator(_script)
    events: list[object] = []
    answer = ask(ctx, GERMAN, Models(gen, embedder, encoder), PipelineOptions(router=False),  # type: ignore[arg-type]
                 emit=events.append)
    assert [r.purpose for r in gen.requests] == ["translate", "answer"]
    assert "into English" in gen.requests[0].user and GERMAN in gen.requests[0].user
    step = next(s for s in answer.trace if s["stage"] == "translate")
    assert step == {"stage": "translate", "language": "de", "document_language": "en", "query": ENGLISH}
    assert next(s for s in answer.trace if s["stage"] == "prefilter")["query"] == ENGLISH
    read = gen.requests[1].user
    assert f"Question: {GERMAN}" in read and ENGLISH in read and "a sentence in German" in read
    assert (answer.language, answer.document_language) == ("de", "en")
    # the German sentence (which shares no word with the English passages) is shown as written
    assert answer.found and answer.text.startswith("Ingrid Holm wurde in Ostervik geboren. [")
    assert "".join(e.text for e in events if isinstance(e, TokenText)) == answer.text
    assert any("Ostervik" in s.snippet for s in answer.sources)  # the source quoted as it stands


def test_a_question_in_the_documents_language_is_not_translated(ctx: Context, embedder: object,
                                                                encoder: object) -> None:
    gen = ScriptedGenerator(_script)
    answer = ask(ctx, ENGLISH, Models(gen, embedder, encoder), PipelineOptions(router=False))  # type: ignore[arg-type]
    assert [r.purpose for r in gen.requests] == ["answer"]
    assert (answer.language, answer.document_language) == ("en", "en")
    assert not any(s["stage"] == "translate" for s in answer.trace)


def _copying_reader(translation: str) -> ScriptedGenerator:
    """A reader that answers the German question with the passage's English sentence, and whose translation
    of that sentence is ``translation``."""
    def script(r: GenerationRequest) -> str:
        if r.purpose == "translate":
            return f"Translation: \"{ENGLISH}\""
        if r.purpose == "translate_answer":
            return translation
        n = next((i for i, line in enumerate(r.user.split("\n[")[1:], 1) if "Ostervik" in line), 0)
        return json.dumps({"found": True, "passage": n, "short_answer": "Ostervik",
                           "answer": "Ingrid Holm's birthplace was the village of Ostervik on the northern coast."})
    return ScriptedGenerator(script)


def test_an_answer_written_in_the_documents_language_is_translated_into_the_questions(
        ctx: Context, embedder: object, encoder: object) -> None:
    gen = _copying_reader("Translation: \"Ingrid Holm wurde im Dorf Ostervik an der Nordküste geboren.\"")
    events: list[object] = []
    answer = ask(ctx, GERMAN, Models(gen, embedder, encoder), PipelineOptions(router=False),  # type: ignore[arg-type]
                 emit=events.append)
    assert [r.purpose for r in gen.requests] == ["translate", "answer", "translate_answer"]
    assert "into German" in gen.requests[2].user and "birthplace was the village of Ostervik" in gen.requests[2].user
    assert answer.found and answer.text.startswith("Ingrid Holm wurde im Dorf Ostervik an der Nordküste geboren. [")
    assert answer.short_answer == "Ostervik"
    # the English sentence left the screen: what was streamed, less what was withdrawn, is the answer
    assert any(isinstance(e, Retract) for e in events) and visible(events) == answer.text
    step = next(s for s in answer.trace if s["stage"] == "translate_answer")
    assert step["language"] == "en" and step["kept"] is True


@pytest.mark.parametrize("translation", [
    "Ingrid Holm wurde an der Nordküste geboren.",  # the answer, "Ostervik", lost
    "Ingrid Holm's birthplace was the village of Ostervik, on the northern coast.",  # still English
])
def test_a_translation_that_loses_the_answer_or_the_language_leaves_the_sentence_as_it_was(
        translation: str, ctx: Context, embedder: object, encoder: object) -> None:
    gen = _copying_reader(translation)
    answer = ask(ctx, GERMAN, Models(gen, embedder, encoder), PipelineOptions(router=False))  # type: ignore[arg-type]
    assert [r.purpose for r in gen.requests] == ["translate", "answer", "translate_answer"]
    assert answer.found and answer.text.startswith("Ingrid Holm's birthplace was the village of Ostervik")
    assert next(s for s in answer.trace if s["stage"] == "translate_answer")["kept"] is False


@pytest.mark.slow
def test_the_bundled_model_translates_a_question(big_llm: object) -> None:
    english = translate_query(big_llm, "Wie hoch ist die Vertragsstrafe bei verspäteter Lieferung?",  # type: ignore[arg-type]
                              "English").lower()
    assert "deliver" in english and ("penalty" in english or "damages" in english)


def test_each_part_of_a_mail_is_stemmed_in_its_own_language(tokenizer: object) -> None:
    body = ("Guten Tag Frau Berger, anbei sende ich Ihnen die Lieferbedingungen für das nächste Quartal. Bitte "
            "prüfen Sie die Lieferungen nach Bremen und geben Sie mir bis Freitag Bescheid. Mit freundlichen Grüßen")
    attachment = ("Delivery terms. The supplier delivers the goods to the Bremen warehouse every month. Deliveries "
                  "that arrive late are subject to liquidated damages of half a percent per week of delay, "
                  "capped at five percent of the order value.")
    text = body + "\n\n" + attachment
    doc = Document("mail.eml", text, (Segment(body), Segment(attachment, section="attachment: terms.txt")),
                   (0, len(body) + 2))
    ctx = build_context([doc], tokenizer, chunk_tokens=60)
    langs = chunk_languages([doc], ctx.chunks, ctx.languages)
    assert {lang for c, lang in zip(ctx.chunks, langs, strict=True) if c.start < len(body)} == {"de"}
    assert {lang for c, lang in zip(ctx.chunks, langs, strict=True) if c.start > len(body)} == {"en"}
    top = ctx.chunks[ctx.bm25.search("Lieferung", 3)[0][0]]
    assert "Lieferungen" in top.text  # the German body's inflected form, by the German stem


def test_not_found_is_said_in_the_questions_language(ctx: Context, embedder: object, encoder: object) -> None:
    """A German question whose answer no passage holds gets the not-found reply in German."""
    def script(r: GenerationRequest) -> str:
        if r.purpose == "translate":
            return 'Translation: "Who painted the lighthouse of Skarvik?"'
        if r.purpose == "rewrite":
            return "painter of the Skarvik lighthouse"
        return json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})

    answer = ask(ctx, "Wer hat den Leuchtturm von Skarvik gemalt?", Models(ScriptedGenerator(script), embedder,
                 encoder), PipelineOptions(router=False))  # type: ignore[arg-type]
    assert not answer.found and answer.language == "de"
    assert answer.text == not_found_text(1, "de") and answer.text.startswith("Nicht im Dokument gefunden")
    english = ask(ctx, "Who painted the lighthouse of Skarvik?", Models(ScriptedGenerator(script), embedder,
                  encoder), PipelineOptions(router=False))  # type: ignore[arg-type]
    assert english.text == not_found_text(1)


def test_the_question_as_asked_searches_beside_its_translation(ctx: Context, embedder: object,
                                                                encoder: object) -> None:
    """A loose translation ("Recht" as "rights", a name dropped) must not lose what the question names: the
    question as asked is searched too, and what it finds is among the candidates the re-ranker sees."""
    def script(r: GenerationRequest) -> str:
        if r.purpose == "translate":
            return "Where was the keeper born?"  # the translation lost "Skarvik"
        return _script(r)

    answer = ask(ctx, GERMAN, Models(ScriptedGenerator(script), embedder, encoder),  # type: ignore[arg-type]
                 PipelineOptions(router=False))
    searches = [s for s in answer.trace if s["stage"] == "prefilter"]
    assert [s["query"] for s in searches] == ["Where was the keeper born?", GERMAN]
    assert any("Skarvik" in str(h["text"]) for h in searches[1]["hits"])  # found only by the name as asked
    reranked = next(s for s in answer.trace if s["stage"] == "conditional")
    candidates = {h["chunk"] for s in searches for h in s["hits"]}
    assert {h["chunk"] for h in reranked["hits"]} <= candidates


class _UnsureReader(ScriptedGenerator):
    """Ours: :func:`_script`'s replies, the reader's P(true) at its ``found`` token reported as ``p_found``
    (as llama.cpp's sampler reports it, mid-reply)."""

    def __init__(self, p_found: float) -> None:
        super().__init__(_script)
        self.p_found = p_found

    def stream(self, request: GenerationRequest) -> Iterator[str]:  # type: ignore[override]
        self.boolean_probs = []
        for piece in super().stream(request):
            self.boolean_probs = [self.p_found] if request.purpose.startswith("answer") else []
            yield piece


@pytest.mark.parametrize(("question", "bar", "found"), [
    (GERMAN, 0.0, True), (GERMAN, 0.9, False), (ENGLISH, 0.9, True)])
def test_a_question_read_across_languages_is_held_to_its_own_found_bar(
        question: str, bar: float, found: bool, ctx: Context, embedder: object, encoder: object) -> None:
    """The reader's P(found) of 0.85 passes the bar of any question (0.8) but not ``min_found_p_across``: that
    bar is for a question read in another language than the passages' alone."""
    answer = ask(ctx, question, Models(_UnsureReader(0.85), embedder, encoder),  # type: ignore[arg-type]
                 PipelineOptions(router=False, max_rewrites=0, fallback_top_k=0, min_found_p_across=bar))
    assert answer.found is found
