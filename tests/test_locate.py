"""Model files: the bundled 1.5B model is joined once and hash-verified; bad files are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.config import ModelSettings
from assistant.errors import ModelError
from assistant.models import locate
from assistant.models.llama import check_gguf


def test_bundled_packages_are_found() -> None:
    assert (locate.bundled_minilm_dir() / "config.json").is_file()
    check_gguf(locate.fast_llm_path())


def test_missing_package_names_the_fix() -> None:
    with pytest.raises(ModelError, match="not-a-model-package is not installed"):
        locate.package_dir("not_a_model_package")


def test_truncated_bundled_model_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path))
    target = locate.bundled_llm_path()
    target.parent.mkdir(parents=True)
    target.write_bytes(b"GGUF" + b"\0" * 1000)
    with pytest.raises(ModelError, match="corrupt or truncated"):
        locate.llm_path(ModelSettings(llm="bundled"))
    # a stamp from an earlier check does not vouch for a file that changed since
    stamp = target.with_name(target.name + ".verified.json")
    stamp.write_text(json.dumps({"size": 1, "mtime_ns": 1, "sha256": locate.BUNDLED_LLM_SHA256}))
    assert not locate.verified(target)


def test_unassembled_bundled_model_says_how(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path))
    with pytest.raises(ModelError, match="assistant models setup"):
        locate.llm_path(ModelSettings(llm="bundled"))


def test_user_path_must_be_gguf(tmp_path: Path) -> None:
    bad = tmp_path / "model.gguf"
    bad.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="not a GGUF model file"):
        check_gguf(bad)
    with pytest.raises(ModelError, match="not found"):
        locate.llm_path(ModelSettings(llm=str(tmp_path / "absent.gguf")))


def test_assembled_model_verifies() -> None:
    path = locate.assemble_llm()  # idempotent: joins once per machine
    assert path.stat().st_size == locate.BUNDLED_LLM_SIZE
    assert locate.verified(path)
    assert locate.llm_path(ModelSettings(llm="bundled")) == path
