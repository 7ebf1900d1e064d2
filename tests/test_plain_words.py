"""Model quantities said in a person's words (issue 51, point 9): "about 300 words", never "400 tokens"."""

from __future__ import annotations

from assistant.text.tokens import about_words, history_note
from assistant.ttrag.conversation import DEFAULT_HISTORY_TOKENS


def test_tokens_are_said_as_a_round_number_of_words() -> None:
    assert about_words(400) == "about 300 words"
    assert about_words(4096) == "about 3,000 words"
    assert about_words(5) == "4 words" and about_words(1) == "1 word"


def test_the_history_note_says_what_is_kept_without_tokens() -> None:
    note = history_note(2, DEFAULT_HISTORY_TOKENS)
    assert note == ("The oldest 2 questions are no longer used: only the last few exchanges (about 300 words) are "
                    "kept as context for follow-up questions. New conversation starts afresh.")
    assert "token" not in note and "bounded" not in note
    assert history_note(1, 400, restart="/new starts afresh").startswith("The oldest question is no longer used")
    assert history_note(1, 400, restart="/new starts afresh").endswith("/new starts afresh.")
