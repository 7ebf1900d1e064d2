"""A reader on the person's own server: the :class:`Generator` protocol over an OpenAI-compatible API.

Opt-in: ``models.llm`` set to the server's base URL (``http://127.0.0.1:8080/v1`` for the llama.cpp
server or ``llama_cpp.server``, ``http://127.0.0.1:11434/v1`` for Ollama, vLLM's ``/v1``). The
passages of every ask are sent there, so a server that is not on this machine (loopback) must be named
in ``models.allow_remote_reader_host`` as well; :attr:`RemoteGenerator.destination` says where they go.

Protocol: ``POST {base}/chat/completions`` with ``stream: true`` (server-sent events, ``data: {json}``
lines, ``data: [DONE]`` at the end), temperature 0. The JSON-schema constraint is sent as OpenAI's
``response_format: {"type": "json_schema", ...}`` (vLLM, Ollama, the llama.cpp server); a server that
rejects it (HTTP 400/422, or an error naming ``response_format``) gets llama-cpp-python's
``{"type": "json_object", "schema": ...}`` instead, remembered for the following calls.

Cancel: the reply is read on a worker thread, so a set ``request.cancel`` raises :class:`Cancelled`
within 0.1 s even during a long prefill; the worker closes the connection at the server's next piece,
and the server stops generating when it sees it closed.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from assistant import netguard
from assistant.accounts import is_loopback
from assistant.errors import Cancelled, ModelError
from assistant.models.base import GenerationRequest, Generator

_POLL_S = 0.1


def is_reader_url(value: str) -> bool:
    """True when ``models.llm`` names a reader server rather than a model file or name."""
    return value.startswith(("http://", "https://"))


def check_reader_url(url: str, allowed_host: str = "") -> str:
    """The host of ``url`` when passages may be sent there; loopback always, another host only when it is
    ``allowed_host`` (the ``models.allow_remote_reader_host`` setting).

    Raises:
        ModelError: not an http(s) URL, or a host other than this machine that the settings do not allow.
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host:
        raise ModelError(f"{url} is not a reader server URL; use http://HOST:PORT/v1")
    if is_loopback(host) or (allowed_host and host.lower() == allowed_host.lower()):
        return host
    raise ModelError(f"the reader server {url} is not on this machine: the passages of every question would be "
                     f"sent to {host}. To allow it, set allow_remote_reader_host = \"{host}\" under [models] in "
                     "config.toml")


def destination(url: str) -> str:
    """Plain words for where passages go with the reader at ``url``."""
    host = urlsplit(url).hostname or url
    if is_loopback(host):
        return f"a reader server on this machine ({url})"
    return f"the reader server at {host} ({url}): passages you ask about leave this machine"


