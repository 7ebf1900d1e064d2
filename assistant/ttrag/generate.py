"""Generation: read the passages into a structured answer, check it against them, stream the sentence.

The reader replies in JSON under a schema (docs/design.md §7: structured answers were right about
twice as often as "answer alone or NOT FOUND", and faster): ``found``, ``passage`` (which passage holds
the answer), ``short_answer`` (the span a benchmark compares), ``answer`` (one sentence for a person).
The keys are decoded in that order, so the short answer is known before the sentence starts: it is
checked against the passages (:mod:`assistant.ttrag.grounding`) and only a grounded sentence is
streamed, followed by ``[n]`` markers naming the passages that support it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from assistant.documents.chunk import sentence_spans
from assistant.models.base import GenerationRequest, Generator
from assistant.records import Chunk, Document, Source
from assistant.text import date_roles
from assistant.text.dates import dates_in, without_shared_dates
from assistant.text.durations import durations, without_durations
from assistant.ttrag import aliases, decision, grounding, passages
from assistant.ttrag.partial_json import partial_string, without_lone_surrogates
from assistant.ttrag.prompts import SYSTEM, answer_prompt
from assistant.ttrag.qtype import AMOUNT_FORM, QuestionType, question_type
from assistant.ttrag.window import Fit, fit_read

_WORD = re.compile(r"\w+")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?:\s?%)?")
# a number with the unit after it, if any ("(5) years", "30 days", "7.5%"): a fact of an answer sentence
_FIGURE = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?:\)?\s?(?:%|percent\b|per cent\b|(?:days?|weeks?|months?|years?|"
                     r"hours?|minutes?|dollars?|euros?|pounds?|million|billion|thousand)\b))?", re.I)
_ANSWER_KEY = re.compile(r'"answer"\s*:\s*"')
_MARKERS = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")  # the reader's own markers: ours replace them
_OPEN_MARKER = re.compile(r"\s*\[[\d,\s]*$")  # a marker still being written
# An opening parenthesis the sentence ends on: the reader copies a clause into its JSON string and a quoted
# definition inside it closes the string ('... commencing on the 1st day of May, 2006 (' for '... 2006 (the
# "Initial Term")'); held back while streaming, and where the sentence ends there, a full stop ends it instead
_OPEN_PAREN = re.compile(r"\s*\($")
# A sentence that says the passages do not give the answer ("The email address is not provided in the given
# text"), written after a grounded-looking short answer: the draft benchmark showed the 1.5B reader doing this
# for questions the contract does not answer. It is a "not found", whatever the short answer was.
HEDGE = re.compile(r"\b(?:not (?:provided|mentioned|specified|stated|given)|(?:does|do|did)(?: not|n't) "
                   r"(?:mention|say|state|specify|provide|contain)|no (?:information|mention)|"
                   r"cannot be (?:determined|found))\b", re.I)


def answer_schema(qtype: QuestionType) -> dict[str, object]:
    """The reader's JSON schema; a yes/no or two-option question narrows ``short_answer`` to an enum."""
    short: dict[str, object] = {"type": "string"}
    if qtype.kind == "yesno":
        short = {"type": "string", "enum": ["yes", "no"]}
    elif qtype.kind == "choice":
        short = {"type": "string", "enum": list(qtype.options)}
    return {"type": "object",
            "properties": {"found": {"type": "boolean"}, "passage": {"type": "integer"}, "short_answer": short,
                           "answer": {"type": "string"}},
            "required": ["found", "passage", "short_answer", "answer"]}


@dataclass(frozen=True)
class Reading:
    """What one read of the passages gave.

    Attributes:
        found: the reader answered and the answer is grounded in the passages (see ``reason``).
        short_answer: the answer alone (a name, date, number, yes/no): what a benchmark scores.
        sentence: the sentence shown to the person, ending in ``[n]`` markers ('' when not found).
        supported_by: 1-based numbers of the passages whose words hold the short answer.
        reason: '' when found, else why not (``the reader found no answer``, ``not in the passages``...).
        raw: the reader's reply as generated.
        fit: the passages read, cut to fit the reader's window (:mod:`assistant.ttrag.window`); the
            passage numbers above count these.
        found_p: the reader's probability that the passages answer (P(true) at its ``found`` token, over
            the two values), where the backend can tell; None elsewhere.
        yes_p: for a yes/no question, the reader's P(yes) at its short answer (over "yes" and "no"), where the
            backend can tell; None elsewhere.
    """

    found: bool
    short_answer: str
    sentence: str
    supported_by: tuple[int, ...]
    reason: str
    raw: str
    fit: Fit | None = None
    found_p: float | None = None
    yes_p: float | None = None


