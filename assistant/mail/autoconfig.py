"""Finding an IMAP server from the e-mail address alone, the way mail programs do.

In order, the first that answers wins:

1. a built-in table of the big providers (:data:`KNOWN`);
2. the domain's autoconfig document in Thunderbird's ``clientConfig`` format (version 1.1), fetched over
   HTTPS from ``autoconfig.<domain>`` and ``<domain>/.well-known/autoconfig/``;
3. RFC 6186 SRV records: ``_imaps._tcp.<domain>`` (implicit TLS, preferred by RFC 8314 §5.1), then
   ``_imap._tcp.<domain>`` (STARTTLS);
4. the domain's MX records pointing at Google or Microsoft 365 (a company domain hosted there);
5. common host names (``imap.<domain>``, ``mail.<domain>``) that accept a TCP connection on 993 or 143.

Never an unencrypted connection: a server offered only without TLS is skipped, and anything found is
``ssl`` or ``starttls`` (an :class:`~assistant.accounts.Account` in ``starttls`` mode refuses a server
without STARTTLS). DNS answers and guesses are not authenticated (RFC 6186 §6), so the result is shown
to the person to confirm or change. HTTP goes through httpx2, DNS through dnspython; both are
injectable for tests.
"""

from __future__ import annotations

import socket
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant import netguard
from assistant.accounts import Security
from assistant.errors import ConfigError

HTTP_TIMEOUT_S = 8.0
PROBE_TIMEOUT_S = 4.0
MAX_DOCUMENT_BYTES = 256 * 1024
AUTOCONFIG_URLS = (
    "https://autoconfig.{domain}/mail/config-v1.1.xml?emailaddress={address}",
    "https://{domain}/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress={address}",
)
PORTS: dict[str, int] = {"ssl": 993, "starttls": 143}

Fetch = Callable[[str], "str | None"]
"""GET a URL; the body on HTTP 200, else None (never raises)."""
Resolve = Callable[[str, str], "list[str]"]
"""(name, record type ``SRV``/``MX``) -> the records as text (``"0 1 993 imap.example.org."``, ``"10 mx."``)."""
Probe = Callable[[str, int], bool]
"""Whether host:port accepts a TCP connection."""


@dataclass(frozen=True)
class ServerSettings:
    """What was found for an address.

    Attributes:
        host: IMAP server.
        port: TCP port.
        security: ``ssl`` or ``starttls`` (never plain).
        username: the login name (usually the address).
        how: where it came from, in words ("built-in table", "autoconfig document https://...", ...).
        oauth_provider: ``google``/``microsoft`` when the provider wants OAuth 2.0 sign-in ('' = password).
        note: advice to show (e.g. how to get an app password).
    """

    host: str
    port: int
    security: Security
    username: str
    how: str
    oauth_provider: str = ""
    note: str = ""

    def describe(self) -> str:
        """One line for people: ``imap.gmail.com:993 (ssl), user me@gmail.com — found in ...``."""
        sign_in = f"; sign in with {self.oauth_provider.capitalize()}" if self.oauth_provider else ""
        return f"{self.host}:{self.port} ({self.security}), user {self.username}{sign_in} \u2014 {self.how}"


@dataclass(frozen=True)
class _Known:
    host: str
    oauth_provider: str = ""
    note: str = ""
    port: int = 993
    security: Security = "ssl"


_APP_PASSWORD = "{name} needs an app password for mail programs: create one at {where} and use it as the password"
_MICROSOFT = _Known("outlook.office365.com", "microsoft",
                    "Microsoft turned off passwords for IMAP: sign in with Microsoft (OAuth 2.0)")
