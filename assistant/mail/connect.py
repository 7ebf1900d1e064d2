"""Opening an IMAP connection for an account: the password (or OAuth 2.0 refresh token) comes from the
keyring, nowhere else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import imapclient.exceptions as imap_errors

from assistant import secrets
from assistant.accounts import Account
from assistant.errors import AssistantError, AuthError, SecretStoreError
from assistant.mail.imap import READ_TIMEOUT_S, ImapSource


def password(account: Account) -> str:
    """The account's password from the OS keyring.

    Raises:
        SecretStoreError: none is stored (the message says how to store one).
    """
    stored = secrets.get_password(account.name)
    if stored is None:
        raise SecretStoreError(f"no password stored for account {account.name}; run "
                               f"`assistant account add {account.name} ...` again")
    return stored


class OAuthImapSource(ImapSource):
    """An :class:`ImapSource` that authenticates with SASL XOAUTH2 or OAUTHBEARER (RFC 7628).

    A refused access token is dropped and renewed once (the provider may have revoked it early); a
    second refusal, or a refresh token the provider refuses, raises :class:`SignInRequired`.

    Args:
        account: an account with ``auth = "oauth2"``.
        token: returns a valid access token for the account (default :func:`assistant.mail.oauth.access_token`).
        forget: drops the cached access token (default :func:`assistant.mail.oauth.forget_access_token`).
    """

    def __init__(self, account: Account, *, token: Callable[[Account], str] | None = None,
                 forget: Callable[[str], None] | None = None, timeout_s: float = READ_TIMEOUT_S) -> None:
        from assistant.mail import oauth

        super().__init__(account, "", timeout_s=timeout_s)
        self._token = token or oauth.access_token
        self._forget = forget or oauth.forget_access_token

    def _login(self, client: Any) -> None:
        from assistant.errors import SignInRequired
        from assistant.mail import oauth

        a = self.account
        try:
            mech = oauth.mechanism(a)
            if not client.has_capability(f"AUTH={mech}"):
                raise AuthError(a.name, f"{a.host} does not offer {mech} sign-in; pick the other mechanism "
                                        "(sasl_mechanism in accounts.toml) or use a password or app password")
            for attempt in (1, 2):
                token = self._token(a)
                try:
                    if mech == "OAUTHBEARER":
                        client.oauthbearer_login(a.username, token)
                    else:
                        client.oauth2_login(a.username, token)
                    return
                except imap_errors.LoginError as exc:
                    self._forget(a.name)
                    if attempt == 2:
                        raise SignInRequired(a.name, f"{a.host} refused the sign-in of {a.username} even with "
                                                     "a renewed token; sign in again (check that the address is "
                                                     "the one you signed in with)") from exc
        except AssistantError:
            client.shutdown()
            raise


def connector(account: Account) -> Callable[[], ImapSource]:
    """A function opening a new connection for ``account`` (logged in on ``with`` entry)."""
    if account.auth == "oauth2":
        return lambda: OAuthImapSource(account)
    return lambda: ImapSource(account, password(account))
