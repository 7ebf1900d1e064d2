"""One exception tree for the assistant; every message says what to do next.

    AssistantError
     +-- InputError            a file cannot be read (missing, unreadable, empty, unsupported, corrupt)
     |    +-- PasswordRequired  the file is password-protected and no password, or a wrong one, was given
     +-- ModelError            a model file is missing, corrupt or cannot be loaded
     +-- ConfigError           the settings file is invalid
     +-- Cancelled             the user cancelled a long operation
     +-- SecretStoreError      the OS keyring is missing, locked or refused the request
     +-- StorageError          the data folder is full, read-only or refused a write
     +-- NetworkOff            offline mode is on and something tried to reach another machine (also a
     |                         ConnectionRefusedError, so a library handles it as a refused connection)
     +-- MailError             talking to a mail server failed
          +-- AuthError        the server refused the user name or password
          |    +-- SignInRequired  OAuth 2.0: no refresh token, or it expired or was revoked: sign in again
          +-- ServerUnreachable the host cannot be resolved or reached, or timed out
               +-- ConnectionLost  the connection dropped, stalled or was closed (BYE) during a request
          +-- TlsError         TLS failed: certificate refused, or the server does not offer STARTTLS
          +-- FolderError      a folder (mailbox) does not exist or cannot be opened

No message ever contains a password.
"""

from __future__ import annotations


class AssistantError(Exception):
    """Base of every error the assistant reports to a user."""


class InputError(AssistantError):
    """A file could not be read. The message names the file and the reason."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


class PasswordRequired(InputError):
    """A password-protected file (PDF standard security handler, ISO 32000-1 7.6.3; Office encryption,
    MS-OFFCRYPTO) got no password (``wrong`` False) or a wrong one (``wrong`` True). ``kind`` names the
    format ("PDF", "Word document"). The message never contains the password."""

    def __init__(self, source: str, kind: str, *, wrong: bool = False) -> None:
        reason = (f"wrong password for this password-protected {kind}" if wrong
                  else f"password-protected {kind} (no password given)")
        super().__init__(source, reason)
        self.kind = kind
        self.wrong = wrong


class ModelError(AssistantError):
    """A model is missing, corrupt (wrong hash, truncated) or failed to load."""


class ConfigError(AssistantError):
    """The settings file or an environment override is invalid."""


class Cancelled(AssistantError):
    """The operation was cancelled by the user."""

    def __init__(self) -> None:
        super().__init__("cancelled")


class SecretStoreError(AssistantError):
    """The OS keyring is unavailable, locked, or refused to store or return a password."""


class MailError(AssistantError):
    """A mail server request failed; subclasses say why. ``account`` names the account."""

    def __init__(self, account: str, reason: str) -> None:
        super().__init__(f"account {account}: {reason}")
        self.account = account
        self.reason = reason


class StorageError(AssistantError):
    """A file under the data folder could not be written: the disk is full, the folder is read-only, or the
    system refused the write. ``path`` is the file or folder, ``reason`` what went wrong and what to do."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason


class NetworkOff(AssistantError, ConnectionRefusedError):
    """Offline mode is on, and a connection to (or a name look-up of) ``host`` was refused before a byte left,
    or a connection opened earlier was stopped (``open_connection``). ``purpose`` is what the calling code
    said the connection was for ("mail sync"); the message says it in words: "Mail sync needs the network;
    offline mode is on". It is an OSError too, so libraries treat it as a refused connection and wrap it
    (``raise ... from``); :func:`assistant.netguard.refusal` finds it in their chain."""

    def __init__(self, purpose: str, host: str, port: int = 0, *, open_connection: bool = False) -> None:
        what = purpose[:1].upper() + purpose[1:] if purpose else f"Connecting to {host}"
        where = f"{host}:{port}" if port else host
        done = (f"the connection to {where} was stopped" if open_connection else f"nothing was sent to {where}")
        super().__init__(f"{what} needs the network; offline mode is on ({done}; turn offline mode off to go on)")
        self.purpose = purpose
        self.host = host
        self.port = port


class AuthError(MailError):
    """The server refused the login (wrong user name or password)."""


class SignInRequired(AuthError):
    """OAuth 2.0 (RFC 6749): the refresh token is missing, expired or revoked; the person must sign in again."""


class ServerUnreachable(MailError):
    """The host name does not resolve, the port refuses connections, or the server timed out."""


class ConnectionLost(ServerUnreachable):
    """An open connection failed in the middle of a request: it dropped, the server stopped answering past
    the timeout, or it closed the session (``* BYE``). Running the request again resumes it."""


class TlsError(MailError):
    """The TLS handshake failed, typically because the server's certificate was not trusted."""


class FolderError(MailError):
    """A folder (IMAP mailbox) is missing or cannot be selected."""