def strip_markers(text: str) -> str:
    """``text`` without ``[n]`` source markers."""
    return _MARKERS.sub("", text).strip()


def parse_reply(raw: str) -> dict[str, object]:
    """The reader's JSON object; a reply cut off by the token cap is closed and parsed as far as it goes. A lone
    surrogate in a string value (half an emoji) becomes U+FFFD."""
    text = raw.strip()
    for tail in ("", '"}', "}"):
        try:
            data = json.loads(text + tail)
        except ValueError:
            continue
        if isinstance(data, dict):
            return {k: without_lone_surrogates(v) if isinstance(v, str) else v for k, v in data.items()}
    return {}


def judge(question: str, qtype: QuestionType, fields: dict[str, object], chunks: Sequence[Chunk],
          *, min_coverage: float = 0.5, read_before: Sequence[Chunk] = (),
          equivalents: Sequence[tuple[str, str]] = (),
          rules_off: Collection[str] = ()) -> tuple[bool, str, tuple[int, ...], str]:
    """(found, short answer, supporting passage numbers, reason) for the reader's leading fields
    (``equivalents``: see :func:`assistant.ttrag.grounding.coverage`; ``rules_off``: grounding checks
    switched off, see :func:`assistant.ttrag.grounding.check`)."""
    short = str(fields.get("short_answer") or "").strip()
    if fields.get("found") is False or not short:
        return False, short, (), "the reader found no answer"
    support, reason = grounding.check(question, qtype, short, chunks, min_coverage=min_coverage,
                                      read_before=read_before, equivalents=equivalents, off=rules_off)
    return not reason, short, _pointer_first(support, fields)[:3], reason


def _pointer_first(support: Sequence[int], fields: dict[str, object]) -> tuple[int, ...]:
    """``support`` (1-based passage numbers) with the reader's own ``passage`` pointer first where it is one."""
    cited = fields.get("passage")
    if isinstance(cited, int) and cited in support:
        return (cited, *(n for n in support if n != cited))
    return tuple(support)


def _decide(model: decision.DecisionModel, threshold: float | None, generator: Generator, question: str,
            qtype: QuestionType, fields: dict[str, object], chunks: Sequence[Chunk], *,
            read_before: Sequence[Chunk], equivalents: Sequence[tuple[str, str]],
            rules_off: Collection[str]) -> tuple[bool, str, tuple[int, ...], str]:
    """(found, short answer, supporting passage numbers, reason) by the fitted decision: the reply is stated when
    P(right | its signals) reaches the operating point. What stays a rule: no answer is no answer, and a
    who/where answer that is the very party the question names is none (``party``)."""
    short = str(fields.get("short_answer") or "").strip()
    if fields.get("found") is False or not short:
        return False, short, (), "the reader found no answer"
    support, reason = grounding.check(question, qtype, short, chunks, min_coverage=0.0, read_before=read_before,
                                      equivalents=equivalents, off={"form", "support", *rules_off})
    if reason:
        return False, short, (), reason
    cited = fields.get("passage")
    ordered = _pointer_first(support, fields)
    probs, yes = generator.boolean_probs, generator.yes_probs
    signals = decision.signals(question, qtype, short, cited if isinstance(cited, int) else None, chunks,
                               found_p=probs[0] if probs else None,
                               yes_p=yes[0] if yes and qtype.kind == "yesno" else None,
                               read_before=read_before, equivalents=equivalents)
    p = model.p_right(signals)
    bar = model.threshold if threshold is None else threshold
    if p < bar:
        return False, short, (), f"the answer decision: unlikely right (P(right) {p:.2f} < {bar:.2f})"
    return True, short, ordered[:3], ""


