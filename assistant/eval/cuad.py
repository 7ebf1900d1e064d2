"""The cuad task: a person's questions about one real contract, each asked of that contract alone.

CUAD v1 (``cuad/`` of the evaluation data): 100 commercial contracts filed with the SEC, as the filed PDF,
and lawyers' labels of 41 clause kinds in ``cuad/master_clauses.csv``. One question per contract and kind
below; a kind whose clause text is empty (``[]``) is absent, and the right reply is that the agreement
does not say (for a yes/no kind, "no" says as much). A present clause whose label cannot be judged (empty,
redacted, a renewal "term" labelled with dates) is left out.

Each contract is read from its PDF through the product's own extraction; its questions are asked of it
alone. Contracts, not questions, are split into halves: the contracts are ranked by a seeded hash of their
file name and the first half is ``dev``, so a contract's questions are never on both sides and the split
does not depend on the order of the files. Within a half, questions cycle through the kinds (the first 13
hold one of each kind; each kind takes the contracts in its own seeded order), so the first n of a half
cover every kind alike and many contracts.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from assistant.eval.clauses import Rule, judge, scorable
from assistant.eval.hotpot import Question
from assistant.records import Document, Segment

LABELS = "cuad/master_clauses.csv"
PDFS = "cuad/pdf"


@dataclass(frozen=True)
class Kind:
    """A clause kind asked about: its clause-text column, its answer column, the question and the rule."""

    name: str
    question: str
    rule: Rule
    answer_column: str = ""

    @property
    def answer(self) -> str:
        return self.answer_column or f"{self.name}-Answer"

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z]+", "-", self.name.lower()).strip("-")


KINDS: tuple[Kind, ...] = (
    Kind("Parties", "Who are the parties to this agreement?", "parties"),
    Kind("Agreement Date", "What is the date of this agreement?", "date"),
    Kind("Effective Date", "When does this agreement take effect?", "date"),
    Kind("Expiration Date", "When does this agreement expire?", "expiry"),
    Kind("Renewal Term", "How long is the renewal term?", "duration"),
    Kind("Notice Period To Terminate Renewal", "How much notice must be given to stop the renewal?", "duration",
         "Notice Period To Terminate Renewal- Answer"),
    Kind("Governing Law", "Which law governs this agreement?", "law"),
    Kind("Cap On Liability", "Is there a cap on liability?", "yesno"),
    Kind("Liquidated Damages", "Does the agreement include liquidated damages?", "yesno"),
    Kind("Non-Compete", "Is there a non-compete clause?", "yesno"),
    Kind("Audit Rights", "Does either party have audit rights?", "yesno"),
    Kind("Termination For Convenience", "Can a party terminate for convenience?", "yesno"),
    Kind("Insurance", "Does either party have to carry insurance?", "yesno"),
)


@dataclass(frozen=True)
class Item:
    """One question about one contract: its kind, the label, whether the clause is present, the clause
    texts (for gold spans) and the effective date (for an expiry stated as a term)."""

    question: Question
    kind: Kind
    contract: str
    label: str
    present: bool
    clauses: tuple[str, ...]
    start: str = ""

    def accepts(self, reply: str, found: bool) -> bool:
        """True when a lawyer would accept ``reply`` (see :mod:`assistant.eval.clauses`)."""
        return judge(self.kind.rule, self.label, self.present, reply, found, start=self.start)


def halves(contracts: Sequence[str], seed: int = 0) -> dict[str, str]:
    """{contract: "dev" | "test"}: ranked by sha256 of ``seed:name``, the first half (rounded down) dev."""
    ranked = sorted(contracts, key=lambda c: _rank(c, seed))
    return {c: "dev" if i < len(ranked) // 2 else "test" for i, c in enumerate(ranked)}


def load_rows(data: Path) -> list[dict[str, str]]:
    """The rows of ``master_clauses.csv`` (one per contract)."""
    with (data / LABELS).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _clauses(cell: str) -> tuple[str, ...]:
    try:
        value = ast.literal_eval(cell)
    except (ValueError, SyntaxError):
        return (cell,) if cell.strip() else ()
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def load_items(data: Path, seed: int = 0, kinds: Sequence[Kind] = KINDS) -> list[Item]:
    """Every scorable question of every contract, in the order described in the module docstring."""
    pdfs = {p.name.lower(): p.name for p in (data / PDFS).iterdir()}
    rows = {}
    for row in load_rows(data):
        if row["Filename"].lower() not in pdfs:
            raise ValueError(f"no PDF for {row['Filename']} in {data / PDFS}")
        rows[pdfs[row["Filename"].lower()]] = row
    half = halves(list(rows), seed)
    keyed: list[tuple[int, int, Item]] = []
    for k, kind in enumerate(kinds):
        nth = {"dev": 0, "test": 0}
        for name in sorted(rows, key=lambda c: _rank(f"{kind.name}:{c}", seed)):  # a contract order per kind
            row = rows[name]
            clauses = _clauses(row[kind.name])
            label = row[kind.answer].strip()
            if clauses and not scorable(kind.rule, label):
                continue
            start = row.get("Effective Date-Answer", "") or row.get("Agreement Date-Answer", "")
            q = Question(f"{kind.slug}@{contract_id(name)}", kind.question, (label,) if clauses else (), (),
                         source=name, half=half[name], kind=kind.name)
            keyed.append((nth[half[name]], k, Item(q, kind, name, label, bool(clauses), clauses,
                                                    start if kind.rule == "expiry" else "")))
            nth[half[name]] += 1
    return [item for _, _, item in sorted(keyed, key=lambda x: x[:2])]


def contract_id(name: str) -> str:
    """A short, unique name of a contract file: its first 30 characters and 4 hex digits of its hash."""
    return f"{Path(name).stem[:30].strip()}~{hashlib.sha256(name.encode()).hexdigest()[:4]}"


def _rank(name: str, seed: int) -> str:
    return hashlib.sha256(f"{seed}:{name}".encode()).hexdigest()


@dataclass(frozen=True)
class ContractSet:
    """The contracts of ``data`` and their items by question id: reads a question's contract, judges a reply."""

    data: Path
    items: dict[str, Item]

    def read(self, q: Question) -> tuple[Document, Question]:
        """``q``'s contract read from its PDF by the product's extraction, and ``q`` with the character
        spans of its clause texts in that text (a clause not found there has no span)."""
        doc = read_pdf(self.data / PDFS / q.source)
        return doc, replace(q, gold_spans=gold_spans(doc.text, self.items[q.id].clauses))

    def judge(self, q: Question, reply: str, found: bool) -> bool:
        return self.items[q.id].accepts(reply, found)