class RemoteGenerator(Generator):
    """An OpenAI-compatible chat-completions server as the reader (router, rewrite, answer).

    Args:
        base_url: the API root, e.g. ``http://127.0.0.1:8080/v1``.
        model: the model name sent with each request (llama.cpp ignores it; Ollama and vLLM need it).
        allowed_host: the non-loopback host the person allowed (``models.allow_remote_reader_host``).
        timeout: seconds to wait for the server to connect and between two pieces of the reply.

    Raises:
        ModelError: the URL names a host passages may not go to (see :func:`check_reader_url`).
    """

    def __init__(self, base_url: str, *, model: str = "", allowed_host: str = "", timeout: float = 600.0,
                 api_key: str | None = None) -> None:
        import httpx2

        super().__init__()
        self.base_url = base_url.rstrip("/")
        self.host = check_reader_url(self.base_url, allowed_host)
        self.model = model or "default"
        self.destination = destination(self.base_url)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx2.Client(timeout=httpx2.Timeout(timeout, connect=10.0), headers=headers,
                                     trust_env=False)
        self._schema_style = "json_schema"

    def close(self) -> None:
        """Close the HTTP connections."""
        self._client.close()

    def _body(self, request: GenerationRequest) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model, "stream": True, "temperature": 0.0, "max_tokens": request.max_tokens,
            "messages": [{"role": "system", "content": request.system}, {"role": "user", "content": request.user}],
            "stream_options": {"include_usage": True},
        }
        if request.json_schema is not None:
            if self._schema_style == "json_schema":
                body["response_format"] = {"type": "json_schema", "json_schema": {
                    "name": request.purpose or "reply", "schema": request.json_schema, "strict": True}}
            else:
                body["response_format"] = {"type": "json_object", "schema": request.json_schema}
        return body

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        """See :meth:`Generator.stream`.

        Raises:
            Cancelled: ``request.cancel`` was set (the connection is closed).
            ModelError: the server cannot be reached or answered with an error.
        """
        cancel = request.cancel
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        t0 = time.perf_counter()
        first: float | None = None
        n_out = 0
        usage: dict[str, int] = {}
        pieces: queue.Queue[tuple[str, Any]] = queue.Queue()
        stop = threading.Event()
        worker = threading.Thread(target=self._read, args=(request, pieces, stop, usage), daemon=True,
                                  name="remote-reader")
        worker.start()
        try:
            while True:
                try:
                    kind, value = pieces.get(timeout=_POLL_S)
                except queue.Empty:
                    if cancel is not None and cancel.is_set():
                        raise Cancelled() from None
                    continue
                if cancel is not None and cancel.is_set():
                    raise Cancelled()
                if kind == "text":
                    if first is None:
                        first = time.perf_counter()
                    n_out += 1
                    yield value
                elif kind == "error":
                    raise value
                else:
                    break
        finally:
            stop.set()
            # the server's counts when it sends them (stream_options.include_usage), else estimates
            prompt_tokens = usage.get("prompt_tokens") or self.count_tokens(request.system + request.user)
            self._record(request.purpose, prompt_tokens, usage.get("completion_tokens") or n_out, t0, first)

    def _read(self, request: GenerationRequest, out: queue.Queue[tuple[str, Any]], stop: threading.Event,
              usage: dict[str, int]) -> None:
        """Worker thread: :meth:`_read_reply`, its connection logged as for "asking the reader server"."""
        with netguard.purpose("asking the reader server"):
            self._read_reply(request, out, stop, usage)

    def _read_reply(self, request: GenerationRequest, out: queue.Queue[tuple[str, Any]], stop: threading.Event,
                    usage: dict[str, int]) -> None:
        """POST the request and put ``("text", piece)``, then ``("end", None)`` or
        ``("error", ModelError)`` on ``out``; leaves early (closing the connection) once ``stop`` is set."""
        import httpx2

        url = f"{self.base_url}/chat/completions"
        try:
            for attempt in range(2):
                with self._client.stream("POST", url, json=self._body(request)) as response:
                    if response.status_code >= 400:
                        body = response.read()
                        if request.json_schema is not None and attempt == 0 and self._schema_style == "json_schema" \
                                and (response.status_code in (400, 422) or b"response_format" in body):
                            self._schema_style = "json_object"  # llama-cpp-python's server form (it answers 500)
                            continue
                        detail = body.decode("utf-8", "replace")[:300]
                        raise ModelError(f"the reader server {self.base_url} answered HTTP {response.status_code}: "
                                         f"{detail}")
                    for line in response.iter_lines():
                        if stop.is_set():
                            return
                        if not line.startswith("data:"):
                            continue
                        data = line[5:].strip()
                        if data == "[DONE]":
                            break
                        try:
                            chunk = json.loads(data)
                        except ValueError as exc:
                            raise ModelError(f"the reader server {self.base_url} sent a line that is not JSON: "
                                             f"{data[:100]!r}") from exc
                        if chunk.get("usage"):
                            usage.update({k: int(v) for k, v in chunk["usage"].items() if isinstance(v, int)})
                        for choice in chunk.get("choices") or []:
                            text = (choice.get("delta") or {}).get("content")
                            if text:
                                out.put(("text", text))
                    break
            out.put(("end", None))
        except ModelError as exc:
            out.put(("error", exc))
        except httpx2.HTTPError as exc:
            if not stop.is_set():
                off = netguard.refusal(exc)  # offline mode and a reader server on another machine
                out.put(("error", ModelError(str(off) if off is not None else
                                             f"cannot reach the reader server {self.base_url}: {exc}")))
