"""Summaries that say what a document is and what matters in it (TTRAG conditional compute: the
``summarization`` category).

A 1.5B model on two CPU cores reads ~45 prompt tokens/s, so a summary of a 300-page contract cannot read
the contract. It reads a *reading plan* chosen at question time from the document's own structure:

1. the title page (title, parties, subject line) and the parties / recitals;
2. the opening of each top-level part (``# heading``, "Article 3", "CHAPTER 2", "1 Introduction", one
   message of a thread), ranked by what a reader of that kind of document needs first: for a contract the
   subject, the term, the money, the obligations and the remedies; for a report or paper its purpose,
   findings and conclusions; for an email thread the first and the latest messages;
3. the definitions and an outline of the headings (``in detail`` only);
4. representative passages: the medoids of k-means clusters over the chunks (the pre-filter's cached
   embeddings when every chunk has one, else TF-IDF vectors), for documents with few headings;

all within a token budget (:data:`GIST_BUDGET` characters for the 3-bullet gist). With a *focus*
("summarize the termination provisions") the plan is the matching section and the pre-filter's hits for
the focus instead. ``in detail`` reads more of the plan in at most :data:`MAX_MAP_CALLS` calls of the
same size (map), whose bullets are merged in document order without another call (reduce).

Each bullet must cite the passage it states (``[n]``, numbered as the passages were read, shown with
their page like the question-answering path). A bullet is kept only when its numbers stand in the passage
it cites and most of its content words do (:func:`supported_by`); otherwise another passage read that
supports it is cited, or the bullet is dropped. When nothing the model wrote survives, the opening
sentences of the best planned passages are shown instead (extractive, supported by construction).

The package, one module per concern: :mod:`.request` (what is asked: focus, length, form),
:mod:`.structure` (document kind, title, headings and parts), :mod:`.passages` (openings, key sentences,
cluster medoids), :mod:`.plan` (the reading plan within a budget), :mod:`.support` (support checks) and
:mod:`.write` (the model's points, checked, numbered and rendered: :func:`summarize`).
"""

from __future__ import annotations

from assistant.ttrag.compute.summarize.passages import representative, salient_chunks
from assistant.ttrag.compute.summarize.plan import (
    ABSTRACT_CHARS,
    DETAIL_BUDGET,
    GIST_BUDGET,
    OPENING_CHARS,
    Planned,
    reading_plan,
)
from assistant.ttrag.compute.summarize.request import Form, SummaryRequest, parse_request
from assistant.ttrag.compute.summarize.structure import (
    Heading,
    Kind,
    document_kind,
    headings,
    title_of,
    title_page,
    top_level,
)
from assistant.ttrag.compute.summarize.support import MIN_SUPPORT, support_share, supported_by
from assistant.ttrag.compute.summarize.write import (
    DETAIL_BULLETS_PER_CALL,
    GIST_BULLETS,
    MAX_MAP_CALLS,
    Bullet,
    Summary,
    focus_slots,
    gist_slots,
    summarize,
)

__all__ = [
    "ABSTRACT_CHARS",
    "Bullet",
    "DETAIL_BUDGET",
    "DETAIL_BULLETS_PER_CALL",
    "Form",
    "GIST_BUDGET",
    "GIST_BULLETS",
    "Heading",
    "Kind",
    "MAX_MAP_CALLS",
    "MIN_SUPPORT",
    "OPENING_CHARS",
    "Planned",
    "Summary",
    "SummaryRequest",
    "document_kind",
    "focus_slots",
    "gist_slots",
    "headings",
    "parse_request",
    "reading_plan",
    "representative",
    "salient_chunks",
    "summarize",
    "support_share",
    "supported_by",
    "title_of",
    "title_page",
    "top_level",
]
