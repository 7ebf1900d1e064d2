"""Where a quoted sentence lies among a page's characters, allowing the differences of extracted text.

Text extracted for reading differs from the characters a PDF page holds in ways that do not change its
words: line breaks and spaces, a word hyphenated at a line end, curly or straight quotes, ligatures
(``ﬁ``), letter case, the ``|`` put between table cells. Both sides are compared folded: without spaces,
hyphens, dashes and ``|``, NFKC-normalised and case-folded; each folded character remembers the index of
the page character it came from.

When the whole quote is not found in one run (columns whose lines are drawn across the page, a sentence
that goes on over the page break, a form value the page's text does not hold), it is matched piece by
piece: the longest run of the quote's start found on the page, then of what is left, a word found nowhere
skipped. A piece shorter than :data:`MIN_PIECE` folded characters occurs anywhere by chance, so it counts
only close after the piece before it; and the pieces count only when they cover :data:`MIN_COVERAGE` of
the quote.
"""

from __future__ import annotations

import bisect
import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

MIN_PIECE = 12  # folded characters (two or three words): shorter runs are found anywhere by chance
NEAR = 160  # folded characters after the previous piece where a shorter piece (at least SHORTEST) counts
SHORTEST = 4
MIN_COVERAGE = 0.6  # share of the quote's folded characters the pieces must cover

# PDFium marks a hyphen that ends a line as \x02 and a soft hyphen as U+FFFE
_DROP = frozenset("-|\u00ad\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufffe\uffff")
_QUOTES = str.maketrans("\u2018\u2019\u201a\u201b\u2032`\u00b4\u201c\u201d\u201e\u201f\u2033",
                        "'''''''\"\"\"\"\"")
_ELLIPSIS = "\u2026"


@dataclass(frozen=True)
class QuoteMatch:
    """Where a quote was found: ``spans`` are ``[start, end)`` page character indices in page order;
    ``coverage`` the share of the quote found (1.0: all of it, 0.0: not found)."""

    spans: tuple[tuple[int, int], ...] = ()
    coverage: float = 0.0

    @property
    def whole(self) -> bool:
        return self.coverage >= 1.0


NOT_FOUND = QuoteMatch()


@functools.lru_cache(maxsize=8192)
def fold(ch: str) -> str:
    """What one character compares as: '' for spaces, controls, hyphens, dashes and ``|``; else its
    NFKC form (``ﬁ`` -> ``fi``), case-folded, with curly quotes made straight."""
    if ch in _DROP or ch < " " or ch.isspace():
        return ""
    out = unicodedata.normalize("NFKC", ch.translate(_QUOTES)).casefold()
    return "".join(c for c in out if c not in _DROP and not c.isspace())


def _folded_page(chars: Sequence[str]) -> tuple[str, list[int]]:
    """The page folded, and for each folded character the index of the page character it came from."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(chars):
        for c in fold(ch):
            out.append(c)
            where.append(i)
    return "".join(out), where


def _folded_quote(quote: str) -> tuple[str, list[int]]:
    """The quote folded, and where each of its words starts in it. A cut-off quote's trailing ellipsis
    (the snippet was shortened) is not part of the text."""
    parts: list[str] = []
    starts: list[int] = []
    n = 0
    for word in quote.strip().rstrip(_ELLIPSIS).split():
        folded = "".join(fold(c) for c in word)
        if folded:
            starts.append(n)
            parts.append(folded)
            n += len(folded)
    return "".join(parts), starts


def _longest_prefix(hay: str, needle: str, pos: int) -> int:
    """Length of the longest run of ``needle`` from ``pos`` that occurs in ``hay`` (binary search: every
    shorter run of a run that occurs occurs too)."""
    lo, hi = 0, len(needle) - pos
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if needle[pos:pos + mid] in hay:
            lo = mid
        else:
            hi = mid - 1
    return lo


def find_quote(chars: Sequence[str], quote: str) -> QuoteMatch:
    """Where ``quote`` lies in a page's characters.

    Args:
        chars: the page's characters by index (PDFium's text page, generated spaces and line breaks
            included); one string per index.
        quote: the sentence to find, as extracted text gives it.

    Returns:
        The spans of ``chars`` holding the quote (the first occurrence of a whole match), or
        :data:`NOT_FOUND`.
    """
    hay, where = _folded_page(chars)
    needle, starts = _folded_quote(quote)
    if not needle or not hay:
        return NOT_FOUND
    at = hay.find(needle)
    if at >= 0:
        return QuoteMatch(((where[at], where[at + len(needle) - 1] + 1),), 1.0)
    pieces: list[tuple[int, int]] = []  # (start in hay, length)
    pos = after = found = 0
    while pos < len(needle):
        length = _longest_prefix(hay, needle, pos)
        piece = needle[pos:pos + length]
        at = -1
        if length >= MIN_PIECE:
            at = hay.find(piece, after)
            at = hay.find(piece) if at < 0 else at
        elif length >= SHORTEST and pieces:
            at = hay.find(piece, after, after + NEAR + length)
        if at < 0:  # skip to the next word
            k = bisect.bisect_right(starts, pos)
            if k == len(starts):
                break
            pos = starts[k]
            continue
        pieces.append((at, length))
        found += length
        pos += length
        after = at + length
    coverage = found / len(needle)
    if coverage < MIN_COVERAGE:
        return NOT_FOUND
    spans = sorted((where[a], where[a + n - 1] + 1) for a, n in pieces)
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return QuoteMatch(tuple(merged), coverage)
