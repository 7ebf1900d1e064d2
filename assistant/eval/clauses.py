"""Replies about a contract's clauses scored the way a lawyer would accept them (the cuad task's judge).

Each rule compares the meaning, not the wording, of a reply with a label of CUAD's ``master_clauses.csv``:

- dates as dates: the first date the reply states has the label's year, and its month and day where
  the label gives them (``09/[]/2018`` is September 2018, any day); labels are M/D/YY.
- an expiry: as a date; or a term the reply states ("five (5) years") that, added to the agreement's
  start, lands within a day of the label; ``perpetual`` wants a reply that says so ("until terminated").
- durations as numbers with units: "sixty (60) days" = "60 days", "1 year" = "12 months", an ordinal
  anniversary as years ("the fifth (5th) anniversary" = "5 years", :mod:`assistant.text.durations`); days and
  months compare within 3% ("90 days" = "3 months"); the first duration the reply states counts.
- governing law: the first jurisdiction the reply names is one of the label's ("the State of New
  York" = "New York"; "West Virginia" is not "Virginia").
- parties: token F1 of the party names (legal forms and defined terms left out) of at least 0.5, and
  every labelled party named, by a word of its name or its defined term.
- yes/no kinds: the reply's yes or no (a not-found reply, or "no"/"none", is no).
- a kind the contract does not have: the reply says the agreement does not say (not found).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from dateutil import parser as dateparser

from assistant.text.durations import Duration, durations

Rule = str  # "date", "expiry", "duration", "law", "parties", "yesno"
RULES: tuple[Rule, ...] = ("date", "expiry", "duration", "law", "parties", "yesno")

# "The agreement does not specify ...", "Not stated": a reader that answered but said the text is silent
_SILENT = re.compile(r"\b(?:not (?:specified|stated|mentioned|provided|found|addressed|defined|included)|does not "
                     r"(?:say|state|specify|mention|provide|include|contain)|no (?:information|mention)|"
                     r"(?:is|are) silent|n/a)\b", re.I)
# "No", "None", "No, the agreement ...", "There is no cap": not "Not to exceed the fees paid" (a cap)
_NEGATIVE = re.compile(r"^\W*(?:(?:no|none|nothing|neither|not applicable)\W*$|no\s*[,.;:!-]|there (?:is|are) no\b|"
                       r"no such\b)", re.I)


def says_not_found(reply: str, found: bool) -> bool:
    """True for a reply that says the agreement does not say: the product's not-found, or words to that effect."""
    return not found or not reply.strip() or bool(_SILENT.search(reply))


def says_yes(reply: str, found: bool) -> bool:
    """The reply's yes or no: a found reply that is not a negation ("no", "none", "there is no") is yes,
    including one that states the thing asked about ("liability is capped at the fees paid")."""
    return not says_not_found(reply, found) and not _NEGATIVE.search(reply)


# --- dates -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LooseDate:
    """A date of which the month or the day may be unknown (None)."""

    year: int
    month: int | None = None
    day: int | None = None

    def matches(self, label: LooseDate) -> bool:
        """True when this date (a reply's) states every field ``label`` gives, the same."""
        return self.year == label.year and all(
            want is None or got == want for got, want in ((self.month, label.month), (self.day, label.day)))

    def as_date(self) -> date | None:
        return date(self.year, self.month, self.day) if self.month and self.day else None


def label_date(label: str) -> LooseDate | None:
    """A CUAD answer date: ``5/1/06``, ``09/[]/2018``, ``[]/[]/2000`` (two-digit years: 1950-2049)."""
    m = re.fullmatch(r"\s*(\d{1,2}|\[\])/(\d{1,2}|\[\])/(\d{2}|\d{4})\s*", label)
    if not m:
        return None
    year = int(m[3])
    if len(m[3]) == 2:
        year += 2000 if year < 50 else 1900
    month, day = (None if x == "[]" else int(x) for x in (m[1], m[2]))
    return LooseDate(year, month, day)


