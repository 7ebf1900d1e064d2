"""Defined terms: a party named once, then called by its term ("the Supplier"), found by either name."""

from __future__ import annotations

from pathlib import Path

from conftest import ScriptedGenerator

from assistant.documents import extract
from assistant.records import Document, Segment
from assistant.ttrag.aliases import defined_terms, reader_note, search_query, with_names
from assistant.ttrag.context import build_context
from assistant.ttrag.pipeline import Models, ask

PARTIES = ('**Norhaven Medical Devices GmbH**\n(the "Buyer")\n\n'
           "This Agreement is made between:\n\n"
           "(1) Norhaven Medical Devices GmbH, a limited liability company with its registered office at "
           'Hafenstrasse 112, 28217 Bremen (the "Buyer"); and\n\n'
           "(2) Calder Precision Components Ltd., a private limited company incorporated in Scotland "
           '(the "Supplier"),\n\n'
           'This Master Agreement (the "Agreement") governs the supply of parts.\n\n')


def _doc(text: str) -> Document:
    return Document("contract.md", text, (Segment(text),), (0,))


def test_parties_and_their_terms_are_read_from_the_definitions() -> None:
    terms = defined_terms([_doc(PARTIES)])
    assert [(t.name, t.term, t.key) for t in terms] == [
        ("Norhaven Medical Devices GmbH", "Buyer", "norhaven"),  # from the cover page's line before the term
        ("Calder Precision Components Ltd.", "Supplier", "calder")]  # "This Master Agreement" is no party
    question = "Who is Calder's contract manager?"
    assert search_query(question, terms) == question + " (the Supplier)"
    assert reader_note(question, terms) == 'In the passages, "the Supplier" is Calder Precision Components Ltd.'
    # a question already using the term, or naming no party, is searched as asked
    assert search_query("Who is the Supplier's contract manager at Calder?", terms).endswith("Calder?")
    assert search_query("What is the initial term?", terms) == "What is the initial term?"
    assert defined_terms([_doc("Nothing is defined here (see \"Annex\") at all.")]) == []


def test_a_question_naming_the_party_finds_the_clause_that_says_the_supplier(tmp_path: Path,
                                                                            tokenizer: object) -> None:
    filler = "\n\n".join(f"At Calder, the contract manager for topic {i} is chosen by the steering group."
                         for i in range(30))
    path = tmp_path / "contract.md"
    path.write_text(PARTIES + filler + "\n\nThe Supplier's contract manager is Imogen Tallis, Key Account Manager.\n")
    ctx = build_context([extract(path)], tokenizer)
    replies = []

    def read(request: object) -> str:
        replies.append(request)
        return ('{"found": true, "passage": 1, "short_answer": "Imogen Tallis", '
                '"answer": "Calder\'s contract manager is Imogen Tallis."}')

    gen = ScriptedGenerator(read)
    answer = ask(ctx, "Who is Calder's contract manager?", Models(gen, None, None))
    assert answer.found and answer.short_answer == "Imogen Tallis"
    prompt = replies[0].user  # type: ignore[attr-defined]
    assert "Imogen Tallis" in prompt  # BM25 found it through "Supplier"; "Calder" alone finds the 30 others
    assert 'In the passages, "the Supplier" is Calder Precision Components Ltd.' in prompt


def test_a_party_named_in_the_question_is_covered_where_the_passages_use_its_term() -> None:
    # the contract's "Who is Norhaven's contract manager and what is her role?": the clause says "the Buyer"
    from assistant.records import Chunk
    from assistant.ttrag.grounding import coverage

    clause = Chunk(0, "The contract manager of the Buyer is Henrike Vosskamp, Head of Strategic Procurement.",
                   "c.md", 0, 90)
    question = "Who is Norhaven's contract manager and what is her role?"
    assert coverage(question, [clause]) == 0.0
    assert coverage(question, [clause], [("Norhaven Medical Devices GmbH", "Buyer")]) == 1.0
    assert coverage(question, [clause], [("Calder Precision Components Ltd.", "Supplier")]) == 0.0
    # a passage about the party is not about what the question asks of it (the draft benchmark's unanswerable
    # "What were Calder's total CO2 emissions last year?" was answered from a passage on "Scope 3 emissions")
    report = Chunk(0, "The Supplier shall report its Scope 3 emissions to Calder's board each year.", "c.md", 0, 80)
    carbon = "What were Calder's total CO2 emissions last year?"
    assert coverage(carbon, [report], [("Calder Precision Components Ltd.", "Supplier")]) == 0.0
    assert coverage(carbon, [report]) == 0.5  # without the party known, its name alone covered half


