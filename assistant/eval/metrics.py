"""Retrieval, answer and summary metrics: recall@k, MRR of gold passages; exact match, token F1, containment;
ROUGE and content-word recall against a reference summary; bootstrap intervals of a mean."""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np

from assistant.records import Chunk

Span = tuple[int, int]


def gold_ranks(ranked: Sequence[Chunk], gold: Sequence[Span], is_gold: Callable[[Chunk, Span], bool]) -> list[int]:
    """1-based rank of the first chunk holding each gold passage (0 = not retrieved)."""
    out = []
    for span in gold:
        out.append(next((r for r, c in enumerate(ranked, 1) if is_gold(c, span)), 0))
    return out


def recall_at(ranks: Sequence[int], k: int) -> float:
    """Share of gold passages found in the top ``k`` (ranks from :func:`gold_ranks`)."""
    return sum(1 for r in ranks if 0 < r <= k) / len(ranks) if ranks else 0.0


def reciprocal_rank(ranks: Sequence[int]) -> float:
    """1 / rank of the best-ranked gold passage (0 when none was retrieved)."""
    found = [r for r in ranks if r > 0]
    return 1.0 / min(found) if found else 0.0


def normalize(text: str) -> str:
    """SQuAD normalisation: lower case, no punctuation, no articles, single spaces."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def exact_match(prediction: str, answers: Sequence[str]) -> float:
    """1.0 when the normalised prediction equals a normalised gold answer."""
    return float(any(normalize(prediction) == normalize(a) for a in answers))


def token_f1(prediction: str, answers: Sequence[str]) -> float:
    """Best token-level F1 between the prediction and any gold answer (SQuAD)."""
    best = 0.0
    pred = normalize(prediction).split()
    for a in answers:
        gold = normalize(a).split()
        common = Counter(pred) & Counter(gold)
        same = sum(common.values())
        if same:
            p, r = same / len(pred), same / len(gold)
            best = max(best, 2 * p * r / (p + r))
    return best


def contains(prediction: str, answers: Sequence[str]) -> float:
    """1.0 when a normalised gold answer occurs inside the normalised prediction."""
    pred = normalize(prediction)
    return float(any(normalize(a) and normalize(a) in pred for a in answers))


def gold_option(options: Sequence[str], answers: Sequence[str]) -> str:
    """Of a choice question's two ``options`` as written ("Ulf Merbold"), the one the first gold answer names
    ("Ulf Dietrich Merbold"): the one sharing more normalised words with it; '' on a tie or none."""
    gold = set(normalize(answers[0]).split()) if answers else set()
    shares = [len(gold & set(normalize(o).split())) for o in options]
    best = max(shares, default=0)
    return options[shares.index(best)] if best and shares.count(best) == 1 else ""


def first_option(text: str, options: Sequence[str]) -> str:
    """The option ``text`` names first, as a person reads it ("There are 25 species of Lavatera, while ... 100 of
    Oplismenus": Lavatera): where it stands whole, else its last word ("Alexandrov" for "Pavel Alexandrov");
    '' when it names neither."""
    said = f" {normalize(text)} "
    at = {}
    for o in options:
        words = normalize(o).split()
        for probe in (" ".join(words), words[-1] if words else ""):
            i = said.find(f" {probe} ") if probe else -1
            if i >= 0:
                at[o] = i
                break
    return min(at, key=lambda o: at[o]) if at else ""


def choice_right(text: str, options: Sequence[str], answers: Sequence[str]) -> float:
    """1.0 when the option ``text`` names first is the gold one (:func:`gold_option`); a question whose gold
    answer names neither option falls back to :func:`contains`."""
    gold = gold_option(options, answers)
    if not gold:
        return contains(text, answers)
    return float(first_option(text, options) == gold)


_STOP = frozenset("of to in on at by for from and or per with under than is are was be as its it this that "
                  "after before".split())


def key_match(prediction: str, answers: Sequence[str]) -> float:
    """1.0 when the prediction states a gold answer's key, for golds written as phrases ("five (5) years",
    "0.5% of the order value per calendar day") that a short answer ("5", "0.5%") states in part.

    The prediction must contain a gold answer (:func:`contains`), or be made only of the gold's words
    (SQuAD-normalised) and hold the gold's first number ("5" in "five (5) years"); for a gold without a
    number, a capitalised word of it ("Netherlands" in "substantive laws of the Netherlands") or at least
    half of its content words ("six weeks" in "from four to six weeks"). A part without the key
    ("interest" for "3.25 percentage points above the rate ... interest") does not match.
    """
    if contains(prediction, answers):
        return 1.0
    pred = normalize(prediction).split()
    if not pred:
        return 0.0
    for a in answers:
        gold = normalize(a).split()
        if not set(pred) <= set(gold):
            continue
        numbers = [t for t in gold if any(ch.isdigit() for ch in t)]
        if numbers:
            if numbers[0] in pred:
                return 1.0
            continue
        capitals = {normalize(w) for w in a.split() if w[:1].isupper()} - {""}
        content = [t for t in gold if t not in _STOP]
        if capitals & set(pred) or (content and sum(t in pred for t in content) * 2 >= len(content)):
            return 1.0
    return 0.0


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0-100), linear interpolation (numpy's default); NaN when empty."""
    return float(np.percentile(values, p)) if len(values) else float("nan")


