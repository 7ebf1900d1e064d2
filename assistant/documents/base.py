"""The extractor interface and registry: one :class:`Extractor` per format family, chosen by content,
then by suffix (:mod:`assistant.documents.sniff`).

Containers (email, archives, Outlook files) hand their parts back to the registry with
:func:`nested_segments`; the limits, the nesting depth, the progress callback and the problems found so
far live in a per-extraction context (:mod:`assistant.documents.context`), so :meth:`Extractor.segments`
stays the one method to implement.

Readers that can hang or blow up on hostile input (``Extractor.isolate``: PDF, Office, archives, TNEF; and
``Extractor.isolate_above``: text, HTML, calendars and mail over 1 MB) run in a child process with a
wall-clock and a memory limit (:mod:`assistant.documents.isolate`); the others run in-process, so a small
text file pays no process start. Cancel (a :class:`threading.Event`) is checked at
every page, member and message, and ends a child at once.
"""

from __future__ import annotations

import mimetypes
import re
import tempfile
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from assistant.documents.context import (  # noqa: F401  (the readers' API, kept importable from here)
    _RUN,
    ProgressCallback,
    _Run,
    check_cancel,
    current_limits,
    current_password,
    depth,
    place,
    report,
    report_progress,
    report_title,
    within,
)
from assistant.documents.limits import DEFAULT_LIMITS, Limits, megabytes, raise_hint
from assistant.documents.sniff import BINARY_SUFFIXES, binary, content_suffix, markup_suffix, sniff
from assistant.errors import Cancelled, InputError, PasswordRequired
from assistant.records import Document, Segment

SEGMENT_GAP = "\n\n"
HEAD_BYTES = 4096  # what format sniffing looks at
EMPTY_FILE = "empty file (0 bytes)"
#: Asked for the password of a password-protected file: ``(file name, wrong)`` -> the password, or None to
#: leave the file unread. ``wrong`` is True when the password given before was refused. Asked only for the
#: files the caller names, never for a part inside one (an attachment, an archive member).
PasswordPrompt = Callable[[str, bool], "str | None"]


class Extractor(ABC):
    """Reads one format family. Subclasses implement :meth:`segments` and list their ``suffixes``."""

    suffixes: tuple[str, ...] = ()
    #: Run in a child process with ``Limits.max_seconds`` and ``Limits.max_memory_mb`` (native or
    #: complex parsers that hostile input can make hang or allocate without bound).
    isolate: bool = False
    #: Run in a child process when the file is larger than this many bytes (pure-Python parsers that are
    #: fast on real files but superlinear on some hostile ones, e.g. html5lib on a megabyte of NULs).
    isolate_above: int | None = None

    @abstractmethod
    def segments(self, path: Path) -> Iterator[Segment]:
        """Yield the file's text in reading order, a page or section at a time.

        Parts that cannot be read are passed to :func:`report` and the rest is still yielded.

        Raises:
            InputError: the file is corrupt, encrypted or otherwise unreadable (names the reason).
            PasswordRequired: password-protected, and :func:`current_password` is None or wrong.
        """


_REGISTRY: dict[str, Extractor] = {}
_BUILTIN_LOADED = False
_BUILTIN_LOCK = threading.RLock()  # re-entrant: an extractor module may ask while it is imported


def register(extractor: Extractor) -> Extractor:
    """Make ``extractor`` handle its suffixes (later registrations win)."""
    for suffix in extractor.suffixes:
        _REGISTRY[suffix.lower()] = extractor
    return extractor


def supported_suffixes() -> list[str]:
    """File suffixes with an extractor, sorted."""
    _load_builtin()
    return sorted(_REGISTRY)


def _load_builtin() -> None:
    """Import the built-in extractors (they register themselves), once. Threads that ask at the same time (the
    gist of a new message and the Ask panel opening it) wait for all of them: a flag set before the imports
    ended once let a second thread see half the registry and call a .txt attachment unsupported."""
    global _BUILTIN_LOADED
    if _BUILTIN_LOADED:
        return
    with _BUILTIN_LOCK:
        if _BUILTIN_LOADED:
            return
        from assistant.documents import (  # noqa: F401  (they register themselves)
            archive,
            docx,
            email_files,
            html,
            ical,
            msg,
            odf,
            pdf,
            rtf,
            sheet,
            slides,
            text,
            tnef,
            word97,
        )
        _BUILTIN_LOADED = True