def test_the_party_a_question_names_is_not_its_answer() -> None:
    # the contract's "Who is Calder's contract manager for this agreement?" once came back as the company
    from assistant.records import Chunk
    from assistant.ttrag.grounding import check
    from assistant.ttrag.qtype import question_type

    clause = Chunk(0, "Calder Precision Components Ltd. (the Supplier) appoints Imogen Tallis as its contract "
                      "manager.", "c.md", 0, 90)
    question = "Who is Calder's contract manager for this agreement?"
    calder = [("Calder Precision Components Ltd.", "Supplier")]
    qtype = question_type(question)
    assert check(question, qtype, "Calder Precision Components Ltd.", [clause], equivalents=calder) == (
        [], "the answer is the party the question names")
    assert check(question, qtype, "Calder Precision Components Ltd.", [clause])[1] == ""  # no party: no rule
    assert check(question, qtype, "Imogen Tallis", [clause], equivalents=calder) == ([1], "")


def test_a_concept_defined_past_the_preamble_is_no_party_and_is_not_searched_for() -> None:
    """The reported kind: "What is the governing law of the agreement between NLS and Eurofarma?" was searched as
    "... Eurofarma? (the Term)": a definition deep in the contract ('NLS shall ... (the "Term")') was taken for a
    party's, and the search went to the definitions instead of the governing-law clause."""
    text = (PARTIES + "\n" + "Recitals and definitions follow. " * 300 +
            '\nNLS shall supply the product for five years from the Effective Date (the "Term").\n')
    terms = defined_terms([_doc(text)])
    assert "Term" not in {t.term for t in terms}
    question = "What is the governing law of the agreement between NLS and Eurofarma?"
    assert search_query(question, terms) == question


def test_a_reply_that_names_parties_by_their_terms_states_their_names() -> None:
    parties = [("XYBERNAUT CORPORATION", "XC"), ("ALEX JOB RACING, INC.", "AJR")]
    assert with_names("XC and AJR are the parties to this agreement.", parties) == \
        'XYBERNAUT CORPORATION ("XC") and ALEX JOB RACING, INC. ("AJR") are the parties to this agreement.'
    # after an article, in German too; the first mention only
    bank = [("Alamogordo Financial Corporation", "Company"), ("Charles Webb & Company", "Agent")]
    assert with_names("Die Vertragsparteien sind die Company und der Agent; the Company pays.", bank) == \
        ('Die Vertragsparteien sind Alamogordo Financial Corporation ("Company") und Charles Webb & Company '
         '("Agent"); the Company pays.')
    # a term inside a longer name, a word that merely starts with it, a name already stated: unchanged
    for text in ("The agent is Charles Webb & Company.", "XCEL and XC-2 are products.",
                 "XYBERNAUT CORPORATION (XC) is a party."):
        assert with_names(text, bank[:1] if "Webb" in text else parties[:1]) == text


def test_a_party_defined_as_herein_referred_to_is_a_defined_term() -> None:
    """A party defined "(herein referred to as "Principal")" or "(hereafter "Agent")" is found by its name as the
    contract summary's parties are (the same opening of a definition)."""
    text = ('DISTRIBUTION AGREEMENT\nThis agreement is made between:\n'
            'Co-Diagnostics, Inc., a Utah corporation (herein referred to as "Principal"), and\n'
            'PreCheck Health Services, Inc., a Nevada corporation (hereafter "Distributor").\n')
    terms = defined_terms([_doc(text)])
    assert [(t.key, t.term) for t in terms] == [("co-diagnostics", "Principal"), ("precheck", "Distributor")]
    assert search_query("What must PreCheck report each month?", terms).endswith("month? (the Distributor)")


def test_a_party_is_named_as_the_preamble_names_it_not_by_the_word_its_line_opens_with() -> None:
    """The reported kind: "AGREEMENT dated as of June 24, 2020, between PFS Funds (the "Trust")" gave the
    Trust the name "AGREEMENT", so every question about "this agreement" was searched "(the Trust)" too, and a
    summary's governing-law point did not read the clause."""
    text = ("SERVICES AGREEMENT\nAGREEMENT dated as of June 24, 2020, between PFS Funds (the \u201cTrust\u201d), a "
            "Massachusetts business trust, and Potomac Fund\nManagement, Inc. (the \u201cAdviser\u201d), a Florida "
            "Corporation.\nWHEREAS, the Trust is registered under the Investment Company Act of 1940 (the "
            "\u201cAct\u201d); and\n")
    terms = defined_terms([_doc(text)])
    assert [(t.name, t.term, t.key) for t in terms] == [
        ("PFS Funds", "Trust", "pfs"), ("Potomac Fund Management, Inc.", "Adviser", "potomac")]
    assert search_query("Which law governs this agreement?", terms) == "Which law governs this agreement?"
    assert search_query("What does Potomac charge?", terms) == "What does Potomac charge? (the Adviser)"
