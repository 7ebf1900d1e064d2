"""The only module that touches the OS keyring: one service name, one password per mail account.

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


def _translate(action: str, account: str, exc: Exception) -> SecretStoreError:
    # The keyring's own message is kept only by type name: a backend could echo its arguments.
    if isinstance(exc, keyring.errors.NoKeyringError):
        return SecretStoreError(f"cannot {action} the password of account {account}: {_NO_KEYRING}")
    if isinstance(exc, keyring.errors.KeyringLocked):
        return SecretStoreError(f"cannot {action} the password of account {account}: {_LOCKED}")
    return SecretStoreError(f"cannot {action} the password of account {account}: the OS keyring refused "
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
