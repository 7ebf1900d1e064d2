"""Calendar dates as a text writes them, so that one date written two ways is known as one.

A contract writes "the 19th day of March, 2020", the reader answers "2020-03-19" or "March 19, 2020": the
words differ, the date does not. :func:`dates_in` finds the dates a text states in the forms English
documents use (ISO 8601 ``2020-03-19``; ``March 19, 2020``, ``Oct. 11, 1996``; ``19 March 2020``, ``the 19th
day of March, 2020``; numeric ``3/19/20``, read both month first and day first), including an ordinal a PDF's
text layer split ("19t h") and a weekday between ("20th day of Friday, March 2020"). A date without a day
("July 2013") or without a year is not a calendar date here.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

_MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): n for n, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_WEEKDAY = r"(?:(?:" + "|".join(calendar.day_name) + r"),?\s+)?"
ORDINAL_SUFFIX = r"\s?(?:s\s?t|n\s?d|r\s?d|t\s?h)"  # "19th", "1 st", "19t h" (a PDF's text layer)
_ORDINAL = rf"(?:{ORDINAL_SUFFIX})?"
_DAY = r"\(?(?P<day>[0-3]?\d)" + _ORDINAL + r"\)?"
_YEAR = r"(?P<year>(?:1[6-9]|2\d)\d\d)"

_FORMS = (
    re.compile(rf"\b{_MONTH}\s+{_DAY}(?:\s*,\s*|\s+){_YEAR}\b", re.I),  # March 19, 2020; April. 1st 2019
    # 19 March 2020; the 19th day of March, 2020; 20th day of Friday, March 2020; (1st) day of January, 1996
    re.compile(rf"(?<![\w/.-]){_DAY}\s+(?:day\s+)?(?:of\s+)?{_WEEKDAY}{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.I),
    re.compile(r"\b(?P<year>(?:1[6-9]|2\d)\d\d)-(?P<month>[01]?\d)-(?P<day>[0-3]?\d)\b"),  # ISO 8601
)
_MONTH_OF_YEAR = re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.I)  # March 2020, Jan. 2019
# 3/19/20, 19.03.2020: month first (US) or day first; both readings are kept
_NUMERIC = re.compile(r"(?<![\w/.-])(?P<a>[0-3]?\d)([/.])(?P<b>[0-3]?\d)\2(?P<year>\d{4}|\d\d)(?![\w/-]|\.\d)")


@dataclass(frozen=True)
class DateSpan:
    """A date stated in a text: where (``start``, ``end``: character offsets) and which calendar days it can
    be (one; two for a numeric date whose day and month can be read either way)."""

    start: int
    end: int
    days: frozenset[dt.date]


def dates_in(text: str) -> list[DateSpan]:
    """The calendar dates ``text`` states, in order of position, each span once (see the module docstring).
    A form that names no real day ("February 30, 2020") is skipped."""
    found: dict[tuple[int, int], frozenset[dt.date]] = {}
    for form in _FORMS:
        for m in form.finditer(text):
            month = m.group("month")
            number = int(month) if month.isdigit() else _MONTHS[month.lower().rstrip(".")]
            day = _day(int(m.group("year")), number, int(m.group("day")))
            if day is not None:
                found.setdefault(m.span(), frozenset({day}))
    for m in _NUMERIC.finditer(text):
        year = int(m.group("year"))
        if year < 100:
            year += 2000 if year < 70 else 1900
        a, b = int(m.group("a")), int(m.group("b"))
        days = frozenset(d for d in (_day(year, a, b), _day(year, b, a)) if d is not None)
        if days:
            found.setdefault(m.span(), days)
    spans = sorted(found.items(), key=lambda kv: (kv[0][0], -kv[0][1]))
    out: list[DateSpan] = []
    for (start, end), days in spans:
        if out and start < out[-1].end:  # one date matched by two forms: the first (longest at that place) stays
            continue
        out.append(DateSpan(start, end, days))
    return out


def without_shared_dates(text: str, other: str) -> str:
    """``text`` with the dates cut out that ``other`` states too, in any form (``"signed 2020-03-19"`` and
    ``"the 19th day of March, 2020"``: ``"signed "``): what is left must still be matched word for word."""
    said = dates_in(text)
    if not said:
        return text
    stated = [d.days for d in dates_in(other)]
    kept, pos = [], 0
    for d in said:
        if any(d.days & days for days in stated):
            kept.append(text[pos:d.start])
            pos = d.end
    kept.append(text[pos:])
    return " ".join(kept)


def _day(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def states_a_date(text: str) -> bool:
    """Whether ``text`` states a date: a calendar date (:func:`dates_in`) or a month of a year ("March 2020").
    A number shaped like a date ("2025-014"), a bare year or "the date first above written" is none."""
    return bool(dates_in(text) or _MONTH_OF_YEAR.search(text))
