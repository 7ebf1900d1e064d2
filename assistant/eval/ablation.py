"""Ablations of the answer path: the full pipeline with one option changed, scored against it question by
question (``assistant eval answers --vary OPTION=V1,V2``; docs/design.md §10).

A variation is the shipped :class:`~assistant.config.PipelineOptions` with one field changed, so every rule
that is an option (the router, the rewrite loop, grounding's coverage, the re-ranker's mode ...) can be
switched off and measured on the same questions. Calls the variation shares with the full pipeline replay
(:class:`~assistant.eval.answers.ReplayGenerator`), so an ablation costs only the reads that differ.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Sequence
from typing import Any

from assistant.config import PipelineOptions, answer_rules
from assistant.eval.metrics import bootstrap_interval


def parse_variations(specs: Sequence[str], *, flag: str = "--vary") -> dict[str, dict[str, object]]:
    """``["max_rewrites=1,0", "router=false"]`` -> ``{"max_rewrites=1": {"max_rewrites": 1}, ...}``, each
    value converted to the option's type; ``answer_rules_off=widen,hedge+party`` switches off one rule, then
    two (names joined by "+").

    Raises:
        ValueError: not ``OPTION=VALUE[,VALUE...]``, an unknown option, or a value of the wrong type.
    """
    fields = [f.name for f in dataclasses.fields(PipelineOptions)]
    defaults = PipelineOptions()
    out: dict[str, dict[str, object]] = {}
    for spec in specs:
        name, sep, values = spec.partition("=")
        name = name.strip()
        if not sep or not values.strip():
            raise ValueError(f"{flag} {spec!r}: write OPTION=VALUE[,VALUE...], e.g. max_rewrites=1,0")
        if name not in fields:
            raise ValueError(f"{flag} {spec!r}: no pipeline option {name!r}; options: {', '.join(fields)}")
        kind = type(getattr(defaults, name))
        for raw in (v.strip() for v in values.split(",") if v.strip()):
            out[f"{name}={raw}"] = {name: _convert(raw, kind, f"{flag} {spec!r}")}
    return out


def _convert(raw: str, kind: type, where: str) -> object:
    if kind is tuple:  # answer_rules_off=widen+hedge: names joined by "+"
        try:
            return answer_rules(n.strip() for n in raw.split("+") if n.strip() and n.strip().lower() != "none")
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from exc
    if kind is bool:
        if raw.lower() not in ("true", "false", "on", "off", "1", "0"):
            raise ValueError(f"{where}: {raw!r} is not true or false")
        return raw.lower() in ("true", "on", "1")
    try:
        return kind(raw)
    except ValueError as exc:
        raise ValueError(f"{where}: {raw!r} is not a {kind.__name__}") from exc


def ablation_table(base: str, outcomes: dict[str, list[Any]], right: dict[str, list[bool]] | None = None, *,
                   seed: int = 0) -> list[str]:
    """Markdown rows: each system against ``base`` on the same questions.

    Args:
        base: the name of the full pipeline in ``outcomes``.
        outcomes: per system, one :class:`~assistant.eval.answers.Outcome` per question (same order).
        right: per system, whether the task's judge accepted each reply (judged tasks); else answerable
            questions score "gold contained" and unanswerable ones a "not found" reply.

    Returns:
        A table: the score and its change (with the paired bootstrap 95% interval of the change, 1000
        resamples of the questions, ``seed``), questions whose verdict changed each way, mean end-to-end
        seconds and their ratio to ``base``, LLM calls.
    """
    def scores(name: str) -> list[float]:
        if right:
            return [float(r) for r in right[name]]
        return [float(o.contained) if o.answerable else float(not o.found) for o in outcomes[name]]

    what = "accepted as a lawyer would" if right else "right (answerable: gold contained; absent: not found)"
    rows = [f"Score = {what}; change = variation - full pipeline on the same questions, with its paired "
            "bootstrap 95% interval; won / lost = questions the variation gets right / wrong that the full "
            "pipeline got wrong / right; time = mean end-to-end seconds (shared LLM calls replay their measured "
            "seconds).", "",
            "| system | score | change [95% CI] | won / lost | end to end s | x full | LLM calls |",
            "|---|---|---|---|---|---|---|"]
    ref = scores(base)
    ref_s = statistics.mean(o.total_s for o in outcomes[base])
    for name, rows_of in outcomes.items():
        mine = scores(name)
        diff = [b - a for a, b in zip(ref, mine, strict=True)]
        low, high = bootstrap_interval(diff, seed=seed)
        won = sum(d > 0 for d in diff)
        lost = sum(d < 0 for d in diff)
        secs = statistics.mean(o.total_s for o in rows_of)
        calls = statistics.mean(o.llm_calls for o in rows_of)
        change = "—" if name == base else f"{statistics.mean(diff):+.3f} [{low:+.2f}, {high:+.2f}]"
        rows.append(f"| {name} | {statistics.mean(mine):.3f} | {change} | {won} / {lost} | {secs:.1f} "
                    f"| {secs / ref_s:.2f} | {calls:.1f} |")
    return rows
