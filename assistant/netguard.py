"""The one gate every connection of this process passes: offline mode, purposes and the connection log.

:func:`install` wraps, once per process, the socket calls that all of the product's network code goes
through (imapclient, httpx2 under huggingface_hub, OAuth and autoconfig, dnspython): ``socket.getaddrinfo``
and ``gethostbyname``, ``socket.connect``/``connect_ex``, the byte-moving calls (``send``, ``sendall``,
``sendto``, ``recv``, ``recv_into``, ``recvfrom``; for TLS ``SSLSocket.send``/``read``/``write``) and
``SSLContext.wrap_socket`` (a TLS socket takes over the record of the plain socket it wraps). So a library's
own attempt is seen, and refused, exactly like ours.

- Offline mode (:func:`set_offline`): a connection, or a name look-up, for any host that is not this
  computer (loopback) raises :class:`~assistant.errors.NetworkOff` before a byte leaves, and a connection
  already open to another machine can send or receive nothing more. Loopback stays open: a reader server
  on this computer, the tests' Dovecot and model hub.
- Every IPv4/IPv6 connection, loopback included (marked), is written to the
  :class:`~assistant.netlog.ConnectionLog` when attempted, when refused and when it closes, with its purpose
  (:func:`purpose`, a context the calling code sets) and the bytes moved. Bytes are counted at the calls
  above: for TLS, the data inside TLS (the handshake and TLS framing add a few KB on the wire).

Not covered: sockets that native code opens without Python (none of the product's libraries do; llama.cpp
and torch open none) and ``os.sendfile``.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import ipaddress
import os
import socket
import ssl
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from assistant.config import PrivacySettings
from assistant.errors import NetworkOff
from assistant.netlog import DEFAULT_MAX_BYTES, DEFAULT_MAX_DAYS, Connection, ConnectionLog

RECENT = 500  # connections of this process kept in memory (the Privacy page's "during your last question")
_NAMES_KEPT = 512

_purpose: contextvars.ContextVar[str] = contextvars.ContextVar("assistant_net_purpose", default="")
_offline = False
_log = ConnectionLog()
_lock = threading.RLock()  # re-entrant: a socket's finalizer may run (garbage collection) while it is held
_local = threading.local()  # .busy: inside a wrapped call (an inner wrapped call neither counts nor records)
_live: weakref.WeakKeyDictionary[socket.socket, Connection] = weakref.WeakKeyDictionary()
_finalizers: dict[str, weakref.finalize[Any, Any]] = {}
_recent: deque[Connection] = deque(maxlen=RECENT)
_names: OrderedDict[str, str] = OrderedDict()  # address -> the name it was looked up by
_seq = 0  # connections attempted by this process so far
_UNDER_WAY = (0, errno.EINPROGRESS, errno.EWOULDBLOCK, errno.EALREADY)  # connect_ex: connected or connecting
_run = f"{os.getpid():x}{int(time.time()):x}"


@dataclass
class Activity:
    """A stretch of work (a question, a draft) and the connections attempted while it ran (by any thread)."""

    name: str
    started: float
    first_seq: int
    ended: float | None = None
    connections: list[Connection] = field(default_factory=list)


_activities: dict[str, Activity] = {}


# -- what the rest of the product calls --------------------------------------------------------------------
def set_offline(on: bool) -> bool:
    """Turn offline mode on or off for this process; returns the previous state."""
    global _offline
    previous, _offline = _offline, bool(on)
    return previous


def is_offline() -> bool:
    """Whether offline mode is on."""
    return _offline


@contextlib.contextmanager
def purpose(name: str) -> Iterator[None]:
    """Connections attempted inside (on this thread) are logged as for ``name`` ("mail sync"), and offline
    mode refuses them in its words ("Mail sync needs the network; offline mode is on")."""
    token = _purpose.set(name)
    try:
        yield
    finally:
        _purpose.reset(token)


@contextlib.contextmanager
def default_purpose(name: str) -> Iterator[None]:
    """:func:`purpose` unless the caller already gave one."""
    with purpose(name) if not _purpose.get() else contextlib.nullcontext():
        yield


def refusal(exc: BaseException | None) -> NetworkOff | None:
    """The :class:`NetworkOff` behind ``exc`` (itself, or anywhere in its chain of causes), if any."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, NetworkOff):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


@contextlib.contextmanager
def activity(name: str) -> Iterator[Activity]:
    """Note the connections attempted while the body runs; :func:`last_activity` returns them afterwards."""
    act = Activity(name, time.time(), _seq + 1)
    try:
        yield act
    finally:
        act.ended = time.time()
        act.connections = [c for c in list(_recent) if c.seq >= act.first_seq]
        _activities[name] = act


def last_activity(name: str) -> Activity | None:
    """The last finished :func:`activity` of that name in this process."""
    return _activities.get(name)


def recent() -> list[Connection]:
    """The latest connections of this process (open and ended), oldest first."""
    return list(_recent)


