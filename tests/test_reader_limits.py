"""Per-file limits a person can see: a reader that hangs or eats memory is stopped in its child process
("gave up after N s", "needs more than N MB") while the other files are still read; refused big inputs
(a 2 GB mbox, a 10,000-page PDF, a 50,000-member ZIP) name the limit and the setting that raises it;
Cancel ends a long read; the mbox is read one message at a time.

The hanging and memory-hungry readers are test-only extractors registered through our own interface
(:func:`assistant.documents.base.register`); they are pickled into the real child process by reference to
this module.
"""

from __future__ import annotations

import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.config import load_settings
from assistant.documents import Limits, extract, read_many
from assistant.documents.base import Extractor, register
from assistant.documents.email_files import mbox_messages
from assistant.errors import Cancelled, InputError
from assistant.records import Segment


class HangingReader(Extractor):
    """Reads the file's first line as page 1, then never returns (a parser in an endless loop)."""

    suffixes = (".hang",)
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        first = path.read_text(encoding="utf-8").strip()
        if first:
            yield Segment(text=first, page=1)
        while True:
            time.sleep(0.05)


class GreedyReader(Extractor):
    """Allocates 64 MiB blocks without end (a decompressor told a huge size)."""

    suffixes = (".greedy",)
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        blocks = []
        while True:
            blocks.append(bytearray(64 * 1024 * 1024))
        yield Segment(text="never")  # pragma: no cover


register(HangingReader())
register(GreedyReader())


