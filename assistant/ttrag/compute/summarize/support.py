"""Support checks: a summary's statement is kept only when its numbers and most of its content words stand
in the passage it cites (or in a few passages read together)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.records import Chunk
from assistant.ttrag.grounding import terms

MIN_SUPPORT = 0.6  # share of a bullet's content words that must stand in the passage it cites

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "").rstrip(".") for n in _NUMBER.findall(text)}


def support_share(statement: str, passage: str) -> float:
    """Share of the statement's content words (stemmed) that stand in ``passage``; 0 when one of its
    numbers does not."""
    if not _numbers(statement) <= _numbers(passage):
        return 0.0
    want = terms(statement)
    if not want:
        return 0.0
    return len(want & terms(passage)) / len(want)


def supported_by(statement: str, passages: Sequence[Chunk], cited: Sequence[int] = (),
                 *, min_share: float = MIN_SUPPORT) -> list[int]:
    """1-based numbers of the passages that support ``statement`` (every number in it, and at least
    ``min_share`` of its content words): a ``cited`` one, else the ``cited`` ones together (up to 3), else
    the best other passage, else (a statement with at most one number) up to 4 passages together
    (:func:`_jointly`); empty when none does."""
    shares = {n: support_share(statement, c.text) for n, c in enumerate(passages, 1)}
    ok = [n for n in cited if 1 <= n <= len(passages) and shares[n] >= min_share]
    if ok:
        return ok[:2]
    joint = list(dict.fromkeys(n for n in cited if 1 <= n <= len(passages)))[:3]
    if len(joint) > 1 and support_share(statement, "\n".join(passages[n - 1].text for n in joint)) >= min_share:
        return joint  # a statement joining two cited passages ("a 5-year term [3], paid in 45 days [5]")
    best = max(shares, key=lambda n: shares[n], default=0)
    if best and shares[best] >= min_share:
        return [best]
    return _jointly(statement, passages, min_share)


def _jointly(statement: str, passages: Sequence[Chunk], min_share: float, *, most: int = 4) -> list[int]:
    """Up to ``most`` passages that together hold ``min_share`` of a statement's content words, chosen
    greedily (each adding at least two words): a statement listing what the parts read cover ("covers the
    appointment, ... budgets, reports and audits"). Only for statements with at most one number, which
    must stand in a passage picked, so that figures of one passage are not joined to the words of others."""
    want = terms(statement)
    if not want or len(_numbers(statement)) > 1:
        return []
    have = [terms(c.text) & want for c in passages]
    got: set[str] = set()
    picked: list[int] = []
    while len(picked) < most:
        n = max(range(len(passages)), key=lambda i: len(have[i] - got), default=-1)
        if n < 0 or len(have[n] - got) < 2:
            break
        picked.append(n + 1)
        got |= have[n]
        if len(got) >= min_share * len(want) and \
                _numbers(statement) <= _numbers("\n".join(passages[i - 1].text for i in picked)):
            return sorted(picked)
    return []
