"""Whether a period or date a text states is said of a renewal.

Asked "How much notice must be given to stop the renewal?" of a contract that does not renew, the reader answers
with the nearest notice period it read: thirty days to cure a breach, seven days for a posted notice to count as
delivered, 90 days' notice to terminate at will. Asked "How long is the renewal term?", it states the initial
term, or the day the term ends. The period stands in the passage, so a check that looks for the answer's words
there passes it; what the passage says of that period is not that it renews the contract or stops a renewal.

A contract that renews says so near the period: "renew", "extend", "extension", "successive", "consecutive",
"additional ... periods", "from year to year", "month-to-month", "evergreen", in the sentence or the heading before
it ("(b) Renewal Term. If Affiliate fails to notify ..."). :func:`said_of_renewal` looks for such a word within
:data:`BEFORE` characters before the period (not before the start of the numbered clause it stands in: "...
any renewal term unless earlier terminated as follows: 13.1.1 In the event of material breach, ... sixty (60) days
written notice") and :data:`AFTER` after it.

The reach was chosen on the CUAD dev half's labelled renewal clauses (``benchmarks/renewals_gold.py``): of the 50
periods they state, none is refused at 250 / 150 characters (1 at 150 / 100), and of the 296 other periods the
contracts state, .89 are. Bounding the reach by the period's sentence refused a right one ("... for a ten (10) year
term. A six (6) months notice must be given ..."); stopping only the reach after it at the sentence's end changed
no replayed answer. Neither is used.
"""

from __future__ import annotations

import re
from functools import lru_cache

from assistant.text.dates import dates_in
from assistant.text.durations import Duration, durations, durations_in

_ASKS = re.compile(r"\b(?:re-?new\w*|non-?renew\w*|auto-?renew\w*|extension|extend\w*|roll(?:s|ed|ing)?[\s-]*over)",
                   re.I)
#: The words a contract that renews uses near the renewal's period or the notice that stops it.
CUE = re.compile(r"\b(?:re-?new\w*|non-?renew\w*|extend\w*|extension|successive|consecutive|evergreen|"
                 r"(?:year|month)[\s-]+to[\s-]+(?:year|month)|additional\s+(?:\S+\s+){0,3}?(?:terms?|periods?|"
                 r"years?|months?))", re.I)
#: Characters before and after a period in which a renewal word is looked for.
BEFORE = 250
AFTER = 150
#: A numbered clause's start ("13.1.1 In the event of ..."): the reach before a period stops there, since a renewal
#: stated in the clause before is that clause's, not the period's ("... any renewal term unless earlier terminated as
#: follows: 13.1.1 In the event of material breach, ... sixty (60) days written notice").
_CLAUSE_START = re.compile(r"(?:^|\s)\d{1,2}(?:\.\d{1,2})+\.?\s+(?=[A-Z(])")
_BARE_NUMBER = re.compile(r"^\s*\(?(\d+(?:\.\d+)?)\)?\s*$")


@lru_cache(maxsize=64)
def _spans(passages: str) -> tuple[tuple[int, int, Duration], ...]:
    return tuple((d.start, d.end, d.duration) for d in durations_in(passages))


def asks_renewal(question: str) -> bool:
    """Whether ``question`` (English) asks about a renewal: "How long is the renewal term?", "non-renewal notice?",
    "If the contract renews, for how long?", "Is it extended automatically?"."""
    return bool(_ASKS.search(question))


def _lengths(answer: str) -> list[Duration]:
    """The periods ``answer`` states; a bare number ("30", the unit left in the reader's sentence) as that many
    days, weeks, months or years."""
    found = durations(answer)
    m = _BARE_NUMBER.match(answer)
    if not found and m:
        n = float(m.group(1))
        found = [Duration(n, "days"), Duration(7 * n, "days"), Duration(n, "months"), Duration(12 * n, "months")]
    return found


def said_of_renewal(answer: str, passages: str) -> bool | None:
    """Whether ``passages`` state a period (or date) of ``answer`` with a renewal word near it (:data:`CUE`, within
    :data:`BEFORE` / :data:`AFTER` characters); None when they state none of them or ``answer`` names none
    (nothing to judge: the support check decides)."""
    lengths = _lengths(answer)
    days = {d for span in dates_in(answer) for d in span.days}
    stated = [(s, e) for s, e, d in _spans(passages) if any(d.same(x) for x in lengths)]
    if days:
        stated += [(span.start, span.end) for span in dates_in(passages) if span.days & days]
    if not stated:
        return None
    return any(CUE.search(passages[_before(passages, s):e + AFTER]) for s, e in stated)


def _before(passages: str, start: int) -> int:
    """Where the reach before a period that starts at ``start`` begins: :data:`BEFORE` characters back, or at the
    start of the numbered clause the period stands in."""
    begin = max(0, start - BEFORE)
    clauses = list(_CLAUSE_START.finditer(passages, begin, start))
    return clauses[-1].start() if clauses else begin