_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DAY = r"\(?\d{1,2}\s?(?:st|nd|rd|th)?\)?"  # "1st", "1 st", "(1st)" after "first" in a contract's words
_DATE = re.compile(rf"\b(?:(?:{_DAY}\s+(?:day\s+of\s+)?)?{_MONTH}(?:\s+{_DAY})?,?\s+\d{{4}}|"
                   rf"\d{{4}}-\d{{1,2}}-\d{{1,2}}|\d{{1,2}}[/.-]\d{{1,2}}[/.-](?:\d{{4}}|\d{{2}}))\b|"
                   rf"\b(?:19|20)\d{{2}}\b", re.I)
_ONE, _TWO = datetime(1, 1, 1), datetime(2, 2, 2)  # two defaults: a field that differs was not in the text


_GERMAN_MONTHS = {"januar": "January", "jänner": "January", "februar": "February", "märz": "March", "maerz": "March",
                  "mai": "May", "juni": "June", "juli": "July", "oktober": "October", "dezember": "December"}
_GERMAN_MONTH = re.compile(r"\b(" + "|".join(_GERMAN_MONTHS) + r")\b", re.I)
_MONTH_WORD = r"(?:[A-Z][a-z]+)"
_GERMAN_WORD = re.compile(r"\b(?:der|die|das|dem|den|vom|zum|am|ab|bis|wurde|ist|gilt|Vertrag|Vereinbarung)\b")


def _english_dates(text: str) -> str:
    """``text`` with a German reply's dates in English words: "20. März 2020" -> "20 March 2020", "April 1. 2019"
    -> "April 1 2019" (the reader answers a German question in German)."""
    if not (_GERMAN_MONTH.search(text) or _GERMAN_WORD.search(text)):
        return text  # "Section 3. May 2006": the 3 is not a day
    text = _GERMAN_MONTH.sub(lambda m: _GERMAN_MONTHS[m[1].lower()], text)
    text = re.sub(rf"\b(\d{{1,2}})\.\s+(?={_MONTH_WORD}\s+\d{{4}})", r"\1 ", text)  # 20. March 2020
    return re.sub(rf"\b({_MONTH_WORD}\s+\d{{1,2}})\.(?=\s+\d{{4}})", r"\1", text)  # April 1. 2019


def reply_dates(text: str) -> list[LooseDate]:
    """The dates ``text`` states, in order: "May 1, 2006", "1st day of May, 2006", "05/01/2006" (M/D/Y),
    "2006-05-01", "May 2006" (no day), a bare year "2006" (neither); in German too ("1. Mai 2006")."""
    out = []
    for m in _DATE.finditer(_english_dates(text)):
        try:
            a = dateparser.parse(m[0], fuzzy=True, default=_ONE)
            b = dateparser.parse(m[0], fuzzy=True, default=_TWO)
        except (ValueError, OverflowError):
            continue
        if a.year != b.year:
            continue
        out.append(LooseDate(a.year, a.month if a.month == b.month else None, a.day if a.day == b.day else None))
    return out


def first_date_matches(reply: str, label: LooseDate) -> bool:
    dates = reply_dates(reply)
    return bool(dates) and dates[0].matches(label)


def add_months(start: date, months: float) -> date:
    """``start`` plus whole months (the day clipped to the month's end), plus any fraction as days."""
    whole = int(months)
    y, m = divmod(start.month - 1 + whole, 12)
    year, month = start.year + y, m + 1
    last = (date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1)).day
    return date(year, month, min(start.day, last)) + timedelta(days=round((months - whole) * 30.4375))


# --- durations ---------------------------------------------------------------------------------------


def label_durations(label: str) -> list[Duration]:
    """The alternatives a duration label allows: "180 days / 6 months" is either; "4 years, 6 months" is
    their sum (54 months); "successive 1 year" is 12 months. Empty when the label is no duration."""
    alternatives = []
    for part in label.split("/"):
        found = durations(part)
        if not found:
            continue
        if len({d.unit for d in found}) == 1:
            alternatives.append(Duration(sum(d.amount for d in found), found[0].unit))
        else:
            alternatives.extend(found[:1])
    return alternatives


_GERMAN_UNITS = {"tag": "day", "tage": "days", "tagen": "days", "woche": "week", "wochen": "weeks", "monat": "month",
                 "monate": "months", "monaten": "months", "jahr": "year", "jahre": "years", "jahren": "years"}