def latency_stats(seconds: Sequence[float]) -> dict[str, float]:
    """mean, p50, p95, p99 and n of a list of durations (seconds)."""
    return {"mean": sum(seconds) / len(seconds) if seconds else float("nan"), "p50": percentile(seconds, 50),
            "p95": percentile(seconds, 95), "p99": percentile(seconds, 99), "n": float(len(seconds))}


def bootstrap_interval(values: Sequence[float], *, resamples: int = 1000, level: float = 0.95,
                       seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values`` (e.g. 1/0 per question): ``resamples``
    draws with replacement, seeded; (NaN, NaN) when empty.

    Args:
        values: one score per question, shape (n,).
        resamples: bootstrap draws; level: the interval's coverage (0.95 = 2.5th to 97.5th percentile).
        seed: the draws' seed (the same values give the same interval).
    """
    if not len(values):
        return float("nan"), float("nan")
    xs = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(seed)
    means = xs[rng.integers(0, len(xs), size=(resamples, len(xs)))].mean(axis=1)
    tail = (1 - level) / 2 * 100
    return float(np.percentile(means, tail)), float(np.percentile(means, 100 - tail))


def bootstrap_ci(values: Sequence[float] | Sequence[Sequence[float]], *, resamples: int = 1000, seed: int = 0,
                 level: float = 0.95, statistic: Callable[[np.ndarray], float] | None = None,
                 ) -> tuple[float, float, float]:
    """A statistic of ``values`` and its percentile bootstrap interval: (value, low, high).

    Args:
        values: one number per item (shape ``(n,)``), or several per item (``(n, k)``: rows are resampled
            together, e.g. a summary's score and its lead baseline's score for a paired ratio).
        resamples: bootstrap resamples of the ``n`` items, drawn with replacement.
        seed: the resampling seed (the same values give the same interval).
        level: the interval's coverage (0.95: the 2.5th and 97.5th percentiles).
        statistic: maps an array of resampled rows to a number (default: the mean).

    Returns:
        NaNs when ``values`` is empty.
    """
    x = np.asarray(values, dtype=float)
    if not len(x):
        return float("nan"), float("nan"), float("nan")
    stat = statistic or (lambda a: float(np.mean(a)))
    rng = np.random.default_rng(seed)
    draws = [stat(x[rng.integers(0, len(x), len(x))]) for _ in range(resamples)]
    tail = (1 - level) / 2 * 100
    return float(stat(x)), float(np.percentile(draws, tail)), float(np.percentile(draws, 100 - tail))


_TOKEN = re.compile(r"[a-z0-9]+")


@cache
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN  # the English list the BM25 index uses

    return frozenset(STOPWORDS_EN)


def content_words(text: str) -> set[str]:
    """The distinct lower-cased word tokens (letters and digits) of ``text`` that are not English stop words."""
    return {t for t in _TOKEN.findall(text.lower()) if t not in _stopwords()}


def content_recall(summary: str, reference: str) -> float:
    """Share of the reference's content words (:func:`content_words`, unstemmed) that the summary contains."""
    want = content_words(reference)
    return len(want & content_words(summary)) / len(want) if want else 0.0


@cache
def _scorer() -> Any:
    from rouge_score import rouge_scorer  # the ``eval`` extra

    return rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)


def rouge(summary: str, reference: str) -> dict[str, float]:
    """ROUGE-1, -2 and -L (Porter-stemmed, rouge-score) of ``summary`` against ``reference``: recall and F
    as ``r1_recall``, ``r1_f``, ``r2_recall``, ``r2_f``, ``rL_recall``, ``rL_f``."""
    scores = _scorer().score(reference, summary)  # (target, prediction)
    out = {}
    for key, name in (("rouge1", "r1"), ("rouge2", "r2"), ("rougeL", "rL")):
        out[f"{name}_recall"] = float(scores[key].recall)
        out[f"{name}_f"] = float(scores[key].fmeasure)
    return out


def lead(text: str, n_words: int) -> str:
    """The lead baseline: the first ``n_words`` whitespace-separated words of ``text``."""
    return " ".join(text.split()[:n_words])