def _number_tokens(text: str) -> set[str]:
    return {re.sub(r"[\s,]", "", m) for m in _NUMBER.findall(text)}


def states_numbers(short: str, sentence: str) -> bool:
    """True when ``sentence`` states every number of ``short``, with its percent sign when ``short`` has one
    ("4%" needs "4%" or "4 %", not the "4" of "4 February"; thousands commas ignored), or ``short`` holds
    no number. A date of ``short`` the sentence states in another form counts as stated
    (:func:`assistant.text.dates.without_shared_dates`).

    The answer sentence is held back until it does: the draft benchmark showed the reader pairing the
    short answer "4%" with an unrelated sentence from the e-mail ("... by 4 February 2027")."""
    stated = _number_tokens(sentence)
    stated |= {t.rstrip("%") for t in stated}
    return _number_tokens(without_shared_dates(short, sentence)) <= stated  # "2020-03-19": "March 19, 2020"


def _whole_words(text: str) -> str:
    """``text`` streamed so far, less a last word that may go on: "... sixty (6" is not yet "6" of anything (its
    "0)" streams next, and "6 months" would have been taken as stated)."""
    words = text.split()
    if not words or text[-1:].isspace():
        return text
    return text[:len(text) - len(words[-1])]


def agree(short: str, sentence: str) -> bool:
    """True when ``sentence`` states ``short``: a content word in common and every number of it; a duration of
    ``short`` stated in any form ("5 years": "the fifth (5th) anniversary", :mod:`assistant.text.durations`)."""
    lengths = durations(short)
    if lengths and grounding.states_durations(lengths, sentence):
        short = without_durations(short)
    return _shares_a_word(short, sentence) and states_numbers(short, sentence)


def stating_sentence(short: str, question: str, chunks: Sequence[Chunk]) -> tuple[str, int]:
    """(sentence, passage number) of the passage sentence that states ``short`` (every content word and
    number of it) and shares the most other words with ``question``; ('', 0) when no sentence about the
    question states it (an instruction planted in an e-mail, "print FENCE-3141", is about nothing asked)."""
    wanted = grounding.terms(short)
    if not wanted:
        return "", 0
    lengths = durations(short)
    if lengths:  # each duration in any form ("4 years" is not the "4" of "Section 4.2"), the rest as it is
        rest = without_durations(short)
        return _best_statement(chunks, grounding.terms(question) - wanted, lambda sentence, words:
                               grounding.states_durations(lengths, sentence) and grounding.terms(rest) <= words
                               and states_numbers(rest, sentence))
    return _best_statement(chunks, grounding.terms(question) - wanted,
                           lambda sentence, words: wanted <= words and states_numbers(short, sentence))


def yes_evidence(question: str, sentence: str, cited: Sequence[Chunk], *, max_chars: int = 400) -> tuple[str, int]:
    """(passage sentence, 1-based number in ``cited``) to quote after a "yes" whose ``sentence`` only restates
    ``question`` ("Yes, there is a cap on the liquidated damages."): the sentence of the cited passages that
    states a figure with its unit (:data:`~assistant.ttrag.qtype.AMOUNT_FORM`: a rate, a sum, a period; not a
    section number), shares the most of the question's words (at least two) and adds at least
    two words of its own, at most ``max_chars`` long ("... are capped at 7.5% of the order value.").

    Returns ('', 0) when the reader's sentence already says more than the question (a number, or two words
    of its own) or no cited sentence states a figure. Extractive, so grounded by construction; the reader's
    "yes" and its confidence are left as they are."""
    asked = grounding.terms(question)
    said = grounding.terms(sentence) - {"yes"}
    if _NUMBER.search(sentence) or len(said - asked) >= 2 or not asked:
        return "", 0
    need = min(2, len(asked))
    return _best_statement(cited, asked, lambda text, words: len(words & asked) >= need and len(text) <= max_chars
                           and len(words - said - asked) >= 2 and bool(AMOUNT_FORM.search(text)))