KNOWN: dict[str, _Known] = {
    **dict.fromkeys(("gmail.com", "googlemail.com"), _Known(
        "imap.gmail.com", "google", "Sign in with Google, or use an app password: Google Account > Security > "
                                    "2-Step Verification > App passwords")),
    **dict.fromkeys(("outlook.com", "hotmail.com", "hotmail.co.uk", "live.com", "msn.com",
                     "outlook.office365.com", "office365.com"), _MICROSOFT),
    **dict.fromkeys(("yahoo.com", "ymail.com", "rocketmail.com", "yahoo.co.uk", "yahoo.de", "yahoo.fr"), _Known(
        "imap.mail.yahoo.com", "", _APP_PASSWORD.format(name="Yahoo", where="Account Info > Account security > "
                                                                           "Generate app password"))),
    **dict.fromkeys(("icloud.com", "me.com", "mac.com"), _Known(
        "imap.mail.me.com", "", _APP_PASSWORD.format(name="iCloud", where="appleid.apple.com > Sign-In and "
                                                                           "Security > App-Specific Passwords"))),
    **dict.fromkeys(("fastmail.com", "fastmail.fm"), _Known(
        "imap.fastmail.com", "", _APP_PASSWORD.format(name="Fastmail", where="Settings > Privacy & Security > "
                                                                             "App passwords"))),
    **dict.fromkeys(("gmx.de", "gmx.net", "gmx.at", "gmx.ch"), _Known(
        "imap.gmx.net", "", "turn on IMAP first: GMX settings > POP3 & IMAP > allow access")),
    "gmx.com": _Known("imap.gmx.com"),
    "web.de": _Known("imap.web.de", "", "turn on IMAP first: WEB.DE settings > POP3/IMAP Abruf"),
    "aol.com": _Known("imap.aol.com", "", _APP_PASSWORD.format(name="AOL", where="Account Security > "
                                                                             "Generate app password")),
    "zoho.com": _Known("imap.zoho.com"),
    "mailbox.org": _Known("imap.mailbox.org"),
    "posteo.de": _Known("posteo.de"),
}
# Mail exchangers of hosted domains (RFC 5321 MX): a company domain at Google Workspace or Microsoft 365.
_MX_PROVIDERS: tuple[tuple[str, str], ...] = (
    ("aspmx.l.google.com", "gmail.com"), ("googlemail.com", "gmail.com"),
    ("mail.protection.outlook.com", "outlook.com"),
)


def split_address(address: str) -> tuple[str, str]:
    """``local@domain`` -> (local, domain in lower case).

    Raises:
        ConfigError: not an address.
    """
    local, at, domain = address.strip().rpartition("@")
    domain = domain.strip().lower().rstrip(".")
    if not at or not local or "." not in domain or any(c in domain for c in "/:?# "):
        raise ConfigError(f"{address!r} is not an e-mail address; type it as name@example.org")
    return local, domain


def fetch_url(url: str) -> str | None:
    """The default :data:`Fetch`: HTTPS GET with httpx2 (certificates verified), at most 256 KiB."""
    import httpx2

    try:
        with httpx2.stream("GET", url, timeout=HTTP_TIMEOUT_S, follow_redirects=True) as reply:
            if reply.status_code != 200:
                return None
            body = b""
            for piece in reply.iter_bytes():
                body += piece
                if len(body) > MAX_DOCUMENT_BYTES:
                    return None
    except (httpx2.HTTPError, OSError) as exc:
        off = netguard.refusal(exc)
        if off is not None:
            raise off from None  # offline mode: say so, not "no mail server found"
        return None
    if len(body) > MAX_DOCUMENT_BYTES:
        return None
    return body.decode("utf-8", errors="replace")


def resolve_dns(name: str, rdtype: str) -> list[str]:
    """The default :data:`Resolve`: the system's DNS resolver through dnspython; no answer -> []."""
    import dns.exception
    import dns.resolver

    try:
        answer = dns.resolver.resolve(name, rdtype, lifetime=HTTP_TIMEOUT_S)
    except dns.exception.DNSException as exc:
        off = netguard.refusal(exc)
        if off is not None:
            raise off from None
        return []
    return [r.to_text() for r in answer]


def probe_port(host: str, port: int) -> bool:
    """The default :data:`Probe`: a TCP connection within ``PROBE_TIMEOUT_S`` (closed at once)."""
    try:
        with socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S):
            return True
    except OSError as exc:
        off = netguard.refusal(exc)
        if off is not None:
            raise off from None
        return False


def _fill(template: str, address: str) -> str:
    local, domain = split_address(address)
    return (template.replace("%EMAILADDRESS%", address).replace("%EMAILLOCALPART%", local)
            .replace("%EMAILDOMAIN%", domain))


