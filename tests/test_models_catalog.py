"""The model catalogue and manager (docs/models.md): list, pull from a loopback hub, verify, use, remove, status;
and the GGUF's own chat template on the bundled Llama-architecture SmolLM2."""

from __future__ import annotations

import hashlib
import json
import socket
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hubserver import COMMIT, Hub, HubFile

from assistant.cli import main
from assistant.errors import ModelError
from assistant.models import catalog, download
from assistant.models.locate import fast_llm_path

REPO = "test-org/SmolLM2-135M-GGUF"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


@pytest.fixture(scope="module")
def gguf_bytes() -> bytes:
    return fast_llm_path().read_bytes()


@pytest.fixture()
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    config, data = tmp_path / "config", tmp_path / "data"
    monkeypatch.setenv("ASSISTANT_CONFIG_DIR", str(config))
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(data))
    return config, data


@pytest.fixture()
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[Hub]:
    server = Hub().start()
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    yield server
    server.stop()


def write_catalog(config: Path, entries: str) -> None:
    config.mkdir(parents=True, exist_ok=True)
    (config / "catalog.toml").write_text(entries, encoding="utf-8")


def tiny_reader(sha256: str) -> str:
    return f"""
[[model]]
name = "tiny-llama"
role = "reader"
title = "SmolLM2 served by the test hub"
repo = "{REPO}"
files = ["{GGUF}"]
revision = "main"
sha256 = {{ "{GGUF}" = "{sha256}" }}
size = 1
licence = "Apache-2.0"
"""


def test_packaged_catalogue_names_the_issue_models() -> None:
    entries = {e.name: e for e in catalog.packaged_catalog()}
    for name in ("llama-3.2-1b-instruct", "llama-3.2-3b-instruct", "qwen2.5-1.5b-instruct", "qwen2.5-3b-instruct",
                 "llama-3.1-8b-instruct"):
        e = entries[name]
        assert e.role == "reader" and e.gguf and "Q4_K_M" in e.gguf.upper() and e.licence and e.ram_gb > 0
    assert entries["distilbert-base-uncased"].role == "encoder"
    assert entries["msmarco-distilbert"].role == "encoder"
    assert entries["bge-small-en-v1.5"].role == "embedder"
    assert entries["multilingual-minilm"].role == "embedder" and entries["multilingual-minilm"].licence
    for e in entries.values():
        assert all(len(h) == 64 and int(h, 16) >= 0 for h in e.sha256.values()), e.name
        assert e.bundled == ("(measured here)" in e.speed), e.name  # only what runs here is measured here
        assert e.bundled or e.speed.startswith("not measured here"), e.name
    assert entries["bundled"].sha256[entries["bundled"].files[0]] == \
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"