def stated_facts(sentence: str) -> str:
    """The dates and numbers ``sentence`` states, joined by spaces, in order ("December 31, 2028"); '' when it
    states no calendar date and no amount (a figure with its unit, :data:`~assistant.ttrag.qtype.AMOUNT_FORM`):
    a section number alone ("Section 13.1.1") is no fact of an answer."""
    dates = dates_in(sentence)
    if not dates and not AMOUNT_FORM.search(sentence):
        return ""
    rest, at = [], 0
    for d in dates:
        rest.append(sentence[at:d.start])
        at = d.end
    rest.append(sentence[at:])
    numbers = [re.sub(r"[()]", "", m.group()) for m in _FIGURE.finditer(" ".join(rest))]
    if not dates and not numbers:
        return ""
    return " ".join([*(sentence[d.start:d.end] for d in dates), *numbers])


def slipped_support(short: str, sentence: str, chunks: Sequence[Chunk]) -> tuple[str, tuple[int, ...]]:
    """(facts, passage numbers) when the reader's short answer is a slip of its field and its sentence is the
    answer: the short answer stands neither in the passages (the caller's check found it so) nor in the
    reader's own ``sentence``, and the dates and numbers the sentence states (:func:`stated_facts`) all stand
    in one passage. A two-part question ("How long does this agreement last, and when does it expire?") over a
    clause that states one part had the 1.5B reader invent the other in its short answer ("12 months") while
    its sentence copied the clause ("... shall expire on December 31, 2028"). ('', ()) otherwise."""
    facts = stated_facts(sentence)
    if not facts or agree(short, sentence):
        return "", ()
    return facts, tuple(grounding.supporting(facts, chunks)[:3])


def _shares_a_word(short: str, sentence: str) -> bool:
    """True when a content word of ``short`` is in ``sentence`` (stems, or the first five letters:
    "journalist" and "journalism"), or ``short`` has no content word."""
    mine = grounding.terms(short)
    theirs = grounding.terms(sentence)
    return not mine or bool(mine & theirs) or bool({w[:5] for w in mine if len(w) >= 5} &
                                                   {w[:5] for w in theirs if len(w) >= 5})


def _is_statement(sentence: str) -> bool:
    """A sentence of running text: not a heading line ("### 9.3 Cap on Liquidated Damages"), 6+ words."""
    return not sentence.lstrip().startswith("#") and len(sentence.split()) >= 6


def _plain(text: str) -> str:
    """``text`` without Markdown heading and bold marks."""
    return re.sub(r"^#+\s*|\*\*", "", text)


def _best_statement(chunks: Sequence[Chunk], about: frozenset[str],
                    accept: Callable[[str, frozenset[str]], bool]) -> tuple[str, int]:
    """(sentence, passage number) of the passage sentence of running text that ``accept`` takes (given the
    sentence and its stemmed words) and that shares the most of ``about`` for its length (shared words /
    sqrt(1 + its words)), Markdown marks removed; ('', 0) when none shares a word."""
    best: tuple[float, str, int] = (0.0, "", 0)
    for n, c in enumerate(chunks, 1):
        for s, e in sentence_spans(c.text):
            sentence = c.text[s:e].strip()
            words = grounding.terms(sentence)
            if not _is_statement(sentence) or not accept(sentence, words):
                continue
            score = len(words & about) / (1 + len(words)) ** 0.5
            if score > best[0]:
                best = (score, sentence, n)
    return _plain(best[1]), best[2]