_GERMAN_NUMBERS = {"ein": "one", "eine": "one", "einen": "one", "einem": "one", "zwei": "two", "drei": "three",
                   "vier": "four", "fünf": "five", "sechs": "six", "sieben": "seven", "acht": "eight", "neun": "nine",
                   "zehn": "ten", "zwölf": "twelve", "dreißig": "thirty", "sechzig": "sixty", "neunzig": "ninety"}
_GERMAN_DURATION = re.compile(rf"\b(?:({'|'.join(_GERMAN_NUMBERS)})\s+)?({'|'.join(_GERMAN_UNITS)})\b", re.I)


def _english_durations(text: str) -> str:
    """``text`` with a German reply's periods in English words: "6 Monate" -> "6 months", "eine Jahr" -> "one
    year" (the reader answers a German question in German)."""
    if not _GERMAN_WORD.search(text) and not _GERMAN_DURATION.search(text):
        return text

    def english(m: re.Match[str]) -> str:
        number = _GERMAN_NUMBERS[m[1].lower()] + " " if m[1] else ""
        return number + _GERMAN_UNITS[m[2].lower()]
    return _GERMAN_DURATION.sub(english, text)


def first_duration_matches(reply: str, labels: list[Duration]) -> bool:
    """Whether the first period ``reply`` states (in English or German) is one of ``labels``."""
    stated = durations(_english_durations(reply))
    return bool(stated) and any(stated[0].same(d) for d in labels)


# --- governing law -----------------------------------------------------------------------------------

_STATES = ("Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho "
           "Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota "
           "Mississippi Missouri Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Tennessee Texas Utah "
           "Vermont Virginia Washington Wisconsin Wyoming England Wales Scotland Ireland Switzerland Japan Germany "
           "India China Canada Ontario Quebec France Italy Spain Netherlands Belgium Sweden Norway Denmark Finland "
           "Austria Israel Singapore Australia Korea Taiwan Mexico Brazil Luxembourg Bermuda Cayman Alberta").split()
_MULTI = ("New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Rhode Island",
          "South Carolina", "South Dakota", "West Virginia", "District of Columbia", "British Columbia",
          "Hong Kong", "New South Wales", "Northern Ireland", "Puerto Rico", "New Zealand")
_ALIASES = {"prc": "china", "english": "england", "german": "germany", "swiss": "switzerland",
            "japanese": "japan", "chinese": "china", "hk": "hong kong", "dc": "district of columbia"}


