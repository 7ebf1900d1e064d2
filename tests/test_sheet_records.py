"""A sheet of wide rows is a table of records: each row read alone, each cell named by its column, and a question
that names one record searched in it (a newcomer's governing-law question over CUAD's master_clauses.csv was
answered from two other contracts' rows)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from conftest import ScriptedGenerator

from assistant.documents import extract
from assistant.models.base import GenerationRequest
from assistant.ttrag.context import build_context
from assistant.ttrag.pipeline import Models, PipelineOptions, ask
from assistant.ttrag.scope import named

_CLAUSE = "This Agreement is governed by the laws of the State of {}, without regard to its conflict of laws rules. "
_ROWS = [("ACME-LICENSE.PDF", "Acme Robotics, Inc. and Birchwood Labs LLC", "Delaware"),
         ("GUNSTON-CONSULTING.PDF", "Gunston Consulting, LLC and Medalist Diversified REIT, Inc.", "Virginia"),
         ("HARBOR-SUPPLY.PDF", "Harbor Foods Corp. and Quayside Logistics Ltd.", "Texas")]


def _table(path: Path) -> Path:
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["Filename", "Parties", "Notice", "Governing Law", "Governing Law-Answer", "Warranty"])
        for name, parties, law in _ROWS:
            out.writerow([name, parties, "Notices are given in writing to the addresses below. " * 14,
                          _CLAUSE.format(law), law, ""])
        out.writerow(["SHORT.PDF", "A and B", "", "", "Ohio", ""])
    return path


def test_a_wide_row_is_a_record_of_named_cells_read_alone(tmp_path: Path, tokenizer: object) -> None:
    doc = extract(_table(tmp_path / "labels.csv"))
    assert [s.section for s in doc.segments] == ["labels rows 1-1", "labels row 2", "labels row 3", "labels row 4",
                                                 "labels row 5"]
    row = doc.segments[2]
    assert row.heading == "labels row 3: GUNSTON-CONSULTING.PDF"
    assert "Governing Law-Answer: Virginia" in row.text.splitlines()
    assert "Warranty" not in row.text  # an empty cell is no text
    # a short row among wide ones is a record too
    assert doc.segments[4].text == "Filename: SHORT.PDF\nParties: A and B\nGoverning Law-Answer: Ohio"
    assert doc.segments[4].heading == "labels row 5: SHORT.PDF"
    # the header row stays as it is written
    assert doc.segments[0].text.startswith("Filename | Parties | Notice")
    ctx = build_context([doc], tokenizer, chunk_tokens=60)
    for chunk in ctx.chunks:  # no chunk holds two rows' cells, and each names its row
        held = [seg for seg, at in zip(doc.segments, doc.offsets, strict=True)
                if chunk.start < at + len(seg.text) and chunk.end > at]
        assert len(held) == 1, chunk.text
        assert chunk.heading == held[0].heading


def test_a_question_naming_a_record_is_searched_in_it(tmp_path: Path, tokenizer: object) -> None:
    doc = extract(_table(tmp_path / "labels.csv"))
    ctx = build_context([doc], tokenizer, chunk_tokens=60)
    scope = named("Governing law of the Gunston Consulting agreement?", ctx)
    assert scope is not None and scope.names == {"gunston", "consulting"}
    assert {"gunston", "consulting", "governing", "law"} <= scope.held  # the record's words: covered
    assert {c.heading for c in ctx.chunks if c.id in scope.chunks} == {"labels row 3: GUNSTON-CONSULTING.PDF"}
    assert scope.query("Governing law of the Gunston Consulting agreement?") == "Governing law of the agreement?"
    # words every record holds name none; nor does a question naming nothing the records hold
    assert named("Which law governs the agreement?", ctx) is None
    assert named("What does Zanzibar pay?", ctx) is None


def test_a_customer_named_is_searched_in_each_of_its_records(tmp_path: Path, tokenizer: object) -> None:
    # a newcomer's ticket export: "What error code did Cobalt Logistics get when logging in, and who rotated the
    # certificate?" was searched in one of Cobalt's three tickets (the one whose words "rotated" and "certificate"
    # are rare), and without those words
    path = tmp_path / "tickets.csv"
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["id", "customer", "status", "description"])
        for n, customer, text in [(1006, "Cobalt Logistics", "Login fails with error SAML-417. "),
                                  (1007, "Harbor Yoga", "Exports stop early. "),
                                  (1016, "Cobalt Logistics", "The printer jams; who rotated the toner? "),
                                  (1017, "Evergreen Vets", "Import of 803 client records. "),
                                  (1026, "Cobalt Logistics", "Invoice charged twice. ")]:
            out.writerow([n, customer, "open", text + "More detail follows in the log we attached. " * 20])
    doc = extract(path)
    ctx = build_context([doc], tokenizer)
    question = "What error code did Cobalt Logistics get when logging in, and who rotated the certificate?"
    scope = named(question, ctx)
    assert scope is not None and scope.names == {"cobalt", "logistics"}
    assert {c.heading for c in ctx.chunks if c.id in scope.chunks} == {
        "tickets row 2: 1006", "tickets row 4: 1016", "tickets row 6: 1026"}
    assert scope.query(question) == "What error code did get when logging in, and who rotated the certificate?"
    # the records' headings hold the words that named them: "consulting agreement" of a contract's file name
    labels = build_context([extract(_table(tmp_path / "labels.csv"))], tokenizer)
    gunston = named("Which law governs the Gunston consulting agreement?", labels)
    assert gunston is not None and gunston.query("Which law governs the Gunston consulting agreement?") == \
        "Which law governs the agreement?"


def _reader(request: GenerationRequest) -> str:
    """A reader that answers from the governing-law cell it is shown, as the bundled one did."""
    for n, passage in re.findall(r"^\[(\d+)\](.*?)(?=^\[\d+\]|</passages>)", request.user, re.M | re.S):
        law = re.search(r"Governing Law-Answer: (\w+)", passage)
        if law:
            return json.dumps({"found": True, "passage": int(n), "short_answer": law[1],
                               "answer": f"The agreement is governed by the laws of {law[1]}."})
    return json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})


def test_the_governing_law_of_a_named_contract_is_read_from_its_own_row(
        data_root: Path, tokenizer: object, embedder: object, encoder: object) -> None:
    # CUAD's label table, 100 contracts, 83 columns: "California" was answered from another consulting
    # agreement's row; Gunston's row says Virginia
    doc = extract(data_root / "cuad" / "master_clauses.csv")
    ctx = build_context([doc], tokenizer)
    gen = ScriptedGenerator(_reader)
    for question in ("Governing law of the Gunston Consulting agreement?",
                     "Which law governs the Medalist Diversified REIT consulting agreement?"):
        answer = ask(ctx, question, Models(gen, embedder, encoder), PipelineOptions(router=False))  # type: ignore[arg-type]
        assert answer.found and "Virginia" in answer.text, question
        assert all(s.section.startswith("master_clauses row 67: MEDALISTDIVERSIFIEDREIT") for s in answer.sources)


def test_a_quote_from_a_block_of_rows_names_its_row(tmp_path: Path, tokenizer: object) -> None:
    # a newcomer read "rows 1-21" beside every answer over a sales sheet
    from assistant.ttrag.generate import cite

    path = tmp_path / "sales.csv"
    path.write_text("month,region,revenue\n2024-05,North,20100\n2024-06,South,24300\n2024-07,North,13900\n")
    doc = extract(path)
    chunks = build_context([doc], tokenizer).chunks
    assert [s.section for s in cite(chunks, "2024-06 South 24300", "June South?", documents={doc.source: doc})] == \
        ["sales row 3"]
    # a blank row skipped: a line is no longer its row, and the block is named as it is
    path.write_text("month,region,revenue\n2024-05,North,20100\n\n2024-06,South,24300\n")
    doc = extract(path)
    chunks = build_context([doc], tokenizer).chunks
    assert [s.section for s in cite(chunks, "2024-06 South 24300", "June South?", documents={doc.source: doc})] == \
        ["sales rows 1-4"]
