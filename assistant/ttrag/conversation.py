"""Follow-up questions: a conversation of turns, a token-bounded history, and the standalone rewrite.

A follow-up ("Is there a cap on it?") is rewritten into a standalone question ("Is there a cap on the
penalty for late delivery?") before retrieval, from the earlier questions, answers and the last answer's
sources: conversational query reformulation, as in CANARD (Elgohary et al., EMNLP 2019) and TREC CAsT.
A question with no cue that it leans on the conversation (a pronoun, "the second one", an ellipsis such as
"and for Germany?", or a very short question that names no document) is kept as it is and costs no LLM call.

Nothing here is written to disk: :meth:`Conversation.to_markdown` gives the export's text and the caller
writes it only when the person asks to export.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from assistant.models.base import GenerationRequest, Generator
from assistant.records import Answer, Event, Progress, Source
from assistant.ttrag.generate import parse_reply
from assistant.ttrag.prompts import SYSTEM

DEFAULT_HISTORY_TOKENS = 400  # LLM tokens of history in the rewrite prompt (prefill ~40-70 tokens/s here)
#: Words of an older turn's answer kept when the whole answer does not fit the history's bound (an answer for each of
#: two contracts runs to 150 words; what a follow-up takes from it is what was asked and the gist).
SHORT_ANSWER_WORDS = 25
SNIPPETS_PER_TURN = 2  # source snippets of the last turn shown to the rewrite

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’.%-]*")
# Words that point back into the conversation. "this"/"that" are handled apart ("this agreement" and a
# relative "that" are self-contained).
_PRONOUNS = {"it", "its", "it's", "itself", "they", "them", "their", "theirs", "themselves", "he", "him", "his",
             "she", "her", "hers", "these", "those", "former", "latter", "aforementioned", "above", "same",
             "previous", "earlier", "other", "others", "also", "too", "else", "instead", "then"}
_ORDINALS = {"first", "second", "third", "fourth", "fifth", "last", "next", "former", "latter", "other"}
_ELLIPSIS_START = re.compile(r"^\s*(?:and|or|but|also|so|what about|how about|what if|same|likewise|"
                             r"and what|and how|and who|and when|and where|as for|why( not)?\??$|"
                             r"which one|the one)\b", re.I)
_DOC_NOUNS = {"agreement", "contract", "document", "documents", "file", "files", "email", "emails", "message",
              "letter", "report", "attachment", "thread", "text", "pdf"}
_THAT_BEFORE = {"is", "was", "are", "about", "for", "of", "on", "in", "does", "do", "did", "and", "with", "to",
                "by", "from", "what's", "whats", "like", "than", "under", "after", "before", "change", "mean"}
_DEMONSTRATIVES = {"this", "that", "these", "those"}
_AUX = {"is", "are", "was", "were", "be", "been", "will", "would", "can", "could", "should", "shall", "must",
        "may", "might", "do", "does", "did", "has", "have", "had"}
SHORT_QUESTION_WORDS = 3  # "Who signs?", "Germany?", "And the price?": too short to stand alone
_STOP = {"a", "an", "the", "is", "are", "was", "were", "be", "do", "does", "did", "of", "on", "in", "for", "to",
         "by", "and", "or", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "there",
         "any", "with", "about", "at", "from", "as", "can", "could", "would", "should", "will", "shall",
         "may", "must", "has", "have", "had", "this", "that", "one", "ones", "please", "tell", "me", "us",
         "i", "we", "you", "much", "many", "not", "no", "yes", "if", "so", "but", "than", "then"} | _PRONOUNS \
    | _ORDINALS  # references: the rewrite replaces them
_QUESTION_START = re.compile(r"^\s*(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|"
                             r"can|could|has|have|had|will|would|should|shall|may|might|must|in|on|at|for|"
                             r"from|by|to|under|list|give|name|show|tell|find|summari[sz]e|describe|explain|"
                             r"compare|count)\b", re.I)
_LEAKS = ("<passages", "</passages", "q1:", "a1:", "question:", "answer:", "{", "}", "standalone")


@dataclass(frozen=True)
class Turn:
    """One exchange of the conversation.

    Attributes:
        question: the person's own words.
        standalone: the question the pipeline retrieved with and answered (equal to ``question`` when no
            rewrite was needed or the rewrite was rejected).
        answer: the pipeline's answer to ``standalone`` (its sources are the turn's sources).
        rewrite: how ``standalone`` was obtained (see :class:`Resolution`).
    """

    question: str
    standalone: str
    answer: Answer
    rewrite: Resolution | None = None

    @property
    def sources(self) -> tuple[Source, ...]:
        return self.answer.sources


@dataclass(frozen=True)
class Resolution:
    """The standalone question for one follow-up, and how it was decided.

    Attributes:
        question: the person's words.
        standalone: the question to retrieve with and answer.
        needs_context: the detector saw a cue that the question leans on the conversation.
        asked_model: an LLM call was made (only when ``needs_context``).
        reason: '' when the model's rewrite was used; else why the person's words were kept.
        reply: the model's raw reply ('' without a call).
        history_turns: turns of history shown to the model.
        dropped_turns: oldest turns left out of the prompt to stay within the token bound.
        seconds: wall time of the rewrite (0 without a call).
    """

    question: str
    standalone: str
    needs_context: bool
    asked_model: bool
    reason: str = ""
    reply: str = ""
    history_turns: int = 0
    dropped_turns: int = 0
    seconds: float = 0.0

    @property
    def rewritten(self) -> bool:
        return self.standalone != self.question

    def trace(self) -> dict[str, object]:
        """The ``standalone`` trace step's detail (shown by ``--trace`` and the app's details)."""
        return {"asked": self.question, "standalone": self.standalone, "needs_context": self.needs_context,
                "llm_call": self.asked_model, "reason": self.reason, "history_turns": self.history_turns,
                "dropped_turns": self.dropped_turns, "seconds": round(self.seconds, 3)}


def _words(text: str) -> list[str]:
    return [w.lower().strip(".'’") for w in _WORD.findall(text)]


def context_cues(question: str) -> list[str]:
    """The cues in ``question`` that it leans on an earlier turn (empty: it stands alone).

    Cues: pronouns and back-references (it, they, them, its, the same, the other...), "the second one"
    and other ordinals with "one", a demonstrative not followed by a document noun ("that clause", but not
    "this agreement"), an elliptical start ("and for the second lot?", "what about Germany?") and a
    question of at most :data:`SHORT_QUESTION_WORDS` words that names no document ("Who signs?", but not
    "Summarise the contract"). No model is called.
    """
    words = _words(question)
    cues = [w for w in words if w in _PRONOUNS]
    for i, w in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        prev = words[i - 1] if i else ""
        if w in _ORDINALS and nxt in ("one", "ones", ""):
            cues.append(f"{w} {nxt}".strip())
        elif w == "one" and (not nxt or prev in ("the", "which", "that", "this", "another")):
            cues.append(f"{prev} one")
        elif w == "there" and prev not in _AUX and nxt not in _AUX | {"any", "a", "an", "no"}:
            cues.append("there")  # a place named earlier ("start there"), not "is there"
        elif w in _DEMONSTRATIVES and nxt not in _DOC_NOUNS:
            # a relative "that" ("a clause that allows") follows a noun; a pointing one follows a verb or
            # preposition, starts the question, or ends it
            if w != "that" or i == 0 or not nxt or prev in _THAT_BEFORE:
                cues.append(f"{w} {nxt}".strip())
    if _ELLIPSIS_START.search(question):
        cues.append("elliptical start")
    # "Summarise the document" is short but names what it is about; "Who signs?" leaves it to the conversation
    if 0 < len(words) <= SHORT_QUESTION_WORDS and not _DOC_NOUNS & set(words):
        cues.append("short question")
    return list(dict.fromkeys(cues))


def needs_context(question: str, history: Sequence[Turn]) -> bool:
    """True when there is a history and ``question`` carries a :func:`context_cues` cue."""
    return bool(history) and bool(context_cues(question))


def _snippets(turn: Turn, n: int) -> list[str]:
    out = []
    for s in turn.sources[:n]:
        where = s.source.rsplit("/", 1)[-1] + (f", p. {s.page}" if s.page else "")
        out.append(f"({where}) {s.snippet}")
    return out


def render_turn(number: int, turn: Turn, *, snippets: int = 0, answer_words: int = 0) -> str:
    """One turn as the rewrite prompt shows it: ``Q{n}``, ``A{n}`` and up to ``snippets`` source lines;
    ``answer_words`` > 0: the answer cut to that many words, "..." marking the cut."""
    answer = (turn.answer.text if turn.answer.found else "(not found in the documents)").strip()
    words = answer.split()
    if 0 < answer_words < len(words):
        answer = " ".join(words[:answer_words]) + " ..."
    lines = [f"Q{number}: {turn.standalone}", f"A{number}: {answer}"]
    lines += [f"Source of A{number}: {s}" for s in _snippets(turn, snippets)]
    return "\n".join(lines).replace("<passages>", "(passages)").replace("</passages>", "(/passages)")


def history_window(turns: Sequence[Turn], count_tokens: Callable[[str], int], *,
                   max_tokens: int = DEFAULT_HISTORY_TOKENS,
                   snippets: int = SNIPPETS_PER_TURN) -> tuple[list[str], int]:
    """The newest turns that fit in ``max_tokens``, rendered oldest first, and how many were dropped.

    The last turn is always kept, even over the bound: it is what a follow-up most often refers to; its source
    snippets are left out where they would crowd out the turn before it. Older turns are shown without snippets;
    one that does not fit whole is shown with its answer cut to :data:`SHORT_ANSWER_WORDS` words before it is
    dropped (its question is what a follow-up most often needs of it).

    Args:
        turns: the conversation, oldest first.
        count_tokens: the LLM's token counter (:meth:`Generator.count_tokens`).
        max_tokens: bound on the history's tokens.
        snippets: source snippets shown for the last turn.

    Returns:
        (rendered turns oldest first, number of oldest turns dropped).
    """
    rendered: list[str] = []
    used = 0
    plain = ""  # the last turn without its snippets, for when they would crowd out the turn before it
    for back, turn in enumerate(reversed(turns)):
        number = len(turns) - back
        text = render_turn(number, turn, snippets=snippets if back == 0 else 0)
        cost = count_tokens(text)
        if back == 0:
            plain = render_turn(number, turn) if snippets else ""
        else:
            if used + cost > max_tokens:
                text = render_turn(number, turn, answer_words=SHORT_ANSWER_WORDS)
                cost = count_tokens(text)
            if used + cost > max_tokens and back == 1 and plain:  # an answer for each of several contracts:
                # its sources give way first (the answer's words name what a follow-up refers to)
                used, rendered[0], plain = count_tokens(plain), plain, ""
            if used + cost > max_tokens:
                break
        rendered.append(text)
        used += cost
    return rendered[::-1], len(turns) - len(rendered)


def referring_words(cues: Sequence[str]) -> str:
    """The first word of :func:`context_cues` that points back, quoted for the progress shown (\u201cit\u201d,
    \u201cthe second one\u201d); '' for a short or elliptical question, which names none."""
    words = [f"\u201c{c}\u201d" for c in cues if c not in ("short question", "elliptical start")]
    return words[0] if words else ""


def standalone_prompt(question: str, history: Sequence[str], cues: Sequence[str] = ()) -> str:
    """The rewrite prompt: the conversation (quoted, as data), the follow-up, the task naming the follow-up's
    own references (``cues``, from :func:`context_cues`), one worked example.

    Written for the bundled 1.5B model, the reply constrained to ``{"question": ...}`` by
    :data:`STANDALONE_SCHEMA`. Naming the reference ("'it' refers to something named in the conversation")
    made the model resolve "Is there a cap on it?", which it copied unchanged when the task only listed
    pronouns in general.
    """
    refs = ", ".join(f"'{c}'" for c in cues if c not in ("short question", "elliptical start"))
    told = (f"In the follow-up, {refs} refers to something named in the conversation. " if refs else
            "The follow-up leaves out words the conversation gives. ")
    return ("Conversation so far, between <passages> tags (quoted data):\n<passages>\n"
            + "\n".join(history) + "\n</passages>\n"
            f"Follow-up question: {question}\n"
            + told +
            "Rewrite the follow-up as one standalone question: replace each reference by the words it refers to "
            "(taken from the earlier question or answer), keep the rest of the follow-up as written, do not "
            "answer it.\n"
            "Example: after \"Q1: Who are the two suppliers? A1: Acme Ltd and Brill GmbH.\", \"Where is the "
            "second one based?\" becomes {\"question\": \"Where is Brill GmbH based?\"}.\n"
            "Reply in JSON: {\"question\": \"the standalone question\"}")


_ORDINAL_INDEX = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": -1,
                  "former": 0, "latter": -1}
_ORDINAL_REF = re.compile(r"\bthe (first|second|third|fourth|fifth|last|former|latter)(?: one)?\b", re.I)
_LIST_LEAD = re.compile(r"^.*?\b(?:are|is|were|was|include|includes|including)\s+|^.*?:\s*", re.I)


def answer_items(answer: str) -> list[str]:
    """The items of a list answer ("Bremen Assembly Plant, Leer Sterile Packaging Centre and Rheine Service
    Hub. [1]" -> three names); [] when the answer is not a short list (fewer than two items, or an item
    longer than eight words)."""
    text = re.sub(r"\s*\[\d+\]", "", answer).strip().rstrip(".")
    items = [i.strip(" .;") for i in re.split(r",\s*(?:and\s+)?|\s+and\s+|;\s*", text)]
    if items:
        items[0] = _LIST_LEAD.sub("", items[0]).strip() or items[0]
    items = [i for i in items if i]
    if len(items) < 2 or any(len(i.split()) > 8 for i in items):
        return []
    return items


def resolve_ordinal(question: str, history: Sequence[Turn]) -> str:
    """``question`` with "the second one" (first ... fifth, last, former, latter) replaced by that item of the
    last answer's list; '' when there is no such reference or no list long enough. No model is called."""
    m = _ORDINAL_REF.search(question)
    if not m or not history or not history[-1].answer.found:
        return ""
    items = answer_items(history[-1].answer.text)
    index = _ORDINAL_INDEX[m.group(1).lower()]
    if not items or index >= len(items):
        return ""
    return question[:m.start()] + items[index] + question[m.end():]


