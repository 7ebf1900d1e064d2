"""Which number format the small torch models (pre-filter embedder, conditional encoder) compute in.

On a CPU with native bfloat16 arithmetic (Intel AMX, AVX512-BF16) their matrix products run in bfloat16 with
float32 accumulation: measured with ``torch.autocast`` on this project's 2-core machine (AMX), the re-ranker's joint
pass over 10 pairs and the embedding of 200 chunks were 1.7x faster over 500 HotpotQA questions, recall@3
unchanged (.737) and embeddings at cosine .99999 of float32 (``benchmarks/results/precision.md``).
Elsewhere bfloat16 is emulated and slower, so ``auto`` keeps float32 there.

With bfloat16 on, the weights themselves are held in bfloat16 (:class:`Weights`), cast once at load, rather
than cast by autocast on every call: at 1M tokens a cold question's pre-filter + re-rank took 0.450 s on
average against 0.564 s with autocast (7 questions, side by side in one process, the same top 3 for all 7),
embeddings at cosine >= .9999 of float32.
"""

from __future__ import annotations

from typing import Any

from assistant.config import BF16_CHOICES
from assistant.errors import ConfigError


def native_bf16() -> bool:
    """True when torch reports native bfloat16 on this CPU (AMX tiles or AVX512-BF16)."""
    import torch

    cpu: Any = torch.cpu
    try:
        return bool(cpu._is_amx_tile_supported() or cpu._is_avx512_bf16_supported())
    except (AttributeError, RuntimeError):  # private probes: absent in some torch builds
        return False


def use_bf16(setting: str) -> bool:
    """Resolve ``models.bf16`` (``auto``, ``on``, ``off``) to whether bfloat16 autocast is used.

    Raises:
        ConfigError: ``setting`` is not one of the three.
    """
    if setting not in BF16_CHOICES:
        raise ConfigError(f"models.bf16 = {setting!r} is not one of {', '.join(BF16_CHOICES)}")
    return setting == "on" or (setting == "auto" and native_bf16())


class Weights:
    """The number format a torch ``module``'s weights are held in: bfloat16 when ``bf16``, else float32.

    Switching to bfloat16 after load keeps a float32 copy of the weights, so that switching back (a
    benchmark comparing the two) restores them exactly rather than from their rounded values.
    """

    def __init__(self, module: Any, bf16: bool) -> None:
        self.module = module
        self.bf16 = False
        self._float32: dict[str, Any] | None = None
        if bf16:
            import torch

            module.to(torch.bfloat16)
            self.bf16 = True

    def use(self, bf16: bool) -> None:
        """Hold the weights in bfloat16 (``bf16``) or float32."""
        import torch

        if bf16 == self.bf16:
            return
        if bf16:
            self._float32 = {k: v.detach().clone() for k, v in self.module.state_dict().items()}
            self.module.to(torch.bfloat16)
        else:
            self.module.to(torch.float32)
            if self._float32 is not None:
                self.module.load_state_dict(self._float32)
                self._float32 = None
        self.bf16 = bf16


class Bf16Switch:
    """A ``bf16`` property for a model class holding ``_weights`` (:class:`Weights`) and a ``_lock``."""

    _weights: Weights
    _lock: Any

    @property
    def bf16(self) -> bool:
        """True while the weights are held in bfloat16 (set it to switch)."""
        return self._weights.bf16

    @bf16.setter
    def bf16(self, value: bool) -> None:
        with self._lock:
            self._weights.use(bool(value))
