"""Finding the server from the address: built-in table, autoconfig documents served by a loopback HTTP
server (fetched with the real client), RFC 6186 SRV and MX records through an injected resolver, guessed
host names through an injected probe; never an unencrypted connection."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from assistant.errors import ConfigError
from assistant.mail.autoconfig import ServerSettings, discover, fetch_url, parse_autoconfig

DOC = """<?xml version="1.0" encoding="UTF-8"?>
<clientConfig version="1.1">
  <emailProvider id="example.org">
    <domain>example.org</domain>
    <incomingServer type="pop3">
      <hostname>pop.example.org</hostname><port>995</port><socketType>SSL</socketType>
    </incomingServer>
    <incomingServer type="imap">
      <hostname>old.example.org</hostname><port>143</port><socketType>plain</socketType>
      <username>%EMAILADDRESS%</username>
    </incomingServer>
    <incomingServer type="imap">
      <hostname>imap.%EMAILDOMAIN%</hostname><port>1993</port><socketType>SSL</socketType>
      <username>%EMAILLOCALPART%</username><authentication>password-cleartext</authentication>
    </incomingServer>
  </emailProvider>
</clientConfig>"""

PLAIN_ONLY = """<clientConfig version="1.1"><emailProvider id="x"><incomingServer type="imap">
<hostname>imap.plain.test</hostname><port>143</port><socketType>plain</socketType>
</incomingServer></emailProvider></clientConfig>"""


class Site:
    """A loopback web server: path -> document; records the paths asked for."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        self.asked: list[str] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                site.asked.append(self.path)
                body = site.pages.get(self.path.split("?", 1)[0])
                if body is None:
                    self.send_error(404)
                    return
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/xml")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        # the two places of the real lookup, mapped onto the loopback server
        self.urls = (base + "/autoconfig.{domain}/mail/config-v1.1.xml?emailaddress={address}",
                     base + "/{domain}/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress={address}")


@pytest.fixture
def site() -> Iterator[Site]:
    s = Site()
    yield s
    s.server.shutdown()
    s.server.server_close()


class Dns:
    """An injected resolver: (name, type) -> records as text; records every question."""

    def __init__(self, records: dict[tuple[str, str], list[str]] | None = None) -> None:
        self.records = records or {}
        self.asked: list[tuple[str, str]] = []

    def __call__(self, name: str, rdtype: str) -> list[str]:
        self.asked.append((name, rdtype))
        return self.records.get((name, rdtype), [])


def nothing_answers(host: str, port: int) -> bool:
    return False


def find(address: str, site: Site, dns: Dns | None = None, probe: Any = nothing_answers) -> ServerSettings:
    return discover(address, autoconfig_urls=site.urls, resolve=dns or Dns(), probe=probe)


def never(*args: object) -> Any:
    raise AssertionError(f"no lookup expected, got {args}")


@pytest.mark.parametrize(("address", "host", "oauth"), [
    ("someone@gmail.com", "imap.gmail.com", "google"), ("x@GoogleMail.com", "imap.gmail.com", "google"),
    ("me@outlook.com", "outlook.office365.com", "microsoft"), ("me@hotmail.com", "outlook.office365.com", "microsoft"),
    ("me@live.com", "outlook.office365.com", "microsoft"), ("me@yahoo.com", "imap.mail.yahoo.com", ""),
    ("me@icloud.com", "imap.mail.me.com", ""), ("me@fastmail.com", "imap.fastmail.com", ""),
    ("me@gmx.de", "imap.gmx.net", ""), ("me@web.de", "imap.web.de", ""),
])
def test_built_in_table_needs_no_lookup(address: str, host: str, oauth: str) -> None:
    found = discover(address, fetch=never, resolve=never, probe=never)
    assert (found.host, found.port, found.security, found.oauth_provider) == (host, 993, "ssl", oauth)
    assert found.username == address and found.how.startswith("built-in settings")


def test_gmail_mentions_the_app_password_route() -> None:
    note = discover("a@gmail.com", fetch=never, resolve=never, probe=never).note
    assert "Google Account > Security > 2-Step Verification > App passwords" in note


