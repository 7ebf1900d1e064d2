"""What needs my reply: the verbatim-quote rule, the header pre-check, the list over a small cached mailbox
with known answers, and ``assistant mail todo``."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import ScriptedGenerator

from assistant.accounts import Account, add_account
from assistant.cli import main
from assistant.documents.mime.parse import parse_message
from assistant.errors import Cancelled
from assistant.mail.cache import CachedRef, FolderState, MailCache
from assistant.mail.todo import bulk_reason, recent_messages
from assistant.models.base import GenerationRequest
from assistant.records import Progress
from assistant.ttrag.compute.requests import cited_sentence, find_requests, own_text

WRITTEN = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "mail_todo" / "written"
# real public messages (read in place) and messages written for the evaluation, with whether each asks
MAILBOX = [("emails/sa_nice/001", False), ("emails/nodemailer/delivery-status.eml", False),
           ("emails/cpython_email/msg_01.txt", True), ("written/w01.eml", True), ("written/n12.eml", False)]


def _path(data_root: Path, name: str) -> Path:
    return data_root / name if name.startswith("emails/") else WRITTEN.parent / name


def fill_cache(data_root: Path, cache: MailCache) -> dict[str, str]:
    """The mailbox in ``cache`` as account ``me``, folder INBOX, UIDs 1..n; returns name -> message ID."""
    ids = {}
    for uid, (name, _) in enumerate(MAILBOX, 1):
        ref = CachedRef("me", "INBOX", 7, uid)
        cache.put(ref, _path(data_root, name).read_bytes())
        ids[name] = ref.id
    cache.set_state("me", "INBOX", FolderState(7, len(MAILBOX), previous_uid=len(MAILBOX)))
    return ids


def knows(request: GenerationRequest) -> str:
    """The model's reply as the labels have it: msg_01 asks, with its sentence; w01 asks, quoting words not in
    the text (so it is not cited) and a date the text does hold; the rest ask nothing."""
    if "Do you like this message?" in request.user:
        return json.dumps({"quote": "Do you like this message?", "asks_me": True, "what": "Say if you like it",
                           "due": None})
    if "supply agreement" in request.user:
        return json.dumps({"quote": "Please review the agreement now.", "asks_me": True,
                           "what": "Review the contract changes", "due": "Friday 27 November"})
    return json.dumps({"quote": "", "asks_me": False, "what": "", "due": None})


def test_a_quote_cites_the_whole_sentence_it_is_found_in() -> None:
    text = ("Hi Sam,\n\nLegal sent back the agreement.\nCould you review the changes and tell me whether we "
            "can accept them\nby Friday 27 November? Thanks.\n\nMaria")
    whole = "Could you review the changes and tell me whether we can accept them by Friday 27 November?"
    assert cited_sentence("Could you review the changes", text) == whole
    assert cited_sentence("\u201ctell me whether we can accept them by Friday 27 November\u201d", text) == whole
    assert cited_sentence("Legal sent back", text) == "Legal sent back the agreement."
    assert cited_sentence("Do you like this", "Hi Sam,\n\nDo you like this message?") == "Do you like this message?"
    assert cited_sentence("Hi Sam, do you like", "Hi Sam, do you like it?") == "Hi Sam, do you like it?"
    assert cited_sentence("Could you review the contract", text) == ""  # not word for word
    assert cited_sentence("could you review the changes", text) == ""  # case is kept
    assert cited_sentence("Thanks.", text) == ""  # too short to cite anything


def test_the_pre_check_reads_headers_only(data_root: Path) -> None:
    assert bulk_reason((data_root / "emails/sa_nice/001").read_bytes()) == "List-Id header"
    assert bulk_reason((data_root / "emails/nodemailer/delivery-status.eml").read_bytes()) == "delivery report"
    assert bulk_reason((data_root / "emails/sa_nice/spf1").read_bytes()) == "no-reply sender"
    assert bulk_reason((WRITTEN / "w01.eml").read_bytes()) == ""
    assert bulk_reason(b"From: a@b.example\r\nAuto-Submitted: auto-replied\r\n\r\nAway") == \
        "Auto-Submitted: auto-replied"


def test_own_text_leaves_out_quoted_history_and_signature() -> None:
    text = own_text(parse_message((WRITTEN / "w04.eml").read_bytes()))
    assert "please sign the attached NDA" in text
    assert "Could you send the NDA?" not in text and "wrote:" not in text


def test_the_list_on_a_small_mailbox_has_the_known_answers(data_root: Path, user_dirs: Path) -> None:
    cache = MailCache()
    ids = fill_cache(data_root, cache)
    found = recent_messages(cache, days=None)
    assert {m.ref.id for m in found} == set(ids.values())
    generator = ScriptedGenerator(knows)
    events: list[object] = []
    readings = find_requests(generator, [(m.ref.id, m.message, bulk_reason(m.message.raw)) for m in found],
                             emit=events.append)
    asks = {r.message_id: r.request for r in readings if r.request is not None}
    assert set(asks) == {ids[name] for name, yes in MAILBOX if yes}
    first = asks[ids["emails/cpython_email/msg_01.txt"]]
    assert first is not None and first.quote == "Do you like this message?" and first.cited
    assert first.sender == "bbb@ddd.com" and first.subject == "This is a test message"
    contract = asks[ids["written/w01.eml"]]
    assert contract is not None and not contract.cited and contract.due == "Friday 27 November"
    skipped = {r.message_id: r.skipped for r in readings if r.skipped}
    assert skipped == {ids["emails/sa_nice/001"]: "List-Id header",
                       ids["emails/nodemailer/delivery-status.eml"]: "delivery report"}
    assert len(generator.requests) == 3  # lists and reports are not read
    assert events[-1] == Progress("todo", 5, 5, "messages")


def test_a_date_the_text_does_not_hold_is_dropped(data_root: Path) -> None:
    message = parse_message((WRITTEN / "w02.eml").read_bytes())
    reply = json.dumps({"quote": "Could you send me a copy of the invoice for February?", "asks_me": True,
                        "what": "Send the February invoice", "due": "1 March"})
    [reading] = find_requests(ScriptedGenerator(lambda r: reply), [("me:INBOX:2", message, "")])
    assert reading.request is not None and reading.request.due == "" and reading.request.cited


def test_recent_means_new_or_within_the_days(data_root: Path, user_dirs: Path) -> None:
    cache = MailCache()
    ids = fill_cache(data_root, cache)
    now = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    recent = recent_messages(cache, days=7, now=now)  # w01 (25 Nov) only; n12 is 10 Nov, the rest older
    assert [m.ref.id for m in recent] == [ids["written/w01.eml"]]
    cache.set_state("me", "INBOX", FolderState(7, len(MAILBOX), previous_uid=len(MAILBOX) - 1))
    recent = recent_messages(cache, days=7, now=now)  # the latest sync brought n12 (UID 5): it counts too
    assert [m.ref.id for m in recent] == [ids["written/w01.eml"], ids["written/n12.eml"]]


def test_cancel_stops_between_messages(data_root: Path) -> None:
    stop = threading.Event()
    message = parse_message((WRITTEN / "w01.eml").read_bytes())

    def answer(request: GenerationRequest) -> str:
        stop.set()
        return knows(request)

    with pytest.raises(Cancelled):
        find_requests(ScriptedGenerator(answer), [("a", message, ""), ("b", message, "")], cancel=stop)


def test_mail_todo_command(data_root: Path, user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    ids = fill_cache(data_root, MailCache())
    monkeypatch.setattr("assistant.service.ModelStore.generator", lambda self: ScriptedGenerator(knows))
    assert main(["mail", "todo", "--all"]) == 0
    out = capsys.readouterr().out
    assert "2 messages of 5 ask something of you." in out
    assert main(["mail", "todo", "--all", "--skip-lists"]) == 0
    out = capsys.readouterr().out
    assert "2 messages of 5 ask something of you (2 lists or notifications skipped by their headers)." in out
    assert "\u201cDo you like this message?\u201d" in out
    assert f"reply: assistant draft {ids['written/w01.eml']}" in out
    assert "Review the contract changes \u2014 by Friday 27 November" in out
    assert "(not cited: the model's quote is not in the text)" in out
    assert main(["mail", "todo", "--all", "--limit", "1"]) == 0  # the newest: w01
    assert "1 message of 1 asks something of you." in capsys.readouterr().out
    assert main(["mail", "todo", "--all", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["quote"], r["due"]) for r in rows] == [
        (ids["written/w01.eml"], None, "Friday 27 November"),
        (ids["emails/cpython_email/msg_01.txt"], "Do you like this message?", None)]
    assert main(["mail", "todo"]) == 0  # nothing dated within the last 7 days, and no account to sync
    assert "No mail account is set up: add one with `assistant mail add ADDRESS`" in capsys.readouterr().out
    add_account(Account("work", "imap.example.org", "me@example.org"))
    assert main(["mail", "todo"]) == 0  # nothing dated within the last 7 days, and no sync brought anything new
    assert "No recent messages" in capsys.readouterr().out


@pytest.mark.slow
def test_the_bundled_model_tells_a_request_from_a_thank_you(big_llm: object) -> None:
    from assistant.ttrag.compute.requests import read_request

    ask = read_request(big_llm, parse_message((WRITTEN / "w01.eml").read_bytes()), "w01")  # type: ignore[arg-type]
    assert ask is not None and ask.cited and "review the changes" in ask.quote
    thanks = read_request(big_llm, parse_message((WRITTEN / "n12.eml").read_bytes()), "n12")  # type: ignore[arg-type]
    assert thanks is None