def _fold(text: str) -> str:
    """Lower case, accents and punctuation gone, single spaces; a curly apostrophe is one ("Reed’s" as
    "Reed's")."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


_PLACES = sorted({_fold(p) for p in (*_STATES, *_MULTI)}, key=len, reverse=True)  # longest first: "west virginia"
_PLACE = re.compile(r"\b(" + "|".join(re.escape(p) for p in [*_PLACES, *_ALIASES]) + r")\b")


def jurisdictions(text: str) -> list[str]:
    """The jurisdictions ``text`` names, in order, folded ("the State of New York" -> "new york")."""
    return [_ALIASES.get(m[1], m[1]) for m in _PLACE.finditer(_fold(text))]


def law_matches(reply: str, label: str) -> bool:
    """The first jurisdiction the reply names is one the label names ("England; Wales", "Ontario, Canada");
    a label naming no known jurisdiction is looked for as words."""
    wanted = {j for part in re.split(r"[;,]", label) for j in jurisdictions(part)}
    named = jurisdictions(reply)
    if wanted:
        return bool(named) and named[0] in wanted
    words = _fold(re.sub(r"(?i)\b(?:the\s+)?(?:state|commonwealth|laws?|republic|federal)\s+of\b", " ", label))
    return bool(words) and f" {words} " in f" {_fold(reply)} "


# --- parties -----------------------------------------------------------------------------------------

_FORMS = frozenset("inc incorporated llc l l c ltd limited co corp corporation company lp llp plc sa ag gmbh bv b v "
                   "nv n v s a ab as a s pte pty the and of a an fka f k a dba d b a party parties between by "
                   "each individually collectively together".split())
_QUOTED = re.compile(r"[\"\u201c\u201d]([^\"\u201c\u201d]*)[\"\u201c\u201d]")


@dataclass(frozen=True)
class Party:
    """A labelled party: the words of its name (legal forms left out) and of its defined terms."""

    name: frozenset[str]
    terms: frozenset[str]


def label_parties(label: str) -> list[Party]:
    """``'Virtual Item Processing Systems, Inc. ("VIP"); Brokers National Life ...'`` -> one
    :class:`Party` per ``;``-separated entry that names someone (collective terms such as
    ``(individually "Party", collectively "Parties")`` name no one)."""
    out = []
    for entry in label.split(";"):
        terms = {w for q in _QUOTED.findall(entry) for w in _fold(q).split()}
        bare = re.sub(r"\([^()]*\)", " ", _QUOTED.sub(" ", entry))
        name = {w for w in _fold(bare).split() if w not in _FORMS}
        if name:
            out.append(Party(frozenset(name), frozenset(terms - _FORMS)))
    return out


def parties_f1(reply: str, parties: list[Party]) -> float:
    """Token F1 of the reply's name words against the parties' name words; the reply's words that are
    only defined terms ("VIP", "Licensee") and legal forms are left out of both sides."""
    gold = set().union(*(p.name for p in parties)) if parties else set()
    terms = set().union(*(p.terms for p in parties)) - gold if parties else set()
    said = {w for w in _fold(reply).split() if w not in _FORMS and w not in terms}
    same = len(said & gold)
    if not same:
        return 0.0
    p, r = same / len(said), same / len(gold)
    return 2 * p * r / (p + r)


def parties_match(reply: str, label: str) -> bool:
    parties = label_parties(label)
    words = set(_fold(reply).split())
    every = all(p.name & words or p.terms & words for p in parties)
    return bool(parties) and every and parties_f1(reply, parties) >= 0.5


# --- one verdict -------------------------------------------------------------------------------------

PERPETUAL = re.compile(r"\b(?:perpetu\w*|indefinite\w*|until (?:it is |they are )?terminated|no (?:fixed |set )?"
                       r"(?:expiration|expiry|end date|term)|does not expire|never expires|evergreen)\b", re.I)


def scorable(rule: Rule, label: str) -> bool:
    """True when a present clause's label can be judged by ``rule`` (not empty, redacted or of another kind:
    a renewal "term" labelled with dates is left out)."""
    if rule == "yesno":
        return label in ("Yes", "No")
    if rule == "date":
        return label_date(label) is not None
    if rule == "expiry":
        return label.strip().lower() == "perpetual" or label_date(label) is not None
    if rule == "duration":
        return bool(label_durations(label)) and label_date(label.split(";")[0]) is None
    if rule == "law":
        return bool(_fold(label)) and "*" not in label
    return bool(label_parties(label))


def judge(rule: Rule, label: str, present: bool, reply: str, found: bool, *, start: str = "") -> bool:
    """True when a lawyer would accept ``reply`` (``found`` False: the product's not-found) to a question whose
    clause is ``present`` in the contract and labelled ``label``; ``start`` (an expiry's) is the label of
    the agreement's effective date, for a reply that states the term instead of the date."""
    if rule == "yesno":
        return says_yes(reply, found) == (label == "Yes")
    if not present:
        return says_not_found(reply, found)
    if says_not_found(reply, found):
        return False
    if rule == "date":
        wanted = label_date(label)
        return wanted is not None and first_date_matches(reply, wanted)
    if rule == "expiry":
        return _expiry_matches(reply, label, start)
    if rule == "duration":
        return first_duration_matches(reply, label_durations(label))
    if rule == "law":
        return law_matches(reply, label)
    return parties_match(reply, label)


def _expiry_matches(reply: str, label: str, start: str) -> bool:
    if label.strip().lower() == "perpetual":
        return bool(PERPETUAL.search(reply))
    wanted = label_date(label)
    if wanted is None:
        return False
    if first_date_matches(reply, wanted):
        return True
    begins, ends = label_date(start), wanted.as_date()
    first = begins.as_date() if begins else None
    terms = durations(reply)
    if first is None or ends is None or not terms:
        return False
    term = terms[0]
    reached = add_months(first, term.amount) if term.unit == "months" else first + timedelta(days=term.amount)
    return abs((reached - ends).days) <= 1
