"""What could not be read is tied to where it is: a part of a big mailbox names its message, a zip bomb names
the member inside the archives that hold it, and many problems are counted by reason on the terminal."""

from __future__ import annotations

import io
import json
import zipfile
from email.message import EmailMessage
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.cli.problems import MOST_LISTED, problem_lines
from assistant.documents import extract, read_many
from assistant.errors import InputError

PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)


def _mbox(path: Path, messages: int, *, broken_every: int = 0) -> Path:
    """An mbox whose every message has an inline image (not read) and, every ``broken_every``, a broken PDF."""
    out = io.BytesIO()
    for n in range(1, messages + 1):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "ana@example.org", "bo@example.org", f"Weekly report {n}"
        msg.set_content(f"Report number {n}: all green.")
        msg.add_attachment(PNG, maintype="image", subtype="png", filename="greenball.png")
        if broken_every and n % broken_every == 0:
            msg.add_attachment(b"%PDF-1.4 truncated", maintype="application", subtype="pdf", filename="scan.pdf")
        out.write(b"From ana@example.org Mon Jan  6 09:00:00 2025\n" + msg.as_bytes().replace(b"\r\n", b"\n")
                  + b"\n")
    path.write_bytes(out.getvalue())
    return path


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


# --- 4. a mailbox's parts name their message ---------------------------------------------------------

def test_an_mbox_part_names_its_message_and_subject(tmp_path: Path) -> None:
    box = _mbox(tmp_path / "big.mbox", 3)
    result = read_many([box])
    assert [(f.source, f.reason) for f in result.failures] == [
        (f"{box}/message {n} (Weekly report {n})/greenball.png", "unsupported: image/png") for n in (1, 2, 3)]


def test_an_eml_part_is_named_as_before(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["Subject"] = "One message"
    msg.set_content("Text.")
    msg.add_attachment(PNG, maintype="image", subtype="png", filename="logo.png")
    path = tmp_path / "one.eml"
    path.write_bytes(msg.as_bytes())
    assert [f.source for f in read_many([path]).failures] == [f"{path}/logo.png"]


def test_extract_counts_many_problems_by_reason_with_examples(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    box = _mbox(tmp_path / "big.mbox", 24, broken_every=8)
    assert main(["extract", str(box)]) == 0
    out = capsys.readouterr().out
    problems = out[out.index("not read: "):].splitlines()
    assert problems == [
        f"not read: 27 parts of {box}, by reason (--all-problems lists each one):",
        "  24 × unsupported: image/png: message 1 (Weekly report 1)/greenball.png; "
        "message 2 (Weekly report 2)/greenball.png; message 3 (Weekly report 3)/greenball.png; …",
        "  3 × a damaged or incomplete PDF file: message 8 (Weekly report 8)/scan.pdf; "
        "message 16 (Weekly report 16)/scan.pdf; message 24 (Weekly report 24)/scan.pdf"]
    assert "Report number 24: all green." in out  # the text is all there, before the problems

    assert main(["extract", "--all-problems", str(box)]) == 0
    every = [line for line in capsys.readouterr().out.splitlines() if line.startswith("not read: ")]
    assert len(every) == 27
    assert every[0] == f"not read: {box}/message 1 (Weekly report 1)/greenball.png: unsupported: image/png"

    assert main(["extract", "--json", str(box)]) == 0
    errors = [r for r in map(json.loads, capsys.readouterr().out.splitlines()) if "error" in r]
    assert len(errors) == 27 and errors[-1]["source"] == f"{box}/message 24 (Weekly report 24)/scan.pdf"


def test_few_problems_and_whole_files_are_listed_as_before(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    box = _mbox(tmp_path / "small.mbox", MOST_LISTED)
    assert main(["extract", str(box), str(tmp_path / "gone.pdf")]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("not read: ")]
    assert len(lines) == MOST_LISTED + 1
    assert lines[-1] == f"not read: {tmp_path / 'gone.pdf'}: file not found"
    assert main(["extract", str(tmp_path / "gone.pdf")]) == 1  # the exit status is unchanged


def test_ask_warns_with_counts_too() -> None:
    failures = [InputError(f"/m/box.mbox/message {n}/a.png", "unsupported: image/png") for n in range(12)]
    failures.append(InputError("/m/gone.txt", "file not found"))
    lines = problem_lines(failures, lead="warning: skipped ")
    assert lines == ["warning: skipped 13 files or parts, by reason (--all-problems lists each one):",
                     "  12 × unsupported: image/png: /m/box.mbox/message 0/a.png; /m/box.mbox/message 1/a.png; "
                     "/m/box.mbox/message 2/a.png; …",
                     "  1 × file not found: /m/gone.txt"]
    assert len(problem_lines(failures, every=True, lead="warning: skipped ")) == 13


def test_the_ask_and_chat_commands_take_all_problems() -> None:
    from assistant.cli.main import build_parser

    parser = build_parser()
    assert parser.parse_args(["ask", "a.txt", "q", "--all-problems"]).all_problems
    assert parser.parse_args(["chat", "a.txt", "--all-problems"]).all_problems


# --- 5. a zip bomb names where it is, and is not "no text" ---------------------------------------------

def test_a_nested_zip_bomb_names_the_path_inside_and_is_not_called_empty(tmp_path: Path) -> None:
    middle = _zip({"zeros.txt": bytes(20_000_000)})
    outer = tmp_path / "outer.zip"
    outer.write_bytes(_zip({"middle.zip": middle}))
    with pytest.raises(InputError) as caught:
        extract(outer)
    reason = caught.value.reason
    assert reason.startswith("refused: possible zip bomb: outer.zip / middle.zip / zeros.txt expands ")
    assert reason.endswith(":1 (limit 100:1; raise max_ratio in [documents] of config.toml)")
    assert "contains no text" not in reason
    assert caught.value.source == str(outer)


def test_a_zip_bomb_beside_text_is_a_problem_of_its_member(tmp_path: Path) -> None:
    outer = tmp_path / "outer.zip"
    outer.write_bytes(_zip({"readme.txt": b"the real text", "middle.zip": _zip({"zeros.txt": bytes(20_000_000)})}))
    result = read_many([outer])
    assert result.documents[0].text == "the real text"
    [problem] = result.failures
    assert problem.source == f"{outer}/middle.zip"
    assert problem.reason.startswith("refused: possible zip bomb: outer.zip / middle.zip / zeros.txt expands ")


def test_an_empty_file_inside_still_says_no_text(tmp_path: Path) -> None:
    outer = tmp_path / "only-empty.zip"
    outer.write_bytes(_zip({"blank.txt": b""}))
    with pytest.raises(InputError, match=r"contains no text \(empty file \(0 bytes\)\)"):
        extract(outer)
