"""Which of the open documents a summary request is about: the one its words name (a file name, or a kind
of document: "this agreement", "the minutes", "the school board minutes"), else all of them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.records import Document
from assistant.ttrag.compute.summarize.structure import Kind, document_kind
from assistant.ttrag.compute.summarize.titles import title_of

# the kinds of document (document_kind) each noun of a request names
_KINDS: dict[str, set[Kind]] = {
    "agreement": {"contract"}, "contract": {"contract"}, "minutes": {"meeting"}, "meeting": {"meeting"},
    "transcript": {"meeting"}, "report": {"report"}, "paper": {"paper"}, "article": {"paper", "news"},
    "story": {"news"}, "patent": {"patent"}, "thread": {"email"}, "email": {"email"}, "e-mail": {"email"},
    "mail": {"email"}, "message": {"email"}, "spreadsheet": {"spreadsheet"}, "sheet": {"spreadsheet"},
    "workbook": {"spreadsheet"}, "handbook": {"report"}, "manual": {"report"}}


def _file(source: str) -> str:
    return source.replace("\\", "/").rsplit("/", 1)[-1].lower()


def _score(doc: Document, named: str) -> int:
    """How well ``named`` names ``doc``: a file name (10 exact, 5 the same stem or a part of the name), else
    3 when the noun names the document's kind plus 1 for each word of ``named`` in its title, file name or
    opening."""
    name = named.lower()
    base = _file(doc.source)
    if re.search(r"\.\w{2,5}$", name):
        if name == base:
            return 10
        stem = name.rsplit(".", 1)[0]
        return 5 if name in base or base.rsplit(".", 1)[0] == stem else 0
    words = re.findall(r"[a-z][a-z-]*", name)
    if not words:
        return 0
    noun = words[-1] if words[-1] in _KINDS else words[-1].rstrip("s")
    score = 3 if document_kind(doc) in _KINDS.get(noun, set()) else 0
    head = f"{title_of(doc)} {base} {doc.text[:400]}".lower()
    return score + sum(1 for w in words if re.search(rf"\b{re.escape(w)}", head))


def documents_asked(documents: Sequence[Document], named: str) -> list[Document]:
    """The documents (with text) that ``named`` (:attr:`~.request.SummaryRequest.document`) names, best
    first-equal; all of them when it is empty, names none of them, or only one is open."""
    docs = [d for d in documents if d.text.strip()]
    if not named or len(docs) <= 1:
        return docs
    scores = [_score(d, named) for d in docs]
    best = max(scores)
    return [d for d, s in zip(docs, scores, strict=True) if s == best] if best > 0 else docs
