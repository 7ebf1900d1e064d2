"""Documents with summaries written by people (L-Eval's government reports and patents), split into seeded
dev and test halves: the rules of the summarizer are chosen on ``dev`` and ``test`` is reported once."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

#: family -> its file under the evaluation data root (L-Eval open-ended tasks; see the data README)
FAMILIES = {"gov_report": "qa/leval-dev/gov_report_summ.jsonl", "patent": "qa/leval-dev/patent_summ.jsonl"}
SPLIT_SEED = 0


@dataclass(frozen=True)
class Referenced:
    """A document and the summary a person wrote of it. ``id`` is the first 10 hex digits of the SHA-1 of
    the text (stable whatever the order of the file), ``request`` the instruction the data set gives."""

    id: str
    family: str
    text: str
    reference: str
    request: str


def load_family(data: Path, family: str) -> list[Referenced]:
    """The distinct documents of ``family`` (a text that occurs twice, scored once by ROUGE and once by an
    LLM judge in L-Eval, is kept once with its first reference), in file order.

    Raises:
        FileNotFoundError: the data file is absent.
    """
    out: dict[str, Referenced] = {}
    with (data / FAMILIES[family]).open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            text = row["input"]
            key = hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]
            out.setdefault(key, Referenced(key, family, text, row["outputs"][0], row["instructions"][0]))
    return list(out.values())


def split_halves(docs: list[Referenced], *, seed: int = SPLIT_SEED) -> dict[str, list[Referenced]]:
    """``dev`` (the first ceil(n/2)) and ``test`` halves of ``docs``, ordered by the SHA-1 of the seed and the
    document's id: the same documents fall in the same half whatever the order they were loaded in."""
    order = sorted(docs, key=lambda d: hashlib.sha1(f"{seed}:{d.id}".encode()).hexdigest())
    cut = math.ceil(len(order) / 2)
    return {"dev": order[:cut], "test": order[cut:]}