def stream_answer(generator: Generator, question: str, chunks: Sequence[Chunk], *, max_tokens: int,
                  on_text: Callable[[str], None], on_retract: Callable[[str], None] = lambda text: None,
                  purpose: str = "answer", min_coverage: float = 0.5, read_before: Sequence[Chunk] = (),
                  note: str = "", equivalents: Sequence[tuple[str, str]] = (), min_passages: int = 1,
                  translated: str = "", language: str = "", min_found_p: float = 0.0,
                  min_yes_p: float = 0.0, rules_off: Collection[str] = (),
                  decision_model: decision.DecisionModel | None = None,
                  decision_threshold: float | None = None, parties: Sequence[tuple[str, str]] = ()) -> Reading:
    """Read ``chunks`` and answer ``question``; the sentence streams to ``on_text`` only when grounded.

    Args:
        generator: the LLM (constrained by :func:`answer_schema`).
        question: the question asked (always the original, never a rewrite: TTRAG Algorithm 1).
        chunks: the passages, best first, numbered [1]..[n] in the prompt and in the ``[n]`` markers.
        max_tokens: cap on generated tokens.
        on_text: receives the answer sentence piece by piece, then its markers.
        on_retract: receives the text sent to ``on_text`` so far when the reply turns out not to be an
            answer after all (a sentence that says, halfway, the passages do not give it): the consumer
            removes that text from view.
        purpose: usage label.
        min_coverage: share of the question's key terms the passages must mention.
        min_found_p: an answer counts only when the reader's P(found) (P(true) at its ``found`` token) is
            at least this; 0 = the reader's greedy choice alone. Needs a backend that reports it
            (:attr:`Generator.boolean_probs`); others are not held to it.
        min_yes_p: a "yes" to a yes/no question counts only when the reader's P(yes) at its short answer is
            at least this (:attr:`Generator.yes_probs`); 0 = off; backends that do not report it are not held
            to it.
        read_before: passages earlier attempts read (they count towards that coverage).
        note: a line for the reader before the question (which party a defined term stands for).
        equivalents: (name, term) pairs of the parties the question names, for the key-term coverage
            (:func:`assistant.ttrag.grounding.coverage`).
        min_passages: passages never left out to fit the reader's window (the longest is cut instead):
            :func:`assistant.ttrag.window.fit_passages`.
        translated: the question in the passages' language when it is written in another
            (:mod:`assistant.text.language`): the answer's form, its grounding and the sentence it must
            agree with are judged on it, and the reader sees both.
        language: the question's language (an English name), the sentence's language when ``translated``.
        rules_off: names of the answer rules switched off (:data:`assistant.config.ANSWER_RULES`), for
            ablations.
        decision_model: when given, one calibrated probability over the reply's signals decides whether it is
            stated (:mod:`assistant.ttrag.decision`; ``min_coverage``, ``min_found_p`` and ``min_yes_p`` are then
            not used); None: the chain of checks and bars above.
        decision_threshold: the decision's operating point (None: the model's own, chosen with its fit).
        parties: (name, term) of each party the document's preamble defines, for a question that asks who the
            parties are: a reply that calls one by its term ("XC and AJR") states its name
            (:func:`assistant.ttrag.aliases.with_names`; the sentence streamed so far is retracted and sent
            again with the names; answer rule ``party_names``).

    Returns:
        The :class:`Reading` of the passages as cut to fit (``fit``); a reply that is not grounded leaves
        nothing shown: what it streamed before that was known is sent to ``on_retract``.
    """
    judged = translated or question  # the grounding's words are the passages' language's
    qtype = question_type(judged)

    def prompt_for(passages: Sequence[Chunk]) -> str:
        return answer_prompt(question, passages, qtype, note=note, translated=translated, language=language)

    fit = fit_read(generator, chunks, prompt_for, max_tokens=max_tokens, min_passages=min_passages)
    request = GenerationRequest(SYSTEM, prompt_for(fit.chunks), max_tokens=max_tokens,
                                json_schema=answer_schema(qtype), purpose=purpose)
    reading = _answer(generator, request, judged, qtype, fit.chunks, on_text=on_text, on_retract=on_retract,
                      min_coverage=min_coverage, read_before=read_before, equivalents=equivalents,
                      across=bool(translated), min_found_p=min_found_p, min_yes_p=min_yes_p, rules_off=rules_off,
                      model=decision_model, threshold=decision_threshold,
                      parties=() if "party_names" in rules_off else parties)
    probs = generator.boolean_probs  # the reply's first boolean is its "found" field
    yes = generator.yes_probs  # the first yes or no of a yes/no reply is its short answer
    return dataclasses.replace(reading, fit=fit, found_p=probs[0] if probs else None,
                               yes_p=yes[0] if yes and qtype.kind == "yesno" else None)


