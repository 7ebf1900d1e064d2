"""OAuth 2.0 sign-in for IMAP (RFC 6749) as a native app (RFC 8252), on authlib's httpx2 OAuth2Client.

The flow: a loopback HTTP listener on ``127.0.0.1`` with a port the OS picks (RFC 8252 §7.3), the
authorization request opened in the system browser (RFC 8252 §4.1; :mod:`webbrowser`, injectable), PKCE
with ``S256`` (RFC 7636 §4.2) and a ``state`` checked on return; then the code is exchanged at the token
endpoint. The refresh token goes to the OS keyring (:mod:`assistant.secrets`) and nowhere else; access
tokens stay in this process's memory and are refreshed ``REFRESH_MARGIN_S`` before they expire. A refresh
token the provider refuses (``invalid_grant``: expired or revoked, RFC 6749 §5.2) becomes
:class:`SignInRequired`, whose message says how to sign in again.

Errors raised here: :class:`SignInRequired`, :class:`AuthError` (the person declined, the state did not
match, no answer in time), :class:`ServerUnreachable` (the token endpoint cannot be reached),
:class:`ConfigError` (an unknown provider). Tokens never appear in a message.
"""

from __future__ import annotations

import http.server
import secrets as pysecrets
import threading
import time
import urllib.parse
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx2
from authlib.integrations.httpx_client import OAuth2Client, OAuthError
from authlib.oauth2.rfc6749.errors import OAuth2Error

from assistant import netguard, secrets
from assistant.accounts import Account
from assistant.errors import AuthError, Cancelled, ConfigError, ServerUnreachable, SignInRequired

REFRESH_MARGIN_S = 300.0  # refresh an access token this long before it expires
SIGN_IN_TIMEOUT_S = 300.0  # how long the loopback listener waits for the browser
HTTP_TIMEOUT_S = 30.0
DEFAULT_LIFETIME_S = 3600.0  # when the token endpoint omits expires_in (RFC 6749 §5.1 makes it optional)

GOOGLE_APP_PASSWORD_HELP = (
    "Google also accepts an app password instead of signing in: turn on 2-Step Verification, then open "
    "Google Account > Security > 2-Step Verification > App passwords, create one for \"Mail\", and use it "
    "as the password with server imap.gmail.com, security ssl, port 993 and your address as the user name."
)


@dataclass(frozen=True)
class Provider:
    """An OAuth 2.0 provider's endpoints for IMAP access.

    Attributes:
        key: short name used in accounts.toml (``google``, ``microsoft``).
        title: the name shown to people ("Google").
        authorization_endpoint: RFC 6749 §3.1 (opened in the browser).
        token_endpoint: RFC 6749 §3.2 (code exchange and refresh).
        scopes: scopes to request for IMAP (plus refresh).
        mechanism: the SASL mechanism used by default (``XOAUTH2`` or ``OAUTHBEARER``).
        authorize_params: extra authorization-request parameters (e.g. Google's ``access_type=offline``).
        app_password_help: how to get an app password instead ('' = the provider has none for IMAP).
    """

    key: str
    title: str
    authorization_endpoint: str
    token_endpoint: str
    scopes: tuple[str, ...]
    mechanism: str = "XOAUTH2"
    authorize_params: tuple[tuple[str, str], ...] = ()
    app_password_help: str = ""


GOOGLE = Provider(
    "google", "Google", "https://accounts.google.com/o/oauth2/v2/auth", "https://oauth2.googleapis.com/token",
    ("https://mail.google.com/",), "XOAUTH2",
    # offline access returns a refresh token; consent makes Google send one again on a second sign-in
    (("access_type", "offline"), ("prompt", "consent")), GOOGLE_APP_PASSWORD_HELP)
MICROSOFT = Provider(
    "microsoft", "Microsoft", "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    "https://login.microsoftonline.com/common/oauth2/v2.0/token",
    ("https://outlook.office.com/IMAP.AccessAsUser.All", "offline_access"), "XOAUTH2")
PROVIDERS: dict[str, Provider] = {p.key: p for p in (GOOGLE, MICROSOFT)}


def provider(key: str) -> Provider:
    """The provider ``key`` from :data:`PROVIDERS`.

    Raises:
        ConfigError: no such provider.
    """
    try:
        return PROVIDERS[key]
    except KeyError:
        raise ConfigError(f"unknown sign-in provider {key!r}; use one of {', '.join(sorted(PROVIDERS))}") from None


@dataclass
class _Redirect:
    """What the browser brought back to the loopback listener (the full request URL)."""

    url: str = ""
    base: str = ""  # http://127.0.0.1:PORT
    arrived: threading.Event = field(default_factory=threading.Event)


