"""BM25 over every chunk (bm25s scoring) with Snowball stemming and stop words in each chunk's language.

Tokenisation is ours rather than ``bm25s.tokenize`` because it is the slowest step of a cold question
at 1M tokens (1.9 s of 3.5 s measured): one regex pass per chunk and a stem cache per unique word.
Tokens follow bm25s's default pattern (``\\b\\w\\w+\\b``, lower-cased), so scores are the library's.

Each chunk is stemmed with its document's language (:mod:`assistant.text.language`; PyStemmer's Snowball
stemmers, bm25s's stop-word lists), and a query is stemmed once in each language the index holds, its
terms pooled: a German question finds "Lieferungen" in a German letter by the stem "lieferung" and an
English passage by the English stems of the same words.

A chunk's section path (``Chunk.heading``) is a field of its own: the score is BM25 over the chunk's text
plus ``HEADING_WEIGHT`` times BM25 over the section paths (a weighted sum of per-field scores, the simple
multi-field form; Robertson, Zaragoza & Taylor, CIKM 2004, discuss it). Indexed as one text, the path
weighed most in the shortest chunks: a letter's 30-word sign-off, under the title "Late deliveries in
November", outranked the contract's late-delivery clause for "What exactly do we owe you if a delivery is
late?" because BM25 normalises by length.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from assistant.text.language import DEFAULT_LANGUAGE, stemmer_name

_TOKEN = re.compile(r"(?u)\b\w\w+\b")
_BATCH = 2048  # texts split into words at a time

# Weight of the section-path field against the text. Measured on the sample contract (its 33 facts and the
# draft benchmark's 23 points, gold = the chunk holds the answer; pipeline pre-filter and re-ranker):
# gold among the top 3 for 50 of 56 with the path indexed inside the text; 50 / 52 / 52 / 52 / 51 with the
# field weighted 1 / 1.25 / 1.5 / 2 / 3 (MRR .838; .872 / .890 / .895 / .893 / .853); top 10: 54 of 56,
# 56 at 1 and 1.25.
HEADING_WEIGHT = 1.25


def stop_words(code: str) -> frozenset[str]:
    """bm25s's stop words for the language ``code`` (ISO 639-1); English for a language it has none for."""
    from bm25s import stopwords

    name = {"en": "EN", "de": "GERMAN", "fr": "FRENCH", "es": "SPANISH", "it": "ITALIAN", "nl": "DUTCH",
            "pt": "PORTUGUESE", "sv": "SWEDISH", "da": "DANISH", "no": "NORWEGIAN", "ru": "RUSSIAN"}.get(code, "EN")
    return frozenset(getattr(stopwords, f"STOPWORDS_{name}"))


class _Analyzer:
    """One language's stemmer and stop words, with the ids of the words already seen in it."""

    def __init__(self, code: str) -> None:
        import Stemmer

        self.stemmer: Any = Stemmer.Stemmer(stemmer_name(code))
        self.stop = stop_words(code)
        self.word_ids: dict[str, int] = {}  # raw word -> vocabulary id, -1 for stop words


