"""Raw message bytes -> :class:`Message` (RFC 5322, MIME RFC 2045-2049, RFC 2047/2231 words). Pure.

Parsing never raises: whatever is broken (bad base64, unknown charsets, malformed headers) is kept as
best it can be and named in ``Message.defects``. Text parts are decoded here rather than with
``get_content()``, which raises ``LookupError`` on unknown charsets and mangles mislabelled ones: the
declared charset is tried, then UTF-8, then cp1252 (which never fails with ``errors="replace"``).

Signed and encrypted mail (RFC 8551 S/MIME, RFC 3156 PGP/MIME): opaque S/MIME signed-data is not
encrypted, so its inner MIME entity is unwrapped (the CMS ``SignedData``, RFC 5652, read with asn1crypto) and read
like the rest; encrypted parts are kept as attachments that :func:`sealed_reason` names as encrypted, so
readers report them and their ciphertext never becomes text; detached signatures are named ``signature``.
"""

from __future__ import annotations

import base64
import binascii
import email
import email.policy
import email.utils
import re
import unicodedata
from datetime import datetime
from email.message import EmailMessage
from email.message import Message as MimePart
from typing import Any

from asn1crypto import cms

from assistant.documents.mime.html import hidden_reason, visible_text
from assistant.records import Attachment, Message

MAX_DEPTH = 20
# A header value longer than this is cut before it is parsed: the structured-header parser of the email
# package is superlinear (fuzzing, benchmarks/fuzz_readers.py: a 4 MB Subject of encoded words ran for
# over 30 s and 5 GB). 32 KB holds a To: of ~1,500 addresses or a References: of ~400 message IDs.
MAX_HEADER_CHARS = 32_768


class _BoundedPolicy(email.policy.EmailPolicy):
    """``email.policy.default``, except that header values over :data:`MAX_HEADER_CHARS` are cut on fetch."""

    def header_fetch_parse(self, name: str, value: str) -> Any:
        if len(value) > MAX_HEADER_CHARS:
            value = value[:MAX_HEADER_CHARS]
        return super().header_fetch_parse(name, value)


POLICY = _BoundedPolicy()
# Defects that mean text was not read (readers report them); the others only note what was repaired.
NOT_READ = "not read: "
# Writing an attached message back out as it came (no refolding, which would parse every long header).
_AS_IS = POLICY.clone(refold_source="none")

ENCRYPTED_SMIME = "encrypted (S/MIME): cannot be read"
ENCRYPTED_PGP = "encrypted (PGP): cannot be read"
SIGNATURE = "signature"

_SMIME = {"application/pkcs7-mime", "application/x-pkcs7-mime"}
_SIGNATURES = {"application/pkcs7-signature", "application/x-pkcs7-signature", "application/pgp-signature"}
_PGP_ARMOUR = re.compile(r"-----BEGIN PGP MESSAGE-----.*?(?:-----END PGP MESSAGE-----|\Z)", re.DOTALL)
# Readers that take BOM-marked UTF-8; text in these is re-encoded from its declared charset before reading.
_TEXT_TYPES = {"text/plain", "text/html", "text/csv", "text/calendar", "text/vcard", "text/x-vcard", "text/directory",
               "text/markdown", "text/x-markdown", "text/tab-separated-values", "application/xhtml+xml"}
_TEXT_SUFFIXES = (".txt", ".text", ".log", ".md", ".html", ".htm", ".xhtml", ".csv", ".tsv", ".ics", ".vcs", ".vcf")


def decode_text(data: bytes, charset: str | None) -> tuple[str, str | None]:
    """``data`` as text: declared charset, else UTF-8, else cp1252; returns (text, defect or None)."""
    if charset:
        try:
            return data.decode(charset), None
        except (LookupError, UnicodeDecodeError, ValueError):
            pass
    try:
        text = data.decode("utf-8")
        return text, (f"charset {charset!r} could not decode the text; read as UTF-8" if charset
                      and charset.lower().replace("-", "") not in ("usascii", "utf8") else None)
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), f"text is not valid {charset or 'UTF-8'}; read as cp1252"


def _header(msg: MimePart, name: str, defects: list[str]) -> str:
    try:
        if any(len(raw) > MAX_HEADER_CHARS for key, raw in msg.raw_items() if key.lower() == name.lower()):
            defects.append(f"header {name} is over {MAX_HEADER_CHARS // 1024} KB; the rest was cut")
        value = msg.get(name)
        return "" if value is None else str(value).strip()
    except Exception as exc:  # noqa: BLE001  (the email package raises many types on broken headers)
        defects.append(f"header {name} is malformed ({type(exc).__name__})")
        for key, raw in msg.raw_items():
            if key.lower() == name.lower():
                return str(raw).strip()
        return ""


