"""OAuth 2.0 sign-in end to end: a loopback provider, a scripted browser, and a real Dovecot whose oauth2
passdb introspects the provider's tokens (RFC 6749, 7636, 7662, 8252; SASL XOAUTH2 and OAUTHBEARER, RFC 7628)."""

from __future__ import annotations

import shutil
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx2
import pytest
from dovecot import Dovecot
from dovecot_oauth import TokenServer
from memkeyring import MemoryKeyring

from assistant.accounts import Account, accounts_path, add_account
from assistant.cli import main
from assistant.errors import AuthError, SignInRequired
from assistant.mail import oauth
from assistant.mail.connect import connector

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

USER = "alice@example.org"

pytestmark = pytest.mark.skipif(shutil.which("dovecot") is None or shutil.which("openssl") is None,
                                reason="dovecot or openssl is not installed (apt-get install dovecot-imapd openssl)")


@pytest.fixture(scope="module")
def provider_and_server() -> Iterator[tuple[TokenServer, Dovecot]]:
    from dovecot_oauth import TokenServer, start_oauth_dovecot

    tokens = TokenServer(USER).start()
    server = start_oauth_dovecot(tokens)
    yield tokens, server
    server.stop()
    tokens.stop()


@pytest.fixture
def tokens(provider_and_server: tuple[TokenServer, Dovecot], monkeypatch: pytest.MonkeyPatch) -> Iterator[TokenServer]:
    t = provider_and_server[0]
    t.deny = False
    t.requests.clear()
    monkeypatch.setitem(oauth.PROVIDERS, "loopback", oauth.Provider(
        "loopback", "Loopback", f"{t.base}/authorize", f"{t.base}/token", ("imap",)))
    yield t


@pytest.fixture
def account(provider_and_server: tuple[TokenServer, Dovecot], user_dirs: Path, memory_keyring: MemoryKeyring,
            request: pytest.FixtureRequest) -> Iterator[Account]:
    server = provider_and_server[1]
    name = f"oa-{request.node.name[-20:].strip('_[]')}"
    a = Account(name, "127.0.0.1", USER, port=server.imaps_port, ca_file=str(server.cert),
                auth="oauth2", oauth_provider="loopback", oauth_client_id="test-client")
    add_account(a)
    yield a
    oauth.forget_access_token(a.name)


class Browser:
    """The person's browser, scripted: opens the authorization URL, follows the provider's redirect."""

    def __init__(self, tamper: Callable[[str], str] = lambda url: url) -> None:
        self.opened: list[str] = []
        self.tamper = tamper

    def __call__(self, url: str) -> bool:
        self.opened.append(url)
        page = httpx2.get(url, follow_redirects=False, timeout=10)
        assert page.status_code == 302
        back = httpx2.get(self.tamper(page.headers["Location"]), timeout=10)
        assert back.status_code == 200 and "close this window" in back.text
        return True


def sign_in(account: Account, browser: Browser | None = None) -> oauth.SignedIn:
    return oauth.sign_in(account.name, oauth.provider("loopback"), "test-client", login_hint=USER,
                         open_browser=browser or Browser(), timeout_s=20)


def folders(account: Account) -> list[str]:
    with connector(account)() as source:
        return [f.name for f in source.folders()]


def test_first_sign_in_uses_pkce_and_a_loopback_redirect_and_logs_in_with_xoauth2(
        tokens: TokenServer, account: Account, memory_keyring: MemoryKeyring,
        provider_and_server: tuple[TokenServer, Dovecot]) -> None:
    browser = Browser()
    signed = sign_in(account, browser)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(browser.opened[0]).query))
    assert query["code_challenge_method"] == "S256" and query["login_hint"] == USER
    assert query["redirect_uri"].startswith("http://127.0.0.1:") and query["redirect_uri"] != "http://127.0.0.1:80/"
    exchange = [form for path, form in tokens.requests if path == "/token"]
    assert exchange[0]["grant_type"] == "authorization_code" and len(exchange[0]["code_verifier"]) >= 43
    refresh = memory_keyring.store[("assistant", f"{account.name}/oauth2-refresh-token")]
    assert refresh in tokens.refresh
    saved = accounts_path().read_text()
    assert refresh not in saved and signed.access_token not in saved and "test-client" in saved
    assert "INBOX" in folders(account)
    assert tokens.introspected[-1] == signed.access_token
    log = (provider_and_server[1].root / "dovecot.log").read_text()
    assert "method=XOAUTH2" in log


def test_oauthbearer_login(tokens: TokenServer, account: Account,
                           provider_and_server: tuple[TokenServer, Dovecot]) -> None:
    import dataclasses

    bearer = dataclasses.replace(account, sasl_mechanism="OAUTHBEARER")
    sign_in(bearer)
    assert "Drafts" in folders(bearer)
    log = (provider_and_server[1].root / "dovecot.log").read_text()
    assert "method=OAUTHBEARER" in log


