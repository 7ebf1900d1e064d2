"""Mail accounts: frozen settings kept as TOML in ``config_dir()/accounts.toml`` (never a password).

Security modes: ``ssl`` (implicit TLS, RFC 8314, default port 993), ``starttls`` (RFC 3501 §6.2.1,
default port 143) and ``plain`` (no TLS; allowed only to a loopback host such as a local bridge).
TLS certificates are always verified; a self-signed server is trusted through a per-account CA file.
Authentication: ``password`` (IMAP LOGIN; the password in the keyring) or ``oauth2`` (SASL XOAUTH2 or
OAUTHBEARER, RFC 7628, with a token from :mod:`assistant.mail.oauth`; the refresh token in the keyring).
"""

from __future__ import annotations

import ipaddress
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

import tomli_w

from assistant.config import config_dir
from assistant.errors import ConfigError
from assistant.text.plural import noun_for

Security = Literal["ssl", "starttls", "plain"]
SECURITY_MODES: tuple[Security, ...] = ("ssl", "starttls", "plain")
DEFAULT_PORTS: dict[str, int] = {"ssl": 993, "starttls": 143, "plain": 143}
DEFAULT_FOLDERS = ("INBOX",)
Auth = Literal["password", "oauth2"]
AUTH_MODES: tuple[Auth, ...] = ("password", "oauth2")
SASL_MECHANISMS = ("XOAUTH2", "OAUTHBEARER")
ACCOUNTS_FILE = "accounts.toml"
_NAME = re.compile(r"^[A-Za-z0-9._@+-]{1,64}$")
_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9._@+-]+")


def name_problem(name: str) -> str:
    """Why ``name`` cannot name an account, in words with a name that would do ('' when it can): it goes into
    message IDs (``NAME:FOLDER:UID``) and the keyring, so it is one short word."""
    if _NAME.match(name):
        return ""
    if not name.strip():
        return "give the account a short name, e.g. \"work\""
    fixed = _NOT_IN_NAME.sub("-", name.strip()).strip("-").lower()[:64] or "mail"
    if len(name) > 64 and not _NOT_IN_NAME.search(name):
        return f"an account name has at most 64 characters; \"{fixed}\" would do"
    return f"an account name is one word of letters, digits and . _ @ + - (no spaces); \"{fixed}\" would do"


@dataclass(frozen=True)
class Account:
    """One IMAP account. The password lives in the OS keyring under ``name`` (see assistant.secrets).

    Attributes:
        name: short identifier (letters, digits, ``. _ @ + -``), used in message IDs and the keyring.
        host: IMAP server host name or address.
        username: login name.
        security: ``ssl``, ``starttls`` or ``plain`` (plain: loopback hosts only).
        port: TCP port; 0 means the default of the security mode (993 or 143).
        folders: folders to sync and watch.
        drafts_folder: where drafts go; None finds the SPECIAL-USE ``\\Drafts`` folder (RFC 6154),
            else a folder named "Drafts".
        ca_file: PEM file of a CA (or self-signed certificate) trusted for this account only, in
            addition to nothing else; None uses the system's trusted CAs.
        display_name: the account holder's name: the From line of drafted replies ("Alice Example
            <alice@example.org>") and their signature ('' = the bare address, signed from its local part).
        auth: ``password`` or ``oauth2`` (sign-in in the browser; see :mod:`assistant.mail.oauth`).
        oauth_provider: for ``oauth2``: a key of ``assistant.mail.oauth.PROVIDERS`` (``google``,
            ``microsoft``).
        oauth_client_id: for ``oauth2``: the client id the person or organisation registered with the
            provider (the project ships none).
        sasl_mechanism: for ``oauth2``: ``XOAUTH2`` or ``OAUTHBEARER`` (RFC 7628); '' = the provider's.
    """

    name: str
    host: str
    username: str
    security: Security = "ssl"
    port: int = 0
    folders: tuple[str, ...] = DEFAULT_FOLDERS
    drafts_folder: str | None = None
    ca_file: str | None = None
    display_name: str = ""
    auth: Auth = "password"
    oauth_provider: str = ""
    oauth_client_id: str = ""
    sasl_mechanism: str = ""

    @property
    def signer(self) -> str:
        """The name a reply is signed with: ``display_name``, else the address's local part, titled."""
        if self.display_name.strip():
            return self.display_name.strip()
        local = self.username.split("@", 1)[0]
        return " ".join(w.capitalize() for w in re.split(r"[._-]+", local) if w) or self.username

    def __post_init__(self) -> None:
        if problem := name_problem(self.name):
            raise ConfigError(f"account name {self.name!r} is not allowed: {problem}")
        if not self.host:
            raise ConfigError(f"account {self.name}: Server is required (the IMAP host, e.g. imap.example.org)")
        if not self.username:
            raise ConfigError(f"account {self.name}: User name is required (usually the e-mail address)")
        if self.security not in SECURITY_MODES:
            raise ConfigError(f"account {self.name}: security must be one of {', '.join(SECURITY_MODES)}")
        if self.security == "plain" and not is_loopback(self.host):
            raise ConfigError(f"account {self.name}: security \"plain\" sends the password unencrypted and is "
                              "only allowed to localhost; use \"ssl\" or \"starttls\"")
        if not 0 <= self.port <= 65535:
            raise ConfigError(f"account {self.name}: port {self.port} is out of range")
        if not self.folders:
            raise ConfigError(f"account {self.name}: list at least one folder (e.g. INBOX)")
        if self.auth not in AUTH_MODES:
            raise ConfigError(f"account {self.name}: auth must be one of {', '.join(AUTH_MODES)}")
        if self.auth == "oauth2" and not (self.oauth_provider and self.oauth_client_id):
            raise ConfigError(f"account {self.name}: OAuth 2.0 sign-in needs a provider (google or microsoft) "
                              "and the client id you registered with it; see docs/mail.md")
        if self.sasl_mechanism and self.sasl_mechanism not in SASL_MECHANISMS:
            raise ConfigError(f"account {self.name}: sasl_mechanism must be one of {', '.join(SASL_MECHANISMS)}")
        if self.ca_file is not None and not Path(self.ca_file).is_file():
            raise ConfigError(f"account {self.name}: CA file {self.ca_file} not found; give a PEM file")

    @property
    def effective_port(self) -> int:
        """The port to connect to (the security mode's default when ``port`` is 0)."""
        return self.port or DEFAULT_PORTS[self.security]


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def accounts_path() -> Path:
    """``config_dir()/accounts.toml``."""
    return config_dir() / ACCOUNTS_FILE