def _addresses(values: list[str]) -> tuple[str, ...]:
    try:
        pairs = email.utils.getaddresses(values)
    except Exception:  # noqa: BLE001  (malformed lists fall back to the raw text)
        return tuple(values)
    # Not formataddr: it raises on non-ASCII addresses (RFC 6532), which we only display.
    return tuple(f"{name} <{addr}>" if name else addr for name, addr in pairs if name or addr)


def _all_headers(msg: MimePart, name: str, defects: list[str]) -> list[str]:
    value = _header(msg, name, defects)
    return [value] if value else []


def _date(value: str, defects: list[str]) -> datetime | None:
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        defects.append(f"date {value!r} is not an RFC 5322 date")
        return None


def _ids(value: str) -> tuple[str, ...]:
    return tuple(part for part in value.replace(",", " ").split() if part.startswith("<") and part.endswith(">"))


_ENCRYPTED_TYPES = {"enveloped_data", "encrypted_data", "authenticated_enveloped_data"}


def pkcs7_content(data: bytes) -> tuple[str | None, bytes | None]:
    """What a PKCS #7 / CMS ``ContentInfo`` (RFC 5652) holds: ``("signed", inner bytes or None)``,
    ``("encrypted", None)``, or ``(None, None)`` when ``data`` is not one (DER, BER, base64 or PEM).
    Parsed with asn1crypto."""
    stripped = data.strip()
    if stripped.startswith(b"-----BEGIN"):
        stripped = b"".join(line for line in stripped.splitlines() if line and not line.startswith(b"-----"))
    if stripped[:1] != b"\x30":
        try:
            stripped = base64.b64decode(stripped, validate=False)
        except (binascii.Error, ValueError):
            return None, None
    try:
        info = cms.ContentInfo.load(stripped)
        kind = info["content_type"].native
        if kind in _ENCRYPTED_TYPES:
            return "encrypted", None
        if kind != "signed_data":
            return None, None
        inner = info["content"]["encap_content_info"]["content"].native
    except (ValueError, TypeError, KeyError):
        return None, None
    return "signed", inner if isinstance(inner, bytes) and inner else None  # None: detached signature


def sealed_reason(attachment: Attachment) -> str | None:
    """Why an attachment is not read as a document: encrypted (S/MIME or PGP) or a ``signature``; else ``None``."""
    ctype = attachment.content_type.lower()
    name = attachment.filename.lower()
    if ctype in _SIGNATURES or name.endswith((".p7s", ".sig")) and ctype.startswith("application/"):
        return SIGNATURE
    if ctype in ("application/pgp-encrypted", "multipart/encrypted") or name.endswith((".pgp", ".gpg")):
        return ENCRYPTED_PGP
    if b"-----BEGIN PGP MESSAGE-----" in attachment.data[:4096].lstrip()[:64]:
        return ENCRYPTED_PGP
    if ctype in _SMIME or name.endswith(".p7m"):
        kind, content = pkcs7_content(attachment.data)
        return SIGNATURE if kind == "signed" and content is None else ENCRYPTED_SMIME
    return None


def readable_data(attachment: Attachment) -> bytes:
    """The bytes a reader should get: text whose MIME charset was declared arrives as BOM-marked UTF-8
    (the declared charset wins; the readers' guessing stays the fallback when it does not decode)."""
    text_like = (attachment.content_type.lower() in _TEXT_TYPES
                 or attachment.content_type.lower().startswith("text/")
                 and attachment.filename.lower().endswith(_TEXT_SUFFIXES))
    if not attachment.charset or not text_like or attachment.data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return attachment.data
    try:
        text = attachment.data.decode(attachment.charset)
    except (LookupError, UnicodeDecodeError, ValueError):
        return attachment.data
    return b"\xef\xbb\xbf" + text.removeprefix("\ufeff").encode("utf-8")


