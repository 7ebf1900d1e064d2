"""The cuad task: contracts and labels loaded, halves by contract, gold spans in the extracted PDF, accuracy
per kind with intervals, and `eval answers --task cuad` end to end on one question with a scripted reader."""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import ScriptedGenerator

from assistant.eval.answers import Outcome
from assistant.eval.cuad import KINDS, contract_set, gold_spans, halves, load_items
from assistant.eval.hotpot import Question
from assistant.eval.judged import judged_tables, summarize_judged, verdicts
from assistant.models.base import GenerationRequest


@pytest.fixture(scope="module")
def cuad_root(data_root: Path) -> Path:
    if not (data_root / "cuad" / "master_clauses.csv").is_file():
        pytest.skip(f"CUAD not present at {data_root / 'cuad'}")
    return data_root


def test_halves_are_by_name_not_order() -> None:
    names = [f"contract-{i}.pdf" for i in range(11)]
    split = halves(names, seed=0)
    assert split == halves(list(reversed(names)), seed=0)          # the order of the files does not matter
    assert Counter(split.values()) == {"dev": 5, "test": 6}
    assert halves(names, seed=1) != split                          # the seed does
    assert halves(names + ["contract-11.pdf"], seed=0)["contract-11.pdf"] in ("dev", "test")


def test_gold_spans_survive_pdf_whitespace() -> None:
    text = "1. Term.\nThis Agree-\nment shall be governed by the laws   of the State of\nOklahoma. Other text."
    (span,) = gold_spans(text, ["This Agreement shall be governed by the laws of the State of Oklahoma"], probe=20)
    assert text[span[0]:span[1]] == "This Agree-\nment shall be governed by the laws   of the State of\nOklahoma"
    assert gold_spans(text, ["Nothing like this stands in the text at all"]) == ()


def test_loader_from_shared_data(cuad_root: Path) -> None:
    items = load_items(cuad_root)
    by_contract: dict[str, set[str]] = {}
    for it in items:
        by_contract.setdefault(it.contract, set()).add(it.question.half)
    assert len(by_contract) == 100 and all(len(h) == 1 for h in by_contract.values())  # a contract: one half
    assert Counter(h for (h,) in by_contract.values()) == {"dev": 50, "test": 50}
    assert len({it.question.id for it in items}) == len(items)
    assert [it.question.half for it in load_items(cuad_root)] == [it.question.half for it in items]  # stable
    assert load_items(cuad_root, seed=1)[0].question.id != items[0].question.id
    bnl = {it.kind.name: it for it in items if it.contract.startswith("BNLFINANCIALCORP")}
    assert (bnl["Governing Law"].label, bnl["Governing Law"].present) == ("Oklahoma", True)
    assert bnl["Agreement Date"].label == "5/1/06" and bnl["Expiration Date"].start == "5/1/06"
    assert not bnl["Audit Rights"].present and bnl["Audit Rights"].label == "No"
    assert bnl["Audit Rights"].question.answers == ()                  # absent: the agreement does not say
    assert bnl["Governing Law"].question.text == "Which law governs this agreement?"
    dev = [it for it in items if it.question.half == "dev"]
    assert [it.kind.name for it in dev[:len(KINDS)]] == [k.name for k in KINDS]  # the first 13: every kind once
    assert len({it.contract for it in dev[:2 * len(KINDS)]}) > 10       # and many contracts


def test_reading_a_contract_locates_its_clauses(cuad_root: Path) -> None:
    contracts, questions = contract_set(cuad_root)
    q = next(q for q in questions if q.kind == "Governing Law" and q.source.startswith("BNLFINANCIALCORP"))
    doc, asked = contracts.read(q)
    assert len(doc.text) > 10_000 and asked.id == q.id and asked.gold_spans
    assert "Oklahoma" in doc.text[asked.gold_spans[0][0]:asked.gold_spans[0][1]]
    assert contracts.judge(asked, "the laws of the State of Oklahoma", True)
    assert not contracts.judge(asked, "Texas", True) and not contracts.judge(asked, "", False)