def log() -> ConnectionLog:
    """The connection log :func:`install` writes to."""
    return _log


def is_loopback(host: str) -> bool:
    """``localhost`` (and ``*.localhost``, RFC 6761), 127.0.0.0/8, ::1 and IPv4-mapped loopback."""
    h = host.strip("[]").lower().rstrip(".")
    if h == "localhost" or h.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(h.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or bool(mapped is not None and mapped.is_loopback)


def install(*, max_bytes: int = DEFAULT_MAX_BYTES, max_days: float = DEFAULT_MAX_DAYS) -> None:
    """Wrap the socket calls (see the module docstring) unless ours are already in place; set the log's
    limits. Safe to call again: a call that finds a wrapper of ours leaves it."""
    _log.max_bytes, _log.max_days = max_bytes, max_days
    with _lock:
        for owner, name, make in _WRAPS:
            current = getattr(owner, name)
            if not getattr(current, "_netguard", False):
                wrapper = make(current)
                wrapper._netguard = True  # type: ignore[attr-defined]
                setattr(owner, name, wrapper)


def apply(settings: PrivacySettings, *, offline: bool = False) -> bool:
    """:func:`install` with the settings' log limits; offline mode on when the settings or ``offline`` (the
    command line's ``--offline``) say so, else off. Returns the previous offline state."""
    install(max_bytes=settings.log_kb * 1024, max_days=settings.log_days)
    return set_offline(settings.offline or offline)


# -- recording ---------------------------------------------------------------------------------------------
def _new(host: str, address: str, port: int, kind: str) -> Connection:
    global _seq
    with _lock:
        _seq += 1
        seq = _seq
    conn = Connection(f"{_run}-{seq}", seq, time.time(), host, address, port, kind, _purpose.get(),
                      is_loopback(address or host))
    _recent.append(conn)
    return conn


def _refuse(host: str, address: str, port: int, kind: str = "tcp") -> NetworkOff:
    conn = _new(host, address, port, kind)
    conn.ended, conn.outcome = conn.started, "refused: offline mode"
    _log.append(conn.event("refused"))
    return NetworkOff(conn.purpose, host, port)


def _track(sock: socket.socket, conn: Connection) -> None:
    with _lock:
        _live[sock] = conn
        _finalizers[conn.id] = weakref.finalize(sock, _end, conn, "closed")


def _untrack(sock: socket.socket) -> Connection | None:
    with _lock:
        conn = _live.pop(sock, None)
        if conn is not None:
            fin = _finalizers.pop(conn.id, None)
            if fin is not None:
                fin.detach()
    return conn


def _end(conn: Connection, outcome: str) -> None:
    if conn.ended is not None:
        return
    conn.ended, conn.outcome = time.time(), outcome
    _finalizers.pop(conn.id, None)
    _log.append(conn.event("end"))


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _port(value: object) -> int:
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return 0


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def _may_look_up(host: object) -> bool:
    """Whether offline mode lets ``host`` be looked up: no name, an address, this computer or its own name."""
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str) or not host or _is_address(host.strip("[]")) or is_loopback(host):
        return True
    return host.lower().rstrip(".") == socket.gethostname().lower()


# -- the wrappers ------------------------------------------------------------------------------------------
def _wrap_getaddrinfo(real: Callable[..., Any]) -> Callable[..., Any]:
    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if _offline and not _may_look_up(host):
            raise _refuse(str(host), "", _port(port))
        result = real(host, port, *args, **kwargs)
        if isinstance(host, str) and host and not _is_address(host):
            with _lock:
                for *_, sockaddr in result:
                    _names[str(sockaddr[0])] = host
                    _names.move_to_end(str(sockaddr[0]))
                while len(_names) > _NAMES_KEPT:
                    _names.popitem(last=False)
        return result
    return getaddrinfo


def _wrap_gethostbyname(real: Callable[..., Any]) -> Callable[..., Any]:
    def gethostbyname(host: Any, *args: Any, **kwargs: Any) -> Any:
        if _offline and not _may_look_up(host):
            raise _refuse(str(host), "", 0)
        return real(host, *args, **kwargs)
    return gethostbyname


def _attempt(sock: socket.socket, address: Any) -> Connection | None:
    """Record (or refuse) a connection attempt of ``sock`` to ``address``; None when it is not IP or nested."""
    if getattr(_local, "busy", False) or sock.family not in (socket.AF_INET, socket.AF_INET6) \
            or not isinstance(address, tuple):
        return None
    target, port = str(address[0]), _port(address[1])
    kind = "udp" if sock.type == socket.SOCK_DGRAM else "tcp"
    ip = target if _is_address(target) else ""  # a name is looked up inside connect()
    host = _names.get(target, target) if ip else target
    if _offline and not is_loopback(target):
        raise _refuse(host, ip, port, kind)
    conn = _new(host, ip, port, kind)
    _track(sock, conn)
    _log.append(conn.event("open"))
    return conn


