"""The command line as a user runs it: help, clear errors and exit codes, JSON output, offline."""

from __future__ import annotations

import dataclasses
import json
import socket
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.cli.main import print_sources
from assistant.records import Answer, Source

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "samples" / "supply-agreement.md"


def test_help_explains_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["ask", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "FILE" in out and "question" in out and "--fast" in out


def test_a_mistyped_option_shows_the_commands_usage_and_the_option_meant(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["ask", "--jsn", str(SAMPLE), "What is the term?"])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert "usage: assistant ask" in err and "unrecognized arguments: --jsn (did you mean --json?)" in err
    with pytest.raises(SystemExit) as exc:
        main(["--bogus"])
    assert exc.value.code == 2 and "unrecognized arguments: --bogus" in capsys.readouterr().err


def test_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["ask", "--fast", str(tmp_path / "nope.pdf"), "What?"])
    err = capsys.readouterr().err
    assert code == 1
    assert "nope.pdf: file not found" in err


def test_empty_and_unsupported_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    odd = tmp_path / "data.xyz"
    odd.write_bytes(bytes(range(256)) * 4)  # binary of no known type (text of any suffix is sniffed and read)
    code = main(["ask", "--fast", str(empty), str(odd), "What?"])
    err = capsys.readouterr().err
    assert code == 1
    assert "empty.txt: contains no text" in err
    assert "data.xyz: unsupported: .xyz" in err


class _Guard:
    """Records every connection that is not to loopback, and refuses it."""

    def __init__(self) -> None:
        self.attempts: list[object] = []

    def check(self, address: object) -> None:
        host = address[0] if isinstance(address, tuple) else address
        if not (isinstance(host, str) and (host.startswith("127.") or host in ("::1", "localhost"))):
            self.attempts.append(address)
            raise ConnectionRefusedError(f"test: network refused for {address}")


def test_ask_runs_with_network_refused(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    guard = _Guard()
    real_connect = socket.socket.connect

    def connect(self: socket.socket, address: object) -> None:
        guard.check(address)
        real_connect(self, address)  # type: ignore[arg-type]

    def getaddrinfo(host: object, *args: object, **kwargs: object) -> list[object]:
        guard.check((host,))
        return real_getaddrinfo(host, *args, **kwargs)  # type: ignore[arg-type]

    real_getaddrinfo = socket.getaddrinfo
    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    doc = tmp_path / "memo.txt"
    doc.write_text("Memo. The quarterly review meeting moved to Thursday 14 May in room B-12. "
                   "Bring the signed budget forms.\n" * 3)
    code = main(["ask", "--fast", "--json", str(doc), "Which room is the review meeting in?"])
    out = capsys.readouterr().out
    record = json.loads(out)
    assert code in (0, 3)
    assert record["sources"] and record["sources"][0]["source"] == str(doc)
    assert guard.attempts == []


@pytest.mark.skipif(not SAMPLE.exists(), reason="sample document not generated")
def test_needle_on_sample_via_cli(capsys: pytest.CaptureFixture[str]) -> None:
    facts = json.loads(SAMPLE.with_suffix(".facts.json").read_text())
    needle = next(f for f in facts if f["kind"] == "needle")
    code = main(["ask", "--fast", "--json", "--no-router", str(SAMPLE), needle["question"]])
    record = json.loads(capsys.readouterr().out)
    assert code in (0, 3)
    assert record["context"]["tokens"] > 100_000
    assert record["sources"] and all(s["source"] == str(SAMPLE) for s in record["sources"])
    assert all(s["page"] for s in record["sources"])  # the sample's page markers give page numbers


def test_chat_keeps_the_session(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                tmp_path: Path) -> None:
    doc = tmp_path / "notes.md"
    doc.write_text("# Notes\n\nThe boiler was serviced on 3 June by Hollis Heating. The next service is due in June "
                   "next year. The service cost 180 pounds.\n")
    questions = iter(["Who serviced the boiler?", "How much did the service cost?", ""])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(questions))
    built: list[int] = []
    from assistant import service

    real_init = service.Session.__init__

    def counting_init(self: service.Session, *args: object, **kwargs: object) -> None:
        built.append(1)
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service.Session, "__init__", counting_init)
    assert main(["chat", "--fast", "--no-router", str(doc)]) == 0
    captured = capsys.readouterr()
    assert built == [1]  # read once, asked twice
    assert captured.out.count("Sources") + captured.out.count("Passages read (no answer found") == 2
    assert "Read 1 file:" in captured.err


def _source(n: int, snippet: str) -> Source:
    return Source(n=n, source="terms.md", page=None, start=0, end=len(snippet), snippet=snippet, chunk_id=n)


def test_sources_list_the_cited_passages_and_the_rest_apart(capsys: pytest.CaptureFixture[str]) -> None:
    """Only the passages an answer cites stand under "Sources"; the others read stay numbered below."""
    sources = (_source(1, "Late delivery costs 0.5% a day."), _source(2, "9.5 Further Remedies"),
               _source(3, "The Buyer shall in particular:"))
    answer = Answer(question="What does late delivery cost?", text="0.5% of the order value a day. [1]",
                    found=True, route="question_answering", sources=sources, rewrites=(), timings={}, usage=())
    print_sources(answer)
    out = capsys.readouterr().out
    cited, _, others = out.partition("Other passages read:")
    assert "[1] terms.md" in cited and "Further Remedies" not in cited
    assert "[2] terms.md" in others and "[3] terms.md" in others

    not_found = dataclasses.replace(answer, text="Not found in the documents.", found=False,
                                    rewrites=("late delivery penalty",))
    print_sources(not_found)
    out = capsys.readouterr().out
    assert "Other passages read" not in out and out.count("terms.md") == 3
    # no "Sources" for an answer that was not found, and the rewrite on its own line, not in the heading
    assert "Sources" not in out and "\nPassages read (no answer found in them):\n" in out
    assert "Searched again as: late delivery penalty\n" in out


def test_a_source_line_names_the_message_it_quotes(capsys: pytest.CaptureFixture[str]) -> None:
    source = dataclasses.replace(_source(1, "Patches should be submitted to wine-patches@winehq.com."),
                                 source="sa_nice.mbox", section="message 3: Wine release 20020904")
    answer = Answer(question="Where do patches go?", text="To wine-patches@winehq.com. [1]", found=True,
                    route="question_answering", sources=(source,), rewrites=(), timings={}, usage=())
    print_sources(answer)
    assert '[1] sa_nice.mbox, message 3: Wine release 20020904: "Patches should' in capsys.readouterr().out
