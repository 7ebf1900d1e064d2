"""Summary metrics computed by hand (ROUGE, content-word recall, the lead baseline, bootstrap intervals) and
the seeded dev/test split of the documents with human reference summaries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.eval.metrics import bootstrap_ci, content_recall, content_words, lead, rouge
from assistant.eval.summaries import FAMILIES, load_family, split_halves


def test_rouge_by_hand() -> None:
    # reference 6 tokens, summary 3: "cat" and "sat" shared; one bigram ("cat sat") of the reference's 5
    s = rouge("the cat sat", "a cat sat on a mat")
    precision, recall = 2 / 3, 2 / 6
    assert s["r1_recall"] == pytest.approx(recall) and s["r1_f"] == pytest.approx(2 * precision * recall /
                                                                                  (precision + recall))
    assert s["r2_recall"] == pytest.approx(1 / 5)
    assert rouge("cats sitting", "the cat sits")["r1_recall"] == pytest.approx(2 / 3)  # Porter stems


def test_content_recall_counts_distinct_words_without_stop_words() -> None:
    assert content_words("The Board approved the budget; the budget is final.") == {"board", "approved", "budget",
                                                                                   "final"}
    assert content_recall("The board met.", "The board approved the budget") == pytest.approx(1 / 3)
    assert content_recall("anything", "the of and") == 0.0


def test_lead_takes_the_first_words() -> None:
    assert lead("One two\nthree  four five.", 3) == "One two three"
    assert lead("short", 10) == "short"


def test_bootstrap_interval_is_seeded_and_holds_the_mean() -> None:
    values = [0.1, 0.2, 0.3, 0.4, 0.9]
    mean, lo, hi = bootstrap_ci(values)
    assert mean == pytest.approx(0.38) and lo < mean < hi
    assert bootstrap_ci(values) == (mean, lo, hi)  # the same seed, the same interval
    assert bootstrap_ci([0.5] * 4) == (0.5, 0.5, 0.5)
    ratio = bootstrap_ci([[0.2, 0.1], [0.4, 0.2]], statistic=lambda a: float(a[:, 0].mean() / a[:, 1].mean()))
    assert ratio == pytest.approx((2.0, 2.0, 2.0))  # pairs resampled together


def _family(tmp_path: Path, n: int) -> Path:
    rows = [{"input": f"Document {i} text.", "outputs": [f"Summary {i}."], "instructions": ["Summarize."]}
            for i in range(n)]
    rows.append(dict(rows[0], outputs=["A second reference for document 0."]))  # the same text again
    path = tmp_path / FAMILIES["patent"]
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return tmp_path


def test_split_is_seeded_stable_and_keeps_a_repeated_text_once(tmp_path: Path) -> None:
    docs = load_family(_family(tmp_path, 13), "patent")
    assert len(docs) == 13 and docs[0].reference == "Summary 0."
    halves = split_halves(docs)
    assert len(halves["dev"]) == 7 and len(halves["test"]) == 6
    assert not {d.id for d in halves["dev"]} & {d.id for d in halves["test"]}
    assert split_halves(list(reversed(docs))) == halves  # the order of the file does not matter
    assert split_halves(docs, seed=1) != halves
