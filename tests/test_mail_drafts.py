"""Reply drafts: threading headers, subject, recipients, quoting; saved to Drafts with \\Draft."""

from __future__ import annotations

import email
import email.policy
import email.utils
from email.message import EmailMessage

from assistant.accounts import Account
from assistant.documents.mime.parse import parse_message
from assistant.mail.drafts import build_reply, draft_text, reply_recipients, reply_subject, save_draft
from assistant.mail.imap import ImapSource


def original() -> bytes:
    msg = EmailMessage()
    msg["From"] = "Bob <bob@example.org>"
    msg["To"] = "alice@example.org, Carol <carol@example.org>"
    msg["Cc"] = "dave@example.org, ALICE@example.org"
    msg["Subject"] = "Quarterly numbers"
    msg["Date"] = "Tue, 03 Mar 2026 10:15:00 +0000"
    msg["Message-ID"] = "<q1@example.org>"
    msg["References"] = "<q0@example.org>"
    msg.set_content("Can you check the totals?\nThanks")
    return msg.as_bytes()


def test_subject_and_recipients() -> None:
    assert reply_subject("Hello") == "Re: Hello"
    assert reply_subject("Re: Hello") == "Re: Hello"
    assert reply_subject("RE[2]: Hello") == "RE[2]: Hello"
    assert reply_subject("AW: Hallo") == "AW: Hallo"
    m = parse_message(original())
    assert reply_recipients(m, "alice@example.org") == (["Bob <bob@example.org>"], [])
    to, cc = reply_recipients(m, "alice@example.org", reply_all=True)
    assert to == ["Bob <bob@example.org>"]
    assert cc == ["Carol <carol@example.org>", "dave@example.org"]


def test_reply_headers_and_quote() -> None:
    draft = build_reply(parse_message(original()), "The totals are right.", me="alice@example.org",
                        reply_all=True)
    assert draft["Subject"] == "Re: Quarterly numbers"
    assert draft["In-Reply-To"] == "<q1@example.org>"
    assert draft["References"] == "<q0@example.org> <q1@example.org>"
    assert draft["To"] == "Bob <bob@example.org>"
    body = draft.get_content()
    assert body.startswith("The totals are right.\n\nOn Tue, 03 Mar 2026 10:15, Bob <bob@example.org> wrote:")
    assert "> Can you check the totals?\n> Thanks" in body


def test_the_from_line_carries_the_account_holders_name() -> None:
    draft = build_reply(parse_message(original()), "Right.", me="alice@example.org", name="Alice Example",
                        reply_all=True)
    assert draft["From"] == "Alice Example <alice@example.org>"
    assert "alice@example.org" not in draft["Cc"].lower()  # still left out of reply-all by address
    assert draft["Message-ID"].endswith("@example.org>")
    quoted = build_reply(parse_message(original()), "Right.", me="o.brien@example.org", name="Dr. O'Brien, Jr.")
    assert email.utils.parseaddr(quoted["From"]) == ("Dr. O'Brien, Jr.", "o.brien@example.org")  # RFC 5322 quoting
    assert build_reply(parse_message(original()), "Right.", me="alice@example.org")["From"] == "alice@example.org"


def test_draft_saved_with_draft_flag(mail_account: Account, dovecot: object, server_client: object) -> None:
    draft = build_reply(parse_message(original()), "Looks good.", me="alice@example.org")
    with ImapSource(mail_account, dovecot.password) as source:  # type: ignore[attr-defined]
        folder, uid = save_draft(source, draft)
    assert folder == "Drafts" and uid is not None
    server_client.select_folder("Drafts", readonly=True)  # type: ignore[attr-defined]
    row = server_client.fetch([uid], [b"FLAGS", b"BODY.PEEK[]"])[uid]  # type: ignore[attr-defined]
    assert b"\\Draft" in row[b"FLAGS"] and b"\\Seen" not in row[b"FLAGS"]
    saved = email.message_from_bytes(row[b"BODY[]"], policy=email.policy.default)
    assert saved["In-Reply-To"] == "<q1@example.org>"
    assert saved["References"] == "<q0@example.org> <q1@example.org>"
    assert saved["Subject"] == "Re: Quarterly numbers"
    assert "> Can you check the totals?" in saved.get_content()


def test_the_printed_draft_is_decoded_text() -> None:
    """``draft --print`` shows the text a person reads: a line longer than 76 characters goes out as RFC 2045
    quoted-printable with "=" soft line breaks, which the printed draft must not show."""
    line = ("1. Where will Calder's second machining plant be located? Calder's second machining plant will be "
            "located in Livingston, West Lothian.")
    draft = build_reply(parse_message(original()), f"Hi Bob,\n\n{line}\n\nBest regards,\nAlice",
                        me="alice@example.org")
    assert "=\r\n" in draft.as_string()  # the message as it is saved: quoted-printable, CRLF (RFC 5322)
    shown = draft_text(draft)
    head, _, body = shown.partition("\n\n")
    assert head.splitlines() == ["From: alice@example.org", "To: Bob <bob@example.org>",
                                 "Subject: Re: Quarterly numbers", "In-Reply-To: <q1@example.org>"]
    assert line in body and "=\n" not in body and "\r" not in shown and "Content-Transfer-Encoding" not in shown