def test_autoconfig_document_picks_the_encrypted_imap_server(site: Site) -> None:
    site.pages["/autoconfig.example.org/mail/config-v1.1.xml"] = DOC
    dns = Dns()
    found = find("jo.doe@example.org", site, dns)
    assert (found.host, found.port, found.security, found.username) == ("imap.example.org", 1993, "ssl", "jo.doe")
    assert "autoconfig document" in found.how and "autoconfig.example.org" in found.how
    assert site.asked == ["/autoconfig.example.org/mail/config-v1.1.xml?emailaddress=jo.doe@example.org"]
    assert dns.asked == []  # found before DNS


def test_well_known_location_is_the_second_try(site: Site) -> None:
    site.pages["/example.org/.well-known/autoconfig/mail/config-v1.1.xml"] = DOC
    found = find("jo@example.org", site)
    assert found.host == "imap.example.org" and ".well-known" in found.how and len(site.asked) == 2


def test_a_document_offering_only_plain_imap_is_not_used(site: Site) -> None:
    site.pages["/autoconfig.plain.test/mail/config-v1.1.xml"] = PLAIN_ONLY
    dns = Dns({("_imap._tcp.plain.test", "SRV"): ["0 0 143 imap.plain.test."]})
    found = find("me@plain.test", site, dns)
    assert (found.host, found.security) == ("imap.plain.test", "starttls") and "SRV" in found.how


def test_broken_documents_are_skipped(site: Site) -> None:
    site.pages["/autoconfig.example.org/mail/config-v1.1.xml"] = "<clientConfig><incomingServer"
    with pytest.raises(ConfigError, match="no mail server found for example.org"):
        find("me@example.org", site)


def test_srv_records_prefer_imaps_and_priority(site: Site) -> None:
    dns = Dns({("_imaps._tcp.example.net", "SRV"): ["20 0 993 backup.example.net.", "10 5 993 imap.example.net."],
               ("_imap._tcp.example.net", "SRV"): ["0 0 143 plain-first.example.net."]})
    found = find("me@example.net", site, dns)
    assert (found.host, found.port, found.security) == ("imap.example.net", 993, "ssl")
    assert found.how == "DNS SRV record _imaps._tcp.example.net (RFC 6186)"


def test_srv_dot_target_means_no_service(site: Site) -> None:
    dns = Dns({("_imaps._tcp.example.net", "SRV"): ["0 0 0 ."],
               ("_imap._tcp.example.net", "SRV"): ["0 0 143 imap.example.net."]})
    found = find("me@example.net", site, dns)
    assert (found.host, found.security, found.port) == ("imap.example.net", "starttls", 143)


def test_a_company_domain_at_microsoft_365_is_found_by_its_mx(site: Site) -> None:
    dns = Dns({("contoso.test", "MX"): ["0 contoso-test.mail.protection.outlook.com."]})
    found = find("ann@contoso.test", site, dns)
    assert (found.host, found.oauth_provider, found.username) == ("outlook.office365.com", "microsoft",
                                                                 "ann@contoso.test")


def test_common_host_names_are_tried_last_and_only_encrypted_ports(site: Site) -> None:
    probed: list[tuple[str, int]] = []

    def probe(host: str, port: int) -> bool:
        probed.append((host, port))
        return (host, port) == ("mail.example.com", 143)

    found = find("me@example.com", site, probe=probe)
    assert (found.host, found.port, found.security) == ("mail.example.com", 143, "starttls")
    assert probed == [("imap.example.com", 993), ("imap.example.com", 143), ("mail.example.com", 993),
                      ("mail.example.com", 143)]


def test_every_route_gives_an_encrypted_mode(site: Site) -> None:
    site.pages["/autoconfig.a.test/mail/config-v1.1.xml"] = DOC
    dns = Dns({("_imap._tcp.b.test", "SRV"): ["0 0 143 imap.b.test."]})
    results = [find("x@a.test", site, dns), find("x@b.test", site, dns),
               find("x@c.test", site, dns, probe=lambda h, p: True), discover("x@gmail.com")]
    assert {r.security for r in results} <= {"ssl", "starttls"}


def test_nothing_found_says_what_to_do(site: Site) -> None:
    with pytest.raises(ConfigError, match="enter the server, port and security"):
        find("me@nowhere.test", site)


@pytest.mark.parametrize("bad", ["", "me", "me@", "@example.org", "me@localhost", "me@exa mple.org"])
def test_not_an_address(bad: str) -> None:
    with pytest.raises(ConfigError, match="not an e-mail address"):
        discover(bad, fetch=never, resolve=never, probe=never)


