"""A fault-injecting TCP proxy on 127.0.0.1 for plain IMAP (test infrastructure).

It sits between the client and a real Dovecot and forwards bytes both ways. When armed with a fault, it
watches the server's replies for FETCH literals (``BODY[] {N}``) and, at the ``at_literal``-th one (counted
over all connections), injects the fault once:

- ``cut``: the connection is closed just before that message's ``* n FETCH`` line (mid FETCH response);
- ``truncate``: the literal header and half of the literal's bytes are sent, then the connection closes;
- ``stall``: the same half is sent, then nothing more, until the client gives up (its read timeout);
- ``bye``: an unprompted ``* BYE`` is sent instead of that message, and the connection closes.

``throttle_s`` slows every server chunk (4 KiB) by that many seconds, so a sync can be killed mid-way.
After firing, the proxy forwards faithfully, so the next sync goes through it unchanged.
"""

from __future__ import annotations

import re
import socket
import threading
import time

LITERAL = re.compile(rb"BODY\[\] \{(\d+)\}\r\n")
FAULTS = ("cut", "truncate", "stall", "bye")


class FaultProxy:
    """``FaultProxy(upstream_port, fault="cut", at_literal=7)``; ``port`` is where clients connect."""

    def __init__(self, upstream_port: int, fault: str | None = None, at_literal: int = 1,
                 throttle_s: float = 0.0) -> None:
        if fault is not None and fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}; one of {FAULTS}")
        self.upstream_port = upstream_port
        self.fault = fault
        self.at_literal = at_literal
        self.throttle_s = throttle_s
        self.fired = threading.Event()
        self.literals_seen = 0
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._sockets: list[socket.socket] = []
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._server.getsockname()[1])
        threading.Thread(target=self._accept, daemon=True).start()

    def __enter__(self) -> FaultProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._closed.set()
        for s in [self._server, *self._sockets]:
            _close(s)

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            except OSError:
                _close(client)
                continue
            self._sockets += [client, upstream]
            threading.Thread(target=self._pump_up, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump_down, args=(upstream, client), daemon=True).start()

    def _pump_up(self, client: socket.socket, upstream: socket.socket) -> None:
        """Client -> server, unchanged."""
        try:
            while data := client.recv(65536):
                upstream.sendall(data)
        except OSError:
            pass
        finally:
            _close(upstream)

    def _send(self, client: socket.socket, data: bytes) -> None:
        for i in range(0, len(data), 4096):
            if self.throttle_s:
                time.sleep(self.throttle_s)
            client.sendall(data[i:i + 4096])

    def _pump_down(self, upstream: socket.socket, client: socket.socket) -> None:
        """Server -> client, scanning for FETCH literals and injecting the fault at the chosen one."""
        pending = b""
        try:
            while data := upstream.recv(65536):
                pending += data
                while True:
                    match = LITERAL.search(pending)
                    if match is None:
                        break
                    with self._lock:
                        self.literals_seen += 1
                        hit = self.fault is not None and not self.fired.is_set() \
                            and self.literals_seen >= self.at_literal
                        if hit:
                            self.fired.set()
                    if hit:
                        self._inject(upstream, client, pending, match)
                        return
                    self._send(client, pending[:match.end()])
                    pending = pending[match.end():]
                cut = pending.rfind(b"\n") + 1  # a literal header ends a line: hold back only a partial line
                if cut:
                    self._send(client, pending[:cut])
                    pending = pending[cut:]
            self._send(client, pending)
        except OSError:
            pass
        finally:
            _close(client)
            _close(upstream)

    def _inject(self, upstream: socket.socket, client: socket.socket, pending: bytes, match: re.Match[bytes]) -> None:
        line_start = pending.rfind(b"\r\n*", 0, match.start())
        before = pending[:line_start + 2] if line_start >= 0 else b""
        if self.fault == "cut":
            self._send(client, before)
        elif self.fault == "bye":
            self._send(client, before + b"* BYE Server shutting down for maintenance\r\n")
        else:  # truncate, stall: the header and half of the literal's bytes
            size = int(match.group(1))
            while len(pending) < match.end() + size // 2:
                more = upstream.recv(65536)
                if not more:
                    break
                pending += more
            self._send(client, pending[:match.end() + size // 2])
            if self.fault == "stall":
                while not self._closed.is_set():  # nothing more until the client gives up
                    try:
                        client.settimeout(0.2)
                        if client.recv(1) == b"":
                            break
                    except TimeoutError:
                        continue
                    except OSError:
                        break
        try:
            client.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _close(s: socket.socket) -> None:
    try:
        s.close()
    except OSError:
        pass
