"""Whether a question asks for what a document's opening states (conditional compute: the question decides what
is read).

A contract names its parties and its date in its preamble, a report its purpose in its first paragraphs; those
passages share few words with "Who are the parties to this agreement?", "parties?" or "What date was this contract
made on?", and the pre-filter and re-ranker rank them low (on the CUAD dev half the parties' clause was among the
three passages read for 7 of 30 asks). A summary of such a document already reads its opening for those points
(:data:`assistant.ttrag.compute.summarize.points.CONTRACT_POINTS`, ``where`` "preamble" or "opening"). This module
asks the same of a question: when it is close, in the embedder's space, to one of those point questions of the
document's kind, the question-answering path reads the document's opening beside the passages ranked best
(:attr:`assistant.config.PipelineOptions.opening_match`). A question routed the same way to a point the summary
*searches* with its clause's own wording (a contract's term) is searched with that wording
(:func:`search_of`, :attr:`assistant.config.PipelineOptions.point_search`).

The embedder is the pre-filter's sentence-transformers model (cosine of normalised embeddings; the bundled
all-MiniLM-L6-v2 reads English only, so a question in another language is matched by its translation).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from assistant.models.base import Embedder
from assistant.records import Document
from assistant.text import date_roles
from assistant.ttrag.compute.summarize import points
from assistant.ttrag.grounding import terms


@dataclass(frozen=True)
class OpeningRoute:
    """A question matched to a point its document's opening states: the point's ``label`` ("Parties") and the
    ``cosine`` of the question and the point's question."""

    label: str
    cosine: float


def opening_points(doc: Document) -> tuple[points.PointQuestion, ...]:
    """The points of ``doc``'s kind (:func:`points.summary_kind`) read from its opening or preamble; empty for a
    kind that has none (a Wikipedia page, an e-mail)."""
    return tuple(p for p in points.points_for(points.summary_kind(doc), detail=True) if p.where != "search")


def route(question: str, doc: Document, embedder: Embedder | None, threshold: float) -> OpeningRoute | None:
    """The opening point of ``doc``'s kind that ``question`` asks for, or None.

    The point is the one whose question is closest to ``question`` among all the kind's points (a question
    closer to "How long does this agreement last?" than to "What is the date of this agreement?" asks for the
    term, which the opening need not state); it is returned when that point is read from the opening and the
    cosine is at least ``threshold``. A question that is a point's name and nothing else ("parties?", "Date"; its
    stemmed content words those of the label) asks for that point whatever the cosine: a terse question is far,
    in the embedder's space, from any question written out ("parties?" .38), while "third parties?" or "delivery
    date?" name something else. None too without an embedder, or for a kind without opening points.

    Args:
        question: the question as searched (its English translation for a question in another language).
        doc: the document the best-ranked passage comes from.
        embedder: the pre-filter's embedder (normalised embeddings).
        threshold: the least cosine, in [-1, 1].
    """
    return opening_of(nearest(question, doc, embedder, threshold))


def opening_of(found: tuple[points.PointQuestion, float] | None) -> OpeningRoute | None:
    """The route of a :func:`nearest` point read from the opening, else None."""
    if found is None or found[0].where == "search":
        return None
    return OpeningRoute(found[0].label, found[1])


def search_of(found: tuple[points.PointQuestion, float] | None, question: str) -> points.PointQuestion | None:
    """A :func:`nearest` point searched with its clause's own wording (:attr:`points.PointQuestion.search`: the
    term, whose clause says "shall continue in full force and effect for a period of" where the question says "how
    long does it last") that ``question`` is for, else None; None too for a question the point's ``not_asked_by``
    matches (a period after the agreement ends)."""
    if found is None or not found[0].search:
        return None
    point = found[0]
    return None if point.not_asked_by is not None and point.not_asked_by.search(question) else point


def nearest(question: str, doc: Document, embedder: Embedder | None,
             threshold: float) -> tuple[points.PointQuestion, float] | None:
    """The point of ``doc``'s kind whose question is closest to ``question`` (or whose name it is) and their
    cosine, when it is at least ``threshold``; None without an embedder or for a kind with no point to route to
    (every point searched and none with its own wording). A question that asks for the day something ends
    (:func:`assistant.text.date_roles.asked_role`: "When does this contract end?") is not asked of a point whose
    answer is a date the document starts on (the agreement's date, read from its opening, ``form`` "date"): it was
    nearer that point than the term's by .001."""
    kind_points = points.points_for(points.summary_kind(doc), detail=True)
    if date_roles.asked_role(question) == "end":
        kind_points = tuple(p for p in kind_points if p.form != "date")
    if embedder is None or all(p.where == "search" and not p.search for p in kind_points):
        return None
    asked = embedder.embed_batch([question])[0]
    cosines = _point_vectors(embedder, tuple(p.question for p in kind_points)) @ asked
    best = int(np.argmax(cosines))
    named = [i for i, p in enumerate(kind_points) if terms(p.label) == terms(question)]
    if named:  # "parties?": the point's own name and nothing else (cosine .38 to "Who are the parties ...?")
        best = named[0]
    elif cosines[best] < threshold:
        return None
    return kind_points[best], round(float(cosines[best]), 4)


@lru_cache(maxsize=8)
def _point_vectors(embedder: Embedder, questions: tuple[str, ...]) -> np.ndarray:
    """The embeddings of a kind's point questions, shape (len(questions), dim); computed once per embedder."""
    return embedder.embed_batch(list(questions))
