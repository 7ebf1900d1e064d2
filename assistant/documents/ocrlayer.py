"""Whether a scan's hidden text layer says what its image shows: a look at the layer, then tesseract's reading.

A scanner's OCR (or whoever edited the file) lays text in the invisible render mode over the picture of
the page; PDF readers take it as the page's text. A poor OCR or a tampered file leaves words there that
are not on the page, and nothing a person sees tells. Two signals, cheap first:

* :func:`reads_like_language`: the share of the layer's words that are function words ("the", "of",
  "und", "le", ...: bm25s's stop words of all its languages, 3,204 words). Measured (words: runs of
  letters): the 305 pages of the sample contract median .37, lowest .074 (a table of contents), 1 under
  .08; 1,302 2,500-character pieces of 60 CUAD contracts median .45, 5 under .08; 80 words drawn at
  random from those contracts' vocabulary .00-.025 (5 draws).
* :func:`layer_matches`: the layer against tesseract's reading of the rendered page, content word by
  content word (three letters or more, not function words, case and accents folded): the share of the
  layer's words that the OCR read too, and of the OCR's words that the page text holds. Measured on a
  200-dpi scan of a contract page OCR'd at 300 dpi: its own text as the layer 1.0 and 1.0; random words
  0 and 0; the next page's text .29 and .22; only its heading 1.0 and .20.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

MIN_WORDS = 12  # a layer with fewer words is too short to judge by its function words
MIN_FUNCTION_SHARE = 0.08  # below this share of function words a layer does not read like language
MIN_AGREEMENT = 0.5  # below this share of words read both ways the layer and the image disagree
_WORD = re.compile(r"[^\W\d_]+")
_LONG_WORD = re.compile(r"[^\W\d_]{3,}")


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    """bm25s's stop words of every language it lists, together (the layer's language is not known yet)."""
    from bm25s import stopwords

    lists = (getattr(stopwords, name) for name in dir(stopwords) if name.startswith("STOPWORDS_"))
    return frozenset(word.casefold() for words in lists for word in words)


def function_share(text: str) -> tuple[float, int]:
    """``(share of function words, number of words)`` of ``text``'s words (runs of letters)."""
    words = [w.casefold() for w in _WORD.findall(text)]
    if not words:
        return 0.0, 0
    known = _function_words()
    return sum(w in known for w in words) / len(words), len(words)


def reads_like_language(layer: str, *, min_words: int = MIN_WORDS,
                        min_share: float = MIN_FUNCTION_SHARE) -> bool:
    """True unless ``layer`` has ``min_words`` words or more and under ``min_share`` of them are function
    words (random words, letters run together, a word list)."""
    share, count = function_share(layer)
    return count < min_words or share >= min_share


def _fold(word: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", word.casefold())
                   if not unicodedata.combining(ch))


def _words(text: str) -> list[str]:
    """The content words of ``text``: three letters or more, not function words, case and accents folded
    (tesseract and a scanner's OCR differ most on accents)."""
    known = _function_words()
    return [_fold(w) for w in _LONG_WORD.findall(text) if w.casefold() not in known]


def _found(words: Iterable[str], among: set[str]) -> float:
    listed = list(words)
    return sum(w in among for w in listed) / len(listed) if listed else 1.0


def agreement(layer: str, page_text: str, ocr: str) -> tuple[float, float]:
    """``(share of the layer's words the OCR read, share of the OCR's words in the page text)``; 1.0 for
    a side with no words."""
    read = _words(ocr)
    return _found(_words(layer), set(read)), _found(read, set(_words(page_text)))


def layer_matches(layer: str, page_text: str, ocr: str, *, min_agreement: float = MIN_AGREEMENT) -> bool:
    """True when the hidden ``layer`` (part of ``page_text``) and tesseract's reading ``ocr`` of the page's
    image agree both ways: the layer's words were read on the image, and the image's words are in the page
    text (a layer that holds only the heading misses the rest)."""
    seen, kept = agreement(layer, page_text, ocr)
    return seen >= min_agreement and kept >= min_agreement
