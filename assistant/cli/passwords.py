"""``--password``: the password of each protected file, asked on the terminal without echo (getpass).

Kept in memory only for the one read: never written to a file, the environment, argv or a log.
"""

from __future__ import annotations

import argparse
import getpass
import sys
import warnings
from collections.abc import Callable

from assistant.documents import PasswordPrompt
from assistant.errors import InputError, PasswordRequired

#: Tries per file before it is left unread (a wrong password, then the prompt again).
MAX_TRIES = 3
HINT = "give its password with --password"


def add_password_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--password`` to a command that reads files."""
    parser.add_argument("--password", action="store_true",
                        help="ask for the password of each password-protected PDF or Office file (typed, not "
                             "shown; kept in memory only)")


def terminal_passwords(before: Callable[[], None] = lambda: None) -> PasswordPrompt:
    """A :data:`~assistant.documents.PasswordPrompt` that asks on the terminal, naming the file.

    An empty answer, end of input or :data:`MAX_TRIES` wrong passwords leave the file unread. ``before``
    runs before each question (it removes a progress bar drawn on the same line).
    """
    tries: dict[str, int] = {}

    def ask(name: str, wrong: bool) -> str | None:
        before()
        if wrong:
            print(f"Wrong password for {name}.", file=sys.stderr)
        tries[name] = tries.get(name, 0) + 1
        if tries[name] > MAX_TRIES:
            return None
        try:
            with warnings.catch_warnings():  # no terminal: getpass says itself that input may be echoed
                warnings.simplefilter("ignore", getpass.GetPassWarning)
                password = getpass.getpass(f"Password for {name} (empty to skip): ")
        except EOFError:
            return None
        return password or None

    return ask


def failure_line(failure: InputError, asked: bool) -> str:
    """How a file that was not read is named on the terminal: a locked one says how to unlock it."""
    if isinstance(failure, PasswordRequired) and not failure.wrong and not asked:
        return f"{failure.source}: password-protected {failure.kind}: {HINT}"
    return str(failure)
