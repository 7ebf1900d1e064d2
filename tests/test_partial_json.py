"""The streamed answer sentence decoded from the reader's JSON: escaped surrogate pairs (an emoji) stay whole
wherever the reply is cut into pieces, and every piece shown can be written as UTF-8."""

from __future__ import annotations

import json
from collections.abc import Iterator

from conftest import ScriptedGenerator

from assistant.models.base import GenerationRequest
from assistant.records import Chunk
from assistant.ttrag.generate import parse_reply, stream_answer
from assistant.ttrag.partial_json import partial_string

PASSAGE = "The team mascot is Zap, a small robot that waves at visitors in the lobby."
CHUNKS = [Chunk(0, PASSAGE, "team.txt", 0, len(PASSAGE))]
QUESTION = "What is the team mascot called?"
SENTENCE = "The mascot is Zap \U0001F600, a robot \U0001F916 that waves \u00e9l\u00e9gamment."
# the reply as a JSON writer with ensure_ascii writes it: each emoji as two \u escapes
RAW = json.dumps({"found": True, "passage": 1, "short_answer": "Zap", "answer": SENTENCE})


class SplitGenerator(ScriptedGenerator):
    """Streams ``reply`` cut at the given offsets (a reader's tokens can end anywhere in an escape)."""

    def __init__(self, reply: str, cuts: list[int]) -> None:
        super().__init__(lambda r: reply)
        self.cuts = cuts

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        reply = self.script(request)
        bounds = [0, *self.cuts, len(reply)]
        for a, b in zip(bounds, bounds[1:], strict=False):
            if b > a:
                yield reply[a:b]


def _shown(cuts: list[int]) -> tuple[list[str], str]:
    pieces: list[str] = []
    reading = stream_answer(SplitGenerator(RAW, cuts), QUESTION, CHUNKS, max_tokens=200, on_text=pieces.append)
    assert reading.found, reading.reason
    return pieces, reading.sentence


def test_every_split_point_keeps_surrogate_pairs_whole() -> None:
    assert "\\ud83d\\ude00" in RAW  # the pair is escaped in the reply
    for cut in range(1, len(RAW)):
        pieces, sentence = _shown([cut])
        for piece in pieces:
            piece.encode("utf-8")  # raises on a lone surrogate
        assert "".join(pieces) == sentence == f"{SENTENCE} [1]", cut


def test_token_by_token_stream_shows_whole_characters() -> None:
    pieces, sentence = _shown(list(range(1, len(RAW))))
    assert all(p.encode("utf-8") for p in pieces)
    assert "".join(pieces) == sentence == f"{SENTENCE} [1]"
    assert "\U0001F600" in pieces  # shown once both halves arrived, as one character


def test_every_prefix_decodes_to_a_prefix_of_the_string() -> None:
    body = json.dumps(SENTENCE)[1:]  # after the opening quote, through the closing one
    shown = ""
    for end in range(len(body) + 1):
        text = partial_string(body[:end])
        text.encode("utf-8")
        assert text.startswith(shown) and SENTENCE.startswith(text), end
        shown = text
    assert shown == SENTENCE


def test_a_surrogate_without_its_other_half_becomes_a_replacement_character() -> None:
    assert partial_string('lone \\ud83d"') == "lone \ufffd"  # the string ended after the high half
    assert partial_string("lone \\ud83d") == "lone "  # its low half may still come
    assert partial_string("lone \\ud83d\\u") == "lone "
    assert partial_string("a \\ud83dx") == "a \ufffdx"
    assert partial_string("a \\ud83d\\n") == "a \ufffd\n"
    assert partial_string("a \\ude00 b") == "a \ufffd b"
    assert partial_string("a \\ud83d\\ud83d\\ude00") == "a \ufffd\U0001F600"
    # json.loads keeps a lone half as it is; a reply cut after it is parsed with U+FFFD instead
    assert parse_reply('{"answer": "cut \\ud83d') == {"answer": "cut \ufffd"}
