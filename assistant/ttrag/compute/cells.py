"""What a sheet's cell holds, read as a figure or a date, and a question's comparisons with one ("before 2012",
"over 5,000", "in March", "between 2010 and 2015"), for answers computed over a table
(:mod:`assistant.ttrag.compute.table`).

Dates are read as a person writes them in a sheet or a question: ISO (``2024-03-15``, ``2024-03-15 00:00:00``
as a spreadsheet's date cell reads), German (``15.03.2024``), and with a month's name in English, German or
French (``15 March 2024``, ``March 15, 2024``, ``März 2024``, ``mars``). Slashed dates (``03/04/2024``) are
not read: the order of day and month is not written in them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Compare = Literal["<", "<=", ">", ">="]

_NUMBER = re.compile(r"^\(?-?[$\u20ac\u00a3]?\s*-?\d[\d,' ]*(?:\.\d+)?\s*%?\)?$")
_FIGURE = re.compile(r"-?\d[\d,']*(?:\.\d+)?")
# a figure grouped by spaces, as French and SI write it ("1 500", "12\u202f000,50": the comma a decimal one)
_SPACED = r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:,\d{1,2})?(?![\d])"
_WHOLE_FIGURE = re.compile(r"^\s*[$\u20ac\u00a3]?\s*-?\d[\d,']*(?:\.\d+)?\s*(?:%|[$\u20ac\u00a3]|[A-Za-z]{1,5})?\s*$")

_MONTHS = {
    1: "january jan januar janvier janv",
    2: "february feb februar fevrier f\u00e9vrier fevr f\u00e9vr",
    3: "march mar m\u00e4rz maerz mars",
    4: "april apr avril avr",
    5: "may mai",
    6: "june jun juni juin",
    7: "july jul juli juillet juil",
    8: "august aug ao\u00fbt aout",
    9: "september sep sept septembre",
    10: "october oct oktober okt octobre",
    11: "november nov novembre",
    12: "december dec dezember dez d\u00e9cembre decembre d\u00e9c",
}
MONTH_NAMES = {name: n for n, names in _MONTHS.items() for name in names.split()}
_MONTH = r"(?P<month>" + "|".join(sorted(map(re.escape, MONTH_NAMES), key=len, reverse=True)) + r")\.?"
_DATES = [
    re.compile(r"^\s*(?P<year>\d{4})-(?P<mon>\d{1,2})(?:-(?P<day>\d{1,2}))?(?:[T ][\d:.]+)?\s*$"),
    re.compile(r"^\s*(?P<day>\d{1,2})\.(?P<mon>\d{1,2})\.(?P<year>\d{4})\s*$"),
    re.compile(rf"^\s*(?:(?P<day>\d{{1,2}})\.?\s+)?{_MONTH}(?:\s+(?P<year>\d{{4}}))?\s*$", re.I),
    re.compile(rf"^\s*{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>\d{{4}})\s*$", re.I),
    re.compile(r"^\s*(?P<year>(?:19|20)\d\d)\s*$"),
]

# The words a question writes before a figure or a date it compares with, and the comparison they mean
# (English, German, French); "since 2020" counts 2020 in, "after 2020" does not.
_WORDS: dict[Compare, str] = {
    "<": r"before|under|below|less than|fewer than|lower than|smaller than|earlier than|vor|unter|unterhalb|"
         r"weniger als|kleiner als|niedriger als|fr\u00fcher als|avant|moins de|moins que|inf\u00e9rieure? \u00e0|"
         r"sous",
    "<=": r"until|at most|up to|no more than|not more than|bis|h\u00f6chstens|maximal|jusqu'(?:\u00e0|en|au)|"
          r"au plus",
    ">": r"after|over|above|more than|greater than|higher than|larger than|later than|beyond|exceeding|nach|"
         r"\u00fcber|oberhalb|mehr als|gr\u00f6\u00dfer als|h\u00f6her als|sp\u00e4ter als|apr\u00e8s|plus de|"
         r"plus que|sup\u00e9rieure? \u00e0|au-dessus de",
    ">=": r"since|at least|no less than|not less than|starting|from year|seit|mindestens|ab|depuis|au moins|"
          r"\u00e0 partir de",
}
_BEFORE_VALUE = re.compile(
    r"(?:^|\W)(?P<words>" + "|".join(f"(?P<{name}>{words})" for name, words in
                                     zip(("lt", "le", "gt", "ge"), _WORDS.values(), strict=True)) +
    r")\s+(?:the\s+(?:year\s+)?|dem\s+|der\s+|le\s+|la\s+|l'|year\s+|jahr\s+|an\s+)?[$\u20ac\u00a3]?\s*$", re.I)
_GROUPS: dict[str, Compare] = {"lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_BETWEEN = re.compile(r"\b(?:between|zwischen|entre)\s+(?P<low>.{1,30}?)\s+(?:and|und|et)\s+(?P<high>.{1,30}?)"
                      r"(?=[\s?.,!;]|$)", re.I)
SYMBOLS: dict[Compare, str] = {"<": "<", "<=": "\u2264", ">": ">", ">=": "\u2265"}


@dataclass(frozen=True)
class Date:
    """A date as far as it is written: ``year``, ``month`` and ``day`` (None where it is not written: "March"
    has no year, "2012" no month)."""

    year: int | None
    month: int | None
    day: int | None

    @property
    def fields(self) -> tuple[int | None, int | None, int | None]:
        return self.year, self.month, self.day


def number(cell: str) -> float | None:
    """The number a cell shows (``1,200``, ``$ 3.50``, ``(40)`` for -40, ``12%``), else None."""
    text = cell.strip()
    if not text or not _NUMBER.match(text):
        return None
    negative = text.startswith("(") and text.endswith(")")
    digits = re.sub(r"[^\d.\-]", "", text)
    try:
        value = float(digits)
    except ValueError:
        return None
    return -value if negative else value


def figure_in(value: str) -> float | None:
    """The figure a value is (``5,000``, ``€5,000``, ``5000 EUR``, ``12%``), else None: a value that is more
    than a figure with its currency or unit ("Steel bolt M8") is none."""
    spaced = re.search(_SPACED, value)
    if spaced:  # "1 500" is 1500, "1 500,50" is 1500.5
        value = value.replace(spaced[0], re.sub(r"\s", "", spaced[0]).replace(",", "."))
    if not _WHOLE_FIGURE.match(value):
        return None
    found = _FIGURE.findall(value)
    if len(found) != 1:
        return None
    try:
        return float(found[0].replace(",", "").replace("'", ""))
    except ValueError:
        return None


def date_of(text: str) -> Date | None:
    """The date ``text`` writes whole (see the module's docstring), else None; a month or day out of range is
    None."""
    for pattern in _DATES:
        m = pattern.match(text)
        if not m:
            continue
        parts = m.groupdict()
        month = int(parts["mon"]) if parts.get("mon") else MONTH_NAMES.get((parts.get("month") or "").casefold())
        year = int(parts["year"]) if parts.get("year") else None
        day = int(parts["day"]) if parts.get("day") else None
        if (month is not None and not 1 <= month <= 12) or (day is not None and not 1 <= day <= 31):
            return None
        return Date(year, month, day)
    return None


def names_month(value: str) -> bool:
    """Whether ``value`` is a date written with a month's name (``March``, ``März 2024``): a filter that keeps
    the rows of that month, not the cells that write the word."""
    date = date_of(value)
    return date is not None and date.month is not None and re.search(r"[^\W\d_]", value) is not None


def same_date(cell: str, value: str) -> bool:
    """Whether the date in ``cell`` is the one ``value`` writes, as far as ``value`` writes it: a cell
    ``2024-03-15`` is in ``March`` and in ``March 2024``, not in ``March 2023``."""
    have, want = date_of(cell), date_of(value)
    if have is None or want is None:
        return False
    return all(w is None or h == w for h, w in zip(have.fields, want.fields, strict=True))


def comparison(question: str, value: str) -> Compare | None:
    """The comparison ``question`` makes with ``value`` by the words before it ("before 2012": ``<``; "since
    2020": ``>=``; "between 2010 and 2015": ``>=`` 2010 and ``<=`` 2015), or None where it writes none: an
    equality. Only a figure or a date is compared: "contracts under New York law" compares nothing."""
    if figure_in(value) is None and date_of(value) is None:
        return None
    text = " ".join(question.split())
    wanted = " ".join(value.split()).casefold()
    for m in _BETWEEN.finditer(text):
        if m["low"].casefold() == wanted:
            return ">="
        if m["high"].casefold() == wanted:
            return "<="
    at = text.casefold().find(wanted)
    if at < 0:
        return None
    return _compared_before(text, at)


def _compared_before(text: str, at: int) -> Compare | None:
    """The comparison the words just before position ``at`` of ``text`` write ("over ", "vor dem "), else None."""
    before = _BEFORE_VALUE.search(text[max(0, at - 40):at])
    return next(_GROUPS[g] for g in _GROUPS if before[g]) if before else None


def written_as(value: str, question: str) -> str:
    """How ``question`` writes the figure or date the LLM wrote as ``value``: ``5,000`` for ``5000``; ``March``
    for ``2024-03`` (a month named without a year: the query's year is dropped, the question did not ask for
    it); ``value`` where the question writes it as it stands; '' where it writes neither."""
    if " ".join(value.split()).casefold() in " ".join(question.split()).casefold():
        return value
    date = date_of(value)
    if date is not None and date.month is not None:
        for m in re.finditer(rf"\b{_MONTH}(?:\s+(?P<year>\d{{4}}))?\b", question, re.I):
            if MONTH_NAMES[m["month"].casefold()] == date.month and (m["year"] is None or date.year is None or
                                                                     int(m["year"]) == date.year):
                return m[0]
        return ""
    want = figure_in(value)
    if want is None:
        return ""
    for m in re.finditer(rf"(?<![\w.,]){_SPACED}|(?<![\w.,]){_FIGURE.pattern}(?![\w])", question):
        if figure_in(m[0]) == want:
            return m[0]
    return ""


def compared_in(question: str) -> list[tuple[Compare, str]]:
    """The figures and dates ``question`` compares with, each after its comparison's words ("over 2,000":
    ``(">", "2,000")``; "before 2012", "before April 2024"), in order; a range's two ends included."""
    text = " ".join(question.split())
    found: list[tuple[Compare, str]] = []
    for m in re.finditer(rf"\d{{4}}-\d{{1,2}}-\d{{1,2}}|\d{{1,2}}\.\d{{1,2}}\.\d{{4}}|"
                         rf"\b(?:\d{{1,2}}\.?\s+)?{_MONTH}\s+\d{{4}}\b|"  # "before April 2024", "vor dem 1. März 2024"
                         rf"(?<![\w.,-])[$\u20ac\u00a3]?\s*{_SPACED}|"  # "plus de 1 500" was read as "> 1"
                         rf"(?<![\w.,-])[$\u20ac\u00a3]?\s*{_FIGURE.pattern}(?![\w]|[-./]\d)", text, re.I):
        compare = _compared_before(text, m.start())
        if compare:
            found.append((compare, m[0].strip(" $\u20ac\u00a3")))
    ends = range_in(text)
    if ends:
        found += [(">=", ends[0]), ("<=", ends[1])]
    return found


def same_value(a: str, b: str) -> bool:
    """Whether two written values are the same figure or the same date ("2,000" and "2000")."""
    if " ".join(a.split()).casefold() == " ".join(b.split()).casefold():
        return True
    fa, fb = figure_in(a), figure_in(b)
    if fa is not None and fa == fb:
        return True
    da, db = date_of(a), date_of(b)
    return da is not None and da == db


def range_in(question: str) -> tuple[str, str] | None:
    """The two ends of the range ``question`` writes ("between 2010 and 2015": ``("2010", "2015")``; figures or
    dates), else None."""
    for m in _BETWEEN.finditer(" ".join(question.split())):
        low, high = m["low"], m["high"]
        if all(figure_in(v) is not None or date_of(v) is not None for v in (low, high)):
            return low, high
    return None


def split_compared(value: str) -> tuple[Compare | None, str]:
    """A value the LLM wrote with its comparison (``> 5000``, ``before 2012``): the comparison and the value
    alone; ``(None, value)`` where it writes none."""
    m = re.match(r"^\s*(>=|<=|\u2265|\u2264|>|<)\s*(.+)$", value)
    if m:
        return {"\u2265": ">=", "\u2264": "<="}.get(m[1], m[1]), m[2].strip()  # type: ignore[return-value]
    for name, words in zip(("<", "<=", ">", ">="), _WORDS.values(), strict=True):
        m = re.match(rf"^\s*(?:{words})\s+(.+)$", value, re.I)
        if m and (figure_in(m[1]) is not None or date_of(m[1]) is not None):
            return name, m[1].strip()  # type: ignore[return-value]
    return None, value


def compares(cell: str, value: str, op: Compare) -> bool:
    """Whether ``cell`` stands in comparison ``op`` with ``value``: as figures where the cell is one, else as
    dates, each as far as ``value`` writes it (a cell ``2011-05-03`` is before ``2012`` and before
    ``March 2012``); False where the cell is neither or the two do not compare (a month without a year)."""
    have = number(cell)
    if have is not None:
        written = date_of(value)
        if written is not None and written.month is not None:  # a figure is not before March
            return False
        want = figure_in(value)
        return want is not None and _holds(have, want, op)
    cell_date, value_date = date_of(cell), date_of(value)
    if cell_date is None or value_date is None or value_date.year is None:
        return False
    depth = 3 if value_date.day is not None else 2 if value_date.month is not None else 1
    a, b = cell_date.fields[:depth], value_date.fields[:depth]
    if any(x is None for x in a) or any(x is None for x in b):
        return False
    return _holds(a, b, op)


def _holds(a: object, b: object, op: Compare) -> bool:
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]  # type: ignore[operator]


def comparable(cells: list[str], value: str) -> bool:
    """Whether a column of ``cells`` can be compared with ``value``: most of its filled cells (4 in 5) are
    figures or dates (:func:`compares` reads either)."""
    filled = [c for c in cells if c.strip()]
    read = [c for c in filled if number(c) is not None or date_of(c) is not None]
    return bool(filled) and len(read) >= 0.8 * len(filled) and (figure_in(value) is not None or
                                                                  date_of(value) is not None)