_DONE_PAGE = (b"<!doctype html><meta charset=utf-8><title>Signed in</title><p>You can close this window and "
              b"return to the assistant.")


def _listener(redirect: _Redirect) -> http.server.HTTPServer:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            query = urllib.parse.urlsplit(self.path).query
            params = urllib.parse.parse_qs(query)
            if "code" not in params and "error" not in params:  # a favicon or a stray request
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(_DONE_PAGE)))
            self.end_headers()
            self.wfile.write(_DONE_PAGE)
            if not redirect.arrived.is_set():
                redirect.url = redirect.base + self.path
                redirect.arrived.set()

        def log_message(self, format: str, *args: Any) -> None:  # the query holds the code: never log it
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    redirect.base = f"http://127.0.0.1:{server.server_port}"
    return server


def _session(prov: Provider, client_id: str, client_secret: str | None, **kwargs: Any) -> OAuth2Client:
    return OAuth2Client(client_id, client_secret, scope=" ".join(prov.scopes),
                        token_endpoint_auth_method="client_secret_post" if client_secret else "none",
                        code_challenge_method="S256", timeout=HTTP_TIMEOUT_S, **kwargs)


@dataclass(frozen=True)
class SignedIn:
    """The outcome of a sign-in: the access token (kept in memory only) and when it expires (epoch s)."""

    access_token: str
    expires_at: float
    scope: str


def sign_in(account: str, prov: Provider, client_id: str, *, client_secret: str | None = None,
            login_hint: str = "", open_browser: Callable[[str], object] = webbrowser.open,
            timeout_s: float = SIGN_IN_TIMEOUT_S, cancel: threading.Event | None = None) -> SignedIn:
    """Sign ``account`` in with the authorization-code flow + PKCE; the refresh token goes to the keyring.

    Args:
        account: account name (the keyring entry).
        prov: the provider.
        client_id: the registered client id.
        client_secret: only for providers whose desktop clients have one (Google); stored in the keyring.
        login_hint: the address, so the provider preselects it.
        open_browser: opens the authorization URL (default: the system browser).
        timeout_s: how long to wait for the browser to come back.
        cancel: set it to stop waiting.

    Raises:
        AuthError: the person declined, the provider gave no refresh token, the answer did not match the
            request (``state``), or it did not come in time.
        Cancelled: ``cancel`` was set.
        ServerUnreachable: the token endpoint could not be reached.
        SecretStoreError: the keyring refused the refresh token.
    """
    redirect = _Redirect()
    server = _listener(redirect)
    thread = threading.Thread(target=server.serve_forever, name="oauth-redirect", daemon=True)
    thread.start()
    try:
        redirect_uri = redirect.base + "/"
        session = _session(prov, client_id, client_secret, redirect_uri=redirect_uri)
        verifier = pysecrets.token_urlsafe(64)  # 86 characters of the RFC 7636 §4.1 set
        extra = dict(prov.authorize_params)
        if login_hint:
            extra["login_hint"] = login_hint
        url, state = session.create_authorization_url(prov.authorization_endpoint, code_verifier=verifier, **extra)
        open_browser(url)
        deadline = time.monotonic() + timeout_s
        while not redirect.arrived.wait(0.2):
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            if time.monotonic() > deadline:
                raise AuthError(account, f"no answer from the {prov.title} sign-in page within {timeout_s:.0f} s; "
                                         "try again and finish signing in in the browser")
    finally:
        server.shutdown()
        server.server_close()
    params = urllib.parse.parse_qs(urllib.parse.urlsplit(redirect.url).query)
    if "error" in params:
        reason = params["error"][0]
        if reason == "access_denied":
            raise AuthError(account, f"access to the mailbox was declined on the {prov.title} page; sign in "
                                     "again and allow mail access")
        raise AuthError(account, f"{prov.title} refused the sign-in ({reason}); check the client id and try again")
    try:
        with netguard.purpose("signing in"):
            token = session.fetch_token(prov.token_endpoint, authorization_response=redirect.url, state=state,
                                        code_verifier=verifier)
    except (OAuthError, OAuth2Error) as exc:
        raise AuthError(account, f"{prov.title} refused the sign-in ({_error_name(exc)}); check the client id "
                                 "(and secret) you registered and sign in again") from exc
    except httpx2.HTTPError as exc:
        raise _unreachable(account, prov, exc) from exc
    finally:
        session.close()
    if not token.get("refresh_token"):
        raise AuthError(account, f"{prov.title} gave no refresh token; sign in again (and allow offline access)")
    if client_secret:
        secrets.set_client_secret(account, client_secret)
    secrets.set_refresh_token(account, str(token["refresh_token"]))
    signed = _signed(token)
    _CACHE.put(account, signed)
    return signed


