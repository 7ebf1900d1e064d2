"""Which language a question or a document is written in (py3langid: a naive Bayes model shipped in its wheel).

The detector is restricted to the languages the search can stem (:data:`LANGUAGES`): a short question
scored against 97 languages is often taken for a neighbour (one word of a German name read as Danish),
and a language without a stemmer and stop words would gain nothing from being told apart. A question
scored below :data:`QUESTION_CONFIDENCE` counts as written in the documents' language, so a name or a
code alone never sets off a translation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

# ISO 639-1 code -> (English name for the prompts, Snowball stemmer name); bm25s has stop words for each.
LANGUAGES: dict[str, tuple[str, str]] = {
    "en": ("English", "english"),
    "de": ("German", "german"),
    "fr": ("French", "french"),
    "es": ("Spanish", "spanish"),
    "it": ("Italian", "italian"),
    "nl": ("Dutch", "dutch"),
    "pt": ("Portuguese", "portuguese"),
    "sv": ("Swedish", "swedish"),
    "da": ("Danish", "danish"),
    "no": ("Norwegian", "norwegian"),
    "ru": ("Russian", "russian"),
}
DEFAULT_LANGUAGE = "en"
# Measured on 12 short questions in four languages: the right language scored .75-.9999; a bare name
# ("Calder GmbH?") .26. Below this a question is taken to be in the documents' language.
QUESTION_CONFIDENCE = 0.7
# A document is judged from this many characters at each of three places (start, middle, end): a
# letterhead or an English disclaimer at the foot of a German e-mail does not decide alone.
SAMPLE_CHARS = 1000


@lru_cache(maxsize=1)
def _identifier() -> Any:
    """The py3langid model (loaded once, ~1 s), restricted to :data:`LANGUAGES`."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(LANGUAGES))
    return identifier


def classify(text: str) -> tuple[str, float]:
    """(ISO 639-1 code, probability in [0, 1]) of ``text`` among :data:`LANGUAGES`; ('', 0.0) for text
    without letters."""
    if not any(ch.isalpha() for ch in text):
        return "", 0.0
    code, p = _identifier().classify(text)
    return str(code), float(p)


def question_language(question: str, fallback: str = DEFAULT_LANGUAGE) -> str:
    """The language ``question`` is written in; ``fallback`` (the documents' language) when the detector is
    unsure (probability below :data:`QUESTION_CONFIDENCE`: a name, a code, two words)."""
    code, p = classify(question)
    return code if code and p >= QUESTION_CONFIDENCE else fallback


def document_language(text: str, *, sample_chars: int = SAMPLE_CHARS) -> str:
    """The language most of ``text`` is written in, judged from samples at its start, middle and end
    (:data:`SAMPLE_CHARS` each); :data:`DEFAULT_LANGUAGE` for text without letters."""
    if len(text) <= 3 * sample_chars:
        samples = [text]
    else:
        mid = len(text) // 2
        samples = [text[:sample_chars], text[mid:mid + sample_chars], text[-sample_chars:]]
    votes = Counter(code for code, _ in map(classify, samples) if code)
    return votes.most_common(1)[0][0] if votes else DEFAULT_LANGUAGE


# A part (an e-mail's body, an attachment, a page) is judged on its own when it holds this many characters and
# the detector is this sure; a shorter or unclear part (a heading, a signature) takes the document's language.
PART_CHARS = 200
PART_CONFIDENCE = 0.9
PART_SAMPLE_CHARS = 400  # a 305-page contract: 0.69 s for its pages at 1,000 characters each, loaded machine


def part_languages(parts: Sequence[str], document: str) -> list[str]:
    """The language of each of ``parts`` (a document's segments: e-mail parts, attachments, pages), each
    judged from its first :data:`PART_SAMPLE_CHARS` characters; ``document`` (the whole text's language) for a
    part too short or unclear to tell."""
    out = []
    for text in parts:
        code, p = classify(text[:PART_SAMPLE_CHARS]) if len(text) >= PART_CHARS else ("", 0.0)
        out.append(code if code and p >= PART_CONFIDENCE else document)
    return out


def main_language(languages: Sequence[str], weights: Sequence[int] = ()) -> str:
    """The language of most of the text: ``languages`` (one per document) weighted by ``weights`` (their
    lengths; 1 each when empty); :data:`DEFAULT_LANGUAGE` when there is none."""
    total: Counter[str] = Counter()
    for code, w in zip(languages, weights or [1] * len(languages), strict=True):
        total[code] += w
    return total.most_common(1)[0][0] if total else DEFAULT_LANGUAGE


def language_name(code: str) -> str:
    """English name of the language ``code`` (``de`` -> ``German``); the code itself when unknown."""
    return LANGUAGES.get(code, (code, ""))[0]


def stemmer_name(code: str) -> str:
    """Snowball stemmer name for ``code``; ``english`` for a language without one here."""
    return LANGUAGES.get(code, ("", "english"))[1]
