"""Long-context evaluation tasks built from the real evaluation data (``--data``; docs/design.md §10).

Every task is one long document plus questions asked against the whole of it; each question tracks the
character spans of its gold passages so any chunking can be scored, and its gold answers.

- ``hotpot``: all 500 HotpotQA questions' paragraphs, deduplicated and shuffled (~600k MiniLM tokens).
- ``hotpot-1m``: the same padded past 1M tokens with NQ gold passages and Paul Graham's essays.
- ``nq``: NQ-open questions against a haystack of all NQ gold passages (one gold passage each).
- ``kv``: key-value retrieval (lost-in-the-middle's 75-key records): many records' pairs, one per line;
  "what is the value of key K" (the key is the exact-scan target).
- ``needle``: the essays with seeded "needle" sentences inserted at random paragraph boundaries.
- ``cuad``: real commercial contracts (CUAD), each question asked of its own contract alone; halves by
  contract; replies judged as a lawyer would (:mod:`assistant.eval.cuad`).
"""

from __future__ import annotations

import ast
import gzip
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from assistant.eval.filler import essays, nq_passages
from assistant.eval.hotpot import HOTPOT_FILE, Haystack, Question, build_haystack, join_passages
from assistant.records import Document

KV_FILE = "needle/kv-retrieval-75_keys.jsonl.gz"
NQ_FILE = "qa/nq-open-oracle.jsonl.gz"


@dataclass(frozen=True)
class Task:
    """A named haystack; ``key_targets`` is True when each question names an exact key to scan for;
    ``split`` False means every question is scored (a small fixed set, nothing is tuned on it).

    ``read`` given: each question is asked of its own document (``Question.source``) alone; ``read(q)``
    returns that document and ``q`` with its gold spans in it (the haystack's document is a placeholder).
    ``judge`` given: ``judge(q, short_answer, found)`` says whether a reply is right, the task's own rule.
    """

    name: str
    haystack: Haystack
    key_targets: bool = False
    split: bool = True
    read: Callable[[Question], tuple[Document, Question]] | None = None
    judge: Callable[[Question, str, bool], bool] | None = None


def hotpot(data: Path, seed: int = 0) -> Task:
    return Task("hotpot", build_haystack(data, seed=seed))


def hotpot_unanswerable(data: Path, seed: int = 0) -> Task:
    """Every HotpotQA question asked of the haystack without any question's gold paragraphs: the right
    reply is "not found"."""
    return Task("hotpot-unanswerable", build_haystack(data, seed=seed, without_gold=True))


CONTRACT = Path(__file__).resolve().parents[2] / "resources" / "samples" / "supply-agreement.md"


def contract(data: Path, seed: int = 0) -> Task:
    """The bundled 300-page sample contract and the questions of its facts file whose answer is stated
    in it (``kind`` qa and needle; the counting facts are the counting route's), split into seeded dev and
    test halves like every other task: rules were once chosen on these very questions, so the contract is
    one task among several, not an unseen one. Gold spans: each occurrence of the answer text in it."""
    from assistant.documents import read_many

    facts = json.loads(CONTRACT.with_suffix(".facts.json").read_text(encoding="utf-8"))
    extraction = read_many([CONTRACT])
    if not extraction.documents:
        raise ValueError(f"cannot read {CONTRACT}: {extraction.failures}")
    doc = extraction.documents[0]
    low = doc.text.lower()
    questions = []
    for i, f in enumerate(x for x in facts if x["kind"] in ("qa", "needle")):
        answer = f["answer"]
        spans: list[tuple[int, int]] = []
        at = low.find(answer.lower())
        while at >= 0 and len(spans) < 5:
            spans.append((at, at + len(answer)))
            at = low.find(answer.lower(), at + 1)
        questions.append(Question(f"contract{i}", f["question"], (answer,), tuple(spans)))
    return Task("contract", Haystack(doc, tuple(questions)))


def cuad(data: Path, seed: int = 0) -> Task:
    """CUAD's contracts: questions a person asks of one contract, each asked of its contract alone (its
    PDF read by the product), split into halves by contract, judged as a lawyer would
    (:mod:`assistant.eval.cuad`)."""
    from assistant.eval.cuad import PLACEHOLDER, contract_set

    contracts, questions = contract_set(data, seed)
    return Task("cuad", Haystack(PLACEHOLDER, questions), read=contracts.read, judge=contracts.judge)


def hotpot_1m(data: Path, seed: int = 0) -> Task:
    return Task("hotpot-1m", build_haystack(data, seed=seed, extra_texts=nq_passages(data) + essays(data)))