def _outcome(q: str, reply: str, found: bool) -> Outcome:
    return Outcome(q, reply, found, True, False, 0.0, 0.0, 0.0, 0.0, [], [], 1, 10, 0.0, 1.0)


def test_accuracy_per_kind_with_intervals() -> None:
    qs = [Question("a", "Which law?", ("New York",), (), kind="law"),
          Question("b", "Which law?", (), (), kind="law"),
          Question("c", "Cap?", ("Yes",), (), kind="cap"),
          Question("d", "Cap?", (), (), kind="cap")]
    outcomes = {"s": [_outcome("a", "New York", True), _outcome("b", "NOT FOUND", False),
                      _outcome("c", "NOT FOUND", False), _outcome("d", "NOT FOUND", False)]}
    seen: list[tuple[str, str, bool]] = []

    def judge(q: Question, reply: str, found: bool) -> bool:
        seen.append((q.id, reply, found))
        return found and reply == q.answers[0] if q.answers else not found

    right = verdicts(qs, outcomes, judge)
    assert right == {"s": [True, True, False, True]}
    assert seen[1] == ("b", "", False)                 # a not-found outcome reaches the judge as no reply
    s = summarize_judged(qs, right)["s"]
    assert (s["all"]["accuracy"], s["stated"]["accuracy"], s["absent"]["accuracy"]) == (0.75, 0.5, 1.0)
    assert s["kinds"]["law"]["accuracy"] == 1.0 and s["kinds"]["cap"]["n"] == 2.0
    assert s["all"]["low"] <= 0.75 <= s["all"]["high"] and s["absent"]["low"] == s["absent"]["high"] == 1.0
    table = judged_tables({"s": s})
    assert table[2].startswith("| s | 0.75 [") and "(3/4)" in table[2] and "| 1.00 [1.00, 1.00] (2/2) |" in table[2]
    assert table[6].startswith("| law | 1.00 [1.00, 1.00] (2/2)")


def test_eval_answers_cuad_end_to_end(cuad_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One governing-law question of the dev half through `assistant eval answers` (a contract whose clause
    the retrieval reaches), its contract read from the PDF and asked alone; the scripted reader names the
    place of the passage that says which law governs."""
    from assistant.cli import main
    from assistant.eval import tasks
    from assistant.service import ModelStore

    full = tasks.cuad(cuad_root)
    q = next(q for q in full.haystack.questions if q.kind == "Governing Law" and q.source.startswith("BNLFIN"))
    assert q.half == "dev" and q.answers == ("Oklahoma",)
    one = dataclasses.replace(full, haystack=dataclasses.replace(full.haystack, questions=(q,)))
    monkeypatch.setitem(tasks.TASKS, "cuad", lambda data: one)
    law = re.compile(r"governed by.{0,200}?laws? of (?:the )?(?:State of |Commonwealth of )?" + re.escape(q.answers[0]),
                     re.S | re.I)

    def reader(r: GenerationRequest) -> str:
        for n, passage in enumerate(r.user.split("\n[")[1:], 1):
            if law.search(passage):
                return json.dumps({"found": True, "passage": n, "short_answer": q.answers[0],
                                   "answer": f"The laws of {q.answers[0]} govern it."})
        return json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})

    scripted = ScriptedGenerator(reader)
    monkeypatch.setattr(ModelStore, "generator", lambda self: scripted)
    out = tmp_path / "answers-cuad"
    assert main(["eval", "answers", "--task", "cuad", "--half", "dev", "-n", "1", "--systems", "full",
                 "--data", str(cuad_root), "--out", str(out)]) == 0
    md = out.with_suffix(".md").read_text(encoding="utf-8")
    data = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["documents"] == 1 and data["scored"] == 1 and scripted.requests
    assert "Half: **dev**, the half settings are chosen on" in md
    assert "The task's halves: dev: 1 document, 1 question; test: 0 documents, 0 questions." in md
    assert data["asked"] == [{"id": q.id, "half": "dev", "kind": "Governing Law", "source": q.source,
                              "stated": True}]
    assert "| Governing Law | 1.00 [1.00, 1.00] (1/1) |" in md
    assert list(data["verdicts"].values()) == [[True]]
    assert f"| {q.id} | stated | Oklahoma ✓ |" in md
