"""Accuracy by a task's own judge (the cuad task's lawyer rules): overall, stated vs absent, per kind, with
seeded bootstrap 95% intervals."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from assistant.eval.answers import Outcome
from assistant.eval.hotpot import Question
from assistant.eval.metrics import bootstrap_interval

Judge = Callable[[Question, str, bool], bool]


def verdicts(questions: Sequence[Question], outcomes: Mapping[str, Sequence[Outcome]], judge: Judge
             ) -> dict[str, list[bool]]:
    """{system: [right?]} in question order; a not-found outcome is judged as the empty reply, not found."""
    return {name: [judge(q, o.reply if o.found else "", o.found) for q, o in zip(questions, rows, strict=True)]
            for name, rows in outcomes.items()}


def figure(right: Sequence[bool], seed: int = 0) -> dict[str, float]:
    """Accuracy, its bootstrap 95% interval (1000 resamples, ``seed``), questions and questions right."""
    low, high = bootstrap_interval([float(r) for r in right], seed=seed)
    return {"accuracy": sum(right) / len(right) if right else float("nan"), "low": low, "high": high,
            "n": float(len(right)), "right": float(sum(right))}


def summarize_judged(questions: Sequence[Question], judged: Mapping[str, Sequence[bool]], seed: int = 0
                     ) -> dict[str, dict[str, Any]]:
    """Per system: ``all``, ``stated`` (the document states the answer: ``q.answers`` not empty) and
    ``absent`` figures (:func:`figure`), and ``kinds``: {kind: figure} in the kinds' first-seen order."""
    kinds = list(dict.fromkeys(q.kind for q in questions))
    out: dict[str, dict[str, Any]] = {}
    for name, right in judged.items():
        pairs = list(zip(questions, right, strict=True))
        out[name] = {"all": figure(right, seed), "stated": figure([r for q, r in pairs if q.answers], seed),
                     "absent": figure([r for q, r in pairs if not q.answers], seed),
                     "kinds": {k: figure([r for q, r in pairs if q.kind == k], seed) for k in kinds}}
    return out


def _cell(f: Mapping[str, float]) -> str:
    if not f["n"]:
        return "-"
    return f"{f['accuracy']:.2f} [{f['low']:.2f}, {f['high']:.2f}] ({int(f['right'])}/{int(f['n'])})"


def judged_tables(summary: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Markdown: the headline figures per system, then accuracy per kind (systems as columns)."""
    lines = ["| system | all | clause stated | clause absent |", "|---|---|---|---|"]
    for name, s in summary.items():
        lines.append(f"| {name} | {_cell(s['all'])} | {_cell(s['stated'])} | {_cell(s['absent'])} |")
    if not summary:
        return lines
    names = list(summary)
    lines += ["", "| kind | " + " | ".join(names) + " |", "|---" * (1 + len(names)) + "|"]
    for kind in next(iter(summary.values()))["kinds"]:
        lines.append(f"| {kind} | " + " | ".join(_cell(summary[n]["kinds"][kind]) for n in names) + " |")
    return lines