def _error_name(exc: Exception) -> str:
    return str(getattr(exc, "error", "") or type(exc).__name__)


def _unreachable(account: str, prov: Provider, exc: Exception) -> ServerUnreachable:
    host = urllib.parse.urlsplit(prov.token_endpoint).netloc
    off = netguard.refusal(exc)
    if off is not None:
        return ServerUnreachable(account, str(off))
    return ServerUnreachable(account, f"the {prov.title} sign-in server {host} cannot be reached "
                                      f"({type(exc).__name__}); check your network and try again")


def _signed(token: dict[str, Any], now: float | None = None) -> SignedIn:
    now = time.time() if now is None else now
    if token.get("expires_in"):
        expires_at = now + float(token["expires_in"])
    else:
        expires_at = float(token.get("expires_at") or now + DEFAULT_LIFETIME_S)
    return SignedIn(str(token["access_token"]), expires_at, str(token.get("scope", "")))


class _TokenCache:
    """Access tokens by account name, in memory only; one refresh at a time per process."""

    def __init__(self) -> None:
        self._tokens: dict[str, SignedIn] = {}
        self.lock = threading.Lock()

    def get(self, account: str) -> SignedIn | None:
        return self._tokens.get(account)

    def put(self, account: str, signed: SignedIn) -> None:
        self._tokens[account] = signed

    def drop(self, account: str) -> None:
        self._tokens.pop(account, None)


_CACHE = _TokenCache()


def _sign_in_again(account: Account, prov: Provider, why: str) -> SignInRequired:
    return SignInRequired(account.name, f"{why}; sign in again with `assistant account add {account.name} "
                                        f"--oauth {prov.key}` or the account dialog's \"Sign in with "
                                        f"{prov.title}\" button")


def access_token(account: Account, *, now: Callable[[], float] = time.time) -> str:
    """A valid access token for ``account`` (``auth = "oauth2"``), refreshed when it expires within
    ``REFRESH_MARGIN_S`` seconds (RFC 6749 §6). A rotated refresh token replaces the stored one.

    Raises:
        SignInRequired: no refresh token is stored, or the provider refused it (expired or revoked).
        ServerUnreachable: the token endpoint cannot be reached.
        ConfigError: the account's provider is unknown.
        SecretStoreError: the keyring is unavailable.
    """
    prov = provider(account.oauth_provider)
    with _CACHE.lock:
        cached = _CACHE.get(account.name)
        if cached is not None and cached.expires_at - REFRESH_MARGIN_S > now():
            return cached.access_token
        refresh = secrets.get_refresh_token(account.name)
        if not refresh:
            raise _sign_in_again(account, prov, f"account {account.name} is not signed in to {prov.title}")
        session = _session(prov, account.oauth_client_id, secrets.get_client_secret(account.name))
        try:
            with netguard.purpose("renewing the sign-in"):
                token = session.refresh_token(prov.token_endpoint, refresh_token=refresh)
        except (OAuthError, OAuth2Error) as exc:
            _CACHE.drop(account.name)
            if _error_name(exc) in ("invalid_grant", "invalid_token", "unauthorized_client", "invalid_client"):
                raise _sign_in_again(account, prov, f"the {prov.title} sign-in has expired or was revoked") from exc
            raise AuthError(account.name, f"{prov.title} refused to renew the sign-in ({_error_name(exc)}); "
                                          "try again later or sign in again") from exc
        except httpx2.HTTPError as exc:
            raise _unreachable(account.name, prov, exc) from exc
        except ValueError as exc:  # not a JSON object (a gateway's error page)
            raise AuthError(account.name, f"the {prov.title} sign-in server answered with something that is "
                                          "not a token; try again later") from exc
        finally:
            session.close()
        new_refresh = token.get("refresh_token")
        if new_refresh and new_refresh != refresh:
            secrets.set_refresh_token(account.name, str(new_refresh))
        signed = _signed(token, now())
        _CACHE.put(account.name, signed)
        return signed.access_token


def forget_access_token(account: str) -> None:
    """Drop the in-memory access token of ``account`` (the next :func:`access_token` refreshes)."""
    with _CACHE.lock:
        _CACHE.drop(account)


def sign_out(account: str) -> None:
    """Forget the access token and remove the refresh token and client secret from the keyring.

    Raises:
        SecretStoreError: the keyring is unavailable.
    """
    forget_access_token(account)
    secrets.delete_refresh_token(account)
    secrets.delete_client_secret(account)


def mechanism(account: Account) -> str:
    """The SASL mechanism for ``account``: its setting, else its provider's (``XOAUTH2`` or ``OAUTHBEARER``)."""
    return account.sasl_mechanism or provider(account.oauth_provider).mechanism
