"""Token counts of many short texts with a model's tokenizer, exactly and fast.

The exact count comes from the tokenizer. For the common uncased BERT WordPiece tokenizers (MiniLM,
BERT, DistilBERT uncased) printable-ASCII text takes a fast path with the same result: lower-case,
split at whitespace and punctuation as ``BertPreTokenizer`` does, and sum the cached WordPiece
lengths of the words. It is ~3x faster than tokenizing a 1M-token text, where BERT's normaliser
dominates; every other text and tokenizer takes the exact path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

_ASCII_WORD = re.compile(r"[a-z0-9]+|[^a-z0-9\s]")
_NOT_PLAIN = re.compile(r"[^\x20-\x7e\t]")


def _is_uncased_wordpiece(tokenizer: Any) -> bool:
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None:
        return False
    try:
        cfg = json.loads(backend.to_str())
    except (ValueError, AttributeError):
        return False
    norm, pre, model = cfg.get("normalizer") or {}, cfg.get("pre_tokenizer") or {}, cfg.get("model") or {}
    return (norm.get("type") == "BertNormalizer" and norm.get("lowercase") is True
            and norm.get("strip_accents") in (None, True) and pre.get("type") == "BertPreTokenizer"
            and model.get("type") == "WordPiece")


def token_lengths(tokenizer: Any, texts: Sequence[str], *,
                  progress: Callable[[int, int], None] | None = None, batch: int = 4096) -> list[int]:
    """Number of tokens (special tokens excluded) of each text; same as ``len(tokenizer(t)["input_ids"])``.

    Texts are counted ``batch`` at a time, so the words and tokens held at once are those of one batch
    (a 10 MiB text's words all at once peaked at 180 MB over the text).
    """
    lengths = [0] * len(texts)
    exact: list[int] = list(range(len(texts)))
    if _is_uncased_wordpiece(tokenizer):
        model = tokenizer.backend_tokenizer.model
        exact = [i for i, text in enumerate(texts) if _NOT_PLAIN.search(text)]
        skip = set(exact)
        fast = [i for i in range(len(texts)) if i not in skip]
        pieces: dict[str, int] = {}
        for k in range(0, len(fast), batch):
            part = fast[k:k + batch]
            words = [_ASCII_WORD.findall(texts[i].lower()) for i in part]
            pieces.update((w, len(model.tokenize(w))) for w in set().union(*words).difference(pieces))
            for i, ws in zip(part, words, strict=True):
                lengths[i] = sum(map(pieces.__getitem__, ws))  # C-level loop: ~3x a Python one at 1M tokens
    done = len(texts) - len(exact)
    for k in range(0, len(exact), batch):
        part = exact[k:k + batch]
        # verbose=False: counting a long text is not feeding it to the model, so no "sequence length is
        # longer than the specified maximum" warning on the terminal
        ids = tokenizer([texts[i] for i in part], add_special_tokens=False, return_attention_mask=False,
                        return_token_type_ids=False, verbose=False)["input_ids"]
        for i, x in zip(part, ids, strict=True):
            lengths[i] = len(x)
        if progress:
            progress(done + k + len(part), len(texts))
    if progress:
        progress(len(texts), len(texts))
    return lengths
