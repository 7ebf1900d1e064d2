"""LLM backend on llama-cpp-python (GGUF files): streaming chat, JSON-schema constrained decoding."""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import llama_cpp.llama_cpp
import numpy as np
from llama_cpp import Llama, LlamaGrammar, LlamaRAMCache

from assistant.errors import Cancelled, ModelError
from assistant.models.base import GenerationRequest, Generator

_LOG = logging.getLogger("llama_cpp")


@llama_cpp.llama_cpp.llama_log_callback
def _log_to_logging(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
    del level, user_data
    _LOG.debug("%s", text.decode("utf-8", "replace").rstrip())


_quiet_lock = threading.Lock()
_quiet = False


def quiet_llama_log() -> None:
    """Send llama.cpp's log to :mod:`logging` (logger ``llama_cpp``, level DEBUG) and stop llama-cpp-python
    from pointing the process's stdout and stderr at /dev/null while a model loads. Idempotent.

    With ``verbose=False`` the library silences a load by ``dup2``-ing /dev/null over file descriptors 1
    and 2 and swapping ``sys.stdout`` and ``sys.stderr``: process-wide, so whatever another thread prints
    meanwhile is lost too (llama-cpp-python issue #1874): the desktop app loads the LLM in a worker thread,
    and a model can load while another thread reports progress or a warning. llama.cpp writes its messages
    through the log callback (``llama_log_set``), so routing that callback keeps the terminal quiet.
    """
    global _quiet
    with _quiet_lock:
        if _quiet:
            return
        llama_cpp.llama_cpp.llama_log_set(_log_to_logging, ctypes.c_void_p(0))
        for name in ("llama_cpp.llama", "llama_cpp._internals"):
            module = importlib.import_module(name)
            if hasattr(module, "suppress_stdout_stderr"):
                # called as suppress_stdout_stderr(disable=verbose): a context that leaves the output alone
                module.suppress_stdout_stderr = lambda disable=True: contextlib.nullcontext()  # type: ignore[attr-defined]
        _quiet = True


class _Interrupted(Exception):
    """Raised inside llama-cpp-python's generation loop to leave it; becomes :class:`Cancelled`."""


class StoppableLlama(Llama):
    """``Llama`` that stops when :attr:`stop` is set: inside a decode and before each generated token.

    llama-cpp-python decodes the prompt in ``n_batch`` blocks with no way out, and
    ``create_chat_completion`` takes no stopping criteria. llama.cpp's abort callback is checked by
    ggml between the operations of a decode, so a set :attr:`stop` ends even a long prefill batch
    (``llama_decode`` returns 2, before ``n_tokens`` counts the batch; the next :meth:`eval` drops its
    KV cells, so the prefix already decoded is reused by the next call). Every generated token goes
    through :meth:`eval` too, which checks :attr:`stop` first.
    """

    stop: threading.Event | None = None
    on_prefill: Callable[[int, int], None] | None = None
    last_sampler: GreedyGrammarSampler | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.boolean_tokens = _boolean_tokens(self)
        self.yes_tokens = _boolean_tokens(self, (b"yes", b"no"))
        # kept on the instance: ctypes must not free the callback while llama.cpp holds it
        low = llama_cpp.llama_cpp
        self._abort = low.ggml_abort_callback(lambda _data: self._stopping())
        set_abort = low._lib.llama_set_abort_callback
        set_abort.argtypes = [low.llama_context_p_ctypes, low.ggml_abort_callback, ctypes.c_void_p]
        set_abort.restype = None
        set_abort(self._ctx.ctx, self._abort, None)

    def _init_sampler(self, *args: Any, **kwargs: Any) -> Any:
        """A :class:`GreedyGrammarSampler` for greedy decoding under a grammar (our JSON replies); the library's
        sampler chain for anything else."""
        grammar = kwargs.get("grammar")
        if (grammar is None or args or kwargs.get("temp", 0.8) != 0.0 or kwargs.get("logits_processor")
                or kwargs.get("frequency_penalty", 0.0) or kwargs.get("presence_penalty", 0.0)):
            return super()._init_sampler(*args, **kwargs)
        self.last_sampler = GreedyGrammarSampler(self._model.vocab, grammar, self._n_vocab,
                                                 repeat_penalty=kwargs.get("repeat_penalty", 1.0),
                                                 last_n=self.last_n_tokens_size, booleans=self.boolean_tokens,
                                                 yes_no=self.yes_tokens)
        return self.last_sampler

    def _stopping(self) -> bool:
        stop = self.stop
        return stop is not None and stop.is_set()

    def eval(self, tokens: Sequence[int]) -> None:
        """Decode ``tokens``; a prompt (more than one token) with :attr:`on_prefill` set is decoded one
        ``n_batch`` slice at a time, reporting ``(tokens decoded, tokens)`` after each (the library decodes
        the same slices in one call; a slice's logits land where they would)."""
        report = self.on_prefill if len(tokens) > 1 else None
        step = len(tokens) if report is None else max(1, self.n_batch)
        for i in range(0, len(tokens), step):
            if self._stopping():
                raise _Interrupted()
            try:
                super().eval(tokens[i:i + step])
            except RuntimeError as exc:
                if self._stopping():  # llama_decode returned 2: aborted by the callback
                    raise _Interrupted() from exc
                raise
            if report is not None:
                report(min(i + step, len(tokens)), len(tokens))


def _boolean_tokens(llm: Llama, words: tuple[bytes, bytes] = (b"true", b"false")) -> tuple[np.ndarray, np.ndarray]:
    """Token ids that spell ``words`` (``true`` and ``false``) alone (with or without a leading space)."""
    found: tuple[list[int], list[int]] = ([], [])
    for k, word in enumerate(words):
        for text in (word, b" " + word):
            ids = llm.tokenize(text, add_bos=False, special=False)
            if len(ids) == 1:
                found[k].append(ids[0])
    return np.array(found[0], dtype=np.int64), np.array(found[1], dtype=np.int64)


def _share(logits: np.ndarray, first: np.ndarray, second: np.ndarray) -> float:
    """P(``first``) over the two values' tokens only (a softmax restricted to them: the rest cancels out)."""
    top = float(logits.max())
    p_first = float(np.exp(logits[first] - top).sum())
    return p_first / (p_first + float(np.exp(logits[second] - top).sum()))


class GreedyGrammarSampler:
    """Greedy decoding under a grammar that checks the grammar on the best token first.

    llama-cpp-python's chain (repeat penalty, grammar, greedy) runs the grammar over the whole vocabulary
    (152k tokens for Qwen2.5) before every token. This sampler takes the best token after the repeat
    penalty and asks the grammar about that one token; only when the grammar rejects it does the grammar
    filter the whole vocabulary (llama.cpp's own ``common_sampler_sample`` does the same unless
    ``grammar_first``). The token chosen is the chain's: the best token the grammar allows, the first of
    equals. Measured in ``benchmarks/reader_prompt.py``.

    Used by :class:`StoppableLlama` through ``Llama.sample``, which calls ``sample(ctx, idx)``.
    """

    def __init__(self, vocab: Any, grammar: LlamaGrammar, n_vocab: int, *, repeat_penalty: float = 1.0,
                 last_n: int = 64, booleans: tuple[np.ndarray, np.ndarray] | None = None,
                 yes_no: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        low = llama_cpp.llama_cpp
        self._grammar = low.llama_sampler_init_grammar(vocab, grammar._grammar.encode("utf-8"),
                                                       grammar._root.encode("utf-8"))
        if not self._grammar:
            raise ModelError("llama.cpp could not parse the reply's grammar")
        self.n_vocab = n_vocab
        self.repeat_penalty = repeat_penalty
        self.recent: deque[int] = deque(maxlen=max(last_n, 0))
        self._one = (low.llama_token_data * 1)()
        self._all = (low.llama_token_data * n_vocab)()
        self._all_view = np.ctypeslib.as_array(self._all)  # fields id, logit, p
        self._all_view["id"] = np.arange(n_vocab, dtype=np.int32)
        self._all_view["p"] = 0.0  # the grammar writes only the logits
        self.full_passes = 0  # tokens the grammar had to filter the whole vocabulary for
        none = np.zeros(0, np.int64)
        self._true: np.ndarray = booleans[0] if booleans is not None else none
        self._false: np.ndarray = booleans[1] if booleans is not None else none
        self.boolean_probs: list[float] = []  # P(true) at each JSON boolean chosen, renormalised over the two
        self._yes: np.ndarray = yes_no[0] if yes_no is not None else none
        self._no: np.ndarray = yes_no[1] if yes_no is not None else none
        self.yes_probs: list[float] = []  # P(yes) at each lower-case "yes" or "no" chosen, over the two

    def _allows(self, token: int, logit: float) -> bool:
        low = llama_cpp.llama_cpp
        one = self._one[0]
        one.id, one.logit, one.p = token, logit, 0.0  # type: ignore[assignment]
        arr = low.llama_token_data_array(data=self._one, size=1, selected=-1, sorted=False)
        low.llama_sampler_apply(self._grammar, ctypes.byref(arr))
        return bool(np.isfinite(self._one[0].logit))

    def sample(self, ctx: Any, idx: int = -1) -> int:
        """The next token for the logits of batch position ``idx`` of ``ctx`` (a llama-cpp-python
        ``LlamaContext``); the grammar and the penalty window advance past it."""
        low = llama_cpp.llama_cpp
        logits = np.ctypeslib.as_array(low.llama_get_logits_ith(ctx.ctx, idx), shape=(self.n_vocab,)).copy()
        if self.repeat_penalty != 1.0 and self.recent:
            seen = np.fromiter(set(self.recent), dtype=np.int64)
            x = logits[seen]
            logits[seen] = np.where(x <= 0, x * self.repeat_penalty, x / self.repeat_penalty)
        token = int(np.argmax(logits))
        if not self._allows(token, float(logits[token])):
            self.full_passes += 1
            self._all_view["logit"] = logits
            arr = low.llama_token_data_array(data=self._all, size=self.n_vocab, selected=-1, sorted=False)
            low.llama_sampler_apply(self._grammar, ctypes.byref(arr))
            token = int(np.argmax(self._all_view["logit"]))
        if self._true.size and (token in self._true or token in self._false):
            self.boolean_probs.append(_share(logits, self._true, self._false))
        elif self._yes.size and (token in self._yes or token in self._no):
            self.yes_probs.append(_share(logits, self._yes, self._no))
        low.llama_sampler_accept(self._grammar, token)
        self.recent.append(token)
        return token

    def close(self) -> None:
        if self._grammar:
            llama_cpp.llama_cpp.llama_sampler_free(self._grammar)
            self._grammar = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001  (interpreter shutdown: llama_cpp may already be torn down)
            pass


class LlamaGenerator(Generator):
    """A GGUF model run by llama.cpp on the CPU.

    The system prompt comes first and stays constant, so llama.cpp's prefix match reuses its KV cache
    from the previous call (prefill is the dominant cost: ~40 tokens/s for the 1.5B model here).
    """

    def __init__(self, path: str | Path, *, n_ctx: int = 4096, threads: int = 0, seed: int = 0,
                 cache_bytes: int = 640 << 20, n_gpu_layers: int | None = 0, n_batch: int = 256,
                 n_threads_batch: int = 0, flash_attn: bool = False, kv_type: str | None = None) -> None:
        """Load the GGUF at ``path``. ``n_gpu_layers``: layers offloaded to a GPU (-1 all, None = all
        when :func:`gpu_offload_supported`, else 0). ``threads`` and ``n_threads_batch`` (0: the
        machine's physical cores), ``n_batch``, ``flash_attn`` and ``kv_type`` (the KV cache's ggml type,
        e.g. ``"q8_0"``; None: f16) are llama.cpp's own settings, compared in
        ``benchmarks/reader_knobs.py``.

        The chat template is the GGUF's own ``tokenizer.chat_template`` (llama-cpp-python renders it with
        Jinja2), so Llama 3, Qwen and SmolLM2 prompts are each formatted their own way; see
        :attr:`chat_template`.

        Raises:
            ModelError: not a GGUF file, or llama.cpp could not load it.
        """
        super().__init__()
        self.path = Path(path)
        check_gguf(self.path)
        self.n_gpu_layers = effective_gpu_layers(n_gpu_layers)
        quiet_llama_log()
        try:
            # n_batch 256: every saved state copies an (n_batch, n_vocab) float32 logits buffer
            # (156 MB for Qwen2.5's 152k vocabulary instead of 311 MB at the default 512).
            extra: dict[str, Any] = {}
            if kv_type:
                kind = getattr(llama_cpp, f"GGML_TYPE_{kv_type.upper()}")
                extra = {"type_k": kind, "type_v": kind}
            self.llm = StoppableLlama(model_path=str(self.path), n_ctx=n_ctx, n_threads=threads or physical_cores(),
                                      n_threads_batch=n_threads_batch or threads or physical_cores(),
                                      n_batch=n_batch, seed=seed, verbose=False, n_gpu_layers=self.n_gpu_layers,
                                      flash_attn=flash_attn, **extra)
        except (ValueError, RuntimeError) as exc:
            raise ModelError(f"llama.cpp could not load {self.path}: {exc}") from exc
        # Saved states keyed by token prefix: the router's fixed instructions, the system prompt and
        # the passages of a previous call are not prefilled twice (router prefill 8.3 s -> 0.7 s here).
        self.llm.set_cache(BoundedRAMCache(capacity_bytes=cache_bytes))
        self.n_ctx = n_ctx
        self._lock = threading.Lock()

    @property
    def chat_template(self) -> str:
        """Which chat format the prompts use: ``the model's own (GGUF tokenizer.chat_template)`` or the
        llama-cpp-python format guessed for a GGUF that carries none."""
        if self.llm.chat_format == "chat_template.default":
            return "the model's own (GGUF tokenizer.chat_template)"
        return f"{self.llm.chat_format} (llama-cpp-python's; the GGUF has no chat template)"

    def count_tokens(self, text: str) -> int:
        """Exact token count of ``text`` for this model."""
        return len(self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    @property
    def context_window(self) -> int:
        """The ``n_ctx`` the model was loaded with."""
        return self.n_ctx

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        """See :meth:`Generator.stream`. Holds the model for the whole reply (one call at a time).

        Raises:
            Cancelled: ``request.cancel`` was set; the model stopped within its current operation.
        """
        kwargs: dict[str, Any] = {}
        if request.json_schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": request.json_schema}
        messages: list[Any] = [{"role": "system", "content": request.system},
                               {"role": "user", "content": request.user}]
        with self._lock:
            if request.cancel is not None and request.cancel.is_set():
                raise Cancelled()
            t0 = time.perf_counter()
            first: float | None = None
            n_out = 0
            self.llm.stop = request.cancel
            self.llm.on_prefill = request.on_prefill
            self.llm.last_sampler = None
            self.boolean_probs, self.yes_probs = [], []
            try:
                chunks = self.llm.create_chat_completion(
                    messages=messages, stream=True, temperature=0.0, top_k=1,
                    max_tokens=request.max_tokens, **kwargs)
                for chunk in chunks:
                    delta: Any = chunk["choices"][0]["delta"]  # type: ignore[index]
                    text: str | None = delta.get("content")
                    if text:
                        if first is None:
                            first = time.perf_counter()
                        n_out += 1
                        if self.llm.last_sampler is not None:
                            self.take_probs(self.llm.last_sampler)
                        yield text
            except _Interrupted:
                raise Cancelled() from None
            except ValueError as exc:  # prompt longer than the context window
                raise ModelError(f"the prompt does not fit the model's {self.n_ctx}-token context: {exc}") \
                    from exc
            finally:
                self.llm.stop = None
                self.llm.on_prefill = None
                if self.llm.last_sampler is not None:
                    self.take_probs(self.llm.last_sampler)
                prompt_tokens = max(0, self.llm.n_tokens - n_out)
                self._record(request.purpose, prompt_tokens, n_out, t0, first)


def physical_cores() -> int:
    """Physical cores this process may run on (llama.cpp gains nothing from a core's second hardware
    thread): distinct ``core_cpus_list`` sets of the CPUs in the affinity mask, from Linux's sysfs;
    the logical CPU count where that cannot be read."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    cores = set()
    for cpu in cpus:
        try:
            cores.add(Path(f"/sys/devices/system/cpu/cpu{cpu}/topology/core_cpus_list").read_text().strip())
        except OSError:
            return len(cpus) or os.cpu_count() or 1
    return len(cores) or os.cpu_count() or 1


def gpu_offload_supported() -> bool:
    """True when the installed llama-cpp-python was built with a GPU backend (CUDA, Metal, Vulkan...)."""
    return bool(llama_cpp.llama_supports_gpu_offload())


def effective_gpu_layers(setting: int | None) -> int:
    """Layers to offload for the ``n_gpu_layers`` setting: None = all (-1) when offload is supported, else 0."""
    if setting is None:
        return -1 if gpu_offload_supported() else 0
    return setting


def check_gguf(path: Path) -> None:
    """Raise :class:`ModelError` unless ``path`` is a readable file starting with the GGUF magic."""
    try:
        with path.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise ModelError(f"cannot read the model file {path}: {exc.strerror or exc}") from exc
    if magic != b"GGUF":
        raise ModelError(f"{path} is not a GGUF model file; choose a .gguf file (llama.cpp format)")



class BoundedRAMCache(LlamaRAMCache):
    """llama-cpp-python's RAM cache whose size also counts the logits copy each saved state carries.

    The stock cache counts only the state bytes, so with a 152k-token vocabulary it held GBs
    (peak RSS 7.0 GB measured at 1M tokens) while believing it held 512 MB.
    """

    @property
    def cache_size(self) -> int:
        return sum(int(s.llama_state_size) + s.scores.nbytes + s.input_ids.nbytes
                   for s in self.cache_state.values())
