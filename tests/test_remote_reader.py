"""The reader on the person's own server (docs/models.md): :class:`RemoteGenerator` against llama-cpp-python's
OpenAI-compatible server on 127.0.0.1 running the bundled SmolLM2: streaming, the JSON-schema constraint,
cancel, the host rule, and a whole ask with every non-loopback connection refused."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.config import ModelSettings, Settings
from assistant.errors import Cancelled, ModelError
from assistant.models.base import GenerationRequest
from assistant.models.locate import fast_llm_path
from assistant.models.remote import RemoteGenerator, check_reader_url, destination

pytest.importorskip("fastapi", reason="llama-cpp-python's server needs the test extra (fastapi, uvicorn...)")

SCHEMA: dict[str, object] = {"type": "object", "properties": {"city": {"type": "string"}, "year": {"type": "integer"}},
          "required": ["city", "year"]}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(fast_llm_path()),
                                 "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096"],
                                stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(600):  # the server loads the model, then listens
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited: {log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_only_loopback_without_a_setting() -> None:
    assert check_reader_url("http://127.0.0.1:8080/v1") == "127.0.0.1"
    assert check_reader_url("http://localhost:11434/v1") == "localhost"
    assert check_reader_url("http://[::1]:8000/v1") == "::1"
    with pytest.raises(ModelError, match='allow_remote_reader_host = "gpu-box.lan"'):
        RemoteGenerator("http://gpu-box.lan:8000/v1")
    with pytest.raises(ModelError, match="passages of every question would be sent to 10.0.0.7"):
        check_reader_url("http://10.0.0.7:8000/v1", "gpu-box.lan")
    assert RemoteGenerator("http://gpu-box.lan:8000/v1", allowed_host="gpu-box.lan").host == "gpu-box.lan"
    assert "leave this machine" in destination("http://gpu-box.lan:8000/v1")
    assert "on this machine" in destination("http://127.0.0.1:8000/v1")
    with pytest.raises(ModelError, match="not a reader server URL"):
        check_reader_url("ftp://127.0.0.1/v1")


def test_streams_pieces(server: str) -> None:
    gen = RemoteGenerator(server)
    pieces = list(gen.stream(GenerationRequest("You are helpful.", "Count from one to ten in words.",
                                               max_tokens=40, purpose="answer")))
    assert len(pieces) > 3 and "".join(pieces).strip()
    assert gen.usage[-1].purpose == "answer" and gen.usage[-1].completion_tokens > 3
    assert gen.usage[-1].prompt_tokens > 0  # the server's count, or an estimate where it sends none


def test_json_schema_constraint(server: str) -> None:
    gen = RemoteGenerator(server)
    raw = gen.complete(GenerationRequest("Reply in JSON.", "Where and when were the 1900 Olympics held?",
                                         max_tokens=60, json_schema=SCHEMA, purpose="route"))
    reply = json.loads(raw)
    assert isinstance(reply["city"], str) and isinstance(reply["year"], int)


def test_cancel_mid_reply_and_before_the_first_piece(server: str) -> None:
    gen = RemoteGenerator(server)
    cancel = threading.Event()
    got: list[str] = []
    with pytest.raises(Cancelled):
        for piece in gen.stream(GenerationRequest("You are helpful.", "Write a long story about a boat.",
                                                  max_tokens=200, cancel=cancel)):
            got.append(piece)
            if len(got) == 3:
                cancel.set()
    assert len(got) == 3

    cancel = threading.Event()
    timer = threading.Timer(0.05, cancel.set)  # during the prefill of a long prompt
    timer.start()
    with pytest.raises(Cancelled):
        list(gen.stream(GenerationRequest("You are helpful.", "Summarise: " + "the boat sailed on. " * 60,
                                          max_tokens=100, cancel=cancel)))
    timer.join()
    # the server is free again for the next request
    assert gen.complete(GenerationRequest("You are helpful.", "Say yes.", max_tokens=5)).strip()


def test_ask_through_the_reader_server_with_the_network_refused(
        server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ASSISTANT_CONFIG_DIR", str(tmp_path / "config"))
    assert main(["models", "use", server]) == 0
    assert main(["models", "status"]) == 0
    out = capsys.readouterr().out
    assert f"a reader server on this machine ({server})" in out

    from assistant.service import ModelStore

    store = ModelStore(Settings(models=ModelSettings(llm=server)))
    assert isinstance(store.generator(), RemoteGenerator)

    attempts: list[object] = []
    real_connect = socket.socket.connect

    def connect(self: socket.socket, address: object) -> None:
        host = address[0] if isinstance(address, tuple) else address
        if self.family in (socket.AF_INET, socket.AF_INET6) and host not in ("127.0.0.1", "::1", "localhost"):
            attempts.append(address)
            raise ConnectionRefusedError(f"test: network refused for {address}")
        real_connect(self, address)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", connect)
    doc = tmp_path / "memo.txt"
    doc.write_text("Memo. The quarterly review meeting moved to Thursday 14 May in room B-12.\n" * 3)
    code = main(["ask", "--json", "--no-router", str(doc), "Which room is the review meeting in?"])
    record = json.loads(capsys.readouterr().out)
    assert code in (0, 3) and record["sources"][0]["source"] == str(doc)
    assert attempts == []