def _segments_of(extractor: Extractor, path: Path, run: _Run) -> Iterator[Segment]:
    """``extractor.segments(path)``, in a child process with the run's limits when the reader is isolated."""
    if not run.in_child and (extractor.isolate or extractor.isolate_above is not None
                             and path.stat().st_size > extractor.isolate_above):
        from assistant.documents.isolate import isolated_segments

        return isolated_segments(extractor, path, run)
    return extractor.segments(path)


def _extractor_for(name: str, content_type: str | None = None, head: bytes = b"",
                   whole: Path | bytes | None = None) -> tuple[Extractor | None, str]:
    """The reader for a file and the suffix it is read as: its content first, then its name, then its
    declared MIME type. ``head`` is the first bytes, ``whole`` the file (or all its bytes) for a look
    inside a ZIP or OLE2 container."""
    _load_builtin()
    suffix = Path(name).suffix.lower()
    named = _REGISTRY.get(suffix)
    found = content_suffix(head, whole)
    if found not in (None, ".zip", suffix) and (named is None or _REGISTRY.get(found) is not named):
        # The bytes are another format than the name says (a PDF saved as .docx). A plain ZIP says too
        # little (.epub, .jar, a damaged .docx): then the name decides.
        if found in _REGISTRY:
            return _REGISTRY[found], found
        if named is not None:
            return None, f"{found} content in a file named {suffix}"
    if named is not None:
        if found is None and suffix in BINARY_SUFFIXES:
            # Named for a binary format without its magic: HTML or a mail saved under that name (a web
            # export named .xlsx, a page saved as .doc) is read as what it is; other text stays corrupt.
            markup = markup_suffix(head)
            if markup in _REGISTRY:
                return _REGISTRY[markup], markup
        return named, suffix
    if content_type and content_type.startswith("text/") and binary(head):
        # A broken Content-Type header defaults to text/plain: a JPEG must not be read as text.
        return None, suffix or "binary data declared as text"
    guessed = mimetypes.guess_extension(content_type) if content_type else None
    if guessed and guessed in _REGISTRY:
        return _REGISTRY[guessed], guessed
    if not content_type or content_type.startswith(("text/", "message/", "multipart/", "application/octet")):
        sniffed = sniff(head)
        if content_type and content_type.startswith("text/") and sniffed in (".eml", ".mbox"):
            sniffed = ".txt"  # declared text that looks like headers (text/rfc822-headers) is shown as text
        # A zip with a suffix we do not know (.odt, .jar, .epub) is a format of its own, not an archive.
        if sniffed in _REGISTRY and not (sniffed == ".zip" and suffix):
            return _REGISTRY[sniffed], sniffed
    return None, content_type or suffix or "no suffix"


