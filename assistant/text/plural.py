"""Counts in words: ``1 document``, ``3 documents``, never ``document(s)``."""

from __future__ import annotations


def noun_for(n: int, noun: str, plural: str = "") -> str:
    """``noun`` when ``n`` is 1, else its plural: ``plural`` when given (``reply``/``replies``), else ``noun`` + s."""
    return noun if n == 1 else plural or noun + "s"


def count_of(n: int, noun: str, plural: str = "") -> str:
    """``n`` and ``noun`` agreeing in number: ``count_of(1, "file")`` is ``1 file``, ``count_of(3, "file")``
    ``3 files``."""
    return f"{n:,} {noun_for(n, noun, plural)}"
