"""What a file holds, told by its content: magic bytes, a ZIP's members, an OLE2 file's streams, markup.

A file's name is only a hint: a PDF saved as ``.docx``, an HTML page or a text export saved as ``.xls``
or ``.doc``, a Word document mailed as ``.bin``. :func:`content_suffix` names the binary format the
bytes show, :func:`markup_suffix` HTML and mail; :func:`sniff` also tells text for content that has no
usable name.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: Formats whose files start with magic bytes (or are ZIP or OLE2 containers): a file named for one of
#: them whose content is HTML or a mail is read as that (other text stays a corrupt file of its name).
BINARY_SUFFIXES = frozenset({".pdf", ".docx", ".xlsx", ".xlsm", ".pptx", ".odt", ".ods", ".odp", ".doc", ".msg",
                             ".zip", ".tnef", ".dat"})
_MAGIC = ((b"%PDF-", ".pdf"), (b"{\\rtf", ".rtf"), (b"\x78\x9f\x3e\x22", ".tnef"))
PDF_WINDOW = 1024  # readers accept "%PDF-" this far into the file (junk before it is common)
_PDF_OBJECT = re.compile(rb"\d+\s+\d+\s+obj\b")
_ZIP_FOLDERS = (("word/", ".docx"), ("xl/", ".xlsx"), ("ppt/", ".pptx"))
_ODF = {"application/vnd.oasis.opendocument.text": ".odt",
        "application/vnd.oasis.opendocument.spreadsheet": ".ods",
        "application/vnd.oasis.opendocument.presentation": ".odp"}
_OLE_STREAMS = (("worddocument", ".doc"), ("workbook", ".xls"), ("book", ".xls"),
                ("powerpoint document", ".ppt"), ("__properties_version1.0", ".msg"))
_HEADER_LINE = re.compile(rb"^(?:From [^\r\n]*\r?\n)?"
                          rb"(?:[A-Za-z][A-Za-z0-9-]{1,40}:[^\r\n]*\r?\n(?:[ \t][^\r\n]*\r?\n)*)+")
_MAIL_HEADERS = re.compile(rb"^(?:from|to|subject|date|received|message-id|return-path|mime-version):",
                           re.IGNORECASE | re.MULTILINE)
_HTML = re.compile(rb"^(?:\xef\xbb\xbf)?\s*(?:<!--.*?-->\s*)*(?:<\?xml[^>]*>\s*)?"
                   rb"<(?:!doctype\s+html|html|head|body|meta|title|table)[\s>/]", re.IGNORECASE | re.DOTALL)


def content_suffix(head: bytes, whole: Path | bytes | None = None) -> str | None:
    """The suffix of the binary format ``head`` (a file's first bytes) shows, or None.

    ``whole`` (the file or all its bytes) lets a ZIP's member names and an OLE2 file's stream names tell
    ``.docx``, ``.xlsx``, ``.pptx``, ``.odt``... and ``.doc``, ``.xls``, ``.msg`` apart; without it, or when
    they say nothing, a ZIP is ``.zip`` and an OLE2 file None (an encrypted Office file is one too).
    """
    for magic, suffix in _MAGIC:
        if head.startswith(magic):
            return suffix
    if head.startswith(b"PK\x03\x04"):  # before the PDF check: a ZIP may store a PDF near its start
        return _zip_kind(whole) if whole is not None else ".zip"
    if head.startswith(OLE_MAGIC):
        return _ole_kind(whole) if whole is not None else None
    start = head.find(b"%PDF-", 0, PDF_WINDOW)
    if start == 0 or start > 0 and _PDF_OBJECT.search(head, start):  # junk before the header, then objects
        return ".pdf"
    return None


def _zip_kind(whole: Path | bytes) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(whole) if isinstance(whole, bytes) else whole) as zf:
            names = zf.namelist()
            if "mimetype" in names:
                kind = _ODF.get(zf.read("mimetype")[:100].decode("ascii", "replace").strip())
                if kind:
                    return kind
    except (zipfile.BadZipFile, OSError, ValueError, KeyError, EOFError, NotImplementedError):
        return ".zip"
    for folder, suffix in _ZIP_FOLDERS:
        if any(name.startswith(folder) for name in names):
            return suffix
    return ".zip"


def _ole_kind(whole: Path | bytes) -> str | None:
    try:
        import olefile

        with olefile.OleFileIO(whole if isinstance(whole, bytes) else str(whole)) as ole:
            streams = {"/".join(entry).lower() for entry in ole.listdir(streams=True, storages=True)}
    except Exception:  # noqa: BLE001  (olefile raises many types on damaged containers)
        return None
    for stream, suffix in _OLE_STREAMS:
        if stream in streams:
            return suffix
    return ".msg" if any(name.startswith("__substg1.0_") for name in streams) else None


def markup_suffix(head: bytes) -> str | None:
    """``.html``, ``.eml`` or ``.mbox`` for text whose structure shows it (markup, mail headers), else None."""
    if _HTML.match(head):
        return ".html"
    lines = _HEADER_LINE.match(head)
    if lines and len(_MAIL_HEADERS.findall(lines.group(0))) >= 2:
        return ".mbox" if head.startswith(b"From ") else ".eml"
    return None


def sniff(head: bytes) -> str | None:
    """A suffix for content whose name says nothing: magic bytes, HTML, mail headers, else text."""
    found = content_suffix(head) or markup_suffix(head)
    if found is not None:
        return found
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or (head and b"\x00" not in head and _printable(head)):
        return ".txt"
    return None


def _printable(head: bytes) -> bool:
    """Looks like text: valid UTF-8 (a character cut at the end allowed), or mostly ASCII (legacy 8-bit)."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:
            ascii_share = sum(32 <= b < 127 or b in b"\r\n\t\f" for b in head) / len(head)
            return ascii_share >= 0.7
        text = head[:exc.start].decode("utf-8")
    return sum(c.isprintable() or c in "\r\n\t\f" for c in text) >= 0.95 * max(len(text), 1)


def binary(head: bytes) -> bool:
    """NUL bytes that are not UTF-16 (where every other byte of ASCII text is NUL)."""
    if b"\x00" not in head or head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    half = max(len(head) // 2, 1)
    return max(head[0::2].count(0), head[1::2].count(0)) < 0.4 * half


ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")  # a local file header; an empty archive's end record


def not_a_package(path: Path, kind: str, exc: BaseException) -> str:
    """Why a file named for a ZIP-based format (``.docx``, ``.xlsx``, ``.pptx``, ``.odt``, ``.zip``) could not
    be opened, in a person's words: ``kind`` is what its name promised (``"a Word document"``) and ``exc``
    what the ZIP reader raised. Plain text says so and how to read it; other content that is no ZIP package
    is damaged or another kind of file; a ZIP package that breaks inside keeps the library's detail."""
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        head = b""
    if head.startswith(ZIP_MAGIC):
        if not zipfile.is_zipfile(path):  # the archive's directory at its end is missing
            return f"corrupt or not {kind} (the file is cut short or damaged: its ZIP package has no directory)"
        return f"corrupt or not {kind} ({exc})"
    if sniff(head) == ".txt":
        return f"not {kind}: the file holds plain text (a copy named .txt can be read)"
    return f"not {kind}: the file is damaged or is another kind of file given this name"
