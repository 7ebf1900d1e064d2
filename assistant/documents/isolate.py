"""One file's reader in a child process, with a wall-clock limit, a memory limit and Cancel.

PDFium, the Office XML parsers and archives can loop or allocate without bound on hostile input. An
:class:`~assistant.documents.base.Extractor` with ``isolate = True`` runs in a child started by
:mod:`multiprocessing` (``forkserver`` where the platform has it, so a child is a fork of a server that
has already imported the readers: ~10-20 ms; ``spawn`` elsewhere). The child's address space is capped
with ``resource.setrlimit(RLIMIT_AS)`` at what it has at start plus ``Limits.max_memory_mb`` (POSIX only);
the parent waits at most ``Limits.max_seconds`` and polls the cancel event every 50 ms, and kills the
child when either fires. Segments, problems and progress stream back over a pipe as they are read, so
the pages read before the limit are kept and the person sees which limit stopped the rest:

- ``gave up after 120 s (time limit); raise max_seconds in [documents] of config.toml``
- ``needs more than 2,048 MB of memory (limit); raise max_memory_mb in [documents] of config.toml``
- ``the reader crashed (SIGSEGV)``
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from assistant.documents.base import Extractor
from assistant.documents.context import _RUN, _Run
from assistant.documents.limits import Limits, raise_hint
from assistant.errors import Cancelled, InputError, PasswordRequired
from assistant.records import Progress, Segment

_POLL_SECONDS = 0.05
_START_SECONDS = 120
# Imported once by the fork server, so that each child starts with the readers loaded. "__main__" makes
# the server import the main script once (under ``if __name__ == "__main__"`` guard, as multiprocessing
# requires) rather than every child importing it again.
_PRELOAD = ["__main__", "assistant.documents.isolate", "pypdfium2"] + [
    f"assistant.documents.{name}"
    for name in ("pdf", "docx", "odf", "sheet", "slides", "archive", "email_files", "tnef", "msg", "rtf", "word97")]
_CONTEXT: Any = None


def _context() -> Any:
    global _CONTEXT
    if _CONTEXT is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            _CONTEXT = multiprocessing.get_context("forkserver")
            _CONTEXT.set_forkserver_preload(_PRELOAD)
        else:
            _CONTEXT = multiprocessing.get_context("spawn")
    return _CONTEXT


def _address_space() -> int:
    """This process's virtual memory size in bytes (0 where /proc is absent)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            import resource

            return int(f.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _limit_memory(megabytes: int) -> None:
    if megabytes <= 0 or sys.platform == "win32":
        return
    import resource

    cap = _address_space() + megabytes * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _peak_rss_kb() -> int:
    try:
        import resource

        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    except (ImportError, OSError):
        return 0


def _child(conn: Connection, extractor: Extractor, path: str, limits: Limits, names: list[str],
           environ: dict[str, str], blocked: list[str], password: str | None = None,
           labels: dict[int, str] | None = None) -> None:
    """The child's side: read ``path`` and send ``("ready",)``, ``("segment", Segment)``, ``("problem",
    source, reason)``, ``("progress", Progress)``, ``("title", title)``, then ``("done", peak_kb)`` or
    ``("error", kind, reason, peak_kb)``. ``environ`` and ``blocked`` (modules the parent made unimportable)
    are the parent's now, not the fork server's from when it started (PATH finds converters and tesseract).
    ``password`` arrives with the pickled arguments over the start pipe (never argv, environment or disk),
    and a refused or missing one comes back as ``("error", "password", kind, peak_kb, wrong)``."""
    os.environ.clear()
    os.environ.update(environ)
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        _read(conn, extractor, Path(path), limits, names, password, labels or {})
    except (BrokenPipeError, ConnectionResetError):
        pass  # the parent stopped listening (time limit, Cancel): nothing left to tell it
    finally:
        conn.close()


def _read(conn: Connection, extractor: Extractor, path: Path, limits: Limits, names: list[str],
          password: str | None = None, labels: dict[int, str] | None = None) -> None:
    conn.send(("ready",))
    sent = 0
    title = ""

    def flush() -> None:
        nonlocal sent, title
        for problem in run.problems[sent:]:
            conn.send(("problem", problem.source, problem.reason))
        sent = len(run.problems)
        if run.title != title:
            title = run.title
            conn.send(("title", title))

    run = _Run(limits=limits, progress=lambda p: conn.send(("progress", p)), names=list(names), in_child=True,
               password=password, labels=dict(labels or {}))
    _RUN.set(run)
    try:
        _limit_memory(limits.max_memory_mb)
        for segment in extractor.segments(path):
            flush()
            conn.send(("segment", segment))
        flush()
        conn.send(("done", _peak_rss_kb()))
    except MemoryError:
        run.problems.clear()  # free what we can before sending
        conn.send(("error", "memory", "", _peak_rss_kb()))
    except PasswordRequired as exc:
        flush()
        conn.send(("error", "password", exc.kind, _peak_rss_kb(), exc.wrong))
    except InputError as exc:
        flush()
        conn.send(("error", "input", exc.reason, _peak_rss_kb()))
    except RecursionError:
        flush()
        conn.send(("error", "input", "refused: nested too deeply to read", _peak_rss_kb()))
    except (BrokenPipeError, ConnectionResetError):
        raise
    except Exception as exc:  # noqa: BLE001  (libraries raise many types on corrupt input)
        flush()
        conn.send(("error", "input", f"corrupt or unreadable ({type(exc).__name__}: {exc})", _peak_rss_kb()))


#: Peak resident set size (KiB) of the most recent child, for benchmarks; 0 before any.
last_child_peak_kb = 0


def isolated_segments(extractor: Extractor, path: Path, run: _Run) -> Iterator[Segment]:
    """``extractor.segments(path)`` read in a child process within ``run.limits``; problems the child
    finds are added to ``run.problems`` under the same names.

    Raises:
        InputError: the reader raised one, or the time or memory limit stopped it before any text was
            read, or the child crashed (the reason names the limit and the setting that raises it).
        Cancelled: ``run.cancel`` was set; the child is killed.
    """
    global last_child_peak_kb
    if multiprocessing.current_process().daemon:  # a daemonic process may not start children
        yield from extractor.segments(path)
        return
    limits = run.limits
    ctx = _context()
    receiver, sender = ctx.Pipe(duplex=False)
    blocked = [name for name, module in sys.modules.items() if module is None]
    proc = ctx.Process(target=_child, args=(sender, extractor, str(path), limits, list(run.names),
                                            dict(os.environ), blocked, run.password, dict(run.labels)),
                       name="assistant-reader", daemon=True)
    try:
        proc.start()
    except OSError:  # no process can be started here (a sandbox, no /dev/shm): read in-process, unbounded
        receiver.close()
        sender.close()
        yield from extractor.segments(path)
        return
    sender.close()
    started = time.monotonic()
    ready = False
    read_any = False
    try:
        while True:
            if run.cancel is not None and run.cancel.is_set():
                raise Cancelled()
            if not ready and time.monotonic() - started > _START_SECONDS:
                raise InputError(str(path), f"the reader's process did not start within {_START_SECONDS} s")
            waited = time.monotonic() - started if ready else 0.0
            if limits.max_seconds > 0 and waited >= limits.max_seconds:
                reason = (f"gave up after {limits.max_seconds:g} s (time limit); {raise_hint('max_seconds')}"
                          + ("; the rest was not read" if read_any else ""))
                if read_any:
                    run.problems.append(InputError(run.where(), reason))
                    return
                raise InputError(str(path), reason)
            wait = _POLL_SECONDS if limits.max_seconds <= 0 else min(_POLL_SECONDS, limits.max_seconds - waited)
            if not receiver.poll(max(wait, 0.0)):
                continue
            try:
                message = receiver.recv()
            except (EOFError, OSError):
                proc.join(1)
                raise InputError(str(path), _crash_reason(proc.exitcode, limits)) from None
            kind = message[0]
            if kind == "ready":  # the clock starts now, not while the fork server starts
                ready, started = True, time.monotonic()
            elif kind == "segment":
                read_any = True
                yield message[1]
            elif kind == "problem":
                run.problems.append(InputError(message[1], message[2]))
            elif kind == "title":
                run.title = message[1]
            elif kind == "progress":
                if run.progress is not None and len(run.names) == 1:
                    progress: Progress = message[1]
                    run.progress(progress)
            elif kind == "done":
                last_child_peak_kb = message[1]
                return
            else:  # ("error", what, reason, peak)
                last_child_peak_kb = message[3]
                if message[1] == "password":
                    raise PasswordRequired(str(path), message[2], wrong=message[4])
                reason = message[2] if message[1] == "input" else _memory_reason(limits)
                if read_any and message[1] == "memory":
                    run.problems.append(InputError(run.where(), reason + "; the rest was not read"))
                    return
                raise InputError(str(path), reason)
    finally:
        receiver.close()
        if proc.is_alive():
            proc.kill()
        proc.join()


def _memory_reason(limits: Limits) -> str:
    return f"needs more than {limits.max_memory_mb:,} MB of memory (limit); {raise_hint('max_memory_mb')}"


def _crash_reason(exitcode: int | None, limits: Limits) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        if name in ("SIGKILL", "SIGABRT", "SIGBUS"):  # what allocation failures in native code look like
            return f"the reader stopped ({name}); it may have run out of memory: {_memory_reason(limits)}"
        return f"the reader crashed ({name})"
    return f"the reader stopped unexpectedly (exit status {exitcode})"
