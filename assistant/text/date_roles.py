"""Whether a text gives a date as the day something starts or the day it ends.

A contract says "This agreement shall commence on January 20, 2014 ... and shall continue in effect for six (6)
months"; the reader, asked how long the agreement lasts and when it expires, answers "it expires on January 20,
2014". The date stands in the passage, so a check that looks for the answer's words there passes it; what the
passage says of that date is that the agreement starts on it. The same reader wrote "it expires on the Effective
Date" and "it expires simultaneously with the date first set forth above" where the contract said that it takes
effect then.

A date's role is read from the nearest cue before it in its own clause: "commence", "begin", "effective",
"dated", "made", "from", "as of" make it a start; "expire", "end", "terminate", "until", "through", and "to"
right before it ("from July 23, 2013 to July 22, 2014") an end. A claim is contradicted when the passages give
its date the other role and never its own (:func:`contradicted`); a date the passages do not state (one the
reader worked out: "5 years from the commencement date of 16th June 2004" read as "expires on 16th June 2009")
or state with no cue is left alone.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from dataclasses import dataclass
from typing import Literal

from assistant.text.dates import dates_in

Role = Literal["start", "end"]

_START = (r"commenc\w*|begin\w*|began|begun|start\w*|effective|dated|made|entered\s+into|executed|signed|from|"
          r"since|as\s+of")
_END = r"expir\w*|ends?|ended|ending|terminat\w*|until|till|through|thru|conclud\w*|ceas\w*|lapses?|lapsed"
_CUE = re.compile(rf"\b(?:(?P<start>{_START})|(?P<end>{_END}))\b", re.I)
_TO = re.compile(r"\bto\s+(?:and\s+including\s+)?$", re.I)  # "from July 23, 2013 to July 22, 2014"
#: Characters before a date in which its cue is looked for; a clause's or sentence's end closes them.
REACH = 60
_CLAUSE_END = re.compile(r"[.;:](?:\s|$)|\n\s*\n")

#: What a contract calls the day it starts: an end claimed "on the Effective Date" or "simultaneously with the date
#: first set forth above" puts the end at the start.
START_REFERENCE = (r"(?:the\s+)?(?:Effective\s+Date|Commencement\s+Date|Start\s+Date|Execution\s+Date|"
                   r"date\s+(?:first\s+)?(?:set\s+forth|written|stated|mentioned|shown)\s+above|"
                   r"date\s+(?:hereof|of\s+(?:this\s+Agreement|execution|signing)))\b")
_END_AT_START = re.compile(rf"\b(?:{_END})\s+(?:on\s+|at\s+|upon\s+|with\s+|as\s+of\s+|simultaneously\s+"
                           rf"(?:with\s+)?)?{START_REFERENCE}", re.I)


@dataclass(frozen=True)
class RoledDate:
    """A date a text gives a role: where (``start``, ``end``: character offsets), which calendar days it can be
    (:class:`assistant.text.dates.DateSpan`; empty for a start named by reference, ``the Effective Date``) and its
    ``role``."""

    start: int
    end: int
    days: frozenset[dt.date]
    role: Role


def roles_in(text: str) -> list[RoledDate]:
    """The dates of ``text`` whose clause gives them a role, in order of position (see the module docstring):
    the nearest cue within :data:`REACH` characters before the date, not across another date or a clause's end.
    "Effective" after an end cue ("terminate ... effective on June 1, 2020") is the end's."""
    out: list[RoledDate] = []
    before = 0
    for span in dates_in(text):
        lead = text[max(before, span.start - REACH):span.start]
        ends = list(_CLAUSE_END.finditer(lead))
        if ends:
            lead = lead[ends[-1].end():]
        before = span.end
        cues = list(_CUE.finditer(lead))
        if _TO.search(lead):
            role: Role | None = "end"
        elif not cues:
            role = None
        elif cues[-1].group("end") or (cues[-1].group(0).lower() == "effective" and any(c.group("end") for c in cues)):
            role = "end"
        else:
            role = "start"
        if role is not None:
            out.append(RoledDate(span.start, span.end, span.days, role))
    return out


def _other(role: Role) -> Role:
    return "end" if role == "start" else "start"


def _only_other(stated: list[RoledDate], days: frozenset[dt.date], role: Role) -> bool:
    """Whether ``stated`` gives ``days`` the other role than ``role`` at least once and ``role`` never."""
    roles = {s.role for s in stated if s.days & days}
    return _other(role) in roles and role not in roles


def contradicted(claim: str, passages: str) -> list[RoledDate]:
    """The dates ``claim`` gives a role that ``passages`` give them never and the other role at least once, and the
    ends ``claim`` puts at a start named by reference ("expires on the Effective Date") that ``passages`` do not
    also put there; in order of position in ``claim``."""
    stated = roles_in(passages)
    out = [said for said in roles_in(claim) if _only_other(stated, said.days, said.role)]
    if not _END_AT_START.search(passages):
        out.extend(RoledDate(m.start(), m.end(), frozenset(), "end") for m in _END_AT_START.finditer(claim))
    return sorted(out, key=lambda d: d.start)


# where a sentence's clauses join: ", and it expires ...", ". It expires ...", "; it ..."
_JOINS = re.compile(r",?\s+and\s+(?=(?:it|this|the|such)\b)|,\s+(?=(?:and|but|with|which)\b)|(?<=[.;])\s+")


def without_contradicted(sentence: str, passages: str) -> str:
    """``sentence`` less the clauses that hold a :func:`contradicted` claim ("This agreement lasts for six (6)
    months, and it expires on January 20, 2014." read from "shall commence on January 20, 2014": "This agreement
    lasts for six (6) months."); '' when its first clause holds one (what follows leans on it)."""
    wrong = contradicted(sentence, passages)
    if not wrong:
        return sentence
    cuts = [0, *(m.start() for m in _JOINS.finditer(sentence)), len(sentence)]
    kept = []
    for a, b in itertools.pairwise(cuts):
        if any(a <= w.start < b for w in wrong):
            if a == 0:
                return ""
            continue
        kept.append(sentence[a:b])
    text = "".join(kept).rstrip(" ,;")
    return text if text.endswith((".", "!", "?")) else text.rstrip(".") + "."


_ASKS_END = re.compile(r"\b(?:end|ends|ending|ended|expire\w*|expiry|expiration|terminat\w*|runs?\s+out|finish\w*|"
                       r"last\s+until|until\s+when)\b", re.I)
_ASKS_START = re.compile(r"\b(?:start\w*|begin\w*|began|commenc\w*|effective|takes?\s+effect|signed|dated)\b", re.I)


def asked_role(question: str) -> Role | None:
    """The role of the date ``question`` asks for: ``end`` ("When does this deal end?", "expiration date?"),
    ``start`` ("When does the agreement take effect?"), None when it asks for both or neither."""
    end, start = bool(_ASKS_END.search(question)), bool(_ASKS_START.search(question))
    return "end" if end and not start else "start" if start and not end else None


def gives_other_role(answer: str, role: Role, passages: str) -> bool:
    """True when a date of ``answer``, asked for as a ``role``, is one ``passages`` give the other role and never
    this one (the start date given for "When does it end?")."""
    stated = roles_in(passages)
    return any(_only_other(stated, said.days, role) for said in dates_in(answer))
