"""Question types: what kind of short answer a question expects (yes/no, one of two options, a date...).

The reader's JSON schema is narrowed by the type (a yes/no question can only be answered "yes" or "no",
"which of A or B" only A or B), and the grounding check rejects an answer of the wrong type ("where did
it start" answered with a year). docs/design.md §7: the 1.5B reader was measured saying NOT FOUND to every yes/no
question whose answer is "no"; a constrained answer cannot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from assistant.text.durations import durations

Kind = Literal["yesno", "choice", "when", "number", "amount", "where", "who", "email", "other"]

_AUX = ("is", "are", "was", "were", "do", "does", "did", "can", "could", "has", "have", "had", "will",
        "would", "should", "shall", "may", "might", "must")
# "Is there a cap on it?" is a yes/no question like any other (its reply is "yes" or "no", and a "yes" is held to
# the reader's confidence: docs/design.md §6); "are there many ..." is not.
_YESNO = re.compile(rf"^\s*(?:{'|'.join(_AUX)})\b(?!\s+(?:there\s+(?:many|much)|any|many|much)\b)", re.I)
# "Can the deal be renewed, and how much notice do I need to stop that?": a yes/no question joined to a wh-question,
# whose answer is what is asked (a bare "yes" answers half of it, and is held to P(yes) as if it were all)
_THEN_WH = re.compile(r"(?:,\s*and|\band|;|\?)\s+(?:if so,?\s+)?(?=(?:what|which|when|where|how|who)\b)", re.I)
_WH_START = re.compile(r"^\s*(what|which|who|whom|whose|when|where|why|how|in which|on which|at which|"
                       r"from which|for which|to which|by which)\b", re.I)
_WHEN = re.compile(r"^\s*(?:when\b|(?:in |on |by )?what (?:year|date|day|month|decade|century|time)\b|"
                   r"(?:in |on )?which (?:year|date|day|month|decade|century)\b)", re.I)
_NUMBER = re.compile(r"\bhow (?:many|much|long|old|far|tall|big|large|high|often)\b|\bwhat (?:(?:is|are|was|were) )?"
                     r"(?:the )?(?:\w+ )?(?:number|percentage|percent|amount|rate|population|age|price|cost|fee)s?\b",
                     re.I)
# "What exactly do we owe you if a delivery is late?", "What interest do you charge?": a sum or a rate, never a
# date (the draft benchmark's reader answered the first with "4 February 2027", a date from the email)
_AMOUNT = re.compile(r"^\s*what\b(?:\s+exactly)?\s+(?:(?:do|does|did|will|would|must|shall|should)\s+"
                     r"(?:we|i|you|they|he|she|it|the \w+)\s+(?:owe|pay|charge|be charged|receive|get)\b|"
                     r"(?:(?:is|are|was|were)\s+)?(?:the\s+)?(?:\w+\s+)?(?:interest|penalt(?:y|ies)|fees?|charges?|"
                     r"damages|compensation|discount|deposit|surcharge)\b)", re.I)
_WHERE = re.compile(r"^\s*where\b|\b(?:in|from) (?:what|which) (?:city|country|state|town|place|county|"
                    r"region|continent|location)\b", re.I)
_WHO = re.compile(r"^\s*(?:who|whom|whose)\b", re.I)
# "What is the e-mail address of ...": a name or a company is no answer (the draft benchmark's reader gave one)
_EMAIL = re.compile(r"^\s*(?:what|which)\b.*\be-?mail address(?:es)?\b", re.I)
EMAIL_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# "Which X was founded first, Arthur's Magazine or First for Women?" / "Who is older, A or B?"
_CHOICE = re.compile(r"[,:]\s*(?:the\s+)?(?P<a>[^,:?]+?)\s*,?\s+or\s+(?:the\s+)?(?P<b>[^,:?]+?)\s*\??\s*$", re.I)
# "born first: Ulf Merbold or Mirosław Hermaszewski?", "more species: Lavatera or Oplismenus?": a terse stem, a colon,
# two options
_TERSE_CHOICE = re.compile(r"^[^,:?]{1,60}:\s*[^:?]+?\s+or\s+[^:?]+\?\s*$", re.I)
# an alternative question, not a yes/no one: "Were more laptops or more blankets delivered?", "Are there more
# bottles of water or laptops?" (its answer is one of the two)
# ("Is parallax more pronounced with nearby stars or with distant stars?" compares no counts: a subject before
# "more" is a pronoun or "there", with its verb: "Did they deliver more laptops or more blankets?")
ALTERNATIVE = re.compile(r"^(?:were|was|are|is|did|do|does|has|have|had)\s+"
                         r"(?:(?:there|they|we|you|he|she|it|i)\s+(?:[a-z]+\s+)?)?(?P<cmp>more|fewer|less)\s+"
                         r"(?P<a>[^,?]+?)\s+or\s+(?:(?:more|fewer|less)\s+)?(?P<b>[^,?]+?)\s*\?\s*$", re.I)
# a participle that ends an alternative question's second option ("... or more blankets delivered?")
_LAST_PARTICIPLE = re.compile(r"\s+(?:\w+ed|sold|made|built|given|taken|written|shown|seen|found|bought|paid|sent|"
                              r"won|lost|held|grown|drawn|produced)$", re.I)
# "Which band, Letters to Cleo or Screaming Trees, had more members?"
_CHOICE_MID = re.compile(r"^[^,]+,\s*(?:the\s+)?(?P<a>[^,:?]+?)\s+or\s+(?:the\s+)?(?P<b>[^,:?]+?)\s*,\s*\w", re.I)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december", "century", "decade", "spring", "summer", "autumn", "fall", "winter")
_DATE = re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b(?:" + "|".join(_MONTHS[:12]) + r")\b",
                   re.I)
# "7.3" or "Section 7.3" is where an amount is written, not the amount (the draft benchmark's reader answered
# "What interest do you charge if we pay late?" with the number of the clause "7.3 Late Payment Interest")
_SECTION_NUMBER = re.compile(r"(?:section|clause|article|schedule|annex|paragraph|§)\s*[\d.]+[a-z]?", re.I)
# an amount has its unit: a currency, a percentage, or a count of days, weeks ... ("EUR 18.64", "0.5%",
# "3.25 percentage points", "net 45 days", "five percent"); "at 3.25" or "7.3 supplement" is not one
AMOUNT_FORM = re.compile(r"(?:\b(?:eur|usd|gbp|chf|jpy|cad|aud)|[€$£¥])\s?\d|\d\s?(?:%|(?:percent|per ?cent|"
                         r"percentage points?|basis points?|bps|eur|usd|gbp|chf|euros?|dollars?|pounds?|francs?|"
                         r"thousand|million|billion|days?|weeks?|months?|years?|hours?|minutes?|times)\b)|"
                         r"\b(?:percent|per cent|euros?|dollars?|pounds?)\b", re.I)
_NUMBER_WORDS = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
                 "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred",
                 "thousand", "million", "billion", "dozen", "half", "once", "twice", "none", "no", "single",
                 "double", "several", "few", "many"}


@dataclass(frozen=True)
class QuestionType:
    """The expected answer: ``kind`` and, for a ``choice``, the two ``options`` as written in the question."""

    kind: Kind
    options: tuple[str, ...] = ()


def _choice(a: str, b: str) -> QuestionType | None:
    """A choice between options ``a`` and ``b``, or None when they are no two options (empty, the same, or over
    80 characters: a clause, not a name)."""
    return QuestionType("choice", (a, b)) if a and b and a.lower() != b.lower() and len(a) < 80 and len(b) < 80 \
        else None


def question_type(question: str) -> QuestionType:
    """Classify ``question`` by its wording (English). Unknown wording gives ``other`` (no constraint). A yes/no
    question joined to a wh-question ("Does it renew, and how much notice stops it?") is classified by the
    wh-question: its answer is the one asked for. None of the 97 yes/no questions of the HotpotQA and NQ dev
    files, nor any of the loss table's wordings, is worded so."""
    q = question.strip()
    m = _CHOICE.search(q) or _CHOICE_MID.search(q)
    if m and (_WH_START.match(q) or _YESNO.match(q) or _TERSE_CHOICE.match(q)):
        choice = _choice(m.group("a").strip(" \"'"), m.group("b").strip(" \"'"))
        if choice is not None:
            return choice
    alternative = ALTERNATIVE.match(q)
    if alternative:
        choice = _choice(alternative.group("a").strip(), _LAST_PARTICIPLE.sub("", alternative.group("b").strip()))
        if choice is not None:
            return choice
    if _YESNO.match(q) and not _WH_START.match(q):
        then = _THEN_WH.search(q)
        return question_type(q[then.end():]) if then else QuestionType("yesno")
    if _EMAIL.match(q):
        return QuestionType("email")
    if _WHEN.match(q):
        return QuestionType("when")
    if _AMOUNT.match(q):
        return QuestionType("amount")
    if _NUMBER.search(q):
        return QuestionType("number")
    if _WHERE.search(q):
        return QuestionType("where")
    if _WHO.match(q):
        return QuestionType("who")
    return QuestionType("other")


