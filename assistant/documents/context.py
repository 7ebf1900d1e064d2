"""The context of one extraction, shared by the readers while a file is read: its limits, the names of the
containers around the part being read, the progress callback, Cancel, the password given and the problems
found so far. :mod:`assistant.documents.base` opens it; readers reach it through these functions (re-exported
there), so :meth:`~assistant.documents.base.Extractor.segments` stays the one method to implement."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from assistant.documents.limits import DEFAULT_LIMITS, Limits
from assistant.errors import Cancelled, InputError
from assistant.records import Progress

ProgressCallback = Callable[[Progress], None]


@dataclass
class _Run:
    limits: Limits
    progress: ProgressCallback | None
    names: list[str]
    problems: list[InputError] = field(default_factory=list)
    cancel: threading.Event | None = None
    in_child: bool = False
    password: str | None = None  # held in memory only; never logged, never in an exception
    title: str = ""  # the title the top-level file declares in its metadata (report_title)
    #: A place inside ``names[i]`` that what is reported from it names (an mbox's "message 131"): see
    #: :func:`within`. Kept apart from ``names`` so that the depth and the top-level checks stay as they are.
    labels: dict[int, str] = field(default_factory=dict)

    def where(self, part: str | None = None, sep: str = "/") -> str:
        """The names from the file the caller named down to ``part``: its path, the containers, the labels."""
        names = [f"{name}{sep}{self.labels[i]}" if i in self.labels else name for i, name in enumerate(self.names)]
        return sep.join(names + ([part] if part else []))


_RUN: ContextVar[_Run | None] = ContextVar("assistant_extraction_run", default=None)


def current_limits() -> Limits:
    """The limits of the extraction in progress (defaults outside one)."""
    run = _RUN.get()
    return run.limits if run else DEFAULT_LIMITS


def current_password() -> str | None:
    """The password given for the file being read, or None. Only the file the caller named gets it: a part
    inside it (an attachment, an archive member) has a password of its own that nobody gave."""
    run = _RUN.get()
    return run.password if run is not None and len(run.names) == 1 else None


def depth() -> int:
    """How many containers enclose the file being read (0 for the file the user named)."""
    run = _RUN.get()
    return len(run.names) - 1 if run else 0


def report(reason: str, part: str | None = None) -> None:
    """Record that ``part`` (a page, a member) of the file being read could not be read, and why."""
    run = _RUN.get()
    if run is not None:
        run.problems.append(InputError(run.where(part), reason))


@contextmanager
def within(label: str) -> Iterator[None]:
    """Name ``label`` (an mbox's ``message 131 (Subject)``) in every problem reported from the file being
    read until the block ends, so that a part is tied to the message that holds it."""
    run = _RUN.get()
    if run is None:
        yield
        return
    level = len(run.names) - 1
    run.labels[level] = label
    try:
        yield
    finally:
        run.labels.pop(level, None)


def place(part: str | None = None) -> str:
    """Where the file being read is, as a person reads it: ``outer.zip / middle.zip / PART`` (the file the
    caller named by its name only). ``part`` alone outside an extraction."""
    run = _RUN.get()
    if run is None:
        return part or ""
    return Path(run.names[0]).name + run.where(part, " / ")[len(run.names[0]):]


def report_title(title: str) -> None:
    """Record the title the file being read declares in its metadata (a PDF's or DOCX's title property).
    Only the file the user named keeps one: an attachment's title is not the document's."""
    run = _RUN.get()
    if run is not None and len(run.names) == 1 and title.strip():
        run.title = " ".join(title.split())[:300]


def report_progress(done: int, total: int, unit: str) -> None:
    """Tell the caller's progress callback (if any) how far the top-level file is read.

    Raises:
        Cancelled: the caller's cancel event is set (readers call this at every page or message).
    """
    run = _RUN.get()
    if run is None:
        return
    check_cancel()
    if run.progress is not None and len(run.names) == 1:
        run.progress(Progress(stage="extract", done=done, total=total, unit=unit))


def check_cancel() -> None:
    """Raise :class:`Cancelled` when the extraction in progress was cancelled."""
    run = _RUN.get()
    if run is not None and run.cancel is not None and run.cancel.is_set():
        raise Cancelled()