def _from_table(name: str, table: dict[str, Any]) -> Account:
    known = {"host", "username", "security", "port", "folders", "drafts_folder", "ca_file", "display_name",
             "auth", "oauth_provider", "oauth_client_id", "sasl_mechanism"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"unknown {noun_for(len(unknown), 'setting')} {', '.join(unknown)} in [accounts.{name}]; "
                          "remove them")
    try:
        return Account(name=name, host=str(table["host"]), username=str(table["username"]),
                       security=cast(Security, table.get("security", "ssl")), port=int(table.get("port", 0)),
                       folders=tuple(str(f) for f in table.get("folders", DEFAULT_FOLDERS)),
                       drafts_folder=table.get("drafts_folder"), ca_file=table.get("ca_file"),
                       display_name=str(table.get("display_name", "")),
                       auth=cast(Auth, table.get("auth", "password")),
                       oauth_provider=str(table.get("oauth_provider", "")),
                       oauth_client_id=str(table.get("oauth_client_id", "")),
                       sasl_mechanism=str(table.get("sasl_mechanism", "")))
    except KeyError as exc:
        raise ConfigError(f"[accounts.{name}] lacks {exc.args[0]}; add it or remove the account") from exc
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"[accounts.{name}] has an invalid value ({exc}); fix it") from exc


def load_accounts(path: Path | None = None) -> dict[str, Account]:
    """All accounts by name, in file order; a missing file gives none.

    Raises:
        ConfigError: the file is not valid TOML or an account is invalid.
    """
    path = path or accounts_path()
    if not path.exists():
        return {}
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); fix or delete it") from exc
    tables = raw.get("accounts", {})
    return {name: _from_table(name, table) for name, table in tables.items()}


def _to_table(account: Account) -> dict[str, Any]:
    table: dict[str, Any] = {"host": account.host, "username": account.username,
                             "security": account.security, "folders": list(account.folders)}
    if account.port:
        table["port"] = account.port
    if account.drafts_folder:
        table["drafts_folder"] = account.drafts_folder
    if account.ca_file:
        table["ca_file"] = account.ca_file
    if account.display_name:
        table["display_name"] = account.display_name
    if account.auth != "password":
        table["auth"] = account.auth
    for key in ("oauth_provider", "oauth_client_id", "sasl_mechanism"):
        if getattr(account, key):
            table[key] = getattr(account, key)
    return table


def save_accounts(accounts: dict[str, Account], path: Path | None = None) -> None:
    """Write ``accounts`` (replacing the file atomically; mode 0600). No secret is ever written."""
    path = path or accounts_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = tomli_w.dumps({"accounts": {name: _to_table(a) for name, a in accounts.items()}})
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.chmod(0o600)
    tmp.replace(path)


def add_account(account: Account, path: Path | None = None) -> None:
    """Add or replace ``account`` in the accounts file."""
    accounts = load_accounts(path)
    accounts[account.name] = account
    save_accounts(accounts, path)


def remove_account(name: str, path: Path | None = None) -> Account:
    """Remove account ``name`` and return it.

    Raises:
        ConfigError: no such account.
    """
    accounts = load_accounts(path)
    if name not in accounts:
        raise ConfigError(f"no account named {name!r}; see `assistant account list`")
    removed = accounts.pop(name)
    save_accounts(accounts, path)
    return removed


def get_account(name: str | None, path: Path | None = None) -> Account:
    """Account ``name``, or the only/first account when ``name`` is None.

    Raises:
        ConfigError: no such account, or none configured.
    """
    accounts = load_accounts(path)
    if not accounts:
        raise ConfigError("no mail account configured; add one with `assistant account add`")
    if name is None:
        return next(iter(accounts.values()))
    if name not in accounts:
        raise ConfigError(f"no account named {name!r}; see `assistant account list`")
    return accounts[name]