class _Walker:
    """Collects the text, HTML, shown body and attachments of a MIME tree."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.html: list[str] = []
        self.shown: list[str] = []  # the body parts a mail client shows, in order
        self.attachments: list[Attachment] = []
        self.defects: list[str] = []

    def walk(self, part: MimePart, depth: int = 0) -> None:
        self.defects.extend(type(d).__name__ for d in part.defects)
        if depth > MAX_DEPTH:
            self.defects.append(f"{NOT_READ}MIME parts nested more than {MAX_DEPTH} levels deep")
            return
        try:
            ctype = part.get_content_type()
            if ctype == "multipart/encrypted":
                self._encrypted(part)
                return
            if part.is_multipart() and ctype != "message/rfc822":
                payload = part.get_payload()
                parts = [sub for sub in payload if isinstance(sub, MimePart)] if isinstance(payload, list) else []
                if ctype == "multipart/alternative":
                    self._alternatives(parts, depth)
                    return
                for sub in parts:
                    self.walk(sub, depth + 1)
                return
            self._leaf(part, ctype, depth)
        except Exception as exc:  # noqa: BLE001  (one broken part never stops the others)
            self.defects.append(f"{NOT_READ}a part ({type(exc).__name__}: {exc})")

    def _alternatives(self, parts: list[MimePart], depth: int) -> None:
        """RFC 2046 §5.1.4: the alternatives come in increasing faithfulness to the original, so the last
        one with text is what a mail client shows. Another that says something else is named, not read."""
        walkers = []
        for sub in parts:
            walker = _Walker()
            walker.walk(sub, depth + 1)
            self.text += walker.text
            self.html += walker.html
            self.attachments += walker.attachments
            self.defects += walker.defects
            walkers.append(walker)
        readable = [(n, w) for n, w in enumerate(walkers, start=1) if "".join(w.shown).strip()]
        if not readable:
            return
        shown = "\n".join(readable[-1][1].shown)
        kind = _body_kind(readable[-1][1])
        for number, walker in readable[:-1]:
            if differs("\n".join(walker.shown), shown):
                other = f"the {_body_kind(walker)} alternative (part {number} of {len(parts)})"
                self.defects.append(f"{NOT_READ}{other}, which differs from the {kind} alternative read")
                self.shown.append(f"[Left out: {other} of this message, which differs from the {kind} text below.]")
        self.shown.append(shown)

    def _encrypted(self, part: MimePart) -> None:
        """A PGP/MIME (or other) encrypted entity: kept whole as one sealed attachment, never read."""
        protocol = str(part.get_param("protocol") or "").lower()
        payload = part.get_payload()
        pieces = [p for p in payload if isinstance(p, MimePart)] if isinstance(payload, list) else []
        body = pieces[-1].get_payload(decode=True) if pieces else None
        data = body if isinstance(body, bytes) else b""
        if "pgp" in protocol or not protocol:
            name = (_filename(pieces[-1], self.defects) if pieces else "") or "encrypted.asc"
            self.attachments.append(Attachment(name, "application/pgp-encrypted", len(data), data))
        else:
            self.attachments.append(Attachment("encrypted.bin", "multipart/encrypted", len(data), data))

    def _smime(self, part: MimePart, ctype: str, filename: str, data: bytes, depth: int) -> bool:
        """Unwrap opaque S/MIME signed-data and read its inner entity; False when ``part`` is not that."""
        smime_type = str(part.get_param("smime-type") or "").lower()
        if not (ctype in _SMIME or filename.lower().endswith(".p7m")) or smime_type in (
                "enveloped-data", "authenveloped-data", "compressed-data"):
            return False
        kind, content = pkcs7_content(data)
        if kind != "signed" or content is None:
            return False
        inner = email.message_from_bytes(content, policy=POLICY)
        self.walk(inner, depth + 1)
        return True

    def _leaf(self, part: MimePart, ctype: str, depth: int = 0) -> None:
        filename = _filename(part, self.defects)
        disposition = part.get_content_disposition()
        if ctype == "message/rfc822":
            inner = part.get_payload()
            first = inner[0] if isinstance(inner, list) and inner else None
            if isinstance(first, MimePart) and depth + _nesting(first) > MAX_DEPTH:
                # Writing it back out recurses once per level (a RecursionError at a few hundred).
                self.defects.append(f"{NOT_READ}attached message nested more than {MAX_DEPTH} levels deep")
                return
            inner_bytes = first.as_bytes(policy=_AS_IS) if isinstance(first, MimePart) else b""
            self.attachments.append(Attachment(filename or "message.eml", ctype, len(inner_bytes), inner_bytes))
            return
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        if self._smime(part, ctype, filename, data, depth):
            return
        if ctype in ("text/plain", "text/html") and disposition != "attachment" and not filename:
            text, defect = decode_text(data, part.get_content_charset())
            if defect:
                self.defects.append(defect)
            if "-----BEGIN PGP MESSAGE-----" in text:  # inline PGP: the ciphertext is sealed, never text
                for block in _PGP_ARMOUR.findall(text):
                    sealed = block.encode("utf-8")
                    self.attachments.append(Attachment("encrypted.asc", "application/pgp-encrypted",
                                                       len(sealed), sealed))
                text = _PGP_ARMOUR.sub("", text)
            if ctype == "text/plain":
                self.text.append(text)
                self.shown.append(text)
                return
            shown, hidden = visible_text(text)
            self.html.append(shown)
            self.shown.append(shown)
            if hidden:  # never silent: named like an unread part, yet kept from the model
                self.defects.append(NOT_READ + hidden_reason(hidden, "the HTML body"))
            return
        charset = part.get_content_charset() if ctype.startswith("text/") else None
        self.attachments.append(Attachment(filename or _default_name(ctype), ctype, len(data), data, charset))


def _body_kind(walker: _Walker) -> str:
    return "text/html" if any(part.strip() for part in walker.html) else "text/plain"


# Written out by a plain-text alternative, hidden behind words in HTML: links, addresses, image markers,
# Outlook's link field codes.
_URL = re.compile(r"(?:https?://|mailto:|www\.)\S+|\S+@\S+\.\w+|\[(?:image|cid):|\bHYPERLINK\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")  # letters and digits: rules drawn with underscores are not words


def _words(text: str) -> set[str]:
    return set(_WORD.findall(_URL.sub(" ", unicodedata.normalize("NFKC", text)).casefold()))


def differs(other: str, shown: str) -> bool:
    """Whether ``other`` says something ``shown`` does not: a word of it (links, addresses and image
    markers aside) is missing from ``shown``. Layout, wrapping, punctuation and case do not count."""
    return bool(_words(other) - _words(shown))


def _nesting(part: MimePart) -> int:
    """How many levels of parts are below ``part`` (counted without recursion, up to ``MAX_DEPTH + 1``)."""
    level, layer = 0, [part]
    while layer and level <= MAX_DEPTH:
        below: list[MimePart] = []
        for p in layer:
            payload = p.get_payload() if p.is_multipart() else None
            below.extend(q for q in payload or () if isinstance(q, MimePart))
        layer, level = below, level + 1
    return level


def _filename(part: MimePart, defects: list[str]) -> str:
    try:
        name = part.get_filename()
    except Exception as exc:  # noqa: BLE001
        defects.append(f"attachment name is malformed ({type(exc).__name__})")
        return ""
    return str(name).replace("/", "_").replace("\\", "_").strip() if name else ""


def _default_name(ctype: str) -> str:
    import mimetypes

    return "attachment" + (mimetypes.guess_extension(ctype) or ".bin")


def parse_message(raw: bytes) -> Message:
    """Parse ``raw`` (the exact RFC 5322 bytes) into a :class:`Message`; never raises.

    Broken parts are skipped or decoded best-effort and listed in ``defects``.
    """
    defects: list[str] = []
    try:
        msg: Any = email.message_from_bytes(raw, policy=POLICY)
    except Exception as exc:  # noqa: BLE001
        msg = EmailMessage()
        defects.append(f"not parseable as email ({type(exc).__name__})")
    walker = _Walker()
    walker.walk(msg)
    sender = _addresses(_all_headers(msg, "From", defects))
    return Message(
        sender=sender[0] if sender else _header(msg, "From", defects),
        to=_addresses(_all_headers(msg, "To", defects)),
        cc=_addresses(_all_headers(msg, "Cc", defects)),
        reply_to=_addresses(_all_headers(msg, "Reply-To", defects)),
        date=_date(_header(msg, "Date", defects), defects),
        subject=_header(msg, "Subject", defects),
        message_id=_header(msg, "Message-ID", defects),
        in_reply_to=_header(msg, "In-Reply-To", defects),
        references=_ids(_header(msg, "References", defects)),
        text="\n".join(walker.text).strip(),
        html_text="\n".join(walker.html).strip(),
        shown="\n".join(walker.shown).strip(),
        attachments=tuple(walker.attachments),
        defects=tuple(dict.fromkeys(defects + walker.defects)),
        raw=raw,
    )
