"""The cross-language task: dev-half questions of three English tasks, asked in German, French and Spanish.

The questions come from the dev halves of the sample contract's facts (:func:`assistant.eval.tasks.contract`,
seeded halves although that task scores all), CUAD (its dev contracts, answerable questions only: a clause
to find) and HotpotQA (:func:`assistant.eval.recall.split_questions`); their translations, made once by
the bundled model (``benchmarks/crosslang.py make``) and checked by hand on a sample, are committed task
data in :data:`DATA_FILE` (questions and gold answers only; the documents are read from ``--data``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from assistant.eval.hotpot import Question
from assistant.eval.recall import split_questions
from assistant.eval.tasks import Task, contract, cuad, hotpot

DATA_FILE = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "crosslang.jsonl"
LANGUAGES = ("en", "de", "fr", "es")  # "en": the questions as the source task asks them
PER_TASK = {"contract": 15, "cuad": 13, "hotpot": 14}


def pick(data: Path, seed: int = 0) -> Iterator[tuple[str, Question]]:
    """(task name, question) of the first :data:`PER_TASK` dev-half questions of each source task."""
    for name, build in (("contract", contract), ("cuad", cuad), ("hotpot", hotpot)):
        task = build(data, seed)
        pool = task.haystack.questions
        if all(q.half for q in pool):  # cuad: halves by contract; a question whose clause is absent has no gold
            assert task.judge is not None and task.read is not None
            dev = [q for q in pool if q.half == "dev" and task.read(q)[1].gold_spans]
        else:
            dev = [q for q, half in split_questions(pool, len(pool), seed) if half == "dev"]
        for q in dev[:PER_TASK[name]]:
            yield name, q


def load_rows(path: Path = DATA_FILE) -> list[dict[str, Any]]:
    """The committed rows: ``{"id", "task", "answers", "en", "de", "fr", "es"}`` (question texts by language)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass
class Sources:
    """The three source tasks, built once, and each question's document(s) by the task it comes from."""

    tasks: dict[str, Task]

    @classmethod
    def build(cls, data: Path, seed: int = 0, names: tuple[str, ...] = ("contract", "cuad", "hotpot")) -> Sources:
        makers = {"contract": contract, "cuad": cuad, "hotpot": hotpot}
        return cls({n: makers[n](data, seed) for n in names})

    def question(self, row: dict[str, Any], language: str) -> tuple[str, Question]:
        """(context key, the question as asked in ``language`` with its gold spans in that context's text)."""
        task = self.tasks[row["task"]]
        q = next(x for x in task.haystack.questions if x.id == row["id"])
        asked = replace(q, text=row[language])
        if task.read is not None:
            return f"cuad:{q.source}", task.read(asked)[1]
        return row["task"], asked

    def document(self, key: str) -> Any:
        """The document a context key stands for."""
        if key.startswith("cuad:"):
            task = self.tasks["cuad"]
            q = next(x for x in task.haystack.questions if x.source == key[5:])
            assert task.read is not None
            return task.read(q)[0]
        return self.tasks[key].haystack.document

    def judge(self, row: dict[str, Any], q: Question, short: str, found: bool) -> bool:
        """The source task's rule for CUAD (a lawyer's); elsewhere a found short answer that states a gold
        answer's key (:func:`assistant.eval.metrics.key_match`, the contract task's measure)."""
        task = self.tasks[row["task"]]
        if task.judge is not None:
            return task.judge(q, short, found)
        from assistant.eval.metrics import key_match

        return found and bool(key_match(short, q.answers))