def _text(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def many_page_pdf(path: Path, pages: int) -> Path:
    """A valid PDF of ``pages`` empty pages, written directly (a page tree and a cross-reference table)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (3 + i) for i in range(pages))
               + b"] /Count %d >>" % pages]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"] * pages
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def test_a_hanging_reader_is_given_up_and_the_other_files_are_read(tmp_path: Path) -> None:
    before = _text(tmp_path / "before.txt", "The invoice total is 420 euros.")
    stuck = _text(tmp_path / "stuck.hang", "\n")  # not empty: that is refused before reading
    after = _text(tmp_path / "after.txt", "The meeting moved to Thursday.")
    result = read_many([before, stuck, after], limits=Limits(max_seconds=1))
    assert [Path(d.source).name for d in result.documents] == ["before.txt", "after.txt"]
    [failure] = result.failures
    assert failure.source == str(stuck)
    assert failure.reason == "gave up after 1 s (time limit); raise max_seconds in [documents] of config.toml"


def test_pages_read_before_the_time_limit_are_kept(tmp_path: Path) -> None:
    path = _text(tmp_path / "partly.hang", "Page one says the boiler was serviced in May.")
    doc = extract(path, limits=Limits(max_seconds=1))
    assert doc.text == "Page one says the boiler was serviced in May."
    assert len(doc.problems) == 1
    assert "gave up after 1 s" in doc.problems[0] and "the rest was not read" in doc.problems[0]


def test_a_reader_that_needs_too_much_memory_is_stopped(tmp_path: Path) -> None:
    greedy = _text(tmp_path / "bomb.greedy", "x")
    fine = _text(tmp_path / "fine.txt", "Still read.")
    result = read_many([greedy, fine], limits=Limits(max_memory_mb=256))
    assert [d.text for d in result.documents] == ["Still read."]
    [failure] = result.failures
    assert failure.reason == ("needs more than 256 MB of memory (limit); raise max_memory_mb in [documents] "
                              "of config.toml")


def test_cancel_ends_a_read_in_a_child_process(tmp_path: Path) -> None:
    path = _text(tmp_path / "slow.hang", "\n")
    cancel = threading.Event()
    timer = threading.Timer(0.5, cancel.set)
    timer.start()
    try:
        with pytest.raises(Cancelled):
            extract(path, limits=Limits(max_seconds=0), cancel=cancel)  # no time limit: only Cancel ends it
    finally:
        timer.cancel()


def test_cancel_ends_an_mbox_read_between_messages(tmp_path: Path) -> None:
    path = tmp_path / "big.mbox"
    path.write_bytes(b"".join(b"From a@example.org Mon Jan  1 00:00:00 2024\nSubject: note %d\n\nBody %d.\n\n"
                              % (i, i) for i in range(200)))
    cancel = threading.Event()
    seen: list[int] = []

    def progress(p: object) -> None:
        seen.append(1)
        if len(seen) == 3:
            cancel.set()

    with pytest.raises(Cancelled):
        extract(path, progress=progress, cancel=cancel)
    assert len(seen) == 3  # stopped at the next message, not at the end of the file


def test_a_2_gb_mbox_is_refused_with_the_limit_and_how_to_raise_it(tmp_path: Path) -> None:
    path = tmp_path / "archive.mbox"
    with path.open("wb") as f:  # sparse: costs no disk
        f.write(b"From a@example.org Mon Jan  1 00:00:00 2024\nSubject: hi\n\nhello\n")
        f.truncate(2 * 1024 ** 3)
    with pytest.raises(InputError) as caught:
        extract(path, limits=Limits())
    assert caught.value.reason == ("too large: 2147 MB (limit 537 MB); raise max_file_bytes in [documents] "
                                   "of config.toml")


def test_the_mbox_is_streamed_one_message_at_a_time() -> None:
    def lines() -> Iterator[bytes]:
        yield b"From a@example.org Mon Jan  1 00:00:00 2024\n"
        yield from (b"Subject: first\n", b"\n", b"Body one.\n", b"\n")
        yield b"From b@example.org Mon Jan  1 00:00:01 2024\n"
        raise AssertionError("read past the second From_ line before the first message was handed out")

    messages = mbox_messages(lines())
    assert next(messages) == b"Subject: first\n\nBody one.\n"


def test_a_10000_page_pdf_is_refused_with_the_limit(tmp_path: Path) -> None:
    path = many_page_pdf(tmp_path / "huge.pdf", 10_000)
    with pytest.raises(InputError) as caught:
        extract(path, limits=Limits())
    assert caught.value.reason == ("refused: 10,000 pages (limit 5,000); raise max_pages in [documents] "
                                   "of config.toml")


def test_a_50000_member_zip_is_refused_with_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for i in range(50_000):
            archive.writestr(f"m{i}.txt", b"")
    with pytest.raises(InputError) as caught:
        extract(path, limits=Limits())
    assert caught.value.reason == ("refused: 50,000 members (limit 10,000); raise max_members in [documents] "
                                   "of config.toml")


def test_the_documents_settings_raise_a_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = many_page_pdf(tmp_path / "long.pdf", 30)
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("ASSISTANT_CONFIG_DIR", str(config))
    (config / "config.toml").write_text("[documents]\nmax_pages = 20\n", encoding="utf-8")
    assert load_settings().documents.max_pages == 20
    with pytest.raises(InputError, match="refused: 30 pages"):
        extract(pdf)
    (config / "config.toml").write_text("[documents]\nmax_pages = 40\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:  # read now: its empty pages hold no text
        extract(pdf)
    assert caught.value.reason.startswith("contains no text")


def test_small_text_files_are_read_in_process(tmp_path: Path) -> None:
    from assistant.documents import isolate

    isolate.last_child_peak_kb = 0
    doc = extract(_text(tmp_path / "note.txt", "Plain text needs no child process."))
    assert doc.text == "Plain text needs no child process."
    assert isolate.last_child_peak_kb == 0


def test_a_large_html_file_is_read_in_a_child_process(tmp_path: Path) -> None:
    from assistant.documents import isolate

    path = tmp_path / "big.html"
    path.write_bytes(b"<html><body><p>Quarterly report.</p>" + b"\x00" * 1_100_000 + b"<p>End.</p></body></html>")
    isolate.last_child_peak_kb = 0
    doc = extract(path, limits=Limits())
    assert "Quarterly report." in doc.text and "End." in doc.text
    assert isolate.last_child_peak_kb > 0  # the size sent it to a child, where the time limit applies
