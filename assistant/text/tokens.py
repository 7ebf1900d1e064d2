"""Model tokens in a person's words: "about 300 words" where the code counts 400 tokens."""

from __future__ import annotations

import math

from assistant.text.plural import count_of

#: Words a token of the bundled reader's tokenizer (Qwen2.5) stands for in English prose: 0.84 measured on the
#: sample contract (30,678 words, 36,556 tokens); a little less is said, so that "about" never promises more.
WORDS_PER_TOKEN = 0.8


def about_words(tokens: int) -> str:
    """``tokens`` as a round number of words: ``about 300 words`` for 400, ``about 3,000 words`` for 4,096."""
    words = tokens * WORDS_PER_TOKEN
    if words < 10:
        return count_of(max(1, round(words)), "word")
    step = 10 ** math.floor(math.log10(words))
    return f"about {int(words // step * step):,} words"


def history_note(dropped: int, max_tokens: int, *, restart: str = "New conversation starts afresh") -> str:
    """What a person is told when the oldest ``dropped`` questions of a conversation no longer reach the model
    (it reads only the last ``max_tokens`` tokens of the conversation to understand a follow-up question);
    ``restart`` says how to start afresh."""
    oldest = "The oldest question is" if dropped == 1 else f"The oldest {dropped} questions are"
    return (f"{oldest} no longer used: only the last few exchanges ({about_words(max_tokens)}) are kept as "
            f"context for follow-up questions. {restart}.")
