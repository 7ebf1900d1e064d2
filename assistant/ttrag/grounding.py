"""Grounding: is an answer backed by the passages it was read from?

The reader's own "found" flag is nearly always true (docs/design.md §7), so "found" is decided from evidence:
the short answer's words must stand in a passage that was read (that passage is then cited), it must
have the form the question asks for (:func:`assistant.ttrag.qtype.fits`), and the passages read must
mention what the question is about (its names, numbers and quoted words), so a fact about another
character or another product is not passed off as the answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from functools import lru_cache

import Stemmer

from assistant.records import Chunk
from assistant.text import date_roles, renewals
from assistant.text.dates import dates_in, without_shared_dates
from assistant.text.durations import Duration, durations, without_durations
from assistant.ttrag.qtype import QuestionType, fits

_WORD = re.compile(r"\w+")
_STOP = frozenset("""a an the of and or in on at to for from by with as is are was were be been it its this that
these those which who whom whose what when where why how did do does has have had not no yes than then there
their they he she his her him i you we our your my me us s""".split()) | {
    # "and"/"or" of the languages a question may be asked in: a reply in the question's language joins the
    # passage's names with its own word ("Co-Diagnostics, Inc. und PreCheck Health Services, Inc.")
    "und", "oder", "sowie", "et", "ou", "y", "o"}
# Capitalised words that start questions or are function words, not names.
_NOT_NAMES = frozenset("""what which who whom whose when where why how is are was were do does did can could has
have had will would should in on at of for from by with the a an and or both either neither as than that this
these those there if""".split())


@lru_cache(maxsize=1)
def english_stemmer() -> Stemmer.Stemmer:
    """The Snowball English stemmer, made once."""
    return Stemmer.Stemmer("english")


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()


@lru_cache(maxsize=256)  # a read's passages are checked for support, coverage and type: stem each once
def terms(text: str) -> frozenset[str]:
    """Stemmed content words of ``text`` (accents folded, stop words out)."""
    words = [w for w in _WORD.findall(_fold(text)) if w not in _STOP]
    return frozenset(english_stemmer().stemWords(words))


def key_terms(question: str) -> frozenset[str]:
    """What the question is about: stems of its names (capitalised words past the first), numbers and
    quoted words. Empty when it names nothing in particular."""
    words = _WORD.findall(question)
    picked = [w for i, w in enumerate(words) if (i > 0 and w[:1].isupper() and w.lower() not in _NOT_NAMES)
              or any(ch.isdigit() for ch in w)]
    for quoted in re.findall(r"[\"“']([^\"”']{2,60})[\"”']", question):
        picked.extend(_WORD.findall(quoted))
    return terms(" ".join(picked))


def supporting(short_answer: str, chunks: Sequence[Chunk]) -> list[int]:
    """1-based numbers of the chunks whose words include every content word of ``short_answer``; a date in
    it may stand there written another way ("2020-03-19" in "the 19th day of March, 2020",
    :func:`assistant.text.dates.dates_in`), its other words as they are. So may a duration ("5 years" in
    "five years" or "the fifth (5th) anniversary", :func:`assistant.text.durations.durations_in`), and must
    stand there as a duration: a chunk that states each of its durations, and its other words as they are."""
    wanted = terms(short_answer)
    if not wanted:
        return []
    lengths = durations(short_answer)
    if lengths:  # "4 years" is not the "4" of "Section 4.2" and a "years" elsewhere
        others = terms(without_durations(short_answer))
        found = [n for n, c in enumerate(chunks, 1) if others <= terms(c.text) and states_durations(lengths, c.text)]
    else:
        found = [n for n, c in enumerate(chunks, 1) if wanted <= terms(c.text)]
    if found or not dates_in(short_answer):
        return found
    out = []
    for n, c in enumerate(chunks, 1):
        rest = without_shared_dates(short_answer, c.text)
        if not dates_in(rest) and terms(rest) <= terms(c.text):  # every date stated there, the rest word for word
            out.append(n)
    return out


@lru_cache(maxsize=256)
def _durations_of(text: str) -> tuple[Duration, ...]:
    return tuple(durations(text))


def states_durations(lengths: Sequence[Duration], text: str) -> bool:
    """True when ``text`` states each of ``lengths``, in whatever form."""
    stated = _durations_of(text)
    return all(any(d.same(x) for x in stated) for d in lengths)


def coverage(question: str, chunks: Sequence[Chunk], equivalents: Sequence[tuple[str, str]] = ()) -> float:
    """Share of the question's key terms found in the chunks (1.0 when it has none).

    ``equivalents`` are (name, term) pairs of the parties a contract defines that the question names
    (:mod:`assistant.ttrag.aliases`). A named party is the setting of the question, not its topic: the
    share counts the question's other key terms ("CO2" in "What were Calder's total CO2 emissions?", which
    a passage about "the Supplier" does not make covered). When the parties are all it names ("Who is
    Norhaven's contract manager?"), a party counts as found where the chunks use its term ("the Buyer"). A
    name without a term is that of the records the chunks were searched in (:mod:`assistant.ttrag.scope`):
    found, as the record holds it.
    """
    keys = key_terms(question)
    if not keys:
        return 1.0
    seen: set[str] = set()
    for c in chunks:
        seen |= terms(c.text)
    parties = frozenset().union(*(terms(name) for name, _ in equivalents)) & keys
    if keys - parties:
        keys = keys - parties
    else:
        for name, term in equivalents:
            if not term or terms(term) <= seen:
                seen |= terms(name)
    return len(keys & seen) / len(keys)


def check(question: str, qtype: QuestionType, short_answer: str, chunks: Sequence[Chunk], *,
          min_coverage: float = 0.5, read_before: Sequence[Chunk] = (),
          equivalents: Sequence[tuple[str, str]] = (), off: Collection[str] = ()) -> tuple[list[int], str]:
    """Decide whether ``short_answer`` is grounded in ``chunks``.

    ``off``: names of the checks below switched off (``form``, ``support``, ``party``;
    :data:`assistant.config.ANSWER_RULES`), for ablations; the coverage check has its own ``min_coverage``.

    ``read_before`` are passages read by earlier attempts of the same question: a rewrite built from
    them carries their link to the question (the first hop of a two-hop question), so they count
    towards the key-term coverage. ``equivalents``: see :func:`coverage`.

    Returns:
        (supporting chunk numbers, 1-based; reason). The reason is '' when the answer is grounded, else
        why not: ``no answer``, ``wrong type``, ``not in the passages``, ``passages off topic``, ``the answer
        is the party the question names`` (a who/where/other answer within the name or term of a party in
        ``equivalents``), ``the passages give that date as the start`` (or ``end``: a date asked for as an end
        that the passages read give only as a start, :func:`assistant.text.date_roles.gives_other_role`), ``the
        passages give that period for something other than a renewal`` (a period asked for as a renewal's that
        the passages state with no word of renewal near it, :func:`assistant.text.renewals.said_of_renewal`).
        Yes/no and choice answers are supported by the chunks that mention what the question names
        (their words are the question's, not the passage's); for a choice, those that name the option
        chosen come first.
    """
    if not short_answer.strip():
        return [], "no answer"
    if "form" not in off and not fits(qtype, short_answer):
        return [], f"wrong type (a {qtype.kind} question)"
    if coverage(question, [*chunks, *read_before], equivalents) < min_coverage:
        return [], "passages off topic"
    if qtype.kind in ("yesno", "choice"):  # supported by the passages about what the question names
        keys = key_terms(question) | (terms(" ".join(qtype.options)) if qtype.kind == "choice" else set())
        hits = [len(keys & terms(c.text)) for c in chunks]
        best = max(hits, default=0)
        about = [n for n, h in enumerate(hits, 1) if h and h * 2 >= best]  # at least half the best match
        if qtype.kind == "choice":  # the passages that name the option chosen come first ("J. M. Barrie" for
            # "Which playwright lived longer, Edward Albee or J. M. Barrie?" cites the passage about Barrie)
            naming = supporting(short_answer, chunks)
            about = naming + [n for n in about if n not in naming]
        return (about or list(range(1, len(chunks) + 1))), ""
    # a name without a term is a record's words (assistant.ttrag.scope), not a party the answer cannot be
    parties = [terms(f"{name} {term}") for name, term in equivalents if term]
    if "party" not in off and qtype.kind in ("who", "where", "other") and \
            any(terms(short_answer) <= p for p in parties):
        # "Calder Precision Components Ltd." for "Who is Calder's contract manager?": the party the question
        # asks about is not its answer
        return [], "the answer is the party the question names"
    found = supporting(short_answer, chunks)
    if not found and "support" in off:  # unchecked: the passages read stand behind it
        found = list(range(1, len(chunks) + 1))
    if not found:
        return [], "not in the passages"
    read = "\n".join(c.text for c in chunks)
    role = date_roles.asked_role(question) if "date_role" not in off and dates_in(short_answer) else None
    if role and date_roles.gives_other_role(short_answer, role, read):
        # "ends on January 7, 1998" where the contract is "effective 7/1/98" and runs for three years
        return [], f"the passages give that date as the {'start' if role == 'end' else 'end'}"
    if "renewal" not in off and renewals.asks_renewal(question) and \
            renewals.said_of_renewal(short_answer, read) is False:
        # "30 days" for "How much notice stops the renewal?" where the passages give 30 days to cure a breach
        return [], "the passages give that period for something other than a renewal"
    return found, ""