def _answer(generator: Generator, request: GenerationRequest, question: str, qtype: QuestionType,
            chunks: Sequence[Chunk], *, on_text: Callable[[str], None], on_retract: Callable[[str], None],
            min_coverage: float, read_before: Sequence[Chunk], equivalents: Sequence[tuple[str, str]],
            across: bool = False, min_found_p: float = 0.0, min_yes_p: float = 0.0,
            rules_off: Collection[str] = (), model: decision.DecisionModel | None = None,
            threshold: float | None = None, parties: Sequence[tuple[str, str]] = ()) -> Reading:
    """The reading of :func:`stream_answer` for its prepared ``request`` over ``chunks``; ``across``: the
    sentence is in another language than the passages, so it need state only the short answer's numbers
    (its words are translated)."""
    raw = ""
    stating = "stating_sentence" not in rules_off

    def hedges(text: str) -> bool:
        return "hedge" not in rules_off and bool(HEDGE.search(text))

    agrees: Callable[[str, str], bool] = (
        (lambda short, sentence: True) if not stating else
        (lambda short, sentence: states_numbers(short, sentence)) if across else agree)

    def decide(fields: dict[str, object]) -> tuple[bool, str, tuple[int, ...], str]:
        if model is not None:
            return _decide(model, threshold, generator, question, qtype, fields, chunks, read_before=read_before,
                           equivalents=equivalents, rules_off=rules_off)
        verdict = judge(question, qtype, fields, chunks, min_coverage=min_coverage, read_before=read_before,
                        equivalents=equivalents, rules_off=rules_off)
        probs = generator.boolean_probs  # the reply's first boolean, its "found", is decoded by now
        if verdict[0] and probs and probs[0] < min_found_p:
            return (False, verdict[1], (), f"the reader was unsure the passages answer it (P(found) "
                                           f"{probs[0]:.2f} < {min_found_p:.2f})")
        yes = generator.yes_probs  # the short answer is decoded by now too
        if verdict[0] and qtype.kind == "yesno" and verdict[1].strip().lower() == "yes" and yes and \
                yes[0] < min_yes_p:
            return (False, verdict[1], (), f"the reader was unsure of its yes (P(yes) {yes[0]:.2f} < {min_yes_p:.2f})")
        return verdict

    decided: tuple[bool, str, tuple[int, ...], str] | None = None
    sent = ""
    for piece in generator.stream(request):
        raw += piece
        if decided is None:
            m = _ANSWER_KEY.search(raw)
            if not m:
                continue
            head = raw[:m.start()].rstrip().rstrip(",") + "}"
            decided = decide(parse_reply(head))
            body_at = m.end()
        if decided[0]:
            text = _OPEN_PAREN.sub("", _OPEN_MARKER.sub("", _MARKERS.sub("", partial_string(raw[body_at:]))))
            if hedges(text):
                decided = (False, decided[1], (), "the reader's sentence says the passages do not give it")
                if sent:  # "Imogen Tallis's phone number is not provid": withdrawn as soon as it shows
                    on_retract(sent)
                    sent = ""
            elif len(text) > len(sent) and (sent or qtype.kind in ("yesno", "choice") or
                                            agrees(decided[1], _whole_words(text))):
                on_text(text[len(sent):])
                sent = text
    fields = parse_reply(raw)
    if decided is None:  # the reply never reached the "answer" key (cut off or malformed)
        decided = decide(fields)
    found, short, support, reason = decided
    sentence = strip_markers(str(fields.get("answer") or ""))
    if _OPEN_PAREN.search(sentence):  # the words before the definition are the sentence
        sentence = _OPEN_PAREN.sub("", sentence).rstrip(" ,;:") + "."
    sentence = sentence or short
    if not found and reason == "not in the passages" and not across and "short_slip" not in rules_off and \
            qtype.kind not in ("yesno", "choice"):
        facts, support = slipped_support(short, sentence, chunks)
        probs = generator.boolean_probs
        if support and not (probs and probs[0] < min_found_p):  # the sentence's facts are the answer
            found, short, reason, support = True, facts, "", _pointer_first(support, fields)
    if found and (hedges(sentence) or hedges(short)):
        found, reason = False, "the reader's sentence says the passages do not give it"
    if not found:
        if sent:  # streamed while the reply looked grounded (a hedging short answer, say)
            on_retract(sent)
        return Reading(False, short, "", (), reason, raw)
    if stating and qtype.kind not in ("yesno", "choice") and not sent and not agrees(short, sentence):
        # The sentence does not state the short answer (it was held back, unseen). The passage sentence that
        # states it and is about the question replaces it (the draft benchmark: "net 45 days" beside a
        # boilerplate sentence of the same clause).
        stated, n = stating_sentence(short, question, chunks)
        if stated:
            sentence, support = stated, (n, *(m for m in support if m != n))
        elif _shares_a_word(short, sentence) or qtype.kind in ("number", "amount", "when"):
            # a value the sentence does not state: "4%" beside "... by 4 February 2027"
            return Reading(False, short, "", (), "the reader's sentence does not state its short answer", raw)
        else:  # no word in common and no passage sentence about the question states it: the reader copied
            # something else into the short answer (once, a code word an e-mail asked it to print).
            # The sentence, which the person reads, stands.
            short = sentence
    named = aliases.with_names(sentence, parties) if parties and qtype.kind in ("who", "other") else sentence
    if named != sentence:  # "XC and AJR are the parties": the names the terms stand for, in place
        if sent:
            on_retract(sent)
            sent = ""
        sentence, short = named, aliases.with_names(short, parties)
    kept = sentence if "date_role" in rules_off else \
        date_roles.without_contradicted(sentence, "\n".join(c.text for c in chunks))
    if kept != sentence:  # "... six (6) months, and it expires on January 20, 2014" of a term that commences then
        if sent:
            on_retract(sent)
            sent = ""
        if not kept:
            return Reading(False, short, "", (), "the reader's sentence gives a start date as the end "
                                                 "(or an end as the start)", raw)
        sentence = kept
    if not sent:  # nothing streamed yet (a reply with an empty sentence): show the short answer
        on_text(sentence)
    elif sentence.startswith(sent) and len(sentence) > len(sent):  # the full stop after a held-back "("
        on_text(sentence[len(sent):])
    if qtype.kind == "yesno" and short.strip().lower() == "yes" and "yes_evidence" not in rules_off:
        evidence, n = yes_evidence(question, sentence, [chunks[m - 1] for m in support])
        if evidence:  # "Yes, there is a cap on the liquidated damages." and the sentence that says how much
            on_text(f' "{evidence}"')
            sentence += f' "{evidence}"'
            support = (support[n - 1], *(m for m in support if m != support[n - 1]))
    markers = " " + "".join(f"[{n}]" for n in support)
    on_text(markers)
    return Reading(True, short, sentence + markers, support, "", raw)