def test_fetch_url_answers_none_on_errors(site: Site) -> None:
    port = site.server.server_address[1]
    assert fetch_url(f"http://127.0.0.1:{port}/missing") is None
    site.server.shutdown()
    site.server.server_close()
    assert fetch_url(f"http://127.0.0.1:{port}/missing") is None  # refused: no exception


def test_oauth_is_recognised_in_a_document() -> None:
    doc = DOC.replace("imap.%EMAILDOMAIN%", "imap.gmail.com").replace("password-cleartext", "OAuth2")
    found = parse_autoconfig(doc, "me@company.test", "test")
    assert found is not None and found.oauth_provider == "google"


def test_cli_adds_an_account_from_the_address_alone(user_dirs: Any, memory_keyring: object,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from assistant.accounts import load_accounts
    from assistant.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("an-app-password\n"))
    assert main(["mail", "add", "jo.doe@gmail.com", "--password-stdin"]) == 0
    out = capsys.readouterr().out
    assert "Found imap.gmail.com:993 (ssl), user jo.doe@gmail.com; sign in with Google" in out
    assert "2-Step Verification > App passwords" in out and "--host, --port, --security" in out
    saved = load_accounts()["jo.doe@gmail.com"]
    assert (saved.host, saved.security, saved.port, saved.auth) == ("imap.gmail.com", "ssl", 993, "password")
    assert main(["account", "add", "me@outlook.com"]) == 1
    assert "--oauth microsoft --client-id" in capsys.readouterr().err
    assert main(["account", "add", "me@example.org", "--oauth", "google"]) == 1
    assert "needs --client-id" in capsys.readouterr().err
    assert main(["account", "add", "me@example.org", "--oauth", "yahoo", "--client-id", "x"]) == 1
    assert "unknown sign-in provider 'yahoo'; use one of google, microsoft" in capsys.readouterr().err


def test_account_dialog_finds_settings_and_lets_them_be_changed(qtbot: Any, site: Site, user_dirs: Any,
                                                                memory_keyring: object) -> None:
    pytest.importorskip("PySide6")
    import functools

    from assistant.accounts import load_accounts
    from assistant.gui.account_dialog import AccountDialog

    site.pages["/autoconfig.example.org/mail/config-v1.1.xml"] = DOC
    dialog = AccountDialog(find=functools.partial(discover, autoconfig_urls=site.urls, resolve=Dns(),
                                                  probe=nothing_answers))
    qtbot.addWidget(dialog)
    dialog.address.setText("jo.doe@example.org")
    dialog.find_button.click()
    qtbot.waitUntil(lambda: dialog.find_button.isEnabled() and dialog.error.text().startswith("\u2714"),
                    timeout=20000)
    assert (dialog.host.text(), dialog.port.value(), dialog.security.currentData(), dialog.user.text()) == (
        "imap.example.org", 1993, "ssl", "jo.doe")
    assert "autoconfig document" in dialog.error.text() and dialog.password.isVisibleTo(dialog)
    dialog.host.setText("")
    dialog.accept()
    assert dialog.account is None and "Server is required" in dialog.error.text()
    dialog.host.setText("imap2.example.org")  # the person changes what was found
    dialog.password.setText("pw")
    dialog.accept()
    assert dialog.account is not None and load_accounts()["mail"].host == "imap2.example.org"


def test_account_dialog_offers_google_sign_in_and_the_app_password_route(qtbot: Any) -> None:
    pytest.importorskip("PySide6")
    from assistant.gui.account_dialog import AccountDialog

    dialog = AccountDialog()
    qtbot.addWidget(dialog)
    dialog.address.setText("someone@gmail.com")
    dialog.find_button.click()
    qtbot.waitUntil(lambda: dialog.find_button.isEnabled() and bool(dialog.error.text()), timeout=20000)
    assert dialog.host.text() == "imap.gmail.com" and dialog.provider_key == "google"
    assert dialog.sign_in_button.isVisibleTo(dialog) and dialog.sign_in_button.text() == "Sign in with Google\u2026"
    assert "App passwords" in dialog.note.text() and not dialog.password.isVisibleTo(dialog)
    dialog.find_button.click()
    dialog.address.setText("nobody")
    dialog.find_settings()
    qtbot.waitUntil(lambda: dialog.error.text().startswith("\u2716"), timeout=20000)
    assert "not an e-mail address" in dialog.error.text()
