"""Conversations: threading by References / In-Reply-To (RFC 5322 §3.6.4) on real headers, and the earlier
messages of a thread (with their attachments) as a draft's context."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from assistant.documents.mime.parse import parse_message
from assistant.mail.cache import CachedRef, FolderState, MailCache
from assistant.mail.threads import (
    ThreadHeaders,
    earlier_in_cache,
    earlier_in_thread,
    group_threads,
    headers_of,
    message_ids,
    read_headers,
    thread_keys,
)
from assistant.service import draft_documents
from assistant.text.subjects import base_subject

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def h(key: str, mid: str = "", irt: str = "", refs: str = "", subject: str = "s", minutes: int = 0) -> ThreadHeaders:
    return ThreadHeaders(key, mid, irt, message_ids(refs), subject, T0 + timedelta(minutes=minutes))


def test_rfc5322_appendix_a2_reply_chain_is_one_thread(data_root: Path) -> None:
    """RFC 5322 A.2's three messages (John, Mary's reply, John's reply to the reply), as real files."""
    folder = data_root / "emails" / "rubymail" / "rfc2822"
    items = [read_headers((folder / f"example0{n}.eml").read_bytes(), f"m{n}") for n in (7, 5, 6)]
    assert items[0].references == ("<1234@local.machine.example>", "<3456@example.net>")
    assert items[0].in_reply_to == "<3456@example.net>"
    keys = thread_keys(items)
    assert keys == {"m5": "<1234@local.machine.example>", "m6": "<1234@local.machine.example>",
                    "m7": "<1234@local.machine.example>"}
    [thread] = group_threads(items)
    assert thread.keys == ("m5", "m6", "m7")  # oldest first, by Date
    earlier = earlier_in_thread(items[0], items)
    assert [e.key for e in earlier] == ["m5", "m6"]
    assert earlier_in_thread(items[1], items) == []  # nothing came before the first message


def test_in_reply_to_alone_and_an_unknown_parent(data_root: Path) -> None:
    """example14 has In-Reply-To but no References, to a message we do not hold: it roots at that id."""
    raw = (data_root / "emails" / "rubymail" / "rfc2822" / "example14.eml").read_bytes()
    item = read_headers(raw, "x")
    assert item.references == () and item.in_reply_to == "<rid_5582199198@msgid.example.com>"
    sibling = h("y", "<other@example.com>", irt="<rid_5582199198@msgid.example.com>", subject="Re: TEST")
    assert thread_keys([item, sibling]) == {"x": "<rid_5582199198@msgid.example.com>",
                                            "y": "<rid_5582199198@msgid.example.com>"}


def test_several_references_headers_and_an_empty_in_reply_to(data_root: Path) -> None:
    errors = data_root / "emails" / "rubymail" / "error_emails"
    two = parse_message((errors / "multiple_references_with_one_invalid.eml").read_bytes())
    empty = read_headers((errors / "empty_in_reply_to.eml").read_bytes(), "e")
    assert empty.in_reply_to == "" and empty.references == ()
    assert thread_keys([empty]) == {"e": "<F194F88AF3E341A6B2B135CC17912811@articondell>"}  # its own thread
    mine = headers_of(two, "two")
    assert mine.references[:1] == ("<foo@bar.net>",)  # the first References header's id roots it
    assert thread_keys([mine])["two"] == "<foo@bar.net>"


def test_first_known_ancestor_wins_and_a_missing_root_still_groups() -> None:
    a = h("a", "<a@x>", minutes=0)
    b = h("b", "<b@x>", irt="<a@x>", refs="<a@x>", minutes=1)
    # c lost the start of its References chain (a client that trims it): In-Reply-To b still finds a
    c = h("c", "<c@x>", irt="<b@x>", refs="<b@x>", minutes=2)
    # d and e reply to a message nobody holds: they share its (missing) root
    d = h("d", "<d@x>", refs="<gone@x> <d0@x>", minutes=3)
    e = h("e", "<e@x>", refs="<gone@x>", minutes=4)
    keys = thread_keys([e, d, c, b, a])
    assert keys == {"a": "<a@x>", "b": "<a@x>", "c": "<a@x>", "d": "<gone@x>", "e": "<gone@x>"}
    threads = group_threads([a, b, c, d, e])
    assert [t.keys for t in threads] == [("d", "e"), ("a", "b", "c")]  # newest conversation first


