"""The decoded text of a JSON string the reader is still writing, safe to show and to encode as UTF-8.

The reader's reply arrives a few characters at a time, so the answer sentence is decoded from a growing
prefix of its JSON string. JSON writes a character outside the Basic Multilingual Plane (an emoji) as two
escapes, a high and a low surrogate (``\\ud83d\\ude00``); shown one at a time, each half is a lone surrogate
that no UTF-8 writer (a terminal, a pipe, Qt) can encode. So a pair is decoded as the one character it
stands for, a high half waits until its low half arrives, and a half without its other half becomes U+FFFD.
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "", "b": "", "f": ""}  # others ('"', '\\', '/') stand for themselves
_HEX = frozenset("0123456789abcdefABCDEF")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_CUT = -1  # the text ends inside the escape
_BAD = -2  # not four hex digits


def _code(text: str, at: int) -> int:
    """The code unit of the ``\\uXXXX`` escape whose backslash is at ``at``: :data:`_CUT` when the text ends
    inside it, :data:`_BAD` when its four characters are not hex digits."""
    digits = text[at + 2:at + 6]
    if len(digits) < 4:
        return _CUT
    return int(digits, 16) if set(digits) <= _HEX else _BAD


def partial_string(text: str) -> str:
    """The decoded content of a JSON string whose opening quote preceded ``text``, up to its closing quote or
    up to the last character known in full.

    Decoding a longer prefix of the same string only ever adds to what a shorter prefix gave: an escape cut in
    half, and a high surrogate escape whose low half has not arrived, wait for the next piece. A surrogate
    without its other half (a low one alone, a high one followed by anything but a low one, or by the closing
    quote) becomes U+FFFD. An escape that is not four hex digits is left out.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            break
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= n:
            break
        if text[i + 1] != "u":
            out.append(_SIMPLE_ESCAPES.get(text[i + 1], text[i + 1]))
            i += 2
            continue
        code = _code(text, i)
        if code == _CUT:
            break
        i += 6
        if code == _BAD:
            continue
        if 0xDC00 <= code <= 0xDFFF:  # a low half with no high half before it
            out.append(REPLACEMENT)
        elif 0xD800 <= code <= 0xDBFF:
            if i >= n or (text[i] == "\\" and (i + 1 >= n or (text[i + 1] == "u" and _code(text, i) == _CUT))):
                i -= 6  # the next piece says whether the low half follows: wait for it
                break
            low = _code(text, i) if text.startswith("\\u", i) else _BAD
            if 0xDC00 <= low <= 0xDFFF:
                out.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
                i += 6
            else:  # anything else follows (the next escape is decoded on its own)
                out.append(REPLACEMENT)
        else:
            out.append(chr(code))
    return "".join(out)


def without_lone_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (``json.loads`` keeps a lone ``\\ud83d`` as is,
    and a reply cut off by the token cap can end with one)."""
    return _LONE_SURROGATE.sub(REPLACEMENT, text)
