"""A short, seeded slice of benchmarks/fuzz_readers.py: mutated real files (byte flips, truncation,
spliced parts, oversized headers, deep nesting, wrong lengths) through ``extract`` and the mail parser.
Every input must come back as text or a reason: no uncaught exception, no hang.

The slice is fixed (seed 14, 40 inputs) so a failure replays; the full, timed run is the benchmark.
Also the regressions the fuzzing found, on small hand-made inputs.
"""

from __future__ import annotations

import base64
import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

from assistant.documents import Limits, extract
from assistant.documents.mime.parse import MAX_HEADER_CHARS, parse_message
from assistant.errors import InputError

ROOT = Path(__file__).resolve().parents[1]


def _fuzz_module() -> object:
    spec = importlib.util.spec_from_file_location("fuzz_readers", ROOT / "benchmarks" / "fuzz_readers.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_readers"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_seeded_slice_of_fuzzed_inputs_is_read_or_reported(data_root: Path) -> None:
    fuzz = _fuzz_module()
    files = fuzz.corpus(data_root)  # type: ignore[attr-defined]
    assert files, "no seed files"
    results = fuzz.fuzz(files, 600, 14, Limits(max_seconds=20, max_memory_mb=1024),  # type: ignore[attr-defined]
                        max_examples=40)
    assert len(results) == 40
    bad = [f"{r.outcome}: {r.name} ({r.kind}, {r.detail}, from {r.base}): {r.reason}" for r in results
           if r.outcome in ("crash", "hang")]
    assert bad == []
    outcomes = Counter(r.outcome for r in results)
    assert outcomes["read"] > 0 and outcomes["reported"] > 0  # the slice exercises both paths
    assert len({r.kind for r in results}) == len(fuzz.KINDS)  # type: ignore[attr-defined]
    for r in results:
        if r.outcome == "reported":
            assert r.reason.strip()


def test_a_huge_header_of_encoded_words_is_cut_not_parsed_for_minutes() -> None:
    word = b"=?utf-8?B?" + base64.b64encode(b"fuzz" * 12) + b"?="
    raw = (b"From: a@example.org\r\nSubject: " + b" ".join([word] * 50_000) + b"\r\n\r\nThe body is still read.\r\n")
    message = parse_message(raw)
    assert message.text == "The body is still read."
    assert message.subject.startswith("fuzzfuzz") and len(message.subject) <= MAX_HEADER_CHARS
    assert f"header Subject is over {MAX_HEADER_CHARS // 1024} KB; the rest was cut" in message.defects


@pytest.mark.parametrize(("levels", "reason"), [
    (10, "refused: nested more than 5 levels deep; raise max_depth in [documents] of config.toml"),
    (300, "attached message nested more than 20 levels deep"),  # was a RecursionError, unreported
])
def test_messages_nested_deeply_are_read_to_the_limit_and_the_rest_reported(tmp_path: Path, levels: int,
                                                                           reason: str) -> None:
    message = b"From: leaf@example.org\r\nSubject: leaf\r\n\r\nThe innermost text.\r\n"
    for level in range(levels):
        message = (b"From: n%d@example.org\r\nSubject: level %d\r\nMIME-Version: 1.0\r\n"
                   b"Content-Type: message/rfc822\r\n\r\n" % (level, level)) + message
    path = tmp_path / "deep.eml"
    path.write_bytes(message)
    doc = extract(path, limits=Limits())
    assert f"level {levels - 1}" in doc.text
    assert any(p.endswith(reason) for p in doc.problems), doc.problems


@pytest.mark.parametrize("levels", [8])
def test_a_zip_nested_past_the_depth_limit_is_reported(tmp_path: Path, levels: int) -> None:
    import io
    import zipfile

    data, name = b"The text at the bottom.", "bottom.txt"
    for level in range(levels):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as archive:
            archive.writestr(name, data)
        data, name = buf.getvalue(), f"level{level}.zip"
    path = tmp_path / "nested.zip"
    path.write_bytes(data)
    with pytest.raises(InputError) as caught:
        extract(path, limits=Limits())
    assert "nested more than 5 levels deep" in caught.value.reason
