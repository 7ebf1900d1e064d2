"""Summaries that say what a document is and what matters in it (TTRAG conditional compute: the
``summarization`` category).

A 1.5B model on two CPU cores reads ~45 prompt tokens/s, so a summary of a 300-page contract cannot read
the contract. It reads a *reading plan* chosen at question time from the document's own structure and
from what is central to the whole of it, side matter left out (advertising, navigation, running headers,
transcript noise such as ``{vocalsound}``, legal boilerplate such as a safe-harbor notice, references and a
patent's related applications):

1. the opening: a contract's title page and parties; for any other document its first text past the side
   matter (a news story's lead, a report's first paragraph, a patent's field of invention);
2. the authors' own summary when there is one (an abstract, an executive summary, "What GAO found", the
   summary of the invention, a meeting's decisions and action items) and a conclusion; for a contract the
   sentence that states each part's key fact, ranked by what a reader needs first (the term, the money,
   the remedies); for an email thread the first and the latest messages (and what the latest asks of the
   reader, from that message's own read: :mod:`.asks`);
3. the definitions, an outline of the headings and each part's opening (``in detail`` only);
4. the central sentences: those most like the document as a whole (TF-IDF cosine to the centroid of its
   sentences, a mild preference for the opening, chosen with diversity), until the budget is spent;

all within a token budget (:data:`GIST_BUDGET` characters for the 3-bullet gist). With a *focus*
("summarize the termination provisions") the plan is the matching section and the pre-filter's hits for
the focus instead. ``in detail`` reads more of the plan in at most :data:`MAX_MAP_CALLS` calls of the
same size (map), whose bullets are merged in document order without another call (reduce).

Each bullet must cite the passage it states (``[n]``, numbered as the passages were read, shown with
their page like the question-answering path). A bullet is kept only when its numbers stand in the passage
it cites and most of its content words do (:func:`supported_by`); otherwise another passage read that
supports it is cited, or the bullet is dropped. When nothing the model wrote survives, the opening
sentences of the best planned passages are shown instead (extractive, supported by construction).

Requests name the document they are about ("summarize this agreement", "the minutes", a file name): only
that one of the open documents is read. Several documents and no name: a short gist of each, under its own
title line. The title line names the document: its metadata title, an e-mail's subject, its title line or
its first sentence, never a transcript's tag or a bare section name.

The package, one module per concern: :mod:`.request` (what is asked: focus, length, form, the document
named), :mod:`.choose` (which open document that is), :mod:`.structure` (document kind, headings and
parts), :mod:`.titles` (the title that names a document), :mod:`.sidematter` (what a summary leaves out),
:mod:`.central` (central sentences), :mod:`.passages` (openings, a contract part's key sentence),
:mod:`.plan` (the reading plan within a budget), :mod:`.support` (support checks), :mod:`.asks` (what an
e-mail asks of its reader) and :mod:`.write` (the model's points, checked, numbered and rendered:
:func:`summarize`).
"""

from __future__ import annotations

from assistant.ttrag.compute.summarize.passages import salient_chunks
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
    top_level,
)
from assistant.ttrag.compute.summarize.support import MIN_SUPPORT, support_share, supported_by
from assistant.ttrag.compute.summarize.titles import title_of, title_page
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
    "salient_chunks",
    "summarize",
    "support_share",
    "supported_by",
    "title_of",
    "title_page",
    "top_level",
]