STANDALONE_SCHEMA: dict[str, object] = {
    "type": "object", "properties": {"question": {"type": "string", "maxLength": 300}}, "required": ["question"]}


def _stem(word: str) -> str:
    return word[:5]


def check_standalone(candidate: str, question: str, history: Sequence[Turn]) -> str:
    """'' when ``candidate`` is a usable standalone form of ``question``; else why it is not.

    Rejected: empty or multi-line replies, prompt text leaking in, a reply that is not a question when the
    person asked one, a copy of an earlier question (the small model's usual slip), a reply that drops the
    person's own content words (at most a third of them may go), and one far longer than the question plus the
    history it could draw on.
    """
    text = candidate.strip()
    if not text:
        return "the rewrite was empty"
    if "\n" in text:
        return "the rewrite had several lines"
    low = text.lower()
    if any(leak in low for leak in _LEAKS):
        return "the rewrite repeated the prompt"
    if len(text) > max(300, 3 * len(question)):
        return "the rewrite was too long"
    if question.rstrip().endswith("?") and not (text.endswith("?") or _QUESTION_START.search(text)):
        return "the rewrite is not a question"
    norm = " ".join(_words(text))
    if norm != " ".join(_words(question)) and any(norm == " ".join(_words(t.standalone)) for t in history):
        return "the rewrite copied an earlier question"
    own = {_stem(w) for w in _words(question) if w not in _STOP and len(w) > 1}
    kept = {_stem(w) for w in _words(text)}
    if len(own - kept) > len(own) // 3:
        return "the rewrite dropped the person's own words"
    return ""