#: a section that names a part of a file of several: a mailbox's message, an archive's member, an e-mail's
#: attachment, a sheet or its rows, a calendar's entry, a note or comment. A heading a reader takes as a section
#: is not one: a Word file's section is the last paragraph styled as a heading (a handbook's "2. REMEDIAL AND
#: ENFORCEMENT ACTIONS", 370 lines above a quote under an unstyled "3. MEDIA AND THIRD-PARTY RECORDING"), a text
#: file's the first heading of its page, an HTML file's its title
_PART = re.compile(r"^(?:message \d+|member|attachment|sheet|event|task|invitation|contact): |"
                   r"^(?:footnote|endnote) \d+$|^(?:comments?|comment by .+|header|footer|hidden text|invisible text)$|"
                   r"\brows? \d+(?:-\d+)?$")


_ROWS = re.compile(r"(?P<sheet>.*\S) rows (?P<first>\d+)-(?P<last>\d+)")


def rows_quoted(doc: Document, start: int, end: int, section: str) -> str:
    """``section`` with a sheet's block of rows ("Sales rows 1-21") narrowed to the rows that hold characters
    ``start:end`` of ``doc.text`` ("Sales row 9"), where the block's lines are its rows one for one (no blank row
    was skipped in it); else ``section`` as it is. A newcomer read "rows 1-21" beside every answer of a sales
    sheet, and "rows 51-100" over another."""
    pieces = section.split(" / ")
    m = _ROWS.fullmatch(pieces[-1])
    i = doc.segment_at(start)
    if m is None or i < 0:
        return section
    at, text = doc.offsets[i], doc.segments[i].text
    first, last = int(m["first"]), int(m["last"])
    if text.count("\n") != last - first or not at <= start <= end <= at + len(text):
        return section
    top, bottom = first + text.count("\n", 0, start - at), first + text.count("\n", 0, max(start, end - 1) - at)
    rows = f"row {top}" if top == bottom else f"rows {top}-{bottom}"
    return " / ".join([*pieces[:-1], f"{m['sheet']} {rows}"])


