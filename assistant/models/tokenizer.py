"""The encoder's tokenizer from its ``tokenizer.json`` through the ``tokenizers`` library alone.

Chunk sizes are counted with the encoder's tokenizer before any model is needed. Loading it through
``transformers.AutoTokenizer`` imports transformers first (~4 s here); the Rust ``tokenizers`` library
reads the same ``tokenizer.json`` in ~0.1 s, so the files are chunked while the models load beside them.
The answers are the ones ``AutoTokenizer`` gives for the calls the chunker makes (no truncation, no
padding, special tokens on request); tests/test_fast_tokenizer.py compares them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

TOKENIZER_FILE = "tokenizer.json"


class JsonTokenizer:
    """A callable like a transformers fast tokenizer, for the calls the chunker makes.

    Attributes:
        backend_tokenizer: the ``tokenizers.Tokenizer`` (as on a transformers fast tokenizer).
    """

    def __init__(self, path: Path) -> None:
        """Read ``path/tokenizer.json``.

        Raises:
            FileNotFoundError: the folder has no tokenizer.json.
            Exception: the file cannot be parsed (``tokenizers`` raises its own ``Exception``).
        """
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(Path(path) / TOKENIZER_FILE))
        tokenizer.no_truncation()  # transformers does the same unless truncation is asked for
        tokenizer.no_padding()
        self.backend_tokenizer = tokenizer

    def __call__(self, text: str | Sequence[str], *, add_special_tokens: bool = True,
                 return_offsets_mapping: bool = False, **_ignored: Any) -> dict[str, Any]:
        """``{"input_ids": ..., "offset_mapping": ...}`` for one text or a list (character offsets)."""
        single = isinstance(text, str)
        texts = [text] if isinstance(text, str) else list(text)
        encodings = self.backend_tokenizer.encode_batch(texts, add_special_tokens=add_special_tokens)
        out: dict[str, Any] = {"input_ids": [e.ids for e in encodings]}
        if return_offsets_mapping:
            out["offset_mapping"] = [e.offsets for e in encodings]
        return {k: v[0] for k, v in out.items()} if single else out


def load_tokenizer(path: Path) -> Any:
    """The tokenizer of the encoder folder ``path``: :class:`JsonTokenizer` when it has a tokenizer.json,
    else ``transformers.AutoTokenizer`` (a slow, vocabulary-only tokenizer folder)."""
    if (Path(path) / TOKENIZER_FILE).is_file():
        return JsonTokenizer(path)
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(path, local_files_only=True)