def parse_autoconfig(text: str, address: str, how: str) -> ServerSettings | None:
    """The first encrypted IMAP server of a Thunderbird ``clientConfig`` document, or None.

    Servers with ``socketType`` ``plain`` are skipped; ``authentication`` ``OAuth2`` at a Google or
    Microsoft host marks the result for sign-in.
    """
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return None
    for server in root.iter("incomingServer"):
        if server.get("type") != "imap":
            continue
        host = (server.findtext("hostname") or "").strip()
        socket_type = (server.findtext("socketType") or "").strip().upper()
        security: Security | None = {"SSL": "ssl", "TLS": "ssl", "STARTTLS": "starttls"}.get(socket_type)  # type: ignore[assignment]
        if not host or security is None:
            continue
        try:
            port = int((server.findtext("port") or "").strip() or PORTS[security])
        except ValueError:
            continue
        username = _fill((server.findtext("username") or "%EMAILADDRESS%").strip(), address)
        methods = {(m.text or "").strip() for m in server.iter("authentication")}
        oauth = ""
        if "OAuth2" in methods:
            oauth = _provider_of(host)
        return ServerSettings(_fill(host, address), port, security, username, how, oauth)
    return None


def _provider_of(host: str) -> str:
    host = host.lower()
    if host.endswith(("gmail.com", "google.com", "googlemail.com")):
        return "google"
    if host.endswith(("office365.com", "outlook.com")):
        return "microsoft"
    return ""


def _srv(records: Sequence[str]) -> list[tuple[int, int, int, str]]:
    rows = []
    for record in records:
        parts = record.split()
        if len(parts) != 4 or not all(p.isdigit() for p in parts[:3]):
            continue
        target = parts[3].rstrip(".")
        if target:  # "." = the service is decidedly not available (RFC 2782)
            rows.append((int(parts[0]), -int(parts[1]), int(parts[2]), target))
    return sorted(rows)


def _known(domain: str, address: str, how: str) -> ServerSettings:
    k = KNOWN[domain]
    return ServerSettings(k.host, k.port, k.security, address, how, k.oauth_provider, k.note)


def discover(address: str, *, fetch: Fetch = fetch_url, resolve: Resolve = resolve_dns, probe: Probe = probe_port,
             autoconfig_urls: Sequence[str] = AUTOCONFIG_URLS) -> ServerSettings:
    """Find the IMAP server for ``address`` (see the module docstring for the order).

    Args:
        address: the e-mail address.
        fetch: HTTP GET (tests pass a loopback one).
        resolve: DNS lookup of SRV and MX records as text.
        probe: TCP reachability of a guessed host.
        autoconfig_urls: templates with ``{domain}`` and ``{address}`` (URL-encoded) for step 2.

    Returns:
        The settings and, in ``how``, where they came from.

    Raises:
        ConfigError: not an address, or nothing was found (the message says to enter the server by hand).
        NetworkOff: offline mode is on and the address is not in the built-in table.
    """
    local, domain = split_address(address)
    if domain in KNOWN:
        return _known(domain, address, f"built-in settings for {domain}")
    with netguard.purpose("looking up the mail server"):
        return _look_up(address, domain, fetch=fetch, resolve=resolve, probe=probe, autoconfig_urls=autoconfig_urls)


def _look_up(address: str, domain: str, *, fetch: Fetch, resolve: Resolve, probe: Probe,
             autoconfig_urls: Sequence[str]) -> ServerSettings:
    import urllib.parse

    for template in autoconfig_urls:
        url = template.format(domain=domain, address=urllib.parse.quote(address, safe="@"))
        text = fetch(url)
        if text:
            found = parse_autoconfig(text, address, f"autoconfig document {url.split('?', 1)[0]}")
            if found:
                return found
    for service, security in (("_imaps._tcp", "ssl"), ("_imap._tcp", "starttls")):
        name = f"{service}.{domain}"
        for _prio, _weight, port, target in _srv(resolve(name, "SRV")):
            return ServerSettings(target, port, security, address, f"DNS SRV record {name} (RFC 6186)")  # type: ignore[arg-type]
    for record in resolve(domain, "MX"):
        exchanger = record.split()[-1].rstrip(".").lower()
        for suffix, known in _MX_PROVIDERS:
            if exchanger.endswith(suffix):
                return _known(known, address, f"the domain's mail exchanger {exchanger}")
    for host in (f"imap.{domain}", f"mail.{domain}"):
        for security, port in PORTS.items():
            if probe(host, port):
                return ServerSettings(host, port, security, address,  # type: ignore[arg-type]
                                      f"guessed host name {host} (answers on port {port})")
    raise ConfigError(f"no mail server found for {domain} (no autoconfig document, SRV record or imap./mail. "
                      "host); enter the server, port and security your provider gives")
