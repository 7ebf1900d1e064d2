"""The HotpotQA haystack (docs/design.md §10): every question's paragraphs concatenated, shuffled, one long text.

Each question is asked against the whole block; its 2 gold (``is_supporting``) paragraphs are tracked
by character span so any chunking can be scored.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.records import Chunk, Document, Segment

HOTPOT_FILE = "qa/hotpotqa_dev_distractor_500_ircot.jsonl"


@dataclass(frozen=True)
class Question:
    """A question with its gold answers and the character spans of its gold paragraphs in the haystack."""

    id: str
    text: str
    answers: tuple[str, ...]
    gold_spans: tuple[tuple[int, int], ...]
    key: str = ""  # the exact string a needle/key-value question asks about ("" for open questions)
    source: str = ""  # the document the question is asked of alone ("": the task's haystack)
    half: str = ""  # the half the task puts the question in ("": the seeded shuffle of the questions decides)
    kind: str = ""  # the kind of question, for accuracy per kind ("": none)


@dataclass(frozen=True)
class Haystack:
    """The long document and the questions asked against it."""

    document: Document
    questions: tuple[Question, ...]


def load_rows(data_root: Path) -> list[dict[str, Any]]:
    """The raw HotpotQA rows (500)."""
    with (data_root / HOTPOT_FILE).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def join_passages(name: str, texts: list[str], seed: int | None, sep: str = "\n\n"
                  ) -> tuple[Document, list[tuple[int, int]]]:
    """``texts`` in one document, shuffled with ``seed`` (None keeps their order), ``sep`` between them (a
    blank line by default, so each is a paragraph). Returns the document and each text's (start, end)
    character span, indexed like ``texts``."""
    perm = list(range(len(texts)))
    if seed is not None:
        random.Random(seed).shuffle(perm)
    spans: list[tuple[int, int]] = [(0, 0)] * len(texts)
    parts, pos = [], 0
    for idx in perm:
        spans[idx] = (pos, pos + len(texts[idx]))
        parts.append(texts[idx])
        pos += len(texts[idx]) + len(sep)
    text = sep.join(parts)
    return Document(name, text, (Segment(text),), (0,)), spans


def build_haystack(data_root: Path, *, seed: int = 0, extra_texts: list[str] | None = None,
                   without_gold: bool = False) -> Haystack:
    """Unique paragraphs of all rows (``Title. text``), shuffled with ``seed``; optional filler appended
    before shuffling (e.g. NQ passages, essays) to pass 1M tokens. ``without_gold`` leaves out every
    question's gold paragraphs: each question is then unanswerable from the haystack (no answers, no
    gold spans)."""
    rows = load_rows(data_root)
    gold_keys = {(c["title"], c["paragraph_text"].strip()) for row in rows for c in row["contexts"]
                 if c.get("is_supporting")} if without_gold else set()
    paragraphs: dict[tuple[str, str], int] = {}
    order: list[str] = []
    for row in rows:
        for ctx in row["contexts"]:
            key = (ctx["title"], ctx["paragraph_text"].strip())
            if key not in paragraphs and key not in gold_keys:
                paragraphs[key] = len(order)
                order.append(f"{key[0]}. {key[1]}")
    doc, spans = join_passages("hotpotqa-haystack.txt", order + list(extra_texts or []), seed)
    questions = []
    for row in rows:
        if without_gold:
            questions.append(Question(str(row["question_id"]), str(row["question_text"]), (), ()))
            continue
        gold = tuple(spans[paragraphs[(c["title"], c["paragraph_text"].strip())]]
                     for c in row["contexts"] if c.get("is_supporting"))
        answers = tuple(s for a in row["answers_objects"] for s in a["spans"])
        questions.append(Question(str(row["question_id"]), str(row["question_text"]), answers, gold))
    return Haystack(doc, tuple(questions))


def is_gold(chunk: Chunk, span: tuple[int, int]) -> bool:
    """True when ``chunk`` holds at least half of the gold paragraph ``span`` (or the chunk is inside it)."""
    overlap = min(chunk.end, span[1]) - max(chunk.start, span[0])
    return overlap >= min((span[1] - span[0]) / 2, (chunk.end - chunk.start) / 2)