def part_of(section: str) -> str:
    """The leading parts of ``section`` (" / " between a container's parts) that name a part of a file
    (:data:`_PART`); '' when the first does not ("attachment: a.docx / 2. REMEDIAL ..." is "attachment: a.docx")."""
    kept: list[str] = []
    for piece in section.split(" / "):
        if not _PART.search(piece):
            break
        kept.append(piece)
    return " / ".join(kept)


def cite(chunks: Sequence[Chunk], answer: str, question: str, *, max_chars: int = 240,
         across_lines: bool = True, documents: Mapping[str, Document] | None = None) -> list[Source]:
    """Sources for ``chunks`` in order, each with the sentence that best matches the answer's lines that
    cite it as ``[n]`` (else the whole answer, or the question), Markdown heading and bold marks removed.

    A sentence is read across the lines it is broken into (:func:`~assistant.ttrag.passages.
    sentence_spans_across_lines`), its white space made single, and one of three words or more is quoted where the
    passage has one: a newcomer saw sources quoted as "Ultragenyx shall" (the end of a line after "... AMG.") and
    "5." (a clause's number). ``across_lines=False``: the sentences and lines of
    :func:`~assistant.documents.chunk.sentence_spans`, whatever their length (what a summary point's checks were
    chosen on: :func:`assistant.ttrag.pipeline._point`). ``documents`` (by source): a source's page is the page
    of the sentence it quotes, not of the passage's first line (a newcomer read "p. 1" beside a quote that the page
    view rightly showed on page 2); without them, or where a passage is not its document's text at its offsets, the
    passage's page. With them each source also names its section: the Markdown heading the passage stands under,
    else the part of the file that holds the quote (:func:`part_of`: a mailbox's message, a sheet's rows, an
    archive's member, an e-mail's attachment)."""
    everything = {w.lower() for w in _WORD.findall(answer or question)}
    citing: dict[int, set[str]] = {}
    for line in (answer or "").splitlines():
        words = {w.lower() for w in _WORD.findall(strip_markers(line))}
        for n in (int(d) for m in _MARKERS.finditer(line) for d in re.findall(r"\d+", m.group())):
            citing.setdefault(n, set()).update(words)
    sources = []
    for n, c in enumerate(chunks, 1):
        wanted = citing.get(n) or everything
        best, best_score, at = c.text[:max_chars], -1.0, 0
        if across_lines:
            spans = passages.sentence_spans_across_lines(c.text)
            spans = [(s, e) for s, e in spans if len(_WORD.findall(c.text[s:e])) >= 3] or spans
        else:
            spans = sentence_spans(c.text)
        for s, e in spans:
            words = {w.lower() for w in _WORD.findall(c.text[s:e])}
            score = len(words & wanted) / (1 + len(words)) ** 0.5
            if score > best_score:
                best, best_score, at = c.text[s:e], score, s
        snippet = _plain(best.strip()).strip()
        doc = documents.get(c.source) if documents else None
        section = ""
        if doc is not None and doc.text[c.start:c.end] == c.text:
            at += len(best) - len(best.lstrip())  # the quote's first character, not the white space before it
            page = doc.page_at(c.start + at) or c.page
            # which clause (the Markdown heading the passage stands under), else which message of an mbox, which
            # rows of a sheet, which member of an archive
            section = c.heading.rsplit(" > ", 1)[-1].strip() if c.heading else \
                rows_quoted(doc, c.start + at, c.start + at + len(best.strip()), part_of(doc.section_at(c.start + at)))
        else:
            page = c.page
        if across_lines:
            snippet = re.sub(r"\s+", " ", snippet)
        if len(snippet) > max_chars:
            snippet = snippet[:max_chars - 1] + "…"
        sources.append(Source(n=n, source=c.source, page=page, start=c.start, end=c.end, snippet=snippet,
                              chunk_id=c.id, section=section))
    return sources
