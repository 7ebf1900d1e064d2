"""A loopback HTTP server that serves files the way the Hugging Face hub does, for ``pull`` tests.

It answers ``HEAD`` and ``GET /{owner}/{repo}/resolve/{revision}/{path}`` with the headers
huggingface_hub reads: ``X-Repo-Commit`` (the commit a revision resolves to), ``ETag`` and, for LFS
files, ``X-Linked-Etag`` (the SHA-256 of the content) and ``X-Linked-Size``; non-LFS files carry their git
blob id as ETag. ``Range: bytes=N-`` is answered with 206 and ``Content-Range``. Faults are opt-in per
file: drop the connection half-way on the first GET, or serve other bytes than the announced hash.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMIT = "3f1c2a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a"


@dataclass
class HubFile:
    """One file of a repository: its bytes, whether it is in LFS, and the faults to play."""

    content: bytes
    lfs: bool = True
    drop_first_get_at: int | None = None  # bytes sent before the first GET is cut off
    served_content: bytes | None = None  # bytes actually sent (a corrupt mirror), if not ``content``
    gets: int = 0

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.content).hexdigest()

    @property
    def git_sha1(self) -> str:
        return hashlib.sha1(f"blob {len(self.content)}\0".encode() + self.content).hexdigest()


@dataclass
class Hub:
    """The repositories served: ``files[(repo, path)]``; every request line is logged in ``requests``."""

    files: dict[tuple[str, str], HubFile] = field(default_factory=dict)
    requests: list[tuple[str, str, str | None]] = field(default_factory=list)  # (method, path, Range)
    url: str = ""
    _server: ThreadingHTTPServer | None = None

    def start(self) -> Hub:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_HEAD(self) -> None:  # noqa: N802
                self._serve(body=False)

            def do_GET(self) -> None:  # noqa: N802
                self._serve(body=True)

            def _serve(self, body: bool) -> None:
                hub.requests.append((self.command, self.path, self.headers.get("Range")))
                parts = self.path.split("?")[0].lstrip("/").split("/")
                if len(parts) < 5 or parts[2] != "resolve":
                    return self._error(404, "EntryNotFound")
                repo, path = "/".join(parts[:2]), "/".join(parts[4:])
                f = hub.files.get((repo, path))
                if f is None:
                    return self._error(404, "EntryNotFound")
                data = f.served_content if f.served_content is not None else f.content
                start = 0
                rng = self.headers.get("Range")
                if body and rng and rng.startswith("bytes="):
                    start = int(rng[6:].split("-")[0])
                self.send_response(206 if start else 200)
                self.send_header("X-Repo-Commit", COMMIT)
                self.send_header("Accept-Ranges", "bytes")
                self.send_header("Content-Type", "application/octet-stream")
                if f.lfs:
                    self.send_header("ETag", f'"{f.git_sha1}"')
                    self.send_header("X-Linked-Etag", f'"{f.sha256}"')
                    self.send_header("X-Linked-Size", str(len(f.content)))
                else:
                    self.send_header("ETag", f'"{f.git_sha1}"')
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.send_header("Content-Length", str(len(data) - start))
                self.end_headers()
                if not body:
                    return
                f.gets += 1
                if f.gets == 1 and f.drop_first_get_at is not None:
                    self.wfile.write(data[:f.drop_first_get_at])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(data[start:])

            def _error(self, code: int, kind: str) -> None:
                self.send_response(code)
                self.send_header("X-Error-Code", kind)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
