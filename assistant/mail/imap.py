"""The only IMAP I/O (RFC 3501 on imapclient): connect, log in, list, read without side effects, append.

Reading never changes a message: folders are opened read-only (EXAMINE) where possible and bodies are
fetched with ``BODY.PEEK[]`` (RFC 3501 §6.4.5), so ``\\Seen`` stays as it was. The only write is
APPEND of a draft with the ``\\Draft`` flag. TLS is always verified (``ssl.create_default_context``,
optionally trusting one per-account CA file). imapclient, socket and ssl errors are translated here
into :mod:`assistant.errors` types whose messages say what to do; passwords never appear in them.

Where the server offers QRESYNC (RFC 7162), it is enabled after login (``ENABLE QRESYNC``, RFC 5161) and a
folder synced before is re-opened with ``EXAMINE folder (QRESYNC (uidvalidity modseq known-uids))``
(RFC 7162 §3.2.5): the server answers with ``VANISHED (EARLIER)``, the UIDs expunged since that mod-sequence,
so finding messages deleted or moved away costs one command. Without it, sync compares UID sets.
"""

from __future__ import annotations

import bisect
import logging
import re
import socket
import ssl
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Any

import imapclient
import imapclient.exceptions as imap_errors
from imapclient.response_parser import parse_response

from assistant import netguard
from assistant.accounts import Account
from assistant.errors import AuthError, ConnectionLost, FolderError, MailError, ServerUnreachable, TlsError

CONNECT_TIMEOUT_S = 20.0
READ_TIMEOUT_S = 120.0
IDLE_MAX_S = 25 * 60  # RFC 2177 §3: re-issue IDLE at least every 29 minutes
EOF_WAKES = 10  # immediate empty IDLE wakes in a row that mean the server closed the connection
FETCH_ITEMS = [b"BODY.PEEK[]", b"RFC822.SIZE", b"INTERNALDATE", b"FLAGS"]
_APPENDUID = re.compile(rb"APPENDUID (\d+) (\d+)")
_UID_RANGE = re.compile(r"^(\d+)(?::(\d+))?$")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Folder:
    """A mailbox: its name (decoded from modified UTF-7) and flags such as ``\\Drafts`` (RFC 6154)."""

    name: str
    flags: tuple[str, ...]


@dataclass(frozen=True)
class UidSet:
    """A set of UIDs as sorted, disjoint, inclusive ranges ``(first, last)`` (RFC 3501 §9 ``sequence-set``,
    without ``*``); membership is a binary search, so ``1:4000000000`` costs no memory."""

    ranges: tuple[tuple[int, int], ...] = ()

    @classmethod
    def parse(cls, texts: Iterable[str]) -> UidSet:
        """The union of sequence-set texts such as ``"1:3,7,9:12"`` (ranges may be written high:low).

        Raises:
            ValueError: a part is not ``N`` or ``N:M`` (e.g. ``*``, which a VANISHED response never holds).
        """
        spans: list[tuple[int, int]] = []
        for text in texts:
            for part in text.split(","):
                match = _UID_RANGE.match(part.strip())
                if match is None:
                    raise ValueError(f"not a UID set part: {part!r}")
                a = int(match.group(1))
                b = int(match.group(2) or a)
                spans.append((min(a, b), max(a, b)))
        merged: list[tuple[int, int]] = []
        for lo, hi in sorted(spans):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
            else:
                merged.append((lo, hi))
        return cls(tuple(merged))

    def __contains__(self, uid: object) -> bool:
        if not isinstance(uid, int):
            return False
        i = bisect.bisect_right(self.ranges, (uid, float("inf"))) - 1
        return i >= 0 and self.ranges[i][0] <= uid <= self.ranges[i][1]

    def __bool__(self) -> bool:
        return bool(self.ranges)


