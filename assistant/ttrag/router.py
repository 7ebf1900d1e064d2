"""Conditional compute (TTRAG §3.1): an LLM router picks a compute category under a JSON schema."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from assistant.models.base import GenerationRequest, Generator
from assistant.records import ROUTES, Route
from assistant.ttrag.prompts import SYSTEM, route_prompt

ROUTE_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "route": {"type": "string", "enum": list(ROUTES)},
        "target": {"type": "string"},
    },
    "required": ["route", "target"],
}


@dataclass(frozen=True)
class Decision:
    """The router's choice; ``target`` is the key or term for needle lookups and counting."""

    route: Route
    target: str
    raw: str
    fallback: bool = False


# Cues a request must show before a cheaper method is trusted over full question answering: a small
# router LLM (DESIGN §3: 1.5B) sometimes sends a plain question to counting; a wrong cheap route costs
# a wrong answer, a wrong fallback only costs time.
_CUES = {
    "counting": re.compile(r"\b(how (many|often)|number of|count|occurrences?|times)\b", re.I),
    "summarization": re.compile(r"\b(summar\w*|overview|gist|main points|tl;?dr|outline)\b", re.I),
}

# A needle is a code, ID or key: one token with a digit (ESC-4471-QZ, a UUID, Place33), not a title such
# as "127 Hours" or "712 Fifth Avenue" that a 1.5B router also sent to needle lookup (measured).
_CODE = re.compile(r"^(?=\S*\d)[\w\-/#:.@]{3,}$")


def parse_decision(raw: str, question: str) -> Decision:
    """Parse the router's JSON; anything malformed, unknown, without a needed target, or not backed by
    the request itself (a counting cue, a summary cue, a needle quoted in the request) falls back to QA."""
    try:
        data = json.loads(raw)
        route = data["route"]
        target = str(data.get("target") or "").strip()
    except (ValueError, KeyError, TypeError):
        return Decision("question_answering", "", raw, fallback=True)
    if route not in ROUTES:
        return Decision("question_answering", "", raw, fallback=True)
    if route in ("needle_lookup", "counting") and (not target or len(target) > 200):
        return Decision("question_answering", "", raw, fallback=True)
    cue = _CUES.get(route)
    if cue is not None and not cue.search(question):
        return Decision("question_answering", "", raw, fallback=True)
    if route in ("needle_lookup", "counting") and target.casefold() not in question.casefold():
        return Decision("question_answering", "", raw, fallback=True)
    if route == "needle_lookup" and not _CODE.match(target):
        return Decision("question_answering", "", raw, fallback=True)
    return Decision(route, target, raw)


def route(generator: Generator, question: str) -> Decision:
    """Ask the LLM for a category (constrained by :data:`ROUTE_SCHEMA`); falls back to question answering."""
    raw = generator.complete(GenerationRequest(SYSTEM, route_prompt(question), max_tokens=64,
                                               json_schema=ROUTE_SCHEMA, purpose="route"))
    return parse_decision(raw, question)
