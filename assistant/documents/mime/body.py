"""A message body split for use as evidence: the new text, the signature, the quoted history.

A greeting on its own line ("Hi Alice,") became a one-line chunk that ranked first for questions naming
the person, and sign-offs, signatures and quoted earlier messages crowded out the passages of
the attachment. Nothing is dropped: the greeting joins the first paragraph, and the signature and the
quoted history become documents of their own, ranked like any other passage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_GREETING = re.compile(r"^\s*(hi|hello|hey|dear|good (morning|afternoon|evening)|greetings)\b[^.!?\n]{0,60}"
                       r"[,!:]?\s*$", re.I)
_SIGN_OFF = re.compile(r"^\s*(best|kind|warm|many)?\s*(regards|wishes|thanks|thank you|cheers|sincerely|yours"
                       r"( sincerely| truly)?|all the best|br)\b[^\n]{0,30}[,.!]?\s*$", re.I)
_ATTRIBUTION = re.compile(r"^\s*(on .{4,200}wrote:|-{2,}\s*(original|forwarded) message\s*-{2,})\s*$", re.I)


@dataclass(frozen=True)
class BodyParts:
    """``text``: the new text, its greeting joined to the first paragraph; ``signature``: the sign-off
    and the signature under it; ``quoted``: earlier messages quoted below ('' when none)."""

    text: str
    signature: str
    quoted: str


def split_body(body: str) -> BodyParts:
    """Split a plain-text email body (RFC 3676 signature separator, ``>`` quoting, attribution lines)."""
    lines = body.replace("\r\n", "\n").split("\n")
    own: list[str] = []
    rest: list[str] = []
    quoted: list[str] = []
    for i, line in enumerate(lines):
        if _ATTRIBUTION.match(line) or (line.startswith(">") and all(
                not x.strip() or x.startswith(">") for x in lines[i:])):
            quoted = lines[i:]
            break
        if line.rstrip() == "--":  # the signature separator: the rest is the signature
            rest = lines[i + 1:]
            break
        own.append(line)
    while own and not own[-1].strip():
        own.pop()
    for back in range(1, min(4, len(own)) + 1):  # "Best regards,\nAlice" at the end
        if _SIGN_OFF.match(own[-back]) and all(len(x.strip()) < 40 for x in own[len(own) - back + 1:]):
            rest = own[-back:] + rest
            del own[-back:]
            break
    text = "\n".join(own).strip()
    first, _, after = text.partition("\n")
    if _GREETING.match(first) and after.strip():
        text = first.strip() + " " + after.strip()
    history = "\n".join(x[1:].lstrip() if x.startswith(">") else x for x in quoted).strip()
    return BodyParts(text, "\n".join(rest).strip(), history)