@dataclass(frozen=True)
class FolderStatus:
    """A selected folder: UIDVALIDITY (RFC 3501 §2.3.1.1), UIDNEXT, message count, HIGHESTMODSEQ (RFC 7162
    §3.1.2.1; 0 when the server keeps no mod-sequences) and, after an EXAMINE with the QRESYNC parameter,
    the UIDs the server reported as ``VANISHED (EARLIER)`` (None when that parameter was not sent)."""

    name: str
    uidvalidity: int
    uidnext: int
    exists: int
    highestmodseq: int = 0
    vanished: UidSet | None = None


@dataclass(frozen=True)
class FetchedMessage:
    """One message as the server holds it: the exact ``BODY[]`` bytes, size (bytes), date and flags."""

    uid: int
    raw: bytes
    size: int
    internaldate: datetime | None
    flags: tuple[str, ...]


def ssl_context(account: Account) -> ssl.SSLContext:
    """A verifying TLS context: the system CAs, or only ``account.ca_file`` when one is given."""
    try:
        return ssl.create_default_context(cafile=account.ca_file)
    except (OSError, ssl.SSLError) as exc:
        raise TlsError(account.name, f"cannot load the CA file {account.ca_file} ({exc}); give a PEM "
                                     "certificate file") from exc


def _connect_error(account: Account, exc: BaseException) -> MailError:
    where = f"{account.host}:{account.effective_port}"
    off = netguard.refusal(exc)
    if off is not None:  # offline mode: unreachable by choice (a draft is kept, the sync says why)
        return ServerUnreachable(account.name, str(off))
    if isinstance(exc, ssl.SSLCertVerificationError):
        return TlsError(account.name, f"the certificate of {where} was refused ({exc.verify_message}). "
                                      "If this server uses a self-signed certificate, save it and pass it with "
                                      "`assistant account add --ca-file FILE`; verification is never turned off")
    if isinstance(exc, ssl.SSLError):
        return TlsError(account.name, f"TLS with {where} failed ({exc.reason or exc}); check the port and "
                                      "security mode (ssl is usually port 993, starttls port 143)")
    if isinstance(exc, socket.gaierror):
        return ServerUnreachable(account.name, f"host {account.host} cannot be resolved; check the host name "
                                               "and your network connection")
    if isinstance(exc, ConnectionRefusedError):
        return ServerUnreachable(account.name, f"{where} refused the connection; check the port and that the "
                                               "server is running")
    if isinstance(exc, TimeoutError):
        return ServerUnreachable(account.name, f"{where} did not answer in time; check your network and try "
                                               "again later")
    if isinstance(exc, OSError):
        return ServerUnreachable(account.name, f"cannot reach {where} ({exc.strerror or exc}); check your "
                                               "network and try again")
    return MailError(account.name, f"the server {where} failed ({exc}); try again later")


