"""The llama-cpp-python internals the reader relies on exist in the installed (pinned) release.

``assistant.models.llama`` reaches past llama-cpp-python's public API: it replaces ``Llama._init_sampler``
with a greedy grammar sampler, sets llama.cpp's abort callback on ``Llama._ctx.ctx``, reads a grammar's
text from ``LlamaGrammar._grammar`` and ``._root``, and replaces ``suppress_stdout_stderr``. A release
that renames any of these breaks the reader without an import error, so the version is pinned
(``pyproject.toml``, ``packaging/constraints.txt``) and this test names what went missing.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import re
from pathlib import Path

import llama_cpp.llama_cpp as low
import pytest
from llama_cpp import Llama, LlamaGrammar

ROOT = Path(__file__).resolve().parents[1]


def _pin(text: str) -> str:
    found = re.search(r"llama-cpp-python==([\w.]+)", text)
    assert found, "llama-cpp-python is not pinned with =="
    return found.group(1)


def test_the_installed_release_is_the_pinned_one() -> None:
    pinned = _pin((ROOT / "pyproject.toml").read_text())
    assert _pin((ROOT / "packaging" / "constraints.txt").read_text()) == pinned
    assert importlib.metadata.version("llama-cpp-python") == pinned


@pytest.mark.parametrize("name", [
    "llama_log_set", "llama_log_callback", "ggml_abort_callback", "llama_context_p_ctypes", "_lib",
    "llama_sampler_init_grammar", "llama_sampler_apply", "llama_sampler_accept", "llama_sampler_free",
    "llama_token_data", "llama_token_data_array", "llama_supports_gpu_offload",
])
def test_low_level_bindings_exist(name: str) -> None:
    assert hasattr(low, name), f"llama_cpp.llama_cpp.{name} is gone"


def test_llama_internals_exist() -> None:
    parameters = inspect.signature(Llama._init_sampler).parameters
    for name in ("grammar", "temp", "repeat_penalty", "logits_processor", "frequency_penalty",
                 "presence_penalty"):
        assert name in parameters, f"Llama._init_sampler takes no {name!r}"
    # the sampler is asked for by Llama.sample/generate, which our override must still sit under
    assert "_init_sampler" in inspect.getsource(Llama.generate)
    init = inspect.getsource(Llama.__init__)
    for attribute in ("self._ctx", "self._model", "self._n_vocab", "self.last_n_tokens_size"):
        assert attribute in init, f"Llama.__init__ no longer sets {attribute}"
    grammar = LlamaGrammar.from_string('root ::= "a"', verbose=False)
    assert isinstance(grammar._grammar, str) and isinstance(grammar._root, str)


def test_output_redirect_is_where_it_is_replaced() -> None:
    import llama_cpp._internals
    import llama_cpp.llama

    assert any(hasattr(m, "suppress_stdout_stderr") for m in (llama_cpp.llama, llama_cpp._internals))
