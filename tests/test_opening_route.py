"""Which questions read a document's opening: the point questions of its kind that the opening states, matched in
the embedder's space (the bundled MiniLM, real)."""

from __future__ import annotations

from assistant.records import Document, Segment
from assistant.ttrag.opening_route import nearest, opening_points, route, search_of

CONTRACT = ('DISTRIBUTION AGREEMENT\n\nThis Distribution Agreement is made on 3 March 2025 between Norhaven Ltd '
            '(the "Buyer") and Calder GmbH (the "Supplier").\n\n1. Term. This agreement runs for three years.\n'
            '2. Governing law. This agreement is governed by the laws of England.')
PAGE = "Lavatera is a genus of about 25 species of flowering plants in the mallow family, Malvaceae."


def doc(text: str, name: str = "a.txt") -> Document:
    return Document(name, text, (Segment(text, page=1),), (0,))


def test_questions_for_the_parties_or_the_date_route_to_a_contracts_opening(embedder: object) -> None:
    contract = doc(CONTRACT)
    assert {p.label for p in opening_points(contract)} == {"Parties", "Subject", "Date"}
    for question, label in [("Who are the parties to this agreement?", "Parties"),
                            ("Which companies is this contract between?", "Parties"),
                            ("agreement date?", "Date"), ("When was this contract signed?", "Date"),
                            ("From what date does this contract apply?", "Date")]:
        hit = route(question, contract, embedder, 0.5)  # type: ignore[arg-type]
        assert hit is not None and hit.label == label and 0.5 <= hit.cosine <= 1.01, (question, hit)
    # a question closest to a point searched for (term, law, payment) does not, however close
    for question in ["How long does this agreement last?", "Which law governs this agreement?", "law?",
                     "What fees does the buyer pay?", "Is either party's liability capped?"]:
        assert route(question, contract, embedder, 0.5) is None, question  # type: ignore[arg-type]
    # a question that is a point's name and nothing else asks for it, however far in the embedder's space; one
    # that names something more ("third parties?", "delivery date?") is matched by its cosine as any other
    for question, label in [("parties?", "Parties"), ("Date", "Date")]:
        hit = route(question, contract, embedder, 1.5)  # type: ignore[arg-type]
        assert hit is not None and hit.label == label, question
    for question in ["third parties?", "delivery date?"]:
        assert route(question, contract, embedder, 0.5) is None, question  # type: ignore[arg-type]
    # nor below the threshold, nor without an embedder
    assert route("Who are the parties to this agreement?", contract, embedder, 1.5) is None  # type: ignore[arg-type]
    assert route("Who are the parties to this agreement?", contract, None, 0.5) is None


def test_a_page_of_no_kind_with_opening_points_routes_nothing(embedder: object) -> None:
    page = doc(PAGE)
    assert opening_points(page) == ()
    assert route("Who are the parties to this agreement?", page, embedder, 0.0) is None  # type: ignore[arg-type]


def test_a_question_for_a_contracts_term_is_searched_as_its_clause_is_worded(embedder: object) -> None:
    """A question the embedder routes to the Term (a point searched with its clause's own wording) gets that
    wording to search with; one routed to the opening, to a point searched with the question itself, or asked of
    a page of no such kind gets none."""
    contract = doc(CONTRACT)
    for question in ["How long does this agreement last?", "When does this agreement expire?",
                     "When does this contract run out?",
                     # an end is no agreement's date, though the embedder put it .001 nearer the Date point
                     "When does this contract end?", "Until when is the agreement in force?"]:
        point = search_of(nearest(question, contract, embedder, 0.5), question)  # type: ignore[arg-type]
        assert point is not None and point.label == "Term" and point.search, question
    for question in ["Who are the parties to this agreement?", "Which law governs this agreement?",
                     "What fees does the buyer pay?",
                     # a period after the agreement ends is no term, though the embedder puts it nearest
                     "How long do the confidentiality obligations survive after the agreement ends?",
                     "How long after the contract ends do we still have to keep things confidential?"]:
        assert search_of(nearest(question, contract, embedder, 0.5), question) is None, question  # type: ignore
    last = "How long does this agreement last?"
    assert search_of(nearest(last, doc(PAGE), embedder, 0.0), last) is None  # type: ignore[arg-type]