def nested_segments(name: str, data: bytes, *, label: str = "attachment",
                    content_type: str | None = None) -> Iterator[Segment]:
    """Segments of a part of the file being read (an attachment, an archive member) via the registry.

    The part is written to a private temporary folder removed right after. Its segments come back with
    ``section`` ``"LABEL: NAME"`` (then the part's own section); failures are reported, never raised.
    """
    run = _RUN.get()
    if run is None:
        raise RuntimeError("nested_segments() is only valid while extract() runs")
    if not data:
        report(EMPTY_FILE, name)
        return
    extractor, kind = _extractor_for(name, content_type, data[:HEAD_BYTES], data)
    if extractor is None:
        report(f"unsupported: {kind}", name)
        return
    check_cancel()
    if depth() + 1 > run.limits.max_depth:
        report(f"refused: nested more than {run.limits.max_depth} levels deep; {raise_hint('max_depth')}", name)
        return
    if len(data) > run.limits.max_file_bytes:
        report(f"too large: {megabytes(len(data))} (limit {megabytes(run.limits.max_file_bytes)}); "
               f"{raise_hint('max_file_bytes')}", name)
        return
    prefix = f"{label}: {name}"
    segments: list[Segment] = []
    run.names.append(name)
    try:
        with tempfile.TemporaryDirectory(prefix="assistant-part-") as tmp:
            # The part's own stem, made safe, because some formats show it (a CSV's "sheet" name).
            stem = re.sub(r"[^\w.-]+", "_", Path(name.replace("\\", "/")).stem)[:80].strip("._") or "part"
            path = Path(tmp) / f"{stem}{kind}"
            path.write_bytes(data)
            segments = list(_segments_of(extractor, path, run))
    except InputError as exc:
        report(exc.reason)
    except (Cancelled, KeyboardInterrupt):
        raise
    except RecursionError:
        report("refused: nested too deeply to read")
    except Exception as exc:  # noqa: BLE001  (one bad part never stops the others)
        report(f"corrupt or unreadable ({type(exc).__name__}: {exc})")
    finally:
        run.names.pop()
    for seg in segments:
        yield replace(seg, section=f"{prefix} / {seg.section}" if seg.section else prefix)


@dataclass(frozen=True)
class Extraction:
    """What :func:`read_many` read, and an :class:`InputError` for every file or part it could not read."""

    documents: list[Document]
    failures: list[InputError]


def _unlocked(path: Path, limits: Limits, progress: ProgressCallback | None, cancel: threading.Event | None,
              passwords: PasswordPrompt | None) -> tuple[Document, list[InputError]]:
    """:func:`_extract`, asking ``passwords`` again after each refused password until it gives None."""
    password: str | None = None
    while True:
        try:
            return _extract(path, limits, progress, cancel, password)
        except PasswordRequired as exc:
            password = passwords(str(path), exc.wrong) if passwords is not None else None
            if password is None:
                raise


def _extract(path: Path, limits: Limits, progress: ProgressCallback | None,
             cancel: threading.Event | None = None,
             password: str | None = None) -> tuple[Document, list[InputError]]:
    _load_builtin()
    name = str(path)
    if not path.exists():
        raise InputError(name, "file not found")
    if path.is_dir():
        raise InputError(name, "is a folder, not a file")
    try:
        with path.open("rb") as f:
            head = f.read(HEAD_BYTES)
            size = path.stat().st_size
    except OSError as exc:
        raise InputError(name, f"cannot be read ({exc.strerror})") from exc
    if size == 0:  # whatever the name says: no reader can find a fault in a file with nothing in it
        raise InputError(name, EMPTY_FILE)
    extractor, kind = _extractor_for(name, head=head, whole=path)
    if extractor is None:
        raise InputError(name, f"unsupported: {kind} (supported: {', '.join(supported_suffixes())})")
    if size > limits.max_file_bytes:
        raise InputError(name, f"too large: {megabytes(size)} (limit {megabytes(limits.max_file_bytes)}); "
                               f"{raise_hint('max_file_bytes')}")
    if cancel is not None and cancel.is_set():
        raise Cancelled()
    run = _Run(limits=limits, progress=progress, names=[name], cancel=cancel, password=password)
    token = _RUN.set(run)
    try:
        doc = _assemble(name, _segments_of(extractor, path, run), run)
    except (InputError, Cancelled, KeyboardInterrupt):
        raise
    except RecursionError as exc:
        raise InputError(name, "refused: nested too deeply to read") from exc
    except MemoryError as exc:
        raise InputError(name, "ran out of memory reading it") from exc
    except Exception as exc:  # noqa: BLE001  (libraries raise many types on corrupt input)
        raise InputError(name, f"corrupt or unreadable ({type(exc).__name__}: {exc})") from exc
    finally:
        _RUN.reset(token)
    return doc, run.problems