def contract_set(data: Path, seed: int = 0) -> tuple[ContractSet, tuple[Question, ...]]:
    """The contract set of ``data`` and all its questions (see :func:`load_items`)."""
    items = load_items(data, seed)
    return ContractSet(data, {it.question.id: it for it in items}), tuple(it.question for it in items)


@cache
def read_pdf(path: Path) -> Document:
    """The PDF at ``path`` through :func:`assistant.documents.extract` (kept: a contract has many questions)."""
    from assistant.documents import extract

    return extract(path)


PLACEHOLDER = Document("cuad: each question is asked of its own contract", "", (Segment(""),), (0,))


def _folded(text: str) -> tuple[str, list[int]]:
    """Letters and digits of ``text`` lower-cased, and the index in ``text`` of each (whitespace, quotes,
    hyphenation and line breaks differ between the labels and the extracted PDF)."""
    keep = [(ch.lower(), i) for i, ch in enumerate(text) if ch.isalnum()]
    return "".join(c for c, _ in keep), [i for _, i in keep]


def gold_spans(text: str, clauses: Sequence[str], probe: int = 60) -> tuple[tuple[int, int], ...]:
    """Where each labelled clause stands in ``text``: its pieces (split at ``<omitted>``) found by their
    first ``probe`` folded characters (else their last), each piece's span to its folded length."""
    hay, where = _folded(text)
    spans = []
    for clause in clauses:
        for piece in clause.split("<omitted>"):
            needle = _folded(piece)[0]
            if len(needle) < 8:
                continue
            at = hay.find(needle[:probe])
            if at < 0 and len(needle) > probe:
                at = hay.find(needle[-probe:])
                at = at - (len(needle) - probe) if at >= 0 else -1
            if at >= 0:
                end = min(max(at, 0) + len(needle), len(hay)) - 1
                spans.append((where[max(at, 0)], where[end] + 1))
    return tuple(dict.fromkeys(spans))