def test_access_token_is_refreshed_before_it_expires(tokens: TokenServer, account: Account,
                                                     memory_keyring: MemoryKeyring) -> None:
    first = sign_in(account)
    assert oauth.access_token(account) == first.access_token  # still fresh: no request
    assert [p for p, f in tokens.requests if f.get("grant_type") == "refresh_token"] == []
    almost = first.expires_at - oauth.REFRESH_MARGIN_S + 1  # inside the margin, not yet expired
    renewed = oauth.access_token(account, now=lambda: almost)
    assert renewed != first.access_token
    assert [f["grant_type"] for p, f in tokens.requests if p == "/token"][-1] == "refresh_token"
    rotated = memory_keyring.store[("assistant", f"{account.name}/oauth2-refresh-token")]
    assert rotated in tokens.refresh  # the rotated token replaced the old one
    assert "INBOX" in folders(account)
    assert tokens.introspected[-1] == renewed


def test_an_access_token_the_server_refuses_is_renewed_once(tokens: TokenServer, account: Account) -> None:
    sign_in(account)
    tokens.expire_access_tokens()  # the cached token is now refused
    assert "INBOX" in folders(account)


def test_revoked_sign_in_says_sign_in_again(tokens: TokenServer, account: Account,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    sign_in(account)
    tokens.revoke()
    with pytest.raises(SignInRequired, match="expired or was revoked; sign in again") as caught:
        folders(account)
    assert "Traceback" not in str(caught.value)
    assert main(["account", "test", account.name]) == 1
    err = capsys.readouterr().err
    assert "sign in again" in err and "--oauth loopback" in err and "Traceback" not in err


def test_expired_refresh_token(tokens: TokenServer, account: Account, memory_keyring: MemoryKeyring) -> None:
    from assistant import secrets

    sign_in(account)
    secrets.set_refresh_token(account.name, "an-old-expired-token")
    with pytest.raises(SignInRequired, match="sign in again"):
        oauth.access_token(account, now=lambda: time.time() + 7200)


def test_not_signed_in(tokens: TokenServer, account: Account) -> None:
    with pytest.raises(SignInRequired, match="is not signed in to Loopback; sign in again"):
        folders(account)


def test_declined_consent_is_a_clear_error(tokens: TokenServer, account: Account,
                                           memory_keyring: MemoryKeyring) -> None:
    tokens.deny = True
    with pytest.raises(AuthError, match="declined"):
        sign_in(account)
    assert not memory_keyring.store


def test_a_forged_state_is_refused(tokens: TokenServer, account: Account, memory_keyring: MemoryKeyring) -> None:
    forged = Browser(tamper=lambda url: url.replace("state=", "state=forged"))
    with pytest.raises(AuthError, match="refused the sign-in"):
        sign_in(account, forged)
    assert not memory_keyring.store


def test_cli_add_with_oauth_signs_in_through_the_browser(tokens: TokenServer,
                                                         provider_and_server: tuple[TokenServer, Dovecot],
                                                         user_dirs: Path, memory_keyring: MemoryKeyring,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    server = provider_and_server[1]
    browser = Browser()
    monkeypatch.setattr("webbrowser.open", browser)
    try:
        assert main(["account", "add", USER, "--host", "127.0.0.1", "--port", str(server.imaps_port),
                     "--ca-file", str(server.cert), "--oauth", "loopback", "--client-id", "test-client"]) == 0
        out = capsys.readouterr()
        assert "Signed in to Loopback" in out.out and browser.opened[0] in out.err
        assert main(["account", "test", USER]) == 0
        assert "OK: logged in" in capsys.readouterr().out
    finally:
        oauth.forget_access_token(USER)


def test_account_dialog_signs_in_tests_and_saves(qtbot: QtBot, tokens: TokenServer, user_dirs: Path,
                                                 provider_and_server: tuple[TokenServer, Dovecot],
                                                 memory_keyring: MemoryKeyring) -> None:
    pytest.importorskip("PySide6")
    from assistant.accounts import load_accounts
    from assistant.gui.account_dialog import AccountDialog

    server = provider_and_server[1]
    browser = Browser()
    dialog = AccountDialog(open_browser=browser)
    qtbot.addWidget(dialog)
    try:
        dialog.name.setText("dlg")
        dialog.host.setText("127.0.0.1")
        dialog.user.setText(USER)
        dialog.port.setValue(server.imaps_port)
        dialog.ca_file.setText(str(server.cert))
        dialog.sign_in_with.setCurrentIndex(dialog.sign_in_with.findData("loopback"))
        assert not dialog.password.isVisibleTo(dialog) and dialog.sign_in_button.text() == "Sign in with Loopback\u2026"
        dialog.accept()  # no client id yet
        assert dialog.account is None and "needs a Client id" in dialog.error.text()
        dialog.client_id.setText("test-client")
        dialog.accept()  # not signed in yet
        assert dialog.account is None and "Sign in with Loopback\" first" in dialog.error.text()
        dialog.sign_in_button.click()
        qtbot.waitUntil(lambda: dialog.error.text().startswith(("\u2714", "\u2716")), timeout=30000)
        assert dialog.error.text() == f"\u2714 Signed in as {USER}." and browser.opened
        dialog.name.setText("renamed")  # the token follows the name
        dialog.test_button.click()
        qtbot.waitUntil(lambda: dialog.error.text().startswith(("\u2714 Conn", "\u2716")), timeout=30000)
        assert "INBOX" in dialog.error.text(), dialog.error.text()
        dialog.accept()
        assert dialog.account is not None and dialog.account.auth == "oauth2"
        assert load_accounts()["renamed"].oauth_client_id == "test-client"
        keys = {key for _service, key in memory_keyring.store}
        assert keys == {"renamed/oauth2-refresh-token"}
    finally:
        oauth.forget_access_token("renamed")