def test_subject_is_a_fallback_only_for_re_without_references() -> None:
    original = h("o", "<o@x>", subject="Budget 2026", minutes=0)
    bare_reply = h("r", "<r@x>", subject="RE: [team] Budget 2026", minutes=5)  # headers stripped by a gateway
    same_subject = h("n", "<n@x>", subject="Budget 2026", minutes=9)  # a new mail, not a reply: own thread
    referenced = h("k", "<k@x>", refs="<elsewhere@x>", subject="Re: Budget 2026", minutes=7)
    keys = thread_keys([original, bare_reply, same_subject, referenced])
    assert keys["r"] == "<o@x>"
    assert keys["n"] == "<n@x>"
    assert keys["k"] == "<elsewhere@x>"  # References decide; the subject is not consulted
    assert base_subject("Re: AW: Fwd: [list] Re[2]:  Budget   2026") == "budget 2026"


def test_loops_and_missing_message_ids_end() -> None:
    a = h("a", "<a@x>", refs="<b@x>", minutes=0)
    b = h("b", "<b@x>", refs="<a@x>", minutes=1)
    no_id = h("z", "", subject="hello", minutes=2)
    keys = thread_keys([a, b, no_id])
    assert keys["a"] == keys["b"] and keys["z"] == "z"


def mail(subject: str, mid: str, date: datetime, *, reply_to: tuple[str, ...] = (), body: str = "",
         attachment: tuple[str, bytes] | None = None) -> bytes:
    m = EmailMessage()
    m["From"], m["To"] = "Bob <bob@example.org>", "alice@example.org"
    m["Subject"], m["Message-ID"] = subject, mid
    m["Date"] = date.strftime("%a, %d %b %Y %H:%M:%S +0000")
    if reply_to:
        m["In-Reply-To"] = reply_to[-1]
        m["References"] = " ".join(reply_to)
    m.set_content(body)
    if attachment:
        m.add_attachment(attachment[1], maintype="text", subtype="plain", filename=attachment[0])
    return m.as_bytes()


def fill(cache: MailCache, folder: str, messages: list[bytes]) -> None:
    for uid, raw in enumerate(messages, 1):
        cache.put(CachedRef("acc", folder, 5, uid), raw)
    cache.set_state("acc", folder, FolderState(5, len(messages)))


def test_draft_context_reads_the_earlier_message_and_its_attachment(tmp_path: Path) -> None:
    cache = MailCache(tmp_path / "mail")
    first = mail("Quote for the roof", "<q1@example.org>", T0,
                 body="Hello Alice, the quote is attached.",
                 attachment=("quote.txt", b"Roof repair: 4,250 EUR including VAT, valid until 30 April.\n"))
    unrelated = mail("Lunch?", "<l1@example.org>", T0 + timedelta(hours=1), body="Noon?",
                     attachment=("menu.txt", b"Soup.\n"))
    second = mail("Re: Quote for the roof", "<q2@example.org>", T0 + timedelta(days=2),
                  reply_to=("<q1@example.org>",), body="Alice, what was the price in my previous mail's "
                                                       "attachment? Please confirm it.")
    fill(cache, "INBOX", [first, unrelated])
    fill(cache, "Archive", [second])
    message = parse_message(second)
    found = earlier_in_cache(cache, message, "acc:Archive:1", account="acc")
    assert [(ref.id, m.subject) for ref, m in found] == [("acc:INBOX:1", "Quote for the roof")]

    documents, skipped = draft_documents(message, "acc:Archive:1", cache=cache)
    names = [d.source for d in documents]
    assert "earlier message: Quote for the roof (2026-03-02 09:00)" in names
    assert "quote.txt (from 2026-03-02 09:00 message)" in names
    assert not any("menu.txt" in n for n in names) and skipped == []
    quote = next(d for d in documents if d.source.startswith("quote.txt"))
    assert "4,250 EUR" in quote.text
    # without the cache only the message's own attachments and quoted text are read (none here)
    assert draft_documents(message, "acc:Archive:1")[0] == []


def test_a_copy_of_the_same_message_in_two_folders_counts_once(tmp_path: Path) -> None:
    cache = MailCache(tmp_path / "mail")
    first = mail("Plan", "<p1@example.org>", T0, body="See plan.", attachment=("plan.txt", b"Step 1.\n"))
    reply = mail("Re: Plan", "<p2@example.org>", T0 + timedelta(hours=3), reply_to=("<p1@example.org>",),
                 body="ok")
    fill(cache, "INBOX", [first, reply])
    fill(cache, "Sent", [first])
    found = earlier_in_cache(cache, parse_message(reply), "acc:INBOX:2", account="acc")
    assert len(found) == 1 and found[0][1].message_id == "<p1@example.org>"
    with pytest.raises(StopIteration):
        next(iter(earlier_in_cache(cache, parse_message(first), "acc:INBOX:1", account="acc")))