#: The space separators other than the plain space (Unicode category Zs: the no-break space U+00A0, the en to hair
#: spaces U+2000-U+200A, the narrow no-break U+202F, the medium mathematical U+205F, the ideographic U+3000), each
#: read as one plain space, so offsets hold. A filing printed from HTML sets every space of a justified line as
#: U+00A0 (a quarter of Xybernaut's CUAD contract): the reader's tokenizer spends half again as many tokens on such
#: a line, and a passage reads "5.\u00a0Term.\u00a0Subject\u00a0to ...". What a person sees is the same.
SPACES = str.maketrans({chr(c): " " for c in (0x00A0, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000)})


def _assemble(name: str, segments: Iterable[Segment], run: _Run) -> Document:
    parts: list[str] = []
    kept: list[Segment] = []
    offsets: list[int] = []
    pos = 0
    for seg in segments:
        if not seg.text.strip():
            continue
        seg = replace(seg, text=seg.text.translate(SPACES))
        if parts:
            parts.append(SEGMENT_GAP)
            pos += len(SEGMENT_GAP)
        offsets.append(pos)
        kept.append(seg)
        parts.append(seg.text)
        pos += len(seg.text)
    if not kept:
        first = run.problems[0].reason if run.problems else None
        if first is not None and first.startswith("refused:"):
            raise InputError(name, first)  # a limit stopped the read: that is the news, not "no text"
        raise InputError(name, f"contains no text ({first or 'empty, or only images'})")
    return Document(source=name, text="".join(parts), segments=tuple(kept), offsets=tuple(offsets),
                    problems=tuple(str(p) for p in run.problems), title=run.title)


def configured_limits() -> Limits:
    """The limits of the ``[documents]`` table of the user's ``config.toml`` (defaults when it is absent or
    invalid: an invalid file is reported where the settings are loaded)."""
    try:
        from assistant.config import load_settings

        return load_settings().documents
    except Exception:  # noqa: BLE001  (ConfigError, or a config without the table)
        return DEFAULT_LIMITS


def extract(path: str | Path, *, limits: Limits | None = None, progress: ProgressCallback | None = None,
            cancel: threading.Event | None = None, passwords: PasswordPrompt | None = None) -> Document:
    """Read ``path`` into a :class:`Document` (segments joined by a blank line, offsets recorded).

    Parts that could not be read (a corrupt attachment, a scanned page without OCR) are named in
    ``Document.problems``; ``progress`` receives a :class:`Progress` per page where the format has pages.
    ``limits`` defaults to :func:`configured_limits`. A password-protected PDF or Office file is opened
    with the password ``passwords`` gives (asked again after a wrong one; kept in memory only).

    Raises:
        InputError: missing, unreadable, unsupported, too large, corrupt or empty file, or over a limit
            (the message names the file, the limit and the setting that raises it).
        PasswordRequired: password-protected, and ``passwords`` is None or gave None (``wrong`` says
            whether the last password tried was refused).
        Cancelled: ``cancel`` was set (checked at every page, member and message; a child is ended).
    """
    return _unlocked(Path(path), limits or configured_limits(), progress, cancel, passwords)[0]


def read_many(paths: Iterable[str | Path], *, limits: Limits | None = None,
              progress: ProgressCallback | None = None, cancel: threading.Event | None = None,
              passwords: PasswordPrompt | None = None) -> Extraction:
    """Read every file; never raises for bad input. ``passwords`` is asked for protected files (see
    :func:`extract`); one it does not unlock is a :class:`PasswordRequired` among the failures.

    Returns:
        The documents read, and one :class:`InputError` per file or part that could not be read.

    Raises:
        Cancelled: ``cancel`` was set.
    """
    limits = limits or configured_limits()
    documents: list[Document] = []
    failures: list[InputError] = []
    for path in paths:
        try:
            doc, problems = _unlocked(Path(path), limits, progress, cancel, passwords)
        except (Cancelled, KeyboardInterrupt):
            raise
        except InputError as exc:
            failures.append(exc)
            continue
        except Exception as exc:  # noqa: BLE001  (the last guard: one file never stops the others)
            failures.append(InputError(str(path), f"could not be read ({type(exc).__name__}: {exc})"))
            continue
        documents.append(doc)
        failures.extend(problems)
    return Extraction(documents=documents, failures=failures)
