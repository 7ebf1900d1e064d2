"""The answer decision: one calibrated probability that the reader's reply is right, from named signals.

Between the reader's reply and the person stands one decision (docs/design.md §7), not a chain of checks each
tuned alone on one failure: a logistic regression over the signals of :class:`Signals`, fit on the dev halves
of every task family together and in several wordings of each question (``benchmarks/fit_decision.py``; its
coefficients, standardisation and operating point are ``decision.json`` beside this module, written by that
script and read here). The reply is stated when :meth:`DecisionModel.p_right` reaches the operating point,
else the person is told the passages do not answer. Inspectable by design: ``decision.json`` names every
weight, and the fit's results file shows the reliability and the selective-accuracy curve per family.

The signals are all known once the reader has decoded its ``found``, ``passage`` and ``short_answer`` fields,
before the sentence streams: the reader's own P(found) and P(yes), whether the short answer stands in a passage
read (stemmed words, and verbatim), the question's key-term coverage by the passages, the share of the
question's words in the cited passage, the cited passage's rank, and whether the answer has the question's form.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from functools import cache
from pathlib import Path

from assistant.records import Chunk
from assistant.ttrag import grounding
from assistant.ttrag.qtype import QuestionType, fits

MODEL_FILE = Path(__file__).with_name("decision.json")


def _logit(p: float | None) -> float | None:
    if p is None:
        return None
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def _folded(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"\W+", " ", text).strip()


@dataclass(frozen=True)
class Signals:
    """What is known of one reply before its sentence is shown; each a float, named as in ``decision.json``.

    Attributes:
        found_logit: logit of the reader's P(found); None when the backend does not report it (the decision
            then takes the fitting data's mean: the signal says nothing either way).
        yes_logit: for a "yes" to a yes/no question, logit of the reader's P(yes) (None when not reported);
            0 for any other answer.
        yesno: 1 for a yes/no or two-option question (the short answer's words are the question's).
        support: 1 when every content word of the short answer (stemmed) stands in one passage read.
        verbatim: 1 when the short answer, folded, stands word for word in the passage the reader cited.
        coverage: share of the question's key terms (names, numbers, quoted words) the passages mention.
        overlap: share of the question's content words (stemmed) in the cited passage.
        cited_rank: the cited passage's number (1 = the re-ranker's best; 4 for none or out of range).
        form: 1 when the short answer has the form the question asks (a date for "when" ...).
        answer_words: log(1 + words of the short answer).
    """

    found_logit: float | None
    yes_logit: float | None
    yesno: float
    support: float
    verbatim: float
    coverage: float
    overlap: float
    cited_rank: float
    form: float
    answer_words: float

    def vector(self) -> list[float]:
        """The signals in :func:`names` order; NaN for one not known."""
        return [math.nan if v is None else float(v) for v in asdict(self).values()]


def names() -> tuple[str, ...]:
    """The signal names, in the order of :meth:`Signals.vector`."""
    return tuple(f.name for f in fields(Signals))


def signals(question: str, qtype: QuestionType, short_answer: str, cited: int | None, chunks: Sequence[Chunk], *,
            found_p: float | None, yes_p: float | None, read_before: Sequence[Chunk] = (),
            equivalents: Sequence[tuple[str, str]] = ()) -> Signals:
    """The :class:`Signals` of a reply.

    Args:
        question: the question judged (the passages' language's form of it).
        qtype: its type (:func:`assistant.ttrag.qtype.question_type`).
        short_answer: the reader's short answer.
        cited: the passage number the reader gave (1-based), or None.
        chunks: the passages read, numbered as the reader saw them.
        found_p: the reader's P(found), None when unknown.
        yes_p: the reader's P(yes) at its short answer, None when unknown or not a yes/no question.
        read_before: passages earlier attempts of the same question read (they count towards coverage).
        equivalents: (name, term) pairs of the parties the question names (:func:`grounding.coverage`).
    """
    short = short_answer.strip()
    yesno = qtype.kind in ("yesno", "choice")
    rank = cited if isinstance(cited, int) and 1 <= cited <= len(chunks) else 0
    passage = chunks[rank - 1].text if rank else " ".join(c.text for c in chunks)
    asked = grounding.terms(question)
    folded = _folded(short)
    return Signals(
        found_logit=_logit(found_p),
        yes_logit=_logit(yes_p) if qtype.kind == "yesno" and short.lower() == "yes" else 0.0,
        yesno=float(yesno),
        support=float(not yesno and bool(grounding.supporting(short, chunks))),
        verbatim=float(not yesno and bool(folded) and f" {folded} " in f" {_folded(passage)} "),
        coverage=grounding.coverage(question, [*chunks, *read_before], equivalents),
        overlap=len(asked & grounding.terms(passage)) / len(asked) if asked else 1.0,
        cited_rank=float(rank or 4),
        form=float(fits(qtype, short)),
        answer_words=math.log1p(len(short.split())),
    )


@dataclass(frozen=True)
class DecisionModel:
    """A fitted logistic regression over standardised signals, and the operating point it is used at.

    Attributes:
        names: the signal names the weights belong to (:func:`names` when fitted).
        mean: each signal's mean on the fitting data; scale: its standard deviation.
        coef: the weight of each standardised signal; intercept: the bias.
        threshold: the operating point: a reply is stated when :meth:`p_right` >= it.
        fitted_on: what the model was fit on (families, halves, wordings, reads), for the record.
    """

    names: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float
    fitted_on: str = ""

    def p_right(self, s: Signals) -> float:
        """P(the reply is right | its signals), in [0, 1]; a signal not known counts as its mean."""
        values = dict(zip(names(), s.vector(), strict=True))
        z = self.intercept + sum(w * (0.0 if math.isnan(values[n]) else (values[n] - m) / (sd or 1.0))
                                 for n, m, sd, w in zip(self.names, self.mean, self.scale, self.coef, strict=True))
        return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2) + "\n"


@cache
def load(path: Path = MODEL_FILE) -> DecisionModel | None:
    """The model of ``path`` (``decision.json``), or None when there is none (no fitted decision: the reader's
    greedy ``found`` alone decides).

    Raises:
        ValueError: the file names a signal :class:`Signals` does not have.
    """
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    model = DecisionModel(tuple(data["names"]), tuple(data["mean"]), tuple(data["scale"]), tuple(data["coef"]),
                          float(data["intercept"]), float(data["threshold"]), str(data.get("fitted_on", "")))
    unknown = set(model.names) - set(names())
    if unknown:
        raise ValueError(f"{path}: unknown signals {sorted(unknown)}")
    return model


def active(choice: str) -> DecisionModel | None:
    """The decision an ask uses for ``PipelineOptions.answer_decision``: the installed model for ``fitted``
    (None when none is installed), None for ``checks`` (the chain of checks decides)."""
    return load() if choice == "fitted" else None
