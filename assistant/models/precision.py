"""Which number format the small torch models (pre-filter embedder, conditional encoder) compute in.

On a CPU with native bfloat16 arithmetic (Intel AMX, AVX512-BF16) ``torch.autocast`` runs their matrix
products in bfloat16 with float32 accumulation: on this project's 2-core machine (AMX) the re-ranker's joint
pass over 10 pairs and the embedding of 200 chunks were 1.7x faster over 500 HotpotQA questions, recall@3
unchanged (.737) and embeddings at cosine .99999 of float32 (``benchmarks/results/precision.md``).
Elsewhere bfloat16 is emulated and slower, so ``auto`` keeps float32 there.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
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


def autocast(enabled: bool) -> AbstractContextManager[object]:
    """``torch.autocast`` to bfloat16 on the CPU when ``enabled``, else a no-op."""
    if not enabled:
        return nullcontext()
    import torch

    return torch.autocast("cpu", dtype=torch.bfloat16)
