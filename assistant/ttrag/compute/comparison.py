"""Comparison: "Which genus has more species, Lavatera or Oplismenus?" decided from the figures the text states.

A question that offers two options and compares them by a date ("Who was born first, A or B?", "Which band
was formed earlier, A or B?") or by a count ("Which band has more members, A or B?") is a cheaper exact
method in the sense of conditional compute (TTRAG §3.1): the values are read from the paragraphs about each
option and compared, with no model read. The 1.5B reader picks the wrong option of such questions about as
often as the right one, even when it quotes both figures ("There are 25 species of Lavatera, while there are
100 species of Oplismenus", answered "Lavatera"): docs/design.md §3.

A value is taken only from a paragraph that opens with its option, before any sentence naming the other, and a
decision is made only when both values are found and differ; anything else goes to the reader. Things counted
rather than named ("blankets or laptops", in lower case) are counted in any sentence that states the number
before them ("10,000 blankets"). A question in another language is parsed as translated (the pipeline).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from assistant.documents.chunk import sentence_spans
from assistant.text.dates import dates_in
from assistant.ttrag.passages import sentence_spans_across_lines
from assistant.ttrag.qtype import ALTERNATIVE, question_type

Measure = Literal["date", "count"]

# the comparative of a date: earliest first ("older", "born first"), or latest ("younger", "more recently")
_EARLY_WORDS = re.compile(r"\b(?:older|oldest|elder|eldest)\b", re.I)
_LATE_WORDS = re.compile(r"\b(?:younger|youngest|newer|newest|more recent(?:ly)?|most recent(?:ly)?)\b", re.I)
# an adverb of time that ends the question's stem ("Who was born first", "Which band formed earlier")
_EARLY_END = re.compile(r"\b(?:first|earlier|earliest|sooner|before)\s*$", re.I)
_LATE_END = re.compile(r"\b(?:later|latest|last)\s*$", re.I)
# "Which was the first animated film to come out": the first (or last) to do a dated event; "the first Russian
# composer to make a lasting impression" names no such event and is left to the reader
_FIRST_TO = re.compile(r"\bthe\s+(?P<end>first|earliest|last|latest)\b.*\bto\s+(?:be\s+|have\s+been\s+)?(?P<event>.+)$",
                       re.I)
_MORE = r"more|most|larger|largest|bigger|biggest|greater|greatest|higher|highest"
_FEWER = r"fewer|fewest|less|least|smaller|smallest|lower|lowest"
# "more species", "the larger population", "more studio albums", "more Grand Slam women's doubles titles"
_COUNT = re.compile(rf"\b(?P<cmp>{_MORE}|{_FEWER})\s+(?P<noun>[^,:]+)$", re.I)
# "In which genus number of species are more": the noun before the comparative
_COUNT_AFTER = re.compile(rf"\bnumber of (?P<noun>[a-z][\w-]*)\s+(?:is|are|was|were)\s+(?P<cmp>{_MORE}|{_FEWER})\s*$",
                          re.I)
# where the counted noun phrase ends ("more people in it", "more people live there")
_PHRASE_END = frozenset("in on at of to for with by from it its is are was were do does did has have had live "
                        "lives lived there here".split())
_NOT_NOUNS = frozenset("often frequently recently likely popular successful famous known widely important "
                       "than".split())
_STOP = frozenset("the a an of and in on at for to by de la le".split())
_YEAR = re.compile(r"(?<![\w.,])(1[0-9]{3}|20[0-9]{2})(?!\w|[.,]\d)")
_NUMBER_WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                             "thirteen fourteen fifteen sixteen seventeen eighteen nineteen "
                                             "twenty".split())}
_NUMBER = re.compile(r"(?<![\w.,])(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|" + "|".join(_NUMBER_WORDS) +
                     r")(?:\s+(?P<scale>thousand|million|billion))?(?![\w,]|\.\d)", re.I)
_NUMBER_UNNAMED = re.sub(r"\(\?P<\w+>", "(?:", _NUMBER.pattern)  # the same, its groups unnamed (inside other patterns)
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_BORN = re.compile(r"\bborn\b|\(\s*b\.\s", re.I)
_DIED = re.compile(r"\b(?:died|death)\b", re.I)


@dataclass(frozen=True)
class Comparison:
    """What a comparison question asks: its two ``options`` as written, the ``measure`` compared, whether the
    ``largest`` value wins (the latest date, the most), the ``nouns`` that may name what is counted (a count:
    the words of its noun phrase, its head first: "titles", "doubles", "women's" for "more Grand Slam women's
    doubles titles") and, for a date, the ``event`` the question names ("born", "died", "formed"; '' when
    none)."""

    options: tuple[str, ...]
    measure: Measure
    largest: bool
    nouns: tuple[str, ...] = ()
    event: str = ""

    @property
    def noun(self) -> str:
        """The head of the counted noun phrase ('' for a date)."""
        return self.nouns[0] if self.nouns else ""


@dataclass(frozen=True)
class Value:
    """One option's value: the number compared (a year with the day of the year as its fraction, or a count),
    the ``passage`` (0-based) it stands in, the figure as written, and the character span in that passage of the
    sentence that states it."""

    number: float
    passage: int
    figure: str
    sentence_start: int
    sentence_end: int


@dataclass(frozen=True)
class Decided:
    """The option the values pick (``winner``), the other, and both values."""

    winner: str
    loser: str
    won: Value
    lost: Value


def parse(question: str) -> Comparison | None:
    """The comparison ``question`` asks (an English question offering two options, see the module
    docstring), or None when it asks none this method decides."""
    qtype = question_type(question)
    if qtype.kind != "choice" or len(qtype.options) != 2:
        return None
    a, b = qtype.options
    stem = _stem(question, a, b)
    a, b = (re.sub(r"['’]s$", "", o) for o in (a, b))  # "Compunet's or DataPoint's?": the companies
    # a one-word name keeps the article the question gives it ("The Wild", not "Wild")
    options = tuple(f"{m.group(1)} {o}" if len(_words(o)) == 1 and (m := re.search(rf"\b(the)\s+{re.escape(o)}\b",
                                                                                   question, re.I)) else o
                    for o in (a, b))
    if _EARLY_WORDS.search(stem) or _EARLY_END.search(stem):
        return Comparison(options, "date", False, event=_event(stem))
    if _LATE_WORDS.search(stem) or _LATE_END.search(stem):
        return Comparison(options, "date", True, event=_event(stem))
    first = _FIRST_TO.search(stem)
    if first and (event := _event(first.group("event"))):
        return Comparison(options, "date", first.group("end").lower() in ("last", "latest"), event=event)
    if all(is_item(o) for o in options):  # the things themselves are counted: "Were more laptops or more blankets
        # delivered?", "Which were fewer, laptops or bottles of water?"
        m = ALTERNATIVE.match(question.strip()) or re.search(rf"\b(?P<cmp>{_MORE}|{_FEWER})(?:\s+of)?\s*$", stem, re.I)
        if m:
            return Comparison(options, "count", not re.fullmatch(_FEWER, m.group("cmp"), re.I))
    m = _COUNT.search(stem) or _COUNT_AFTER.search(stem)
    if m:
        words = re.findall(r"[a-z][\w'’-]*|\d+", m.group("noun").lower())
        while words and (words[0] == "than" or words[0].isdigit()):  # "more than 300 papers"
            words.pop(0)
        phrase = next((words[:i] for i, w in enumerate(words) if w in _PHRASE_END), words)
        nouns = tuple(w for w in reversed(phrase[-3:]) if w not in _NOT_NOUNS and w not in _STOP)
        if nouns:
            return Comparison(options, "count", not re.fullmatch(_FEWER, m.group("cmp"), re.I), nouns=nouns)
    return None


def _stem(question: str, a: str, b: str) -> str:
    """The question without its two options and the punctuation around them ("Which band, A or B, had more
    members?" -> "Which band had more members")."""
    q = question.strip().rstrip("?").strip()
    m = re.search(rf"[,:]?\s*(?:the\s+)?{re.escape(a)}\s*,?\s+or\s+(?:the\s+)?{re.escape(b)}\s*,?", q, re.I)
    if m:
        q = f"{q[:m.start()]} {q[m.end():]}"
    return re.sub(r"\s+", " ", q).strip(" ,:-")


# The events a date comparison names, each with the words a text states it by ("came out later" is dated where a
# text says "published in 1995"); "born" and "died" are read from a life's dates (:func:`_date_value`).
_EVENT_WORDS = {
    "born": ("born",),
    "died": ("died", "death"),
    "released": ("released", "published", "issued", "premiered", "debuted", "launched", "aired", "came out",
                 "come out", "appeared", "introduced", "first"),
    "formed": ("formed", "founded", "established", "created", "started", "began", "organized", "got together"),
}
_EVENTS = {word: event for event, words in _EVENT_WORDS.items() for word in words if word != "first"}
_EVENTS.update({w: w for w in ("opened", "built", "produced", "written", "fought", "occurred", "decided", "signed",
                               "elected", "discovered", "completed")})


# The same events as a German or French question names them: a translation may change the event ("Wer ist früher
# gestorben?" came back as "Who was born earlier?"), and a date compared for the wrong event decides wrongly.
_ASKED_EVENTS = {
    "born": re.compile(r"\bgeboren\b|\bGeburt|\bnée?s?\b|\bnaissance", re.I),
    "died": re.compile(r"\bgestorben\b|\bstarb\b|\bverstorben\b|\bTod(?:es)?\b|\bmorte?s?\b|\bdécédée?s?\b"
                       r"|\bdécès\b", re.I),
    "formed": re.compile(r"\bgegründet\b|\bGründung|\bfondée?s?\b|\bfondation\b|\bcréée?s?\b", re.I),
    "released": re.compile(r"\bveröffentlicht\b|\berschienen\b|\bherausgekommen\b|\bpubliée?s?\b|\bparue?s?\b"
                           r"|\bsortie?s?\b", re.I),
}


def event_kept(compared: Comparison, asked: str) -> bool:
    """False where ``asked`` (the question as written, German or French) names one of :data:`_ASKED_EVENTS` and
    ``compared`` (parsed from its translation) dates another; True where it names none of them, or the same."""
    named = {event for event, pattern in _ASKED_EVENTS.items() if pattern.search(asked)}
    return not named or compared.event in named


def _event(stem: str) -> str:
    """The event ``stem`` dates ("born", "died", "released" for "came out", "formed" for "founded", another verb
    as written), '' when none."""
    low = f" {stem.lower()} "
    return next((e for w, e in _EVENTS.items() if f" {w} " in low), "")


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[\w'’-]+", text.casefold()) if w not in _STOP]


# a company's legal form after its name ("Norhaven Ltd", "Calder GmbH"): the same name, not a longer one
_LEGAL_FORM = re.compile(r"(?:Ltd|Limited|Inc|Incorporated|LLC|LLP|Corp|Corporation|Co|Company|GmbH|AG|KG|SA|SAS|"
                         r"SARL|SpA|Srl|BV|NV|AB|Oy|plc|PLC|Pty|LP)\b\.?")


def _mentions(sentence: str, option: str, *, longer: bool = False) -> bool:
    """Whether ``sentence`` names ``option``: every word of a name of two words or more (articles and such
    aside: "Ulf Dietrich Merbold" names "Ulf Merbold"); a one-word name as the question writes it, its article
    and capitals included, and not as part of a longer name ("The Wild" is not named by "The Wild Geese" or
    "Call of the Wild")."""
    want = _words(option)
    if len(want) >= 2:
        have = set(_words(sentence))
        return all(w in have for w in want)
    if not want:
        return False
    flags = 0 if option != option.lower() else re.I  # a name as the question capitalises it
    for m in re.finditer(rf"(?<![\w'’-]){re.escape(option)}(?![\w'’-])", sentence, flags):
        before = sentence[:m.start()].split()
        after = sentence[m.end():].lstrip()
        if len(before) > 1 and before[-1][:1].isupper() and before[-1][-1:] not in ".:;!?":
            continue  # "John Salvia": a capitalised word before it, not the sentence's first
        if re.match(r"[A-Z0-9][a-z0-9]", after) and not _LEGAL_FORM.match(after) and \
                not (longer and re.match(rf"(?:[A-Z][\w&'’-]*\s+){{1,3}}{_LEGAL_FORM.pattern}", after)):
            continue  # "The Wild Geese": a capitalised word after it ("Norhaven Ltd" is Norhaven, and, where no
            # paragraph names it alone, so is "Nordstahl Regalsysteme GmbH")
        return True
    return False


def _leads(sentence: str, option: str, *, longer: bool = False) -> bool:
    """Whether ``sentence`` opens with ``option``: its words among the sentence's first few ("Wavves is ...",
    "Lavatera.", "Dr. Ulf Dietrich Merbold (born ...", not "The Rivals for Catan.")."""
    want = _words(option)
    head = re.findall(r"[\w'’-]+", sentence)[:len(want) + 3]
    return _mentions(" ".join(head), option, longer=longer) and sentence.lstrip()[:1].isupper()


def _about(option: str, other: str, text: str, *, longer: bool = False) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text`` about ``option``: those of the paragraphs that open with it
    (:func:`_leads`: "Formed in 2008 by ..." after "Wavves is an American rock band"), up to a sentence that names
    ``other``. A sentence that names the option in a paragraph about something else is not read: asked of
    HotpotQA's paragraphs without the gold ones, such sentences ("In 1985, he became the second French citizen
    in space, after Jean-Loup Chrétien") decided 11 of 89 dev asks, all wrongly, against 3 read from paragraphs
    about the option (docs/design.md §3)."""
    out = []
    for para in re.finditer(r"\S(?:.|\n(?!\s*\n))*", text):
        spans = sentence_spans(para.group())
        if not spans or not _leads(para.group()[spans[0][0]:spans[0][1]], option, longer=longer):
            continue
        for start, end in spans:
            if _mentions(para.group()[start:end], other):
                break
            out.append((para.start() + start, para.start() + end))
    return out


def _date_value(sentence: str, event: str, *, cued: bool = False) -> tuple[float, int, int] | None:
    """(year with its day as a fraction, start, end) of the date ``sentence`` gives for ``event``: a birth is
    the first date of a parenthesis after the name ("(5 May 1950 – 2 June 2010)", "(born 1950)") or the first
    after "born"; a death the second of such a range or the first after "died"; another event the first date
    after its word ("formed in 1994"), else (unless ``cued``) the sentence's first date."""
    marks = [(m.start(), m.end(), m.group(1)) for m in _YEAR.finditer(sentence)]
    full = {(d.start, d.end): min(d.days) for d in dates_in(sentence)}
    if not marks:
        return None

    def value(i: int) -> tuple[float, int, int]:
        start, end, year = marks[i]
        for (s, e), day in full.items():
            if s <= start and end <= e:
                return day.year + (day.timetuple().tm_yday - 0.5) / 366, s, e
        return float(year), start, end

    paren = re.search(r"\(([^()]*)\)", sentence)
    inside = [i for i, (s, _, _) in enumerate(marks) if paren and paren.start() < s < paren.end()]
    if event == "died":
        died = _DIED.search(sentence)
        after = [i for i, (s, _, _) in enumerate(marks) if died and s > died.end()]
        if after:
            return value(after[0])
        if len(inside) >= 2 and re.search(r"[–—-]", sentence[marks[inside[0]][1]:marks[inside[1]][0]]):
            return value(inside[1])
        return None
    if event == "born" or (not event and inside and _BORN.search(sentence[:paren.end()] if paren else "")):
        born = _BORN.search(sentence)
        if inside:
            return value(inside[0])
        after = [i for i, (s, _, _) in enumerate(marks) if born and s > born.start()]
        return value(after[0]) if after else None
    if event:
        cues = "|".join(re.escape(w) for w in _EVENT_WORDS.get(event, (event,)))
        for cue in re.finditer(rf"\b(?:{cues})\b", sentence, re.I):
            after = [i for i, (s, _, _) in enumerate(marks) if cue.end() <= s <= cue.end() + 60]
            if after:
                return value(after[0])
    return None if cued else value(0)


def _singular(word: str) -> str:
    """``word`` less a plural's final "s" ("species" -> "specie", "laptops" -> "laptop"; "bus" as it is): the stem
    a pattern matches either number by."""
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _count_value(sentence: str, noun: str) -> tuple[float, int, int] | None:
    """(count, start, end) of the ``noun`` ``sentence`` counts, the span running from the number to the noun: a
    number up to three words before the noun ("about 25 species", "five studio albums") or up to five after it
    ("a population of 24,256,800")."""
    for m in re.finditer(rf"\b{re.escape(_singular(noun))}\w*", sentence, re.I):
        before = sentence[max(0, m.start() - 40):m.start()]
        near = list(_NUMBER.finditer(before))
        if near and len(before[near[-1].end():].split()) <= 3:
            return _number(near[-1]), m.start() - len(before) + near[-1].start(), m.end()
        after = sentence[m.end():m.end() + 60]
        n2 = _NUMBER.search(after)
        if n2 and len(after[:n2.start()].split()) <= 5:
            return _number(n2), m.start(), m.end() + n2.end()
    return None


def _number(m: re.Match[str]) -> float:
    raw = m.group("n").lower()
    n = float(_NUMBER_WORDS[raw]) if raw in _NUMBER_WORDS else float(raw.replace(",", ""))
    return n * _SCALE.get((m.group("scale") or "").lower(), 1.0)


_LONGER = (False, True)


def is_item(option: str) -> bool:
    """Whether ``option`` is a thing counted rather than a name: written in lower case ("blankets", "the small
    datasets"), where a name is capitalised ("Lavatera", "Test Icicles")."""
    return any(ch.isalpha() for ch in option) and option == option.lower()


def _item_pattern(option: str) -> str:
    """A pattern of ``option``'s words (its article aside), each noun singular or plural ("laptop" for
    "laptops", "bottles of water")."""
    words = [w for w in re.findall(r"[\w'’-]+", option) if w not in ("the", "a", "an")]
    parts = [re.escape(_singular(w)) + "(?:s|es)?" for w in words]
    return r"\s+".join(parts)


def _item_value(comparison: Comparison, option: str, passages: Sequence[str]) -> Value | None:
    """The count of a thing counted (:func:`is_item`), from any sentence that states it: the number right before
    it, up to two words between ("10,000 blankets", "200 laptops", "10,000 wool blankets"), or before the
    compared noun that is counted for it ("100 epochs for small datasets"). None when no sentence states one, or
    the passages state different counts for it (a second delivery: which count the question means is the
    reader's to say)."""
    item = _item_pattern(option)
    nouns = "|".join(re.escape(_singular(n)) for n in comparison.nouns)
    shapes = [rf"{_NUMBER_UNNAMED}\s+(?:[a-z][\w-]*\s+){{0,2}}?{item}\b"]
    if nouns:
        shapes.append(rf"{_NUMBER_UNNAMED}\s+(?:{nouns})\w*\s+(?:for|of|in|on|with|per)\s+(?:the\s+)?{item}\b")
    found: list[Value] = []
    for i, text in enumerate(passages):
        for start, end in sentence_spans_across_lines(text):  # a PDF's line ends inside "100\nepochs for small"
            sentence = text[start:end]
            for m in (m for shape in shapes for m in re.finditer(shape, sentence, re.I)):
                counted = _NUMBER.match(sentence, m.start())
                if counted is not None:
                    found.append(Value(_number(counted), i, m.group(), start, end))
    if not found or len({v.number for v in found}) > 1:
        return None
    return found[0]


def value_of(comparison: Comparison, option: str, passages: Sequence[str]) -> Value | None:
    """``option``'s value, from a paragraph about it (:func:`_about`): a date first where the text names its
    event ("formed in 1999"), then a sentence's first; each in the order of ``passages``. None when no such
    paragraph states one. A count of things (both options :func:`is_item`) is read from any sentence
    (:func:`_item_value`)."""
    other = comparison.options[1] if option == comparison.options[0] else comparison.options[0]
    if comparison.measure == "count" and is_item(option) and is_item(other):
        return _item_value(comparison, option, passages)
    cues = (True, False) if comparison.measure == "date" else (False,)
    for longer, cued in ((lg, c) for lg in _LONGER for c in cues):
        for i, text in enumerate(passages):
            for start, end in _about(option, other, text, longer=longer):
                sentence = text[start:end]
                found = _date_value(sentence, comparison.event, cued=cued) if comparison.measure == "date" else \
                    next(filter(None, (_count_value(sentence, noun) for noun in comparison.nouns)), None)
                if found is not None:
                    number, s, e = found
                    while s < e and sentence[s] in "([":  # "(14 August 1933": the day's form takes the bracket
                        s += 1
                    return Value(number, i, sentence[s:e], start, end)
    return None


def decide(comparison: Comparison, passages: Sequence[str]) -> Decided | None:
    """The option ``passages`` show to win, or None when a value is missing or both are the same."""
    a, b = comparison.options
    va, vb = value_of(comparison, a, passages), value_of(comparison, b, passages)
    if va is None or vb is None or va.number == vb.number:
        return None
    a_wins = (va.number > vb.number) == comparison.largest
    return Decided(a, b, va, vb) if a_wins else Decided(b, a, vb, va)


def sentence(decided: Decided, won: int, lost: int) -> str:
    """The answer shown: the winner, its figure and the other's, each with its ``[n]`` passage marker
    ("Oplismenus: over 100 described species [1], against 25 species for Lavatera [2].")."""
    def said(value: Value) -> str:
        return " ".join(value.figure.strip(" ()[]").split())

    if is_item(decided.loser) and re.search(_item_pattern(decided.loser), decided.lost.figure, re.I):
        # things counted: the figures name them ("Blankets: 10,000 blankets [1], against 200 laptops [1].")
        return f"{decided.winner[:1].upper()}{decided.winner[1:]}: {said(decided.won)} [{won}], " \
               f"against {said(decided.lost)} [{lost}]."
    return f"{decided.winner}: {said(decided.won)} [{won}], against {said(decided.lost)} for {decided.loser} [{lost}]."