def _has_number(text: str) -> bool:
    return bool(re.search(r"\d", text)) or any(w in _NUMBER_WORDS for w in re.findall(r"[a-z]+", text.lower()))


def fits(qtype: QuestionType, short_answer: str) -> bool:
    """True when ``short_answer`` has the form ``qtype`` expects (a date holds a month, a number that is
    not part of a code or a period in words ("one year": after the Effective Date), a number a digit or number
    word, an amount such a number with a unit or currency (not a bare number, a date or a section number), a place
    or a person is not a bare number, an e-mail address has an @)."""
    s = short_answer.strip().lower()
    if not s:
        return False
    if qtype.kind == "yesno":
        return s in ("yes", "no")
    if qtype.kind == "choice":
        return any(s == o.lower() for o in qtype.options)
    if qtype.kind == "when":  # a number standing alone ("1998", "1990s"), not part of a code ("MSSA-2025-014");
        # a period in words as in digits ("one year" from the Effective Date as "1 year")
        return bool(_DATE.search(s) or re.search(r"(?<![\w-])\d+(?:s|st|nd|rd|th)?(?![\w-])", s)) or \
            any(m in s for m in _MONTHS) or bool(durations(s))
    if qtype.kind == "number":
        return _has_number(s)
    if qtype.kind == "amount":  # a sum or a rate: a number with its unit, not a date or a section number
        rest = _SECTION_NUMBER.sub(" ", s)
        return _has_number(rest) and not _DATE.search(rest) and bool(AMOUNT_FORM.search(rest))
    if qtype.kind == "email":
        return bool(EMAIL_ADDRESS.search(s))
    if qtype.kind in ("where", "who"):
        return not re.fullmatch(r"[\d\s.,%/-]+", s)
    return True
