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


# A summary asked for in German or French ("Fasse dieses Dokument zusammen" was translated "Combine this document"
# and answered as a question: not found)
FOREIGN_SUMMARY_WORDS = (r"zusammenfass\w*|fasse\w*\b.{0,60}\bzusammen|fass\b.{0,60}\bzusammen|\u00fcberblick|"
                         r"kernaussagen|kernpunkte|wesentlichen punkte|worum geht es|r\u00e9sum\w*|synth\u00e8se|"
                         r"aper\u00e7u|points? cl\u00e9s|de quoi (?:parle|traite)")

# Cues a request must show before a cheaper method is trusted over full question answering: a small
# router LLM (docs/design.md §3: 1.5B) sometimes sends a plain question to counting; a wrong cheap route costs
# a wrong answer, a wrong fallback only costs time.
# Counting means how often a word or phrase occurs in the text; "how many days does the buyer have" asks
# for a number the document states, which is question answering (before the cues, every "how many weeks /
# years / audits" question went to counting and was answered '"days" occurs 278 times').
_CUES = {
    "counting": re.compile(r"\bhow many times\b|\bhow often\b.*\b(appear|occur|mention|use|say|said|written|"
                           r"come up|show up)\w*|\bnumber of (times|occurrences|mentions|instances)\b|"
                           r"\bcount (the |all )?(occurrences|mentions|instances|times|words?)\b|"
                           r"\boccurrences? of\b|\b(appears?|occurs?|is mentioned|mentions?)\b.*\bhow many\b|"
                           r"\bhow many (mentions|occurrences|instances)\b", re.I),
    "summarization": re.compile(r"\b(summar\w*|overview|gist|main points|key points|tl;?dr|outline|"
                                rf"{FOREIGN_SUMMARY_WORDS}|"
                                r"what is (this|the) (document|attachment|file|report|email|agreement|contract)"
                                r" about|what (?:does|do) (?:it|this|that|they|the \w+(?: \w+)?) (?:say|state|cover)s?"
                                r" (?:about|on|regarding))\b", re.I),
}

# A needle is a code, ID or key: one token with a digit (ESC-4471-QZ, a UUID, Place33), not a title such
# as "127 Hours" or "712 Fifth Avenue" that a 1.5B router also sent to needle lookup (measured).
_CODE = re.compile(r"^(?=\S*\d)[\w\-/#:.@]{3,}$")
# In a request, a code is a token mixing digits with letters or dashes (a year alone is not a key).
_CODE_IN_TEXT = re.compile(r"(?<![\w\-])(?=[\w\-/#:.@]*\d)(?=[\w\-/#:.@]*[A-Za-z\-])[\w\-/#:.@]{4,}")


# A request that is a summary request from its first words ("Summarize ...", "Give me an overview of ...",
# "What does it say about ...", "Please help me summarize ...", also after a sentence that sets a role: "You are
# a patent examiner. Please write a summary of this patent.") and asks no other question ("Give an overview:
# where was X born?" does).
_PLAIN_SUMMARY = re.compile(r"^(?:[^.?!\n]{1,80}[.!]\s+)?\W*(?:(?:please|can you|could you|would you|pls)\s+"
                            r"(?:help me\s+)?)?(?:summar\w+|"
                            r"(?:give|write|make|show)(?: me| us)? (?:a |an |the )?(?:short |brief |quick |full |"
                            r"detailed )?(?:summary|overview|gist|outline|tl;?dr|main points|key points)|tl;?dr|"
                            r"what (?:is|are) (?:this|the) \w+(?: \w+)? about|what are the (?:main|key) points|"
                            r"what (?:does|do) (?:it|this|that|they|the \w+(?: \w+)?) (?:say|state|cover)s? "
                            r"(?:about|on|regarding)|"
                            r"(?:bitte\s+)?(?:fasse?|fassen sie)\b|(?:kannst du|k\u00f6nnen sie)\s|zusammenfassung|"
                            r"(?:gib|geben sie)(?: mir| uns)? (?:eine |einen )?(?:kurze |kurzen )?"
                            r"(?:zusammenfassung|\u00fcberblick)|worum geht es|"
                            r"r\u00e9sum\w*|(?:peux-tu|pouvez-vous)\s|(?:fais|faites|donne|donnez)(?:-moi|-nous)? "
                            r"(?:un |une )?(?:bref |court )?(?:r\u00e9sum\u00e9|aper\u00e7u|synth\u00e8se)|"
                            r"de quoi (?:parle|traite))", re.I)
_ASKS = re.compile(r"\b(?:who|whom|whose|where|when|why|which|how|wer|wen|wem|wessen|wo|wann|warum|welche\w*|wie|"
                   r"qui|o\u00f9|quand|pourquoi|quel\w*|comment)\b", re.I)


def cued_routes(question: str) -> list[Route]:
    """The cheaper routes whose cue the request shows (counting, summarization, needle lookup).

    A request with none is question answering without asking the LLM: a router call costs 5-8 s cold
    (benchmarks/results/router.md), and without a cue :func:`parse_decision` would overrule any other choice anyway.
    """
    routes: list[Route] = [r for r, cue in _CUES.items() if cue.search(question)]  # type: ignore[misc]
    if any(_CODE.match(t.strip(".,;:?!)(")) for t in _CODE_IN_TEXT.findall(question)):
        routes.append("needle_lookup")
    return routes


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
    """The compute category for ``question``: question answering at once when no other route is cued
    (:func:`cued_routes`), else the LLM's choice constrained by :data:`ROUTE_SCHEMA`, checked by
    :func:`parse_decision` (TTRAG §3.1 conditional compute); falls back to question answering."""
    cued = cued_routes(question)
    if not cued:
        return Decision("question_answering", "", "(no cue for another route: no LLM call)")
    if cued == ["summarization"] and _PLAIN_SUMMARY.search(question) and not _ASKS.search(question):
        # a request for a summary and nothing else: the router call (5-8 s cold) would add nothing
        return Decision("summarization", "", "(a plain summary request: no LLM call)")
    raw = generator.complete(GenerationRequest(SYSTEM, route_prompt(question), max_tokens=64,
                                               json_schema=ROUTE_SCHEMA, purpose="route"))
    return parse_decision(raw, question)
