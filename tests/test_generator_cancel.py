"""Cancel stops the model call itself: inside a long prefill and between generated tokens (real SmolLM2)."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from conftest import ScriptedGenerator

from assistant.errors import Cancelled
from assistant.models.base import CancellableGenerator, GenerationRequest, Generator


def long_prompt() -> str:
    """About 2,000 tokens, new each time (a unique head), so no saved prefix shortens the prefill."""
    facts = " ".join(f"Warehouse {i} stores {i * 3} crates of tin in row {i % 7}." for i in range(110))
    return f"{uuid.uuid4().hex} {facts} How many crates are in warehouse 17?"


def stopped_after(generator: Generator, request: GenerationRequest, delay: float) -> float:
    """Seconds from setting ``request.cancel`` (``delay`` s after the call starts) to the call ending."""
    assert request.cancel is not None
    timer = threading.Timer(delay, request.cancel.set)
    timer.start()
    t0 = time.perf_counter()
    with pytest.raises(Cancelled):
        generator.complete(request)
    timer.join()
    return time.perf_counter() - t0 - delay


def test_cancel_stops_a_long_prefill(fast_llm: Generator) -> None:
    question = GenerationRequest("Answer briefly.", "What is 2 + 2?", max_tokens=8)
    before = fast_llm.complete(question)
    request = GenerationRequest("Answer briefly.", long_prompt(), max_tokens=64, cancel=threading.Event())
    t0 = time.perf_counter()
    lag = stopped_after(fast_llm, request, 0.5)
    print(f"\nSmolLM2-135M, {fast_llm.count_tokens(request.user)}-token prompt: "
          f"stopped {lag:.3f} s after Cancel (call lasted {time.perf_counter() - t0:.2f} s)")
    assert lag < 1.0
    assert fast_llm.usage[-1].completion_tokens == 0  # it stopped during the prefill
    assert fast_llm.complete(question) == before  # the model is left in a usable state


def test_cancel_stops_between_generated_tokens(fast_llm: Generator) -> None:
    request = GenerationRequest("You write long stories.", "Write a very long story about a ship.",
                                max_tokens=400, cancel=threading.Event())
    seen: list[str] = []
    t0 = time.perf_counter()
    with pytest.raises(Cancelled):
        for piece in fast_llm.stream(request):
            seen.append(piece)
            if len(seen) == 5:
                request.cancel.set()  # type: ignore[union-attr]
                t0 = time.perf_counter()
    assert time.perf_counter() - t0 < 1.0 and len(seen) == 5


def test_cancellable_wrapper_stamps_the_event_and_shares_usage() -> None:
    cancel = threading.Event()
    inner = ScriptedGenerator(lambda request: "a long reply " * 10)
    wrapped = CancellableGenerator(inner, cancel)
    assert wrapped.complete(GenerationRequest("s", "u")) == "a long reply " * 10
    assert inner.requests[-1].cancel is cancel and wrapped.usage is inner.usage and len(inner.usage) == 1
    pieces = wrapped.stream(GenerationRequest("s", "u"))
    next(pieces)
    cancel.set()
    with pytest.raises(Cancelled):
        next(pieces)


def test_a_long_prefill_reports_how_far_it_has_read(fast_llm: Generator) -> None:
    seen: list[tuple[int, int]] = []
    reply = fast_llm.complete(GenerationRequest("Answer briefly.", long_prompt(), max_tokens=12,
                                                on_prefill=lambda d, t: seen.append((d, t))))
    total = seen[-1][1]
    assert reply and len(seen) >= 4 and total > 1500  # ~2,000 new tokens in slices of n_batch (256)
    assert [d for d, _ in seen] == sorted({d for d, _ in seen}) and seen[-1][0] == total
    assert all(t == total for _, t in seen)
    generated: list[tuple[int, int]] = []
    wrapped = CancellableGenerator(fast_llm, threading.Event(), lambda d, t: generated.append((d, t)))
    wrapped.complete(GenerationRequest("Answer briefly.", f"{uuid.uuid4().hex}: what is 2 + 2?", max_tokens=8))
    assert generated and all(t > 1 for _, t in generated)  # the wrapper stamps it; no report per generated token