def _wrap_connect(real: Callable[..., Any], *, returns_code: bool = False) -> Callable[..., Any]:
    def connect(self: socket.socket, address: Any) -> Any:
        conn = _attempt(self, address)
        if conn is None:
            return real(self, address)
        _local.busy = True
        try:
            result = real(self, address)
        except (BlockingIOError, InterruptedError):
            raise  # a non-blocking connect under way: the connection stays on record
        except BaseException as exc:
            _untrack(self)
            _end(conn, f"failed: {_reason(exc)}")
            raise
        finally:
            _local.busy = False
        if returns_code and result not in _UNDER_WAY:
            _untrack(self)
            _end(conn, f"failed: {os.strerror(result)}")
        return result
    return connect


def _sized(result: Any, args: tuple[Any, ...], measure: str) -> int:
    if measure == "arg":  # sendall returns None: all of its data went
        with memoryview(args[0]) as view:
            return view.nbytes
    if measure == "pair":  # recvfrom: (data, address)
        return len(result[0])
    return result if isinstance(result, int) else len(result)


def _wrap_io(real: Callable[..., Any], direction: str, measure: str = "result") -> Callable[..., Any]:
    def io(self: socket.socket, *args: Any, **kwargs: Any) -> Any:
        conn = _live.get(self)
        if conn is None or getattr(_local, "busy", False):
            return real(self, *args, **kwargs)
        if _offline and not conn.loopback:
            raise NetworkOff(conn.purpose, conn.host, conn.port, open_connection=True)
        _local.busy = True
        try:
            result = real(self, *args, **kwargs)
        finally:
            _local.busy = False
        n = _sized(result, args, measure)
        if direction == "sent":
            conn.sent += n
        else:
            conn.received += n
        return result
    return io


def _wrap_sendto(real: Callable[..., Any]) -> Callable[..., Any]:
    """``sendto(data[, flags], address)``: refused offline for another machine; a socket not yet on record
    (a DNS query of dnspython) gets one for its first destination."""
    counted = _wrap_io(real, "sent")

    def sendto(self: socket.socket, *args: Any) -> Any:
        if len(args) >= 2 and isinstance(args[-1], tuple) and not getattr(_local, "busy", False) \
                and self.family in (socket.AF_INET, socket.AF_INET6):
            target = str(args[-1][0])
            if _offline and not is_loopback(target):
                raise _refuse(_names.get(target, target), target, _port(args[-1][1]), "udp")
            if self not in _live:
                _attempt(self, args[-1])
        return counted(self, *args)
    return sendto


def _wrap_close(real: Callable[..., Any]) -> Callable[..., Any]:
    def _real_close(self: socket.socket, *args: Any, **kwargs: Any) -> Any:
        conn = _untrack(self) if self in _live else None
        try:
            return real(self, *args, **kwargs)
        finally:
            if conn is not None:
                _end(conn, "closed")
    return _real_close


def _wrap_tls(real: Callable[..., Any]) -> Callable[..., Any]:
    def wrap_socket(self: ssl.SSLContext, sock: socket.socket, *args: Any, **kwargs: Any) -> Any:
        conn = _live.get(sock)
        try:
            wrapped = real(self, sock, *args, **kwargs)
        except BaseException as exc:
            if conn is not None and sock.fileno() == -1:  # taken over, then the handshake failed
                _untrack(sock)
                _end(conn, f"failed: TLS: {_reason(exc)}")
            raise
        if conn is not None and _untrack(sock) is not None:
            _track(wrapped, conn)
        return wrapped
    return wrap_socket


_S, _T = socket.socket, ssl.SSLSocket
_WRAPS: list[tuple[Any, str, Callable[[Any], Callable[..., Any]]]] = [
    (socket, "getaddrinfo", _wrap_getaddrinfo),
    (socket, "gethostbyname", _wrap_gethostbyname),
    (socket, "gethostbyname_ex", _wrap_gethostbyname),
    (_S, "connect", _wrap_connect),
    (_S, "connect_ex", lambda real: _wrap_connect(real, returns_code=True)),
    (_S, "send", lambda real: _wrap_io(real, "sent")),
    (_S, "sendall", lambda real: _wrap_io(real, "sent", "arg")),
    (_S, "sendto", _wrap_sendto),
    (_S, "recv", lambda real: _wrap_io(real, "received")),
    (_S, "recv_into", lambda real: _wrap_io(real, "received")),
    (_S, "recvfrom", lambda real: _wrap_io(real, "received", "pair")),
    (_S, "_real_close", _wrap_close),
    (_T, "send", lambda real: _wrap_io(real, "sent")),
    (_T, "write", lambda real: _wrap_io(real, "sent")),
    (_T, "read", lambda real: _wrap_io(real, "received")),
    (ssl.SSLContext, "wrap_socket", _wrap_tls),
]
