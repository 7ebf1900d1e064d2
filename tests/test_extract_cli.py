"""``assistant extract``: text with provenance or the reason, JSON records, exit status."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pdfgen import text_pdf

from assistant.cli import main


def test_extract_prints_text_with_pages_and_reasons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = text_pdf(tmp_path / "report.pdf", pages=2, lines_per_page=1)
    bad = tmp_path / "photo.heic"
    bad.write_bytes(b"\x00\x00\x00\x18ftypheic")
    assert main(["extract", str(pdf), str(bad)]) == 0
    out = capsys.readouterr().out
    assert "[page 2]\nPage 2 of the generated report" in out
    assert f"not read: {bad}: unsupported: .heic" in out


def test_extract_json_one_record_per_part(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# Plan\nship it")
    assert main(["extract", "--json", str(notes), str(tmp_path / "gone.txt")]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records == [{"source": str(notes), "page": None, "section": "Plan", "text": "# Plan\nship it"},
                       {"source": str(tmp_path / "gone.txt"), "error": "file not found"}]


def test_extract_fails_only_when_nothing_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(tmp_path / "gone.pdf")]) == 1
    assert "file not found" in capsys.readouterr().out