def test_pull_resumes_a_dropped_download_then_use_and_ask(
        dirs: tuple[Path, Path], hub: Hub, gguf_bytes: bytes, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    config, data = dirs
    sha = hashlib.sha256(gguf_bytes).hexdigest()
    cut = len(gguf_bytes) // 3
    hub.files[(REPO, GGUF)] = HubFile(gguf_bytes, drop_first_get_at=cut)
    write_catalog(config, tiny_reader(sha))

    assert main(["models", "pull", "tiny-llama"]) == 0
    installed = data / "models" / "tiny-llama" / GGUF
    assert hashlib.sha256(installed.read_bytes()).hexdigest() == sha
    gets = [r for r in hub.requests if r[0] == "GET"]
    assert len(gets) == 2 and gets[0][2] is None
    resumed_at = int(str(gets[1][2]).removeprefix("bytes=").rstrip("-"))  # the second GET resumed, not restarted
    assert 0 < resumed_at <= cut
    assert all(f"/resolve/{COMMIT}/" in r[1] for r in gets)  # pinned to the commit the hub reported
    record = json.loads((data / "models" / "tiny-llama" / "manifest.json").read_text())
    assert record["revision"] == COMMIT and record["files"][GGUF]["sha256"] == sha
    assert not (data / "models" / ".incoming").exists() or not any((data / "models" / ".incoming").iterdir())

    assert main(["models", "use", "tiny-llama"]) == 0
    settings = tomllib.loads((config / "config.toml").read_text())
    assert settings["models"]["llm"] == "tiny-llama"
    capsys.readouterr()
    assert main(["models", "status"]) == 0
    out = capsys.readouterr().out
    assert str(installed) in out and "ok (sha256 verified)" in out and "GPU" in out

    # an ask on the pulled model: no request to the hub, no connection off this machine
    n_requests = len(hub.requests)
    monkeypatch.setattr(socket, "getaddrinfo", _refuse_non_loopback(socket.getaddrinfo))
    doc = tmp_path / "memo.txt"
    doc.write_text("Memo. The quarterly review meeting moved to Thursday 14 May in room B-12.\n" * 3)
    code = main(["ask", "--json", "--no-router", str(doc), "Which room is the review meeting in?"])
    answer = json.loads(capsys.readouterr().out)
    assert code in (0, 3) and answer["sources"][0]["source"] == str(doc)
    assert len(hub.requests) == n_requests


def _refuse_non_loopback(real: object) -> object:
    def getaddrinfo(host: object, *args: object, **kwargs: object) -> object:
        if host not in ("127.0.0.1", "localhost", "::1", None):
            raise socket.gaierror(f"test: network refused for {host}")
        return real(host, *args, **kwargs)  # type: ignore[operator]
    return getaddrinfo


def test_a_wrong_hash_is_refused_and_nothing_installed(dirs: tuple[Path, Path], hub: Hub,
                                                      gguf_bytes: bytes) -> None:
    config, data = dirs
    sha = hashlib.sha256(gguf_bytes).hexdigest()
    corrupt = bytearray(gguf_bytes)
    corrupt[len(corrupt) // 2] ^= 0xFF
    hub.files[(REPO, GGUF)] = HubFile(gguf_bytes, served_content=bytes(corrupt))  # announces the right hash
    write_catalog(config, tiny_reader(sha))
    with pytest.raises(ModelError, match="has sha256 .* expected " + sha):
        download.pull(catalog.entry("tiny-llama"))
    assert not (data / "models" / "tiny-llama").exists()
    assert not list((data / "models").rglob("*.gguf"))

    # the catalogue pins another file than the hub serves: refused before any byte is fetched
    hub.requests.clear()
    hub.files[(REPO, GGUF)] = HubFile(gguf_bytes)
    write_catalog(config, tiny_reader("0" * 64))
    with pytest.raises(ModelError, match="catalogue pins 000000000000"):
        download.pull(catalog.entry("tiny-llama"))
    assert [r[0] for r in hub.requests] == ["HEAD"]
    with pytest.raises(ModelError, match="not pulled yet"):
        main_or_raise(["models", "use", "tiny-llama"])


def main_or_raise(argv: list[str]) -> None:
    from assistant.cli.models import run_models

    run_models(argv[1], argv[2] if len(argv) > 2 else None)


def test_offline_pull_is_refused_clearly(dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    config, data = dirs
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    monkeypatch.setattr(socket, "getaddrinfo", _refuse_non_loopback(socket.getaddrinfo))
    assert main(["models", "pull", "llama-3.2-1b-instruct"]) == 1
    err = capsys.readouterr().err
    assert "cannot reach the model hub at https://huggingface.co" in err
    assert "offline" in err and "bundled models keep working" in err
    assert not (data / "models" / "llama-3.2-1b-instruct").exists()

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    assert main(["models", "pull", "llama-3.2-1b-instruct"]) == 1
    assert f"cannot reach the model hub at http://127.0.0.1:{port}" in capsys.readouterr().err
    # the bundled reader still answers the settings
    assert main(["models", "use", "fast"]) == 0


def test_folder_model_pull_verify_use_remove(dirs: tuple[Path, Path], hub: Hub,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    config, data = dirs
    config_json = b'{"model_type": "distilbert", "dim": 32}\n'
    weights = bytes(range(256)) * 64
    repo = "test-org/tiny-distilbert"
    hub.files[(repo, "config.json")] = HubFile(config_json, lfs=False)  # checked by its git blob id
    hub.files[(repo, "model.safetensors")] = HubFile(weights)
    write_catalog(config, f"""
[[model]]
name = "tiny-encoder"
role = "encoder"
title = "a tiny encoder folder"
repo = "{repo}"
files = ["config.json", "model.safetensors"]
""")
    entry = catalog.entry("tiny-encoder")
    folder = download.pull(entry)
    assert folder == data / "models" / "tiny-encoder"
    assert (folder / "config.json").read_bytes() == config_json
    assert download.verify(entry) == []
    assert main(["models", "use", "tiny-encoder"]) == 0
    assert tomllib.loads((config / "config.toml").read_text())["models"]["encoder_dir"] == str(folder)
    assert main(["models", "remove", "tiny-encoder"]) == 1  # in use
    capsys.readouterr()

    (folder / "model.safetensors").write_bytes(weights[::-1])  # same size, other bytes
    assert main(["models", "verify", "tiny-encoder"]) == 1
    assert "FAILED" in capsys.readouterr().out

    assert main(["models", "use", "minilm"]) == 0
    assert "encoder_dir" not in tomllib.loads((config / "config.toml").read_text())["models"]
    assert main(["models", "remove", "tiny-encoder"]) == 0
    assert not folder.exists()

    # a non-LFS file whose bytes do not match its git blob id is refused
    hub.files[(repo, "config.json")] = HubFile(config_json, lfs=False, served_content=config_json.upper())
    with pytest.raises(ModelError, match="git blob id"):
        download.pull(entry)


def test_list_shows_the_catalogue(dirs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "list"]) == 0
    out = capsys.readouterr().out
    assert "llama-3.2-3b-instruct" in out and "not measured here" in out and "measured here" in out
    assert "Llama 3.2 Community License" in out


def test_gguf_chat_template_and_prompts_on_smollm2(fast_llm: object) -> None:
    """SmolLM2 is a Llama-architecture GGUF with its own (ChatML) template: llama-cpp-python formats with it,
    and the router, rewrite and answer prompts run on it with their JSON constraints."""
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    from assistant.models.llama import LlamaGenerator
    from assistant.records import Chunk
    from assistant.ttrag import router
    from assistant.ttrag.generate import answer_schema, parse_reply, stream_answer
    from assistant.ttrag.qtype import question_type
    from assistant.ttrag.rewrite import rewrite_query

    assert isinstance(fast_llm, LlamaGenerator)
    llm = fast_llm.llm
    assert llm.metadata["general.architecture"] == "llama"
    assert fast_llm.chat_template.startswith("the model's own")
    formatter = Jinja2ChatFormatter(llm.metadata["tokenizer.chat_template"], eos_token="<|im_end|>",
                                    bos_token="<|im_start|>")
    prompt = formatter(messages=[{"role": "system", "content": "S"}, {"role": "user", "content": "U"}]).prompt
    assert "<|im_start|>system\nS<|im_end|>" in prompt and "<|im_start|>user\nU<|im_end|>" in prompt

    n_before = len(fast_llm.usage)
    decision = router.route(fast_llm, "How many times does the word boiler appear?")
    raw = json.loads(decision.raw)  # the constraint held: the raw reply is the schema's JSON
    properties = router.ROUTE_SCHEMA["properties"]
    assert isinstance(properties, dict) and set(raw) <= set(properties)
    text = "The boiler was serviced on 3 June by Hollis Heating. The service cost 180 pounds."
    chunks = [Chunk(0, text, "notes.md", 0, len(text))]
    assert isinstance(rewrite_query(fast_llm, "Who serviced it?", "Who serviced it?", chunks), str)
    question = "Who serviced the boiler?"
    pieces: list[str] = []
    reading = stream_answer(fast_llm, question, chunks, max_tokens=96, on_text=pieces.append)
    fields = parse_reply(reading.raw)
    required = answer_schema(question_type(question)).get("required", [])
    assert isinstance(required, list) and fields and set(required) <= set(fields)
    assert [u.purpose for u in fast_llm.usage[n_before:]] == ["route", "rewrite", "answer"]
