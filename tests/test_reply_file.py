"""A reply to a message saved as a file (an .eml from webmail, an Outlook .msg), with no account: ``assistant
draft FILE.eml`` drafts it from the attachments as for synced mail and writes an RFC 5322 reply beside it."""

from __future__ import annotations

import email
import email.policy
import json
from email.message import EmailMessage
from pathlib import Path

import pytest
from conftest import ScriptedGenerator, shared_data

from assistant.cli.main import main
from assistant.documents.email_files import read_mail_file
from assistant.mail.reply_file import account_for, default_reply_path, replying_as
from assistant.models.base import GenerationRequest

WARRANTY = json.dumps({"found": True, "passage": 1, "short_answer": "36 months",
                       "answer": "The warranty period is 36 months from the date of delivery."})


def script(request: GenerationRequest) -> str:
    if request.purpose == "draft_requests":
        return '{"requests": ["How long is the warranty period?"]}'
    return WARRANTY


def saved_message(folder: Path) -> Path:
    """What webmail's "Download message" saves: an .eml with an attachment and a Message-ID."""
    msg = EmailMessage()
    msg["From"], msg["To"] = "Bob Miller <bob@buyer.example>", "Alice Example <alice@supplier.example>"
    msg["Subject"], msg["Message-ID"] = "Contract question", "<c1@buyer.example>"
    msg["References"] = "<c0@buyer.example>"
    msg["Date"] = "Tue, 03 Jun 2025 09:12:00 +0200"
    msg.set_content("Hi Alice,\n\nhow long is the warranty period in the attached agreement?\n\nThanks,\nBob")
    msg.add_attachment(b"Warranty. The warranty period is 36 months from the date of delivery.\n",
                       maintype="text", subtype="plain", filename="agreement.txt")
    path = folder / "Contract question.eml"
    path.write_bytes(msg.as_bytes())
    return path


def parsed(path: Path) -> EmailMessage:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def reply_text(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def test_draft_a_saved_eml_writes_a_threaded_reply_beside_it(user_dirs: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    original = saved_message(tmp_path)
    assert main(["draft", str(original), "--text", "It is 36 months."]) == 0
    written = tmp_path / "Contract question-reply.eml"
    assert str(written) in capsys.readouterr().out
    reply = parsed(written)
    assert reply["Subject"] == "Re: Contract question"
    assert reply["In-Reply-To"] == "<c1@buyer.example>"
    assert reply["References"].split() == ["<c0@buyer.example>", "<c1@buyer.example>"]
    assert reply["To"] == "Bob Miller <bob@buyer.example>" and reply["From"] == "alice@supplier.example"
    assert reply["Message-ID"] and reply["Date"]
    text = reply_text(reply)
    assert text.startswith("It is 36 months.") and "> how long is the warranty period" in text
    assert written.read_bytes().count(b"\r\n") > 5  # RFC 5322 line ends
    assert main(["draft", str(original), "--text", "Again.", "--out", str(tmp_path / "mine.eml")]) == 0
    assert reply_text(parsed(tmp_path / "mine.eml")).startswith("Again.")
    assert main(["draft", str(original), "--text", "Third."]) == 0  # nothing is overwritten
    assert reply_text(parsed(tmp_path / "Contract question-reply-2.eml")).startswith("Third.")


def test_draft_a_saved_eml_is_grounded_in_its_attachment(user_dirs: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    generator = ScriptedGenerator(script)
    monkeypatch.setattr("assistant.service._load_llm", lambda *args: generator)  # where the LLM is loaded
    original = saved_message(tmp_path)
    assert main(["draft", str(original), "--print", "--fast"]) == 0
    out = capsys.readouterr().out
    mail_text, _, review = out.partition("-" * 60)
    assert "Subject: Re: Contract question" in mail_text and "In-Reply-To: <c1@buyer.example>" in mail_text
    assert "36 months" in mail_text.split("\nOn ")[0]  # answered in the reply, above the quoted original
    assert "How long is the warranty period?" in review
    assert f"{original}/agreement.txt" in review  # the point cites the attachment
    assert any("warranty" in r.user.lower() and r.purpose == "answer" for r in generator.requests)
    assert not list(tmp_path.glob("*-reply.eml"))  # --print writes nothing


def test_not_a_saved_message_is_a_clear_error(user_dirs: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", str(tmp_path / "absent.eml"), "--text", "x"]) == 1
    assert "absent.eml" in capsys.readouterr().err


def test_a_reply_through_an_account_is_from_and_signed_by_its_holders_name(
        user_dirs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.accounts import Account, add_account

    add_account(Account("work", "imap.supplier.example", "alice@supplier.example", display_name="Alice Example"))
    assert main(["draft", str(saved_message(tmp_path)), "--account", "work", "--text", "It is 36 months.",
                 "--print"]) == 0
    assert "From: Alice Example <alice@supplier.example>\n" in capsys.readouterr().out


def test_who_replies_and_where_the_reply_goes(tmp_path: Path) -> None:
    from assistant.accounts import Account

    message = read_mail_file(saved_message(tmp_path))
    assert replying_as(message) == ("alice@supplier.example", "Alice Example")
    work = Account("work", "imap.supplier.example", "alice@supplier.example")
    other = Account("other", "imap.example.org", "carol@example.org")
    assert account_for(message, [other, work]) is work
    assert account_for(message, [other]) is other and account_for(message, []) is None
    assert default_reply_path(tmp_path / "x.eml") == tmp_path / "x-reply.eml"


def test_an_outlook_msg_reads_as_a_message_with_its_attachment() -> None:
    pytest.importorskip("extract_msg")
    path = shared_data() / "docs/unstructured/fake-email-attachment.msg"
    if not path.is_file():
        pytest.skip("evaluation data not present")
    message = read_mail_file(path)
    assert message.subject == "Fake email with attachment" and message.message_id.startswith("<CAP")
    assert [a.filename for a in message.attachments] == ["fake-attachment.txt"]
    assert "Here's the attachments" in message.body