class ImapSource:
    """One IMAP connection for one account. Use as a context manager: ``with ImapSource(a, pw) as s:``.

    Args:
        account: the account settings.
        password: its password (kept only for the login call; never logged or shown).
        timeout_s: read timeout in seconds for each server reply.
        qresync: enable QRESYNC (RFC 7162) after login when the server offers it (False: never, so sync
            compares UID sets instead).
    """

    def __init__(self, account: Account, password: str, *, timeout_s: float = READ_TIMEOUT_S,
                 qresync: bool = True) -> None:
        self.account = account
        self._password = password
        self._timeout_s = timeout_s
        self._want_qresync = qresync
        self._qresync = False
        self._client: Any = None
        self._selected: str | None = None

    def __enter__(self) -> ImapSource:
        self.connect()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ImapSource({self.account.name!r})"

    def connect(self) -> None:
        """Open the connection (TLS as the account says) and log in.

        Raises:
            ServerUnreachable: the host cannot be resolved, refuses, or times out, or offline mode is on.
            TlsError: the certificate is refused or STARTTLS is not offered.
            AuthError: the user name or password is wrong.
        """
        with netguard.default_purpose("mail"):
            self._connect()

    def _connect(self) -> None:
        a = self.account
        timeout = imapclient.SocketTimeout(connect=CONNECT_TIMEOUT_S, read=self._timeout_s)
        context = ssl_context(a) if a.security != "plain" else None
        try:
            client = imapclient.IMAPClient(a.host, port=a.effective_port, ssl=a.security == "ssl",
                                           ssl_context=context, timeout=timeout)
            if a.security == "starttls":
                try:
                    client.starttls(context)
                except imap_errors.CapabilityError as exc:
                    client.shutdown()
                    raise TlsError(a.name, f"{a.host} does not offer STARTTLS; use security \"ssl\" "
                                           "(port 993)") from exc
        except (OSError, imap_errors.IMAPClientError) as exc:
            raise _connect_error(a, exc) from exc
        try:
            self._login(client)
        except imap_errors.LoginError as exc:
            client.shutdown()
            raise AuthError(a.name, f"{a.host} refused the login of {a.username}: wrong user name or "
                                    "password; re-enter it with `assistant account add`") from exc
        except (OSError, imap_errors.IMAPClientError) as exc:
            raise _connect_error(a, exc) from exc
        self._qresync = False
        if self._want_qresync:
            try:
                self._qresync = self._enable_qresync(client)
            except (OSError, imap_errors.IMAPClientAbortError) as exc:
                client.shutdown()
                raise _connect_error(a, exc) from exc
        self._client = client

    def _enable_qresync(self, client: Any) -> bool:
        """``ENABLE QRESYNC`` (RFC 7162 §3.2.3, RFC 5161) when the server offers both; whether it took.

        A server that refuses is used without it (sync then compares UID sets); that is logged, not raised.
        """
        try:
            if not (client.has_capability("QRESYNC") and client.has_capability("ENABLE")):
                return False
            enabled = client.enable("QRESYNC")
        except imap_errors.IMAPClientAbortError:
            raise
        except imap_errors.IMAPClientError as exc:
            log.info("%s: ENABLE QRESYNC failed (%s); comparing UID sets instead", self.account.name, exc)
            return False
        return any(bytes(e).upper() == b"QRESYNC" for e in enabled)

    @property
    def qresync(self) -> bool:
        """Whether QRESYNC (RFC 7162) is enabled on this connection."""
        return self._qresync

    def _login(self, client: Any) -> None:
        """Authenticate on the open connection: IMAP LOGIN (RFC 3501 §6.2.3). ``OAuthImapSource`` in
        :mod:`assistant.mail.connect` uses SASL XOAUTH2 / OAUTHBEARER (RFC 7628) instead."""
        client.login(self.account.username, self._password)

    def close(self) -> None:
        """Log out and close; errors while closing are ignored (the connection is going away)."""
        client, self._client = self._client, None
        if client is None:
            return
        try:
            client.logout()
        except (OSError, imap_errors.IMAPClientError):
            try:
                client.shutdown()
            except OSError:
                pass

    @property
    def client(self) -> Any:
        if self._client is None:
            raise MailError(self.account.name, "not connected; connect first")
        return self._client

    def _lost(self, exc: BaseException) -> MailError:
        if isinstance(exc, OSError):
            return _connect_error(self.account, exc)
        return ServerUnreachable(self.account.name, f"the connection to {self.account.host} failed ({exc}); "
                                                    "it will be retried")

    def _lost_while(self, exc: BaseException, doing: str) -> MailError:
        """``exc`` raised while ``doing`` (e.g. "fetching message UID 42") as :class:`ConnectionLost`: the
        connection dropped (or a literal was cut short), stalled past the read timeout, or the server closed
        the session with ``* BYE`` (RFC 3501 §7.1.5)."""
        host = self.account.host
        off = netguard.refusal(exc)
        if off is not None:
            return ConnectionLost(self.account.name, str(off))
        again = "run `assistant mail sync` again (messages saved so far are kept)"
        if isinstance(exc, TimeoutError):
            return ConnectionLost(self.account.name, f"{host} stopped answering for {self._timeout_s:g} s while "
                                                     f"{doing}; check your network, then {again}")
        bye = self._bye_text()
        if bye is not None:
            return ConnectionLost(self.account.name, f"{host} closed the session while {doing} (BYE: {bye}); "
                                                     f"{again}")
        if isinstance(exc, OSError | imap_errors.IMAPClientAbortError):
            return ConnectionLost(self.account.name, f"the connection to {host} dropped while {doing}; {again}")
        return ConnectionLost(self.account.name, f"{host} sent a reply that could not be read while {doing} "
                                                 f"({exc}); {again}")

    def _bye_text(self) -> str | None:
        """The text of a ``* BYE`` the server sent on this connection, if any."""
        imap = getattr(self._client, "_imap", None)
        byes = getattr(imap, "untagged_responses", {}).get("BYE") if imap is not None else None
        if not byes:
            return None
        last = byes[-1]
        return (last.decode("utf-8", "replace") if isinstance(last, bytes) else str(last))[:200]

    def folders(self) -> list[Folder]:
        """Every folder with its flags (``LIST "" "*"``)."""
        try:
            rows = self.client.list_folders()
        except (OSError, imap_errors.IMAPClientError) as exc:
            raise self._lost(exc) from exc
        return [Folder(str(name), tuple(f.decode() for f in flags)) for flags, _sep, name in rows]

    def drafts_folder(self) -> str:
        """The Drafts folder: the account's setting, else SPECIAL-USE ``\\Drafts``, else "Drafts".

        Raises:
            FolderError: none of those exists.
        """
        folders = self.folders()
        names = {f.name for f in folders}
        wanted = self.account.drafts_folder
        if wanted:
            if wanted not in names:
                raise FolderError(self.account.name, f"the drafts folder {wanted!r} does not exist; fix "
                                                     "drafts_folder in accounts.toml")
            return wanted
        for f in folders:
            if "\\Drafts" in f.flags:
                return f.name
        for f in folders:
            if f.name.rsplit("/", 1)[-1].lower() in ("drafts", "draft"):
                return f.name
        raise FolderError(self.account.name, "no Drafts folder found; create one in your mail program or set "
                                             "drafts_folder in accounts.toml")

    def select(self, folder: str, *, readonly: bool = True,
               known: tuple[int, int, int] | None = None) -> FolderStatus:
        """Open ``folder`` (read-only by default: EXAMINE) and return its UIDVALIDITY and counts.

        Args:
            known: ``(uidvalidity, modseq, last_uid)`` of the last sync; when QRESYNC is enabled and
                ``modseq`` > 0 the folder is opened with the QRESYNC parameter (RFC 7162 §3.2.5, known UIDs
                ``1:last_uid``) and the status carries the UIDs the server reports as vanished since.

        Raises:
            FolderError: the folder does not exist or cannot be opened.
        """
        qresync = known is not None and self._qresync and known[0] > 0 and known[1] > 0
        info: dict[bytes, Any] | None = None
        try:
            if qresync:
                assert known is not None
                try:
                    info = self._select_qresync(folder, readonly, *known)
                except imap_errors.IMAPClientError as exc:
                    if isinstance(exc, imap_errors.IMAPClientAbortError):
                        raise
                    # A server that rejects the parameter: open the folder plainly; sync compares UID sets.
                    log.info("%s/%s: EXAMINE with QRESYNC failed (%s); opening it without", self.account.name,
                             folder, exc)
                    qresync = False
            if info is None:
                info = self.client.select_folder(folder, readonly=readonly)
        except imap_errors.IMAPClientError as exc:
            if isinstance(exc, imap_errors.IMAPClientAbortError):
                raise self._lost(exc) from exc
            raise FolderError(self.account.name, f"folder {folder!r} cannot be opened ({exc}); check the "
                                                 "folder names in accounts.toml") from exc
        except OSError as exc:
            raise self._lost(exc) from exc
        self._selected = folder
        self._pending_change()  # the counts were read into the status: not a change for IDLE to report
        vanished = None
        if qresync:
            try:
                vanished = UidSet.parse(_vanished_text(v) for v in info.get(b"VANISHED", ()))
            except ValueError as exc:  # a reply we cannot read: sync compares UID sets instead
                log.warning("%s/%s: unreadable VANISHED reply (%s); comparing UID sets", self.account.name,
                            folder, exc)
        return FolderStatus(folder, int(info.get(b"UIDVALIDITY", 0)), int(info.get(b"UIDNEXT", 0)),
                            int(info.get(b"EXISTS", 0)), int(info.get(b"HIGHESTMODSEQ", 0) or 0), vanished)

    def _select_qresync(self, folder: str, readonly: bool, uidvalidity: int, modseq: int,
                        last_uid: int) -> dict[bytes, Any]:
        """SELECT/EXAMINE with ``(QRESYNC (uidvalidity modseq [1:last_uid]))`` (RFC 7162 §3.2.5).

        imapclient has no argument for the parameter, so it is appended to the quoted folder name and the
        reply is read with imapclient's own SELECT parser; the untagged FETCH replies about changed flags
        are dropped (the cache keeps only message bytes).
        """
        client = self.client
        name = client._normalise_folder(folder)
        name = name.encode("ascii") if isinstance(name, str) else bytes(name)
        known_uids = f" 1:{last_uid}" if last_uid > 0 else ""
        arg = name + f" (QRESYNC ({uidvalidity} {modseq}{known_uids}))".encode("ascii")
        client._command_and_check("select", arg, readonly)
        untagged = client._imap.untagged_responses
        info: dict[bytes, Any] = client._process_select_response(untagged)
        untagged.pop("FETCH", None)
        untagged.pop("VANISHED", None)
        return info

    def uids_from(self, first_uid: int) -> list[int]:
        """UIDs >= ``first_uid`` in the selected folder, ascending.

        ``UID N:*`` matches the last message even when N is past the end (RFC 3501 §6.4.8), so the
        server's answer is filtered.
        """
        try:
            uids = self.client.search(["UID", f"{max(1, first_uid)}:*"])
        except (OSError, imap_errors.IMAPClientError) as exc:
            raise self._lost(exc) from exc
        return sorted(int(u) for u in uids if int(u) >= first_uid)

    def fetch(self, uids: Sequence[int]) -> Iterator[FetchedMessage]:
        """The messages ``uids`` of the selected folder with ``BODY.PEEK[]`` (flags left untouched).

        Raises:
            ConnectionLost: the connection dropped, stalled or was closed during the FETCH (the message
                names the UIDs).
        """
        if not uids:
            return
        try:
            rows = self.client.fetch(list(uids), FETCH_ITEMS)
        except (OSError, imap_errors.IMAPClientError) as exc:
            first, last = min(uids), max(uids)
            what = f"message UID {first}" if first == last else f"messages UID {first}-{last}"
            raise self._lost_while(exc, f"fetching {what}") from exc
        for uid in sorted(rows):
            data = rows[uid]
            raw = data.get(b"BODY[]")
            if raw is None:  # expunged meanwhile
                continue
            flags = tuple(f.decode() if isinstance(f, bytes) else str(f) for f in data.get(b"FLAGS", ()))
            yield FetchedMessage(int(uid), bytes(raw), int(data.get(b"RFC822.SIZE", len(raw))),
                                 data.get(b"INTERNALDATE"), flags)

    def sizes(self, uids: Sequence[int]) -> dict[int, int]:
        """RFC822.SIZE (bytes) of ``uids`` in the selected folder, to plan fetch batches."""
        if not uids:
            return {}
        try:
            rows = self.client.fetch(list(uids), [b"RFC822.SIZE"])
        except (OSError, imap_errors.IMAPClientError) as exc:
            raise self._lost(exc) from exc
        return {int(u): int(d.get(b"RFC822.SIZE", 0)) for u, d in rows.items()}

    def flags(self, uids: Sequence[int]) -> dict[int, tuple[str, ...]]:
        """Flags of ``uids`` in the selected folder."""
        try:
            rows = self.client.get_flags(list(uids))
        except (OSError, imap_errors.IMAPClientError) as exc:
            raise self._lost(exc) from exc
        return {int(u): tuple(f.decode() for f in fl) for u, fl in rows.items()}

    def append(self, folder: str, raw: bytes, *, flags: Sequence[str] = ("\\Draft",)) -> int | None:
        """APPEND ``raw`` to ``folder`` with ``flags``; returns the new UID when the server says it (UIDPLUS).

        Raises:
            FolderError: the folder does not exist or refuses the message.
        """
        try:
            reply = self.client.append(folder, raw, flags=tuple(f.encode() for f in flags))
        except imap_errors.IMAPClientError as exc:
            raise FolderError(self.account.name, f"the server refused to save into {folder!r} ({exc}); "
                                                 "check the folder exists") from exc
        except OSError as exc:
            raise self._lost(exc) from exc
        match = _APPENDUID.search(reply if isinstance(reply, bytes) else b"")
        return int(match.group(2)) if match else None

    def find_message_id(self, folder: str, message_id: str) -> list[int]:
        """UIDs of the messages in ``folder`` whose Message-ID header is ``message_id`` (``SEARCH HEADER``,
        RFC 3501 §6.4.4); used to save a draft exactly once.

        Raises:
            FolderError: the folder does not exist.
            ServerUnreachable: the connection was lost.
        """
        self.select(folder, readonly=True)
        try:
            uids = self.client.search(["HEADER", "Message-ID", message_id])
        except (OSError, imap_errors.IMAPClientError) as exc:
            raise self._lost(exc) from exc
        return sorted(int(u) for u in uids)

    def idle_until(self, stop: threading.Event, timeout_s: float = IDLE_MAX_S, *, tick_s: float = 1.0) -> bool:
        """IDLE (RFC 2177) in the selected folder until the server reports new or expunged messages, ``stop``
        is set, or ``timeout_s`` seconds pass (capped at 25 min). One IDLE command stays open throughout;
        ``stop`` is looked at every ``tick_s`` seconds. Changes the server reported with the replies to the
        commands before IDLE or to a NOOP sent just before it, and those arriving while IDLE ends (``DONE``),
        count too, so a message arriving between a sync and IDLE is not missed.

        Returns:
            True when the server reported a change.

        Raises:
            ServerUnreachable: the connection was lost.
        """
        deadline = time.monotonic() + min(timeout_s, IDLE_MAX_S)
        if self._pending_change():
            return True
        changed = False
        try:
            # Some servers (Dovecot 2.3 with maildir) report in IDLE only what changes after it began: NOOP
            # first collects what arrived since the last command (RFC 3501 §6.1.2).
            _text, noted = self.client.noop()
            if _changed(noted) or self._pending_change():
                return True
            self.client.idle()
            empty_wakes = 0
            try:
                while not changed and not stop.is_set():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    wait = min(tick_s, left)
                    began = time.monotonic()
                    seen = self._buffered_lines() or self.client.idle_check(timeout=wait)
                    changed = _changed(seen)
                    # imapclient answers a closed connection (EOF) with an empty list at once, every time:
                    # the socket polls readable but holds no line. EOF_WAKES such wakes in a row are a lost
                    # connection, not a quiet folder (which waits the whole tick).
                    empty_wakes = empty_wakes + 1 if not seen and time.monotonic() - began < wait / 2 else 0
                    if empty_wakes >= EOF_WAKES:
                        raise ConnectionResetError("the server closed the connection (EOF during IDLE)")
            finally:
                if empty_wakes < EOF_WAKES:
                    _text, late = self.client.idle_done()
        except (OSError, imap_errors.IMAPClientError) as exc:
            raise self._lost(exc) from exc
        return changed or _changed(late)

    def _buffered_lines(self) -> list[Any]:
        """Untagged responses (parsed as ``idle_check`` parses them) that already wait in this process.

        imapclient's ``idle_check`` polls the socket, so it never sees lines that an earlier read pulled into
        imaplib's buffered reader or the TLS layer: Dovecot answers an IDLE that begins just after new mail
        arrived with ``+ idling`` and ``* 3 EXISTS`` in one packet, the read of ``+ idling`` took both, and
        the new message waited for the 10-minute refresh (the symptom of imapclient issue #150).
        """
        imap = getattr(self._client, "_imap", None)
        lines: list[Any] = []
        while imap is not None and _buffered(imap):
            line = imap._get_line()
            if line.startswith((b"* OK ", b"* NO ")):
                lines.append(tuple(line[2:].split(b" ", 1)))
            elif line.startswith(b"* "):
                lines.append(tuple(parse_response([line[2:]])))
        return lines

    def _pending_change(self) -> bool:
        """Whether a reply to an earlier command carried an unsolicited EXISTS, EXPUNGE, RECENT or VANISHED
        (RFC 3501 §7: a server may report changes with any reply; imaplib keeps the ones no command asked
        for), which IDLE would never report again. They are taken, so each is seen once."""
        imap = getattr(self._client, "_imap", None)
        untagged = getattr(imap, "untagged_responses", None)
        if not isinstance(untagged, dict):
            return False
        return bool([untagged.pop(k) for k in ("EXISTS", "EXPUNGE", "RECENT", "VANISHED") if k in untagged])

    def has_idle(self) -> bool:
        """Whether the server supports IDLE (RFC 2177)."""
        try:
            return bool(self.client.has_capability("IDLE"))
        except (OSError, imap_errors.IMAPClientError) as exc:
            raise self._lost(exc) from exc

    def noop(self) -> None:
        """NOOP: keeps the connection alive and lets the server report changes."""
        try:
            self.client.noop()
        except (OSError, imap_errors.IMAPClientError) as exc:
            raise self._lost(exc) from exc


