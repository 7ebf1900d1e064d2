"""Email subject lines compared as conversations: reply/forward prefixes and list tags removed."""

from __future__ import annotations

import re

_PREFIX = re.compile(r"^\s*(?:(?:re|fwd?|aw|sv|antw|wg)\s*(?:\[\d+\])?\s*:\s*|\[[^\]]{1,40}\]\s*)", re.IGNORECASE)
_REPLY = re.compile(r"^\s*re\s*(?:\[\d+\])?\s*:", re.IGNORECASE)


def base_subject(subject: str) -> str:
    """``subject`` without reply/forward prefixes (``Re:``, ``Fwd:``, ``AW:``, ``SV:``, ``Re[2]:``) and
    ``[list]`` tags, lower-cased and with runs of spaces folded: the key subject fallback compares."""
    s = subject or ""
    while True:
        stripped = _PREFIX.sub("", s, count=1)
        if stripped == s:
            break
        s = stripped
    return " ".join(s.split()).lower()


def is_reply_subject(subject: str) -> bool:
    """Whether ``subject`` starts with ``Re:`` (any case, ``Re[2]:`` too)."""
    return bool(_REPLY.match(subject or ""))