class Bm25Index:
    """An in-memory BM25 index of ``texts`` (chunk i = document i), with ``headings`` (one per text, ''
    for none) as a second field weighted ``heading_weight``, and ``languages`` (one ISO 639-1 code per
    text; English for all when empty) choosing each text's stemmer and stop words. Never persisted."""

    def __init__(self, texts: Sequence[str], headings: Sequence[str] = (),
                 heading_weight: float = HEADING_WEIGHT, languages: Sequence[str] = ()) -> None:
        import bm25s

        if languages and len(languages) != len(texts):
            raise ValueError(f"{len(languages)} languages for {len(texts)} texts")
        codes = list(languages) or [DEFAULT_LANGUAGE] * len(texts)
        # the main language first: its stems are looked up first for a query
        order = [code for code, _ in Counter(codes).most_common()] or [DEFAULT_LANGUAGE]
        self._analyzers = {code: _Analyzer(code) for code in order}
        self.languages = tuple(order)
        self.vocab: dict[str, int] = {}
        ids: list[array[int]] = []
        # A batch of texts is split into words at a time, and each text keeps only its term ids in an
        # array (4 bytes a token rather than a list's 36): all the words of a 10 MiB text at once took
        # 127 MB before bm25s saw them (benchmarks/results/ask_memory.md).
        for k in range(0, len(texts), _BATCH):
            docs = [_TOKEN.findall(t.lower()) for t in texts[k:k + _BATCH]]
            langs = codes[k:k + _BATCH]
            for code, analyzer in self._analyzers.items():
                self._learn(analyzer, set().union(*(d for d, c in zip(docs, langs, strict=True) if c == code)))
            ids += [self._known(self._analyzers[code], words) for words, code in zip(docs, langs, strict=True)]
        self.vocab.setdefault("", len(self.vocab))  # scores documents without tokens, as bm25s does
        self.retriever: Any = bm25s.BM25()
        self.retriever.index((ids, self.vocab), show_progress=False)
        self.size = len(texts)
        if headings and len(headings) != len(texts):
            raise ValueError(f"{len(headings)} headings for {len(texts)} texts")
        self.headings = Bm25Index(headings, languages=codes) if any(headings) else None
        self.heading_weight = heading_weight

    def _learn(self, analyzer: _Analyzer, words: set[str]) -> None:
        """Stem the new ``words`` in one call to the C stemmer and give each an id (-1 for stop words)."""
        fresh = sorted(words.difference(analyzer.word_ids))
        for word, stem in zip(fresh, analyzer.stemmer.stemWords(fresh), strict=True):
            if word in analyzer.stop or not stem:
                analyzer.word_ids[word] = -1
            else:
                analyzer.word_ids[word] = self.vocab.setdefault(stem, len(self.vocab))

    @staticmethod
    def _known(analyzer: _Analyzer, words: list[str]) -> array[int]:
        ids = map(analyzer.word_ids.__getitem__, words)  # every word was learnt; stop words are -1
        return array("i", [i for i in ids if i >= 0])

    def _query_ids(self, query: str) -> list[int]:
        """Vocabulary ids of the query's terms in the main language, then the further ids its words stem
        to in the index's other languages."""
        words = _TOKEN.findall(query.lower())
        ids: list[int] = []
        for n, analyzer in enumerate(self._analyzers.values()):
            stems = analyzer.stemmer.stemWords(words)
            found = [self.vocab[s] for w, s in zip(words, stems, strict=True)
                     if w not in analyzer.stop and s in self.vocab]
            ids += found if n == 0 else [i for i in dict.fromkeys(found) if i not in ids]
        return ids

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every document for ``query`` (text field only), shape (size,); zeros if no term
        of the query is indexed."""
        ids = self._query_ids(query)
        if not ids:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self.retriever.get_scores_from_ids(ids), dtype=np.float32)

    def totals(self, query: str) -> np.ndarray:
        """The score :meth:`search` ranks by, of every document, shape (size,): BM25 of the text plus
        ``heading_weight`` times BM25 of the heading when headings were given."""
        total = self.scores(query)
        return total if self.headings is None else total + self.heading_weight * self.headings.scores(query)

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        """Top ``k`` (document index, score) for ``query``, best first; only positive scores. The score is
        BM25 of the text, plus ``heading_weight`` times BM25 of the heading when headings were given."""
        k = min(k, self.size)
        if k == 0:
            return []
        if self.headings is None:
            ids = self._query_ids(query)
            if not ids:
                return []
            docs, scores = self.retriever.retrieve([ids], k=k, show_progress=False, n_threads=1)
            return [(int(i), float(s)) for i, s in zip(docs[0], scores[0], strict=True) if s > 0]
        total = self.totals(query)
        top = np.argpartition(-total, k - 1)[:k] if k < self.size else np.arange(self.size)
        top = top[np.lexsort((top, -total[top]))]  # best first; ties by document order
        return [(int(i), float(total[i])) for i in top if total[i] > 0]
