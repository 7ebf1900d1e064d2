"""The only module that touches the OS keyring: one service name, one password per mail account.

OAuth 2.0 accounts keep their refresh token (RFC 6749 §1.5) here too, under ``ACCOUNT/oauth2-refresh-token``,
and an optional client secret (Google's "Desktop app" clients have one) under ``ACCOUNT/oauth2-client-secret``.

Passwords are never logged, never put in an exception message and never written to a settings file.
Keyring failures (no backend on a headless machine, a locked keyring) become :class:`SecretStoreError`
with a message that says what to do.
"""

from __future__ import annotations

import keyring
import keyring.errors

from assistant.errors import SecretStoreError

SERVICE = "assistant"

_NO_KEYRING = (
    "no OS keyring is available to hold the password (on a desktop: unlock GNOME Keyring or KWallet; "
    "headless: run inside `dbus-run-session` with `gnome-keyring-daemon --unlock`); the password was not "
    "stored anywhere"
)
_LOCKED = "the OS keyring is locked; unlock it (log in to the desktop session) and try again"


REFRESH_TOKEN_SUFFIX = "/oauth2-refresh-token"
CLIENT_SECRET_SUFFIX = "/oauth2-client-secret"


def _translate(action: str, account: str, exc: Exception, what: str = "password") -> SecretStoreError:
    # The keyring's own message is kept only by type name: a backend could echo its arguments.
    if isinstance(exc, keyring.errors.NoKeyringError):
        return SecretStoreError(f"cannot {action} the {what} of account {account}: {_NO_KEYRING}")
    if isinstance(exc, keyring.errors.KeyringLocked):
        return SecretStoreError(f"cannot {action} the {what} of account {account}: {_LOCKED}")
    return SecretStoreError(f"cannot {action} the {what} of account {account}: the OS keyring refused "
                            f"({type(exc).__name__}); check that your keyring is unlocked and working")


def get_password(account: str) -> str | None:
    """The stored password of ``account``, or None when none is stored.

    Raises:
        SecretStoreError: no keyring is available, it is locked, or it failed.
    """
    try:
        return keyring.get_password(SERVICE, account)
    except keyring.errors.KeyringError as exc:
        raise _translate("read", account, exc) from exc
    except RuntimeError as exc:  # some backends raise plain RuntimeError (e.g. dbus unavailable)
        raise _translate("read", account, exc) from exc


def set_password(account: str, password: str) -> None:
    """Store ``password`` for ``account`` in the OS keyring (replacing any earlier one).

    Raises:
        SecretStoreError: no keyring is available, it is locked, or it refused the write.
    """
    if not password:
        raise SecretStoreError(f"the password of account {account} is empty; type it again")
    try:
        keyring.set_password(SERVICE, account, password)
    except (keyring.errors.KeyringError, RuntimeError) as exc:
        raise _translate("store", account, exc) from exc


def delete_password(account: str) -> bool:
    """Remove the password of ``account``; returns False when none was stored.

    Raises:
        SecretStoreError: no keyring is available, it is locked, or it failed.
    """
    try:
        keyring.delete_password(SERVICE, account)
    except keyring.errors.PasswordDeleteError:
        return False
    except (keyring.errors.KeyringError, RuntimeError) as exc:
        raise _translate("delete", account, exc) from exc
    return True


def _get(key: str, account: str, what: str) -> str | None:
    try:
        return keyring.get_password(SERVICE, key)
    except (keyring.errors.KeyringError, RuntimeError) as exc:
        raise _translate("read", account, exc, what) from exc


def _set(key: str, account: str, what: str, value: str) -> None:
    if not value:
        raise SecretStoreError(f"the {what} of account {account} is empty; sign in again")
    try:
        keyring.set_password(SERVICE, key, value)
    except (keyring.errors.KeyringError, RuntimeError) as exc:
        raise _translate("store", account, exc, what) from exc


def _delete(key: str, account: str, what: str) -> bool:
    try:
        keyring.delete_password(SERVICE, key)
    except keyring.errors.PasswordDeleteError:
        return False
    except (keyring.errors.KeyringError, RuntimeError) as exc:
        raise _translate("delete", account, exc, what) from exc
    return True


def get_refresh_token(account: str) -> str | None:
    """The OAuth 2.0 refresh token of ``account``, or None when it never signed in (or signed out).

    Raises:
        SecretStoreError: no keyring is available, it is locked, or it failed.
    """
    return _get(account + REFRESH_TOKEN_SUFFIX, account, "sign-in token")


def set_refresh_token(account: str, token: str) -> None:
    """Store the OAuth 2.0 refresh token of ``account`` (replacing an earlier one, e.g. after rotation).

    Raises:
        SecretStoreError: the keyring is unavailable, locked, or refused the write.
    """
    _set(account + REFRESH_TOKEN_SUFFIX, account, "sign-in token", token)


def delete_refresh_token(account: str) -> bool:
    """Forget the refresh token of ``account`` (sign out); False when none was stored.

    Raises:
        SecretStoreError: the keyring is unavailable, locked, or failed.
    """
    return _delete(account + REFRESH_TOKEN_SUFFIX, account, "sign-in token")


def get_client_secret(account: str) -> str | None:
    """The OAuth 2.0 client secret the person registered for ``account``, or None (public clients have none).

    Raises:
        SecretStoreError: the keyring is unavailable, locked, or failed.
    """
    return _get(account + CLIENT_SECRET_SUFFIX, account, "client secret")


def set_client_secret(account: str, secret: str) -> None:
    """Store the OAuth 2.0 client secret of ``account``.

    Raises:
        SecretStoreError: the keyring is unavailable, locked, or refused the write.
    """
    _set(account + CLIENT_SECRET_SUFFIX, account, "client secret", secret)


def delete_client_secret(account: str) -> bool:
    """Forget the client secret of ``account``; False when none was stored."""
    return _delete(account + CLIENT_SECRET_SUFFIX, account, "client secret")