def parse_standalone(reply: str) -> str:
    """The ``question`` of the model's JSON reply ('' when there is none; a reply cut off by the token cap is
    closed as :func:`~assistant.ttrag.generate.parse_reply` does)."""
    return " ".join(str(parse_reply(reply).get("question") or "").split())


def resolve(generator: Generator, question: str, history: Sequence[Turn], *,
            max_history_tokens: int = DEFAULT_HISTORY_TOKENS,
            emit: Callable[[Event], None] = lambda e: None) -> Resolution:
    """The standalone question for ``question`` after ``history``.

    No LLM call when the history is empty or the question has no :func:`context_cues` cue, nor when "the
    second one" is resolved from the last answer's list (:func:`resolve_ordinal`) and nothing else refers
    back; otherwise one call (purpose ``standalone``, JSON-constrained), checked by
    :func:`check_standalone`; a rejected rewrite falls back to the person's words. The ``standalone`` stage's
    :class:`Progress` goes to ``emit`` only around that call: a question that needs none shows no such stage.

    Raises:
        Cancelled: the generator's request was cancelled (a :class:`CancellableGenerator`).
        ModelError: the model failed.
    """
    question = " ".join(question.split())
    if not needs_context(question, history):
        why = "no earlier turn" if not history else "the question stands alone (no reference to earlier turns)"
        return Resolution(question, question, False, False, reason=why)
    listed = resolve_ordinal(question, history)
    if listed and not context_cues(listed):
        return Resolution(question, listed, True, False, reason="", history_turns=1)
    asked = listed or question
    rendered, dropped = history_window(history, generator.count_tokens, max_tokens=max_history_tokens)
    cues = context_cues(asked)
    t0 = time.perf_counter()
    emit(Progress("standalone", 0, 1, detail=referring_words(cues)))
    reply = generator.complete(GenerationRequest(SYSTEM, standalone_prompt(asked, rendered, cues),
                                                 max_tokens=80, json_schema=STANDALONE_SCHEMA,
                                                 purpose="standalone"))
    emit(Progress("standalone", 1, 1, detail=referring_words(cues)))
    seconds = time.perf_counter() - t0
    candidate = parse_standalone(reply)
    reason = check_standalone(candidate, asked, history)
    standalone = asked if reason else candidate
    return Resolution(question, standalone, True, True, reason=reason, reply=reply, history_turns=len(rendered),
                      dropped_turns=dropped, seconds=seconds)


