"""Lengths of time as a text writes them, so that one duration written two ways is known as one.

A contract writes "five (5) years", "a one-year term", "sixty days" or "until the fifth (5th) anniversary of the
Effective Date"; the reader answers "5 years". :func:`durations_in` finds the durations a text states: a number
(digits, words or both, "forty-five (45)") with a unit (day, week, month, year; "calendar" and "business" days
read as days; "one (1) additional year"), a period named without a number ("from year to year", "month-to-month",
"successive annual periods": one of the unit), and an ordinal anniversary ("the fourth (4th) anniversary", "fifth
anniversary", the "5t h" of a PDF's text layer) as that many years, since an anniversary of a date is the date plus
whole years.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.text.dates import ORDINAL_SUFFIX

_UNITS = {"day": ("days", 1), "week": ("days", 7), "month": ("months", 1), "year": ("months", 12)}
_SMALL = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen").split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
             "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()
_WORD = r"(?:" + "|".join([*_SMALL, *_TENS, "hundred", "and", "a", "an"]) + r")"
# a word a contract puts between a number and its unit: "one (1) additional year", "two (2) consecutive years"
_BETWEEN = r"(?:(?:additional|successive|consecutive|further|full|subsequent|renewal|extension)\s+)?"
_DURATION = re.compile(rf"(?:(?P<words>{_WORD}(?:[\s-]+{_WORD})*)\s*)?(?:\((?P<paren>\d+)\)\s*)?"
                       rf"(?P<digits>\d+(?:\.\d+)?)?\s*-?\s*{_BETWEEN}(?:calendar\s+|business\s+)?"
                       r"(?P<unit>day|week|month|year)s?\b", re.I)
# a period named without a number: "from year to year", "month-to-month", "successive annual periods" (one each)
_EACH = re.compile(r"\b(?P<unit>year|month|week)[\s-]+(?:to|by)[\s-]+(?P=unit)\b"
                   r"|\b(?P<annual>annual)\s+(?:periods?|terms?|basis|renewals?)\b", re.I)
_ANNIVERSARY = re.compile(rf"\b(?:(?P<word>{'|'.join(_ORDINALS)})\s*)?"
                          rf"(?:\(?(?P<digits>\d{{1,2}}){ORDINAL_SUFFIX}\)?\s*)?anniversary\b", re.I)


@dataclass(frozen=True)
class Duration:
    """A length of time in ``days`` (days and weeks) or ``months`` (months and years)."""

    amount: float
    unit: str

    def same(self, other: Duration) -> bool:
        """Equal in the same unit; days against months within 3% (a month = 30.44 days)."""
        if self.unit == other.unit:
            return abs(self.amount - other.amount) < 1e-6
        a, b = (x.amount * (30.4375 if x.unit == "months" else 1) for x in (self, other))
        return abs(a - b) <= 0.03 * max(a, b)


@dataclass(frozen=True)
class DurationSpan:
    """A duration stated in a text: where (``start``, ``end``: character offsets) and how long."""

    start: int
    end: int
    duration: Duration


def _words_number(words: str) -> float | None:
    """"sixty" -> 60, "one hundred eighty" -> 180, "a" -> 1 (only alone: "a one-year term" is one)."""
    parts = [w for w in re.split(r"[\s-]+", words.lower()) if w]
    if parts and set(parts) <= {"a", "an"}:
        return 1.0
    total = 0
    for w in parts:
        if w in _SMALL:
            total += _SMALL.index(w)
        elif w in _TENS:
            total += _TENS[w]
        elif w == "hundred":
            total = max(total, 1) * 100
    return float(total) if total else None


def _overlaps(found: list[DurationSpan], m: re.Match[str]) -> bool:
    """Whether the match ``m`` overlaps a duration already found (one duration is counted once)."""
    return any(d.start < m.end() and m.start() < d.end for d in found)


def durations_in(text: str) -> list[DurationSpan]:
    """The durations ``text`` states, in order of position (see the module docstring). A number in words and in
    digits counts once (the digits): "sixty (60) days" is one duration of 60 days."""
    found: list[DurationSpan] = []
    for m in _DURATION.finditer(text):
        number = float(m["digits"] or m["paren"] or 0) or (_words_number(m["words"]) if m["words"] else None)
        if number:
            unit, scale = _UNITS[m["unit"].lower()]
            found.append(DurationSpan(m.start(), m.end(), Duration(number * scale, unit)))
    for m in _EACH.finditer(text):
        unit, scale = _UNITS["year" if m["annual"] else m["unit"].lower()]
        if not _overlaps(found, m):
            found.append(DurationSpan(m.start(), m.end(), Duration(float(scale), unit)))
    for m in _ANNIVERSARY.finditer(text):
        years = int(m["digits"]) if m["digits"] else _ORDINALS.index(m["word"].lower()) + 1 if m["word"] else 0
        if years and not _overlaps(found, m):
            found.append(DurationSpan(m.start(), m.end(), Duration(12.0 * years, "months")))
    return sorted(found, key=lambda d: d.start)


def durations(text: str) -> list[Duration]:
    """The durations ``text`` states, in order: "sixty (60) days", "60 days", "one-year", "twelve months",
    "a year", "the fifth (5th) anniversary" (5 years)."""
    return [d.duration for d in durations_in(text)]


def without_durations(text: str) -> str:
    """``text`` with each duration it states cut out (what else it says, for a word-for-word check)."""
    out, at = [], 0
    for d in durations_in(text):
        out.append(text[at:d.start])
        at = d.end
    out.append(text[at:])
    return " ".join(out)
