"""Offline mode and the connection log with real sockets: refused at the socket, logged with purpose and bytes."""

from __future__ import annotations

import dataclasses
import email.policy
import json
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx2
import pytest
from hubserver import Hub, HubFile

from assistant import netguard
from assistant.cli import main
from assistant.errors import NetworkOff
from assistant.netlog import LoggedConnection

ELSEWHERE = "203.0.113.1"  # TEST-NET-3 (RFC 5737): never a real host; only the guard answers at once


@pytest.fixture(autouse=True)
def guarded(user_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The guard installed (as the command line and the app do), logging in this test's data folder; offline
    mode off before and after."""
    monkeypatch.delenv("ASSISTANT_CONNECTION_LOG", raising=False)
    netguard.install()
    netguard.set_offline(False)
    yield
    netguard.set_offline(False)


def logged(purpose: str | None = None) -> list[LoggedConnection]:
    return [e for e in netguard.log().entries() if purpose is None or e.purpose == purpose]


def attempt_elsewhere() -> tuple[BaseException | None, float]:
    """Connect to a host that is not this computer, as a library would; (what was raised, seconds taken)."""
    t0 = time.perf_counter()
    try:
        socket.create_connection((ELSEWHERE, 443), timeout=5).close()
    except OSError as exc:
        return exc, time.perf_counter() - t0
    return None, time.perf_counter() - t0


class _Echo(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        body = b"x" * 3000
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def local_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


def test_offline_refuses_other_machines_at_the_socket_and_keeps_loopback(local_server: str) -> None:
    netguard.set_offline(True)
    exc, seconds = attempt_elsewhere()
    assert isinstance(exc, NetworkOff) and seconds < 1  # the guard, not a network timeout
    assert "needs the network; offline mode is on" in str(exc)
    with netguard.purpose("model download"), pytest.raises(httpx2.ConnectError) as caught:
        httpx2.get(f"https://{ELSEWHERE}/model.gguf", timeout=5)  # a library's own attempt
    off = netguard.refusal(caught.value)
    assert off is not None and str(off).startswith("Model download needs the network; offline mode is on")
    with pytest.raises(NetworkOff):
        socket.getaddrinfo("example.org", 443)  # not even the name is looked up
    with netguard.purpose("asking the reader server"):
        reply = httpx2.get(local_server, timeout=5)  # this computer stays reachable
    assert reply.status_code == 200 and len(reply.content) == 3000
    refused = [e for e in logged() if e.outcome == "refused: offline mode"]
    assert [(e.host, e.port) for e in refused] == [(ELSEWHERE, 443), (ELSEWHERE, 443), ("example.org", 443)]
    assert refused[1].purpose == "model download" and not any(e.loopback for e in refused)
    [local] = logged("asking the reader server")
    assert local.loopback and local.sent and local.received and local.received >= 3000
    assert local.outcome == "closed"


def test_turning_offline_on_stops_an_open_connection(local_server: str) -> None:
    with socket.create_connection(("127.0.0.1", int(local_server.rsplit(":", 1)[1].strip("/")))) as sock:
        conn = netguard.recent()[-1]
        conn.loopback = False  # stand-in for a connection to another machine (none is reachable from a test)
        netguard.set_offline(True)
        with pytest.raises(NetworkOff, match="was stopped"):
            sock.sendall(b"GET / HTTP/1.0\r\n\r\n")
        assert conn.sent == 0


@pytest.fixture
def memo(tmp_path: Path) -> Path:
    doc = tmp_path / "memo.txt"
    doc.write_text("Memo. The quarterly review meeting moved to Thursday 14 May in room B-12. "
                   "Bring the signed budget forms. The catering order closes on Monday.\n" * 3)
    return doc


@pytest.mark.parametrize("question, route", [("Which room is the review meeting in?", "question_answering"),
                                             ("Summarize this memo.", "summarization")])
def test_ask_and_summary_work_offline_and_refuse_any_other_machine(
        question: str, route: str, memo: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.service import Session

    tried: list[tuple[BaseException | None, float]] = []
    real_ask = Session.ask

    def ask_and_try_the_network(self: Session, *args: object, **kwargs: object) -> object:
        tried.append(attempt_elsewhere())  # from inside the running command
        return real_ask(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Session, "ask", ask_and_try_the_network)
    code = main(["--offline", "ask", "--fast", "--json", str(memo), question])
    record = json.loads(capsys.readouterr().out)
    assert code in (0, 3) and record["route"] == route
    assert record["sources"] and record["sources"][0]["source"] == str(memo)
    [(exc, seconds)] = tried
    assert isinstance(exc, NetworkOff) and seconds < 1
    assert [(e.host, e.outcome) for e in logged() if not e.loopback] == [(ELSEWHERE, "refused: offline mode")]
    question_activity = netguard.last_activity("question")
    assert question_activity is not None
    assert question_activity.connections == []  # the question itself connected nowhere, not even here
    assert not netguard.is_offline()  # --offline lasts one command


def _cached_message(account: str) -> str:
    from assistant.mail.cache import CachedRef, FolderState, MailCache

    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"], msg["To"] = "Bob <bob@example.org>", "alice@example.org"
    msg["Subject"], msg["Message-ID"] = "Warranty", "<w1@example.org>"
    msg.set_content("Hi Alice,\n\nhow long is the warranty period in the attached agreement?\n\nThanks,\nBob")
    msg.add_attachment(b"Warranty. The warranty period is 36 months from the date of delivery.\n",
                       maintype="text", subtype="plain", filename="agreement.txt")
    cache = MailCache()
    cache.set_state(account, "INBOX", FolderState(uidvalidity=7, last_uid=1))
    cache.put(CachedRef(account, "INBOX", 7, 1), msg.as_bytes())
    return f"{account}:INBOX:1"


def test_draft_offline_is_written_and_kept_and_sync_says_why(memory_keyring: object,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from assistant import secrets
    from assistant.accounts import Account, add_account
    from assistant.mail.pending import PendingDrafts

    add_account(Account("far", ELSEWHERE, "alice@example.org", folders=("INBOX",)))
    secrets.set_password("far", "not-used")
    message_id = _cached_message("far")
    assert main(["--offline", "draft", message_id, "--fast"]) == 0
    err = capsys.readouterr().err
    assert "Saving a draft needs the network; offline mode is on" in err and "kept on this computer" in err
    [kept] = PendingDrafts().waiting("far")
    assert kept.subject == "Re: Warranty"
    assert main(["--offline", "mail", "sync"]) == 1
    assert "Mail sync needs the network; offline mode is on" in capsys.readouterr().err
    refused = [(e.host, e.port, e.purpose, e.outcome) for e in logged() if not e.loopback]
    assert refused == [(ELSEWHERE, 993, "saving a draft", "refused: offline mode"),
                       (ELSEWHERE, 993, "mail sync", "refused: offline mode")]
    draft_activity = netguard.last_activity("draft")
    assert draft_activity is not None and draft_activity.connections == []  # writing it needed no network


def test_sync_against_dovecot_is_logged_with_its_bytes(dovecot: object, server_client: object, mail_account: object,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.accounts import Account, add_account

    assert isinstance(mail_account, Account)
    folder = f"log-{uuid.uuid4().hex[:6]}"
    body = b"The meeting notes, long enough to count: " + b"minutes " * 2000
    server_client.create_folder(folder)  # type: ignore[attr-defined]
    server_client.append(folder, b"From: Bob <bob@example.org>\r\nSubject: Notes\r\n\r\n" + body)  # type: ignore
    add_account(dataclasses.replace(mail_account, folders=(folder,)))
    assert main(["privacy", "clear"]) == 0
    assert main(["mail", "sync"]) == 0
    [sync] = logged("mail sync")
    assert (sync.host, sync.port, sync.loopback) == ("127.0.0.1", dovecot.imaps_port, True)  # type: ignore
    assert sync.outcome == "closed" and sync.sent and sync.sent > 50  # LOGIN, SELECT, FETCH... inside TLS
    assert sync.received and sync.received > len(body)  # the message came through the TLS socket, counted
    assert main(["--offline", "mail", "sync"]) == 0  # the test server is this computer: offline keeps it
    assert "Offline mode: only this computer's server was reached." in capsys.readouterr().err  # and says so
    assert main(["privacy", "log"]) == 0
    out = capsys.readouterr().out
    assert f"127.0.0.1:{dovecot.imaps_port} [this computer]  mail sync  sent " in out  # type: ignore
    assert "2 connection(s), 0 to other machines" in out and dovecot.password not in out  # type: ignore
    assert main(["privacy", "log", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["purpose"] for r in rows] == ["mail sync", "mail sync"] and rows[0]["received"] > len(body)
    assert main(["privacy", "clear"]) == 0
    assert "2 connection(s) removed" in capsys.readouterr().out
    assert main(["privacy", "log"]) == 0
    assert "No connections recorded." in capsys.readouterr().out


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[Hub]:
    server = Hub().start()
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    yield server
    server.stop()


def test_model_download_is_logged_with_its_purpose(hub: Hub, user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    weights = bytes(range(256)) * 256
    repo = "test-org/tiny-encoder"
    hub.files[(repo, "config.json")] = HubFile(b'{"model_type": "distilbert"}\n', lfs=False)
    hub.files[(repo, "model.safetensors")] = HubFile(weights)
    config = user_dirs / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "catalog.toml").write_text(f"""
[[model]]
name = "tiny-encoder"
role = "encoder"
title = "a tiny encoder"
repo = "{repo}"
files = ["config.json", "model.safetensors"]
""", encoding="utf-8")
    assert main(["models", "pull", "tiny-encoder"]) == 0
    pulls = logged("model download")
    assert pulls and all(p.loopback and p.port == int(hub.url.rsplit(":", 1)[1]) for p in pulls)
    assert all(p.outcome == "closed" for p in pulls)  # no connection to the hub stays open after a pull
    assert sum(p.received or 0 for p in pulls) > len(weights) and sum(p.sent or 0 for p in pulls) > 0
    monkeypatch.setenv("HF_ENDPOINT", "https://huggingface.co")
    capsys.readouterr()
    assert main(["--offline", "models", "pull", "tiny-encoder"]) == 1
    assert "Model download needs the network; offline mode is on" in capsys.readouterr().err
    assert [(e.host, e.outcome) for e in logged("model download") if not e.loopback] == \
        [("huggingface.co", "refused: offline mode")]


def test_the_offline_setting_and_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["privacy", "offline"]) == 0
    assert "Offline mode is off" in capsys.readouterr().out
    assert main(["privacy", "offline", "on"]) == 0
    assert "Offline mode is on" in capsys.readouterr().out
    assert main(["privacy", "log"]) == 0  # every command now starts offline
    assert capsys.readouterr().out.startswith("Offline mode: on.")
    assert main(["privacy", "offline", "off"]) == 0
    assert main(["privacy", "log"]) == 0
    assert capsys.readouterr().out.count("Offline mode: off.") == 1