def nq(data: Path, seed: int = 0) -> Task:
    """NQ-open (oracle file): every question's gold passage in one haystack; answers from the file."""
    rows = []
    with gzip.open(data / NQ_FILE, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    texts: dict[str, int] = {}
    gold: list[int] = []
    for row in rows:
        ctx = next(c for c in row["ctxs"] if c.get("isgold", True))
        text = f"{ctx.get('title', '')}. {ctx['text']}".strip()
        gold.append(texts.setdefault(text, len(texts)))
    doc, spans = join_passages("nq-haystack.txt", list(texts), seed)
    questions = tuple(Question(f"nq{i}", row["question"].strip().rstrip("?") + "?", tuple(row["answers"]),
                               (spans[gold[i]],)) for i, row in enumerate(rows))
    return Task("nq", Haystack(doc, questions))


def kv(data: Path, seed: int = 0, records: int = 100) -> Task:
    """Key-value retrieval: the pairs of the first ``records`` records, one ``"key": "value"`` line each,
    shuffled; one question per record (its own key). ~4,400 MiniLM tokens per record."""
    lines: dict[str, str] = {}
    asked: list[tuple[str, str]] = []
    with gzip.open(data / KV_FILE, "rt", encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if n >= records:
                break
            row = json.loads(line)
            pairs = row["ordered_kv_records"]
            pairs = ast.literal_eval(pairs) if isinstance(pairs, str) else pairs
            for k, v in pairs:
                lines.setdefault(k, f'"{k}": "{v}"')
            asked.append((row["key"], row["value"]))
    keys = list(lines)
    doc, spans = join_passages("kv-records.txt", [lines[k] for k in keys], seed, sep="\n")  # lines, not paragraphs
    where = {k: spans[i] for i, k in enumerate(keys)}
    questions = tuple(Question(f"kv{i}", f'What is the value of key "{k}"?', (v,), (where[k],), key=k)
                      for i, (k, v) in enumerate(asked))
    return Task("kv", Haystack(doc, questions), key_targets=True)


PLACES = ("the Lisbon office safe", "the blue server cabinet", "the archive room in Ghent", "the rooftop garden",
          "the Osaka warehouse", "the night shift locker", "the lab freezer", "the Tallinn data room",
          "the east gate", "the board room projector", "the Quito branch vault", "the parking barrier",
          "the print room", "the backup generator", "the Perth loading dock", "the mail room cage",
          "the staff wifi", "the bike shed", "the Lagos reception desk", "the second floor kitchen")


def needle(data: Path, seed: int = 0, needles: int = 20) -> Task:
    """Paul Graham's essays (~150k tokens) with ``needles`` seeded sentences
    ("The access code for X is AB-1234.") inserted between paragraphs; each is asked for."""
    paras = essays(data)
    rng = random.Random(seed)
    facts = []
    for place in PLACES[:needles]:
        letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
        code = f"{rng.choice(letters)}{rng.choice(letters)}-{rng.randint(1000, 9999)}"
        facts.append((place, code))
    slots = sorted(rng.sample(range(len(paras) + 1), len(facts)))
    texts: list[str] = []
    index: dict[int, int] = {}  # needle number -> its position in texts
    for n, para in enumerate(paras + [""]):
        while slots and slots[0] == n:
            slots.pop(0)
            index[len(facts) - len(slots) - 1] = len(texts)
            place, code = facts[len(facts) - len(slots) - 1]
            texts.append(f"The access code for {place} is {code}.")
        if para:
            texts.append(para)
    doc, spans = join_passages("essays-with-needles.txt", texts, None)  # essay order kept
    questions = tuple(Question(f"needle{i}", f"What is the access code for {place}?", (code,),
                               (spans[index[i]],)) for i, (place, code) in enumerate(facts))
    return Task("needle", Haystack(doc, questions))


TASKS: dict[str, Callable[[Path], Task]] = {"hotpot": hotpot, "hotpot-1m": hotpot_1m, "nq": nq, "kv": kv,
                                            "needle": needle, "hotpot-unanswerable": hotpot_unanswerable,
                                            "contract": contract, "cuad": cuad}

# the files each task reads, relative to the data folder (checked before a run starts)
REQUIRES: dict[str, tuple[str, ...]] = {
    "hotpot": (HOTPOT_FILE,), "hotpot-1m": (HOTPOT_FILE, NQ_FILE, "needle/PaulGrahamEssays"),
    "nq": (NQ_FILE,), "kv": (KV_FILE,), "needle": ("needle/PaulGrahamEssays",),
    "hotpot-unanswerable": (HOTPOT_FILE,), "contract": (), "cuad": ("cuad/master_clauses.csv", "cuad/pdf")}