def test_message_list_groups_a_conversation(qtbot: object, tmp_path: Path) -> None:
    from assistant.gui.mail_list import REPLY_MARK, MessageListPanel, load_rows

    cache = MailCache(tmp_path / "mail")
    fill(cache, "INBOX", [
        mail("Quote for the roof", "<q1@example.org>", T0, body="attached"),
        mail("Lunch?", "<l1@example.org>", T0 + timedelta(hours=1), body="Noon?"),
        mail("Re: Quote for the roof", "<q2@example.org>", T0 + timedelta(days=2), reply_to=("<q1@example.org>",)),
        mail("Re: Quote for the roof", "<q3@example.org>", T0 + timedelta(days=3),
             reply_to=("<q1@example.org>", "<q2@example.org>")),
    ])
    panel = MessageListPanel()
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.set_rows(load_rows(cache))
    selected: list[object] = []
    panel.selected.connect(selected.append)

    def subjects() -> list[str]:
        return [panel.proxy.index(i, 3).data() for i in range(panel.proxy.rowCount())]

    assert subjects() == ["Re: Quote for the roof", "Re: Quote for the roof", "Lunch?", "Quote for the roof"]
    assert panel.select_ref("acc:INBOX:4")
    assert len(selected) == 1
    panel.group.click()  # "Group by conversation"
    assert panel.model.grouped
    assert subjects() == ["Quote for the roof (3)", f"    {REPLY_MARK}Re: Quote for the roof",
                          f"    {REPLY_MARK}Re: Quote for the roof", "Lunch?"]
    current = panel.current()
    assert current is not None and current.ref.id == "acc:INBOX:4"  # the selection stays on its message
    assert len(selected) == 1  # and it is not opened again
    assert "message 3 of 3 in the conversation" in panel.proxy.index(2, 3).data(Qt.ItemDataRole.AccessibleTextRole)
    panel.filter.setText("lunch")
    assert subjects() == ["Lunch?"]
    panel.filter.clear()
    panel.group.click()
    assert subjects()[0] == "Re: Quote for the roof" and not panel.model.grouped


def test_cli_mail_list_threads(user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from assistant.cli import main

    cache = MailCache()
    fill(cache, "INBOX", [
        mail("Quote for the roof", "<q1@example.org>", T0, body="attached"),
        mail("Lunch?", "<l1@example.org>", T0 + timedelta(hours=1), body="Noon?"),
        mail("Re: Quote for the roof", "<q2@example.org>", T0 + timedelta(days=2), reply_to=("<q1@example.org>",)),
    ])
    assert main(["mail", "list", "--threads"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["acc:INBOX:2", "acc:INBOX:1", "acc:INBOX:3"]
    assert "\u21B3 Re: Quote for the roof" in lines[2] and "\u21B3" not in lines[1]
    assert main(["mail", "list", "--threads", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["thread"] for r in rows] == ["<l1@example.org>", "<q1@example.org>", "<q1@example.org>"]


def test_encoded_and_folded_headers_are_read_from_the_header_block() -> None:
    raw = (b"From: =?utf-8?q?Zo=C3=AB?= <zoe@example.org>\r\n"
           b"Subject: =?utf-8?q?Re=3A_Contrat_sign=C3=A9?=\r\n"
           b"Message-ID: <m3@example.org>\r\nDate: Tue, 03 Mar 2026 10:15:00 +0100\r\n"
           b"References: <m1@example.org>\r\n <m2@example.org>\r\nIn-Reply-To: <m2@example.org> (Zoe's mail)\r\n"
           b"\r\nReferences: <not-a-header@example.org>\r\n")
    got = read_headers(raw, "k")
    assert got.subject == "Re: Contrat signé" and base_subject(got.subject) == "contrat signé"
    assert got.references == ("<m1@example.org>", "<m2@example.org>") and got.in_reply_to == "<m2@example.org>"
    assert got.message_id == "<m3@example.org>" and got.date is not None and got.date.hour == 10
    assert read_headers(b"\xff\xfe garbage", "x").message_id == ""
