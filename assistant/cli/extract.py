"""``assistant extract FILE... [--json] [--all-problems]``: show what is read from each file, with where it came
from, and what could not be read (counted by reason when there are many; ``--json`` lists each one)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from assistant.cli.passwords import add_password_option, terminal_passwords
from assistant.cli.problems import add_problems_option, problem_lines
from assistant.documents import read_many
from assistant.records import Segment


def add_extract_command(sub: Any) -> None:
    """Register the ``extract`` subcommand on the CLI's subparsers."""
    p = sub.add_parser("extract", help="show the text read from files (and why a part could not be read)",
                       description="Read each file (documents, spreadsheets, slides, email, archives) and "
                                   "print its text with page and section, or the reason it could not be read. "
                                   "Exit status 1 only when nothing at all could be read.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true",
                   help="one JSON record per line: {source, page, section, text} or {source, error}")
    add_password_option(p)
    add_problems_option(p)


def _where(seg: Segment) -> str:
    parts = ([f"page {seg.page}"] if seg.page is not None else []) + ([seg.section] if seg.section else [])
    return f"[{' | '.join(parts)}]" if parts else ""


def run_extract(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print every file's segments (or JSON records) and failures; 0 when anything was read, else 1."""
    out = out or sys.stdout
    any_read = False
    asked = bool(getattr(args, "password", False))
    passwords = terminal_passwords() if asked else None
    for name in args.files:
        result = read_many([name], passwords=passwords)
        any_read = any_read or bool(result.documents)
        if args.json:
            for doc in result.documents:
                for seg in doc.segments:
                    out.write(json.dumps({"source": doc.source, "page": seg.page, "section": seg.section,
                                          "text": seg.text}, ensure_ascii=False) + "\n")
            for failure in result.failures:
                out.write(json.dumps({"source": failure.source, "error": failure.reason},
                                     ensure_ascii=False) + "\n")
            continue
        out.write(f"== {name}\n")
        for doc in result.documents:
            for seg in doc.segments:
                where = _where(seg)
                out.write((f"{where}\n" if where else "") + seg.text.strip() + "\n\n")
        every = bool(getattr(args, "all_problems", False))
        for line in problem_lines(result.failures, asked=asked, every=every, top=str(Path(name))):
            out.write(line + "\n")
    return 0 if any_read else 1