def _buffered(imap: Any) -> bool:
    """Whether imaplib's reader (or the TLS layer under it) holds received bytes not yet read; never waits."""
    reader, sock = getattr(imap, "file", None), getattr(imap, "sock", None)
    if reader is None or sock is None:
        return False
    timeout = sock.gettimeout()
    sock.settimeout(0.0)
    try:
        return bool(reader.peek(1))
    except (ssl.SSLWantReadError, BlockingIOError, TimeoutError):
        return False
    finally:
        sock.settimeout(timeout)


def _changed(responses: Iterable[Any]) -> bool:
    """Whether untagged replies report new or expunged messages (EXISTS, EXPUNGE, RECENT; VANISHED with
    QRESYNC enabled, RFC 7162 §3.2.10)."""
    return any(isinstance(r, tuple) and len(r) >= 2 and (r[1] in (b"EXISTS", b"EXPUNGE", b"RECENT")
                                                         or r[0] == b"VANISHED") for r in responses)


def _vanished_text(value: object) -> str:
    """The UID set of one ``VANISHED`` response's text, e.g. ``b"(EARLIER) 1:3,5"`` -> ``"1:3,5"``."""
    text = value.decode("ascii", "replace") if isinstance(value, bytes) else str(value)
    text = text.strip()
    if text.upper().startswith("(EARLIER)"):
        text = text[len("(EARLIER)"):].strip()
    return text
