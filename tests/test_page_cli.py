"""``assistant ask FILE "question" --show-source N --png OUT.png``: the cited page written as a PNG, only
where asked; a clear message for a source that is not a PDF."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ScriptedGenerator
from PIL import Image
from test_page_image import SENTENCE, clause_pdf, yellow

from assistant.cli import main
from assistant.config import Settings
from assistant.models.base import GenerationRequest
from assistant.service import ModelStore

READING = json.dumps({"found": True, "passage": 1, "short_answer": "one percent for each week of delay",
                      "answer": "Late delivery entitles the buyer to a reduction of the price by one percent "
                                "for each week of delay."})


def reply(request: GenerationRequest) -> str:
    if request.purpose == "route":
        return '{"route": "question_answering", "target": ""}'
    return READING


@pytest.fixture
def scripted_store(monkeypatch: pytest.MonkeyPatch, user_dirs: Path, tokenizer: object, embedder: object,
                   encoder: object) -> None:
    """``assistant ask`` runs with the small real MiniLM models and a scripted reader (no LLM loads)."""
    from assistant import service

    class ScriptedStore(ModelStore):
        def __init__(self, settings: Settings) -> None:
            super().__init__(settings)
            self._tokenizer, self._embedder, self._encoder = tokenizer, embedder, encoder
            self._generator = ScriptedGenerator(reply)

    monkeypatch.setattr(service, "ModelStore", ScriptedStore)


QUESTION = "What does late delivery entitle the buyer to?"


def test_show_source_writes_the_cited_page(scripted_store: None, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    pdf = clause_pdf(tmp_path / "clause.pdf")
    out = tmp_path / "page.png"
    code = main(["ask", str(pdf), QUESTION, "--no-router", "--show-source", "1", "--png", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    # the source's page is the page of the sentence it quotes (the passage starts on page 1), and the page written
    # is that page too
    assert f"[1] {pdf}, p. 2: " in captured.out
    assert f"Wrote page 2 of 3 of {pdf} (source [1]) to {out}, the cited sentence highlighted." in captured.err
    with Image.open(out) as image:
        assert image.format == "PNG" and image.size == (918, 1188)
        data = image.convert("RGB").tobytes()
        assert sum(yellow((data[i], data[i + 1], data[i + 2])) for i in range(0, len(data), 3)) > 2000
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["clause.pdf", "page.png"]


def test_a_markdown_source_has_no_page_image(scripted_store: None, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "terms.md"
    notes.write_text("# Delivery\n\n" + SENTENCE + "\n")
    out = tmp_path / "page.png"
    code = main(["ask", str(notes), QUESTION, "--no-router", "--show-source", "1", "--png", str(out)])
    captured = capsys.readouterr()
    assert code == 1
    assert f"[1] {notes}" in captured.out and "Late delivery entitles" in captured.out
    assert "page images exist only for PDFs" in captured.err and str(notes) in captured.err
    assert not out.exists()


def test_show_source_needs_png_and_a_source_that_exists(scripted_store: None, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    pdf = clause_pdf(tmp_path / "clause.pdf")
    with pytest.raises(SystemExit) as exc:
        main(["ask", str(pdf), QUESTION, "--show-source", "1"])
    assert exc.value.code == 2 and "--show-source N and --png OUT.png go together" in capsys.readouterr().err
    out = tmp_path / "page.png"
    code = main(["ask", str(pdf), QUESTION, "--no-router", "--show-source", "9", "--png", str(out)])
    assert code == 1 and "there is no source 9" in capsys.readouterr().err
    assert not out.exists()
