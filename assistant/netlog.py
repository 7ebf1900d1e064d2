"""Connection records: :class:`Connection` (one of this process, live), and the connection log, one JSON line per
event in ``data_dir()/privacy/connections.jsonl``, bounded and clearable.

:mod:`assistant.netguard` appends an ``open`` line when a connection is attempted, an ``end`` line (bytes
sent and received, how it ended) when it closes, and a ``refused`` line for one offline mode stopped. A line
holds the time, host, address, port, purpose, whether the host is this computer (loopback) and byte counts:
never content, never a URL, never a credential. Appending is a single ``write`` of one line in append mode,
so the app and a command running at the same time do not mix their lines.

The file stays under ``max_bytes`` (when it grows past it the oldest lines go, down to half) and keeps
``max_days`` of history; :meth:`ConnectionLog.clear` deletes it.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.config import data_dir

DEFAULT_MAX_BYTES = 1024 * 1024
DEFAULT_MAX_DAYS = 30
LOG_NAME = "connections.jsonl"

log = logging.getLogger(__name__)


def log_path() -> Path:
    """``data_dir()/privacy/connections.jsonl`` (the environment variable ``ASSISTANT_CONNECTION_LOG`` names
    another file; the tests point it at a temporary one)."""
    env = os.environ.get("ASSISTANT_CONNECTION_LOG")
    return Path(env) if env else data_dir() / "privacy" / LOG_NAME


@dataclass(eq=False)
class Connection:
    """One connection of this process (:mod:`assistant.netguard` keeps them); the counters grow while it is open.

    Attributes:
        id: unique id (the log's lines of one connection share it).
        seq: order of attempt in this process.
        started: when it was attempted (seconds since the epoch).
        host: the name asked for, else the address.
        address: the IP address ('' when refused before the name was looked up).
        port: the port.
        kind: ``tcp`` or ``udp``.
        purpose: what the calling code said it was for ('' when it said nothing).
        loopback: the host is this computer.
        sent: bytes sent so far.
        received: bytes received so far.
        ended: when it closed or was refused (None while open).
        outcome: ``open``, ``closed``, ``refused: offline mode`` or ``failed: REASON``.
    """

    id: str
    seq: int
    started: float
    host: str
    address: str
    port: int
    kind: str
    purpose: str
    loopback: bool
    sent: int = 0
    received: int = 0
    ended: float | None = None
    outcome: str = "open"

    def describe(self) -> str:
        """``purpose host:port`` for a sentence."""
        return f"{self.purpose or 'no purpose given'} {self.host}:{self.port}"

    def event(self, kind: str) -> dict[str, Any]:
        """The log line for ``open`` (attempted), ``refused`` or ``end`` (closed or failed, with the bytes)."""
        if kind == "end":
            return {"id": self.id, "t": self.ended, "event": "end", "ended": self.ended, "sent": self.sent,
                    "received": self.received, "outcome": self.outcome}
        event = {"id": self.id, "t": self.started, "event": kind, "started": self.started, "host": self.host,
                 "address": self.address, "port": self.port, "kind": self.kind, "purpose": self.purpose,
                 "loopback": self.loopback}
        if kind == "refused":
            event.update(ended=self.ended, sent=0, received=0, outcome=self.outcome)
        return event


@dataclass(frozen=True)
class LoggedConnection:
    """One connection as the log tells it (its ``open`` or ``refused`` line and, once closed, its ``end`` line).

    Attributes:
        id: the connection's id (unique per connection).
        time: when it was attempted (seconds since the epoch).
        host: the name asked for, else the address.
        address: the IP address connected to ('' when refused before the name was looked up).
        port: the port (0 when unknown).
        kind: ``tcp`` or ``udp``.
        purpose: what it was for (``mail sync``, ``model download``...; '' when no code said).
        loopback: the host is this computer.
        sent: bytes sent (inside TLS where TLS is used; None when no end was recorded).
        received: bytes received (likewise).
        seconds: how long it was open (None when no end was recorded).
        outcome: ``closed``, ``refused: offline mode``, ``failed: REASON``, or ``open`` (no end recorded:
            still open, or the program stopped first).
    """

    id: str
    time: float
    host: str
    address: str
    port: int
    kind: str
    purpose: str
    loopback: bool
    sent: int | None = None
    received: int | None = None
    seconds: float | None = None
    outcome: str = "open"


class ConnectionLog:
    """The bounded JSON-lines file of connection events.

    Args:
        path: the file (default :func:`log_path`, looked up at each use so a changed data folder is followed).
        max_bytes: the most the file may hold; past it the oldest lines go (down to half of it).
        max_days: lines older than this are dropped when the file is pruned or read.
    """

    def __init__(self, path: Path | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES,
                 max_days: float = DEFAULT_MAX_DAYS) -> None:
        self._path = path
        self.max_bytes = max_bytes
        self.max_days = max_days
        self._lock = threading.RLock()  # a socket's finalizer may log while this thread holds it
        self._pruned: set[Path] = set()

    @property
    def path(self) -> Path:
        return self._path or log_path()

    def append(self, event: dict[str, Any]) -> None:
        """Write ``event`` as one line; a write that fails (full disk) is logged, never raised: the connection
        it describes must not fail because of its log."""
        path = self.path
        line = json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._lock:
            try:
                path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                try:
                    os.write(fd, line.encode("utf-8"))
                    size = os.fstat(fd).st_size
                finally:
                    os.close(fd)
                if size > self.max_bytes or path not in self._pruned:
                    self._pruned.add(path)  # age is pruned once a process; size whenever it is exceeded
                    self._prune(path)
            except OSError as exc:
                log.warning("the connection log %s could not be written: %s", path, exc)

    def _prune(self, path: Path) -> None:
        lines = self._lines(path)
        keep = _recent(lines, self.max_days)
        size = sum(len(line) + 1 for line in keep)
        if size > self.max_bytes:
            while keep and size > self.max_bytes // 2:
                size -= len(keep.pop(0)) + 1
        if len(keep) == len(lines):
            return
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text("".join(f"{line}\n" for line in keep), encoding="utf-8")
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)

    @staticmethod
    def _lines(path: Path) -> list[str]:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return []
        return [line for line in text.splitlines() if line.strip()]

    def entries(self) -> list[LoggedConnection]:
        """Every connection in the log (within ``max_days``), oldest first."""
        with self._lock:
            lines = self._lines(self.path)
        merged: dict[str, dict[str, Any]] = {}
        for line in _recent(lines, self.max_days):
            try:
                event = json.loads(line)
            except ValueError:
                continue  # a line cut short by a crash
            if isinstance(event, dict) and isinstance(event.get("id"), str):
                merged.setdefault(event["id"], {}).update(event)
        return [c for c in (_entry(e) for e in merged.values()) if c is not None]

    def clear(self) -> int:
        """Delete the log; returns how many connections it held."""
        n = len(self.entries())
        with self._lock:
            self.path.unlink(missing_ok=True)
        return n


def _recent(lines: list[str], max_days: float) -> list[str]:
    """The lines written within ``max_days`` (their ``"t"`` field; a line without one is dropped)."""
    oldest = time.time() - max_days * 86400
    keep = []
    for line in lines:
        try:
            t = float(json.loads(line).get("t", 0))
        except (ValueError, AttributeError, TypeError):
            continue
        if t >= oldest:
            keep.append(line)
    return keep


def _entry(e: dict[str, Any]) -> LoggedConnection | None:
    if "host" not in e:  # an end line whose open line was pruned
        return None
    started = float(e.get("started", e.get("t", 0)))
    ended = e.get("ended")
    return LoggedConnection(
        id=e["id"], time=started, host=str(e["host"]), address=str(e.get("address", "")),
        port=int(e.get("port") or 0), kind=str(e.get("kind", "tcp")), purpose=str(e.get("purpose", "")),
        loopback=bool(e.get("loopback")), sent=e.get("sent"), received=e.get("received"),
        seconds=round(float(ended) - started, 3) if ended is not None else None,
        outcome=str(e.get("outcome", "open")))


def human_bytes(n: int | None) -> str:
    """``812 B``, ``3.4 KB``, ``1.2 MB`` (powers of 1024); ``?`` for None."""
    if n is None:
        return "?"
    if n < 1024:
        return f"{n} B"
    if n < 1024**2:
        return f"{n / 1024:.1f} KB"
    return f"{n / 1024**2:.1f} MB"


def describe(c: LoggedConnection) -> str:
    """One line for a person: when, where, what for, how much, how it ended."""
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(c.time))
    where = f"{c.host}:{c.port}" if c.port else c.host
    if c.address and c.address != c.host:
        where += f" ({c.address})"
    if c.loopback:
        where += " [this computer]"
    if c.kind != "tcp":
        where += f" [{c.kind}]"
    if c.outcome.startswith("refused"):
        amount = "nothing sent"
    elif c.sent is None:
        amount = "bytes not known yet (still open, or the program stopped first)"
    else:
        amount = f"sent {human_bytes(c.sent)}, received {human_bytes(c.received)}, {c.seconds or 0:.1f} s"
    return f"{when}  {where}  {c.purpose or 'no purpose given'}  {amount}  {c.outcome}"
