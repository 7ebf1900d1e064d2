"""How the files and parts that were not read are listed on the terminal: each one when there are few, else a
count per reason with a few examples (``--all-problems`` lists each one; ``extract --json`` always does).

A big mailbox can hold thousands of unreadable parts (every inline image of every message); listed one a line
they bury the text and the few reasons that matter.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from assistant.cli.passwords import failure_line
from assistant.errors import InputError
from assistant.text.plural import count_of

#: Up to this many problems are listed one a line.
MOST_LISTED = 10
#: Examples shown for each reason, and reasons shown, when the problems are counted instead.
EXAMPLES = 3
MOST_REASONS = 8
OPTION = "--all-problems"


def add_problems_option(parser: argparse.ArgumentParser | Any) -> None:
    """Add ``--all-problems`` to a command that reads files."""
    parser.add_argument(OPTION, action="store_true", dest="all_problems",
                        help=f"list every file or part that could not be read (by default more than {MOST_LISTED} "
                             "are counted by reason, with examples)")


def _split(failure: InputError, asked: bool) -> tuple[str, str]:
    """(where, why) as the terminal shows them; a locked file says how to unlock it."""
    line = failure_line(failure, asked)
    head = f"{failure.source}: "
    return failure.source, line[len(head):] if line.startswith(head) else failure.reason


def _inside(source: str, top: str | None) -> str:
    """``source`` from inside ``top`` (``message 131 (Subject)/greenball.png``), or whole."""
    if top and source.startswith(top + "/"):
        return source[len(top) + 1:]
    return source


def problem_lines(failures: Sequence[InputError], *, asked: bool = False, every: bool = False,
                  top: str | None = None, lead: str = "not read: ") -> list[str]:
    """The lines that name ``failures``: ``LEAD SOURCE: REASON`` each when at most :data:`MOST_LISTED` (or
    ``every``), else a heading and one line per reason, most frequent first, with a count and examples.

    ``top`` is the file the failures were found in (``extract`` reads one at a time): examples are named from
    inside it. ``asked``: the person gave ``--password`` (a locked file is then not told to add it).
    """
    if every or len(failures) <= MOST_LISTED:
        return [f"{lead}{failure_line(f, asked)}" for f in failures]
    groups: dict[str, list[str]] = {}
    for failure in failures:
        where, why = _split(failure, asked)
        groups.setdefault(why, []).append(_inside(where, top))
    ranked = sorted(groups.items(), key=lambda item: -len(item[1]))  # stable: first seen first among equals
    what = count_of(len(failures), "part") if top else count_of(len(failures), "file or part", "files or parts")
    lines = [f"{lead}{what}{f' of {top}' if top else ''}, by reason ({OPTION} lists each one):"]
    for why, places in ranked[:MOST_REASONS]:
        shown = "; ".join(places[:EXAMPLES]) + ("; …" if len(places) > EXAMPLES else "")
        lines.append(f"  {len(places):,} × {why}: {shown}")
    if len(ranked) > MOST_REASONS:
        rest = sum(len(places) for _, places in ranked[MOST_REASONS:])
        lines.append(f"  {rest:,} more for {count_of(len(ranked) - MOST_REASONS, 'other reason')}")
    return lines