@dataclass
class Conversation:
    """The session's turns, oldest first; held in memory only.

    Attributes:
        turns: every turn of the conversation (the display keeps all; the prompt only the newest).
        max_history_tokens: bound on the history sent to the model (LLM tokens).
        carry_sources: offer the last answer's passages as candidates to the next question.
    """

    turns: list[Turn] = field(default_factory=list)
    max_history_tokens: int = DEFAULT_HISTORY_TOKENS
    carry_sources: bool = True

    def add(self, turn: Turn) -> None:
        self.turns.append(turn)

    def clear(self) -> None:
        """Start a new conversation."""
        self.turns.clear()

    def carried(self) -> tuple[Source, ...]:
        """The passages that answered the last question (none when it was not found or carrying is off)."""
        if not self.carry_sources or not self.turns or not self.turns[-1].answer.found:
            return ()
        return self.turns[-1].sources

    def dropped_turns(self, count_tokens: Callable[[str], int]) -> int:
        """Oldest turns the next rewrite prompt would leave out to stay within the token bound."""
        return history_window(self.turns, count_tokens, max_tokens=self.max_history_tokens)[1]

    def to_markdown(self, *, title: str = "Conversation", about: Sequence[str] = ()) -> str:
        """The conversation as Markdown: each question (and its standalone form when rewritten), the
        answer, and its numbered sources with file, page and snippet."""
        lines = [f"# {title}", ""]
        if about:
            lines += ["About: " + ", ".join(f"`{a}`" for a in about), ""]
        for n, turn in enumerate(self.turns, 1):
            lines += [f"## {n}. {turn.question}", ""]
            if turn.standalone != turn.question:
                lines += [f"*Answered as:* {turn.standalone}", ""]
            lines += [turn.answer.text.strip() or "(no answer)", ""]
            if turn.sources:
                label = "Sources" if turn.answer.found else "Passages read (no answer found in them)"
                lines += [f"{label}:", ""]
                for s in turn.sources:
                    page = f", p. {s.page}" if s.page else ""
                    lines.append(f"{s.n}. {s.source}{page}: \u201c{s.snippet}\u201d")
                lines.append("")
        return "\n".join(lines).rstrip() + "\n"
