"""Corpus audit: is every word a person can see in ../shared/data read, or is its absence reported?

Each file under ``docs/``, ``emails/`` and ``needle/PaulGrahamEssays/`` is read with
:func:`assistant.documents.read_many` and put in one class:

- **read**: text came back and no part was reported;
- **reported**: an :class:`InputError` with a reason, or parts named in ``Document.problems``;
- **missing**: text a person would see is absent and nothing says why.

"Missing" is decided by checks that do not use our readers: an email's MIME leaves (stdlib ``email``)
must each be in the text (their words, or their ``attachment: NAME`` section) or be reported, or be
a detached signature; the words (4+ letters) of an Office/ODF file's XML text nodes, of pdfium's raw page
text plus form-field values, of an HTML page's html5lib text nodes (outside script/style) and of a text
file must be in the extracted text (more than 2% of the distinct words absent counts as missing).

    python benchmarks/reading_corpus.py [--out benchmarks/results/reading_corpus.md] [--before FILE.md]

Run it against an older tree with ``PYTHONPATH=/path/to/worktree``; the report names the package it read.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import io
import mailbox
import platform
import re
import sys
import tempfile
import time
import unicodedata
import zipfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from email.message import Message
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared/data"
FOLDERS = ("docs", "emails", "needle/PaulGrahamEssays")
THRESHOLD = 0.02  # share of distinct words that may be absent (line-break hyphenation, ligatures)
_WORD = re.compile(r"[^\W\d_]{4,}")
_SIGNATURES = {"application/pkcs7-signature", "application/x-pkcs7-signature", "application/pgp-signature"}
_SMIME = {"application/pkcs7-mime", "application/x-pkcs7-mime"}
_CLASSES = ("read", "reported", "missing")


def words(text: str) -> set[str]:
    """Distinct words of 4+ letters, compared after NFKC and case folding (ligatures, case)."""
    return set(_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))


class Seen:
    """The words of the extracted text; a word also counts as seen when its letters run on in the text
    with only non-letters between them (a hyphen at a line break, a control character, CJK line breaks)."""

    def __init__(self, text: str) -> None:
        folded = unicodedata.normalize("NFKC", text).casefold()
        self.words = set(_WORD.findall(folded))
        self.letters = re.sub(r"[\W\d_]+", "", folded)

    def absent(self, expected: set[str]) -> list[str]:
        return sorted(w for w in expected - self.words if w not in self.letters)


# --- independent word sources, one per format ------------------------------------------------------

def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


_OOXML_SKIP = {"delText", "instrText", "delInstrText", "del", "moveFrom", "rPh"}
_OOXML_BLOCK = {"p", "tc", "si", "txbxContent", "tr"}


def _ooxml_text(el: Any, out: list[str]) -> None:
    name = _local(el.tag)
    if name in _OOXML_SKIP:
        return
    if name in _OOXML_BLOCK:
        out.append("\n")
    if name == "t" and el.text:
        out.append(el.text)
    elif name in ("tab", "br", "cr"):
        out.append(" ")
    for child in el:
        _ooxml_text(child, out)
    if name in _OOXML_BLOCK:
        out.append("\n")


_ODF_SKIP = {"tracked-changes", "note-citation"}
_ODF_SPACE = {"s", "tab", "line-break", "p", "h", "table-cell", "list-item", "frame", "note-body"}


def _odf_text(el: Any, out: list[str]) -> None:
    name = _local(el.tag)
    if name not in _ODF_SKIP:
        if name in _ODF_SPACE:
            out.append(" ")
        out.append(el.text or "")
        for child in el:
            _odf_text(child, out)
        if name in _ODF_SPACE:
            out.append(" ")
    out.append(el.tail or "")


_OOXML_PARTS = re.compile(r"^(word/(document|header\d*|footer\d*|footnotes|endnotes|comments)|"
                          r"xl/(sharedStrings|worksheets/sheet\d+|comments\d*|drawings/drawing\d+)|"
                          r"ppt/(slides/slide\d+|notesSlides/notesSlide\d+))\.xml$")


def zip_text(data: bytes) -> str | None:
    """Text of the XML text nodes of an OOXML or ODF package, or None when it is neither."""
    from lxml import etree

    try:
        package = zipfile.ZipFile(io.BytesIO(data))
        names = package.namelist()
    except (zipfile.BadZipFile, OSError):
        return None
    out: list[str] = []
    parser = etree.XMLParser(resolve_entities=False, huge_tree=True, recover=True)
    if "content.xml" in names:
        for part in ("content.xml", "styles.xml"):
            if part not in names:
                continue
            root = etree.fromstring(package.read(part), parser)
            for node in root.iter():
                if _local(node.tag) in ("body", "master-styles"):
                    _odf_text(node, out)
        return "".join(out)
    parts = [n for n in names if _OOXML_PARTS.match(n)]
    if not parts:
        return None
    for part in parts:
        root = etree.fromstring(package.read(part), parser)
        if root is not None:
            _ooxml_text(root, out)
    return "".join(out)


def pdf_text(data: bytes) -> str | None:
    """pdfium's raw page text plus the values of filled text fields; None when pdfium cannot open it."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as c

    try:
        pdf = pdfium.PdfDocument(data)
    except Exception:  # noqa: BLE001  (encrypted or corrupt: our reader must report it)
        return None
    out: list[str] = []
    try:
        form = None
        if pdf.get_formtype() != c.FORMTYPE_NONE:
            pdf.init_forms()
            form = pdf.formenv.raw if pdf.formenv else None
        for i in range(len(pdf)):
            page = pdf[i]
            out.append(page.get_textpage().get_text_range())
            if form is None:
                continue
            for k in range(c.FPDFPage_GetAnnotCount(page.raw)):
                annot = c.FPDFPage_GetAnnot(page.raw, k)
                if c.FPDFAnnot_GetSubtype(annot) == c.FPDF_ANNOT_WIDGET:
                    size = c.FPDFAnnot_GetFormFieldValue(form, annot, None, 0)
                    if size > 2:
                        buf = ctypes.create_string_buffer(size)
                        c.FPDFAnnot_GetFormFieldValue(form, annot, ctypes.cast(buf, ctypes.POINTER(c.FPDF_WCHAR)),
                                                      size)
                        out.append(buf.raw[:size - 2].decode("utf-16-le", errors="replace"))
                c.FPDFPage_CloseAnnot(annot)
    finally:
        pdf.close()
    return "\n".join(out)


_INLINE = {"a", "b", "i", "u", "em", "strong", "span", "font", "small", "big", "sup", "sub", "code", "abbr",
           "s", "strike", "mark", "q", "cite", "tt", "var", "kbd", "samp", "bdi", "bdo", "time", "nobr", "wbr"}
_HIDDEN = {"script", "style", "template", "head", "noscript", "title"}


def html_text(data: bytes, charset: str | None = None) -> str:
    """html5lib text nodes outside script, style and head; block elements separate words."""
    import html5lib

    root = html5lib.parse(decode(data, charset) if charset else data, treebuilder="etree",
                          namespaceHTMLElements=False)
    out: list[str] = []

    def walk(el: Any) -> None:
        name = _local(el.tag).lower()
        sep = "" if name in _INLINE else " "
        if name not in _HIDDEN and isinstance(el.tag, str):
            out.append(sep + (el.text or ""))
            for child in el:
                walk(child)
            out.append(sep)
        out.append(el.tail or "")

    walk(root)
    return "".join(out)


def decode(data: bytes, charset: str | None = None) -> str:
    for encoding in (charset, "utf-8"):
        if encoding:
            try:
                return data.decode(encoding)
            except (LookupError, UnicodeDecodeError):
                pass
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    return data.decode("cp1252", errors="replace")


_ICAL_TEXT = re.compile(r"^(SUMMARY|LOCATION|DESCRIPTION|FN|ORG|TITLE|NOTE)[;:]", re.IGNORECASE)


def expected_text(name: str, content_type: str, data: bytes, charset: str | None = None) -> str | None:
    """The text a person sees in a file or part, by our own means; None when we cannot tell."""
    suffix = Path(name).suffix.lower()
    if content_type in ("text/calendar", "text/vcard", "text/x-vcard") or suffix in (".ics", ".vcf"):
        lines = decode(data, charset).replace("\r\n ", "").replace("\n ", "").splitlines()
        return "\n".join(line.split(":", 1)[-1] for line in lines if _ICAL_TEXT.match(line))
    if content_type == "text/html" or suffix in (".html", ".htm"):
        return html_text(data, charset)
    if data.startswith(b"%PDF-") or suffix == ".pdf":
        return pdf_text(data)
    if data.startswith(b"PK\x03\x04"):
        return zip_text(data)
    if content_type.startswith(("text/", "multipart/")) or suffix in (".txt", ".csv", ".md"):
        # a multipart that did not parse (a wrong boundary) is shown as its raw text; NULs mean binary
        return None if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")) \
            else decode(data, charset)
    return None


# --- email: every MIME leaf read, reported or a signature -----------------------------------------

@dataclass
class _Mail:
    seen: Seen
    sections: list[str]
    problems: list[str]
    missing: list[str] = field(default_factory=list)

    def reported(self, name: str | None) -> bool:
        if not name:
            return bool(self.problems)
        return any(f"/{name}:" in p or f"{name}:" in p for p in self.problems)

    def shown(self, name: str | None) -> bool:
        return any(f"attachment: {name or 'attachment'}" in s for s in self.sections)

    def check(self, part: Message) -> list[str]:
        """What of ``part`` is missing without a reason (empty when all of it is read or reported)."""
        ctype = part.get_content_type()
        try:
            name = part.get_filename()
        except Exception:  # noqa: BLE001  (a malformed name: treat as unnamed)
            name = None
        if ctype in _SIGNATURES or (name or "").lower().endswith(".p7s"):
            return []
        if ctype == "multipart/encrypted":
            return [] if any("encrypted" in p for p in self.problems) else ["encrypted part not reported"]
        if part.is_multipart():
            subs = [s for s in part.get_payload() if isinstance(s, Message)]
            if ctype == "multipart/alternative" and subs:
                results = [self.check(s) for s in subs]
                return min(results, key=len)  # a person sees one alternative
            return [m for s in subs for m in self.check(s)]
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        if ctype in _SMIME or (name or "").lower().endswith(".p7m"):
            return self._smime(data, name)
        text = expected_text(name or "", ctype, data, part.get_content_charset())
        if text is not None and "-----BEGIN PGP MESSAGE-----" in text:
            if not any("encrypted" in p for p in self.problems):
                return [f"PGP ciphertext in {name or ctype} not reported"]
            text = re.sub(r"-----BEGIN PGP MESSAGE-----.*?-----END PGP MESSAGE-----", "", text, flags=re.S)
        if text is None:
            if self.shown(name) or self.reported(name) or not data.strip():
                return []
            return [f"{name or ctype}: neither read nor reported"]
        absent = self.seen.absent(words(text))
        if len(absent) <= THRESHOLD * max(len(words(text)), 1) or self.reported(name):
            return []
        return [f"{name or ctype}: {len(absent)}/{len(words(text))} words absent, e.g. {' '.join(absent[:8])}"]

    def _smime(self, data: bytes, name: str | None) -> list[str]:
        from asn1crypto import cms

        try:
            info = cms.ContentInfo.load(data)
            kind = info["content_type"].native
            inner = info["content"]["encap_content_info"]["content"].native if kind == "signed_data" else None
        except Exception:  # noqa: BLE001
            kind, inner = "unknown", None
        if isinstance(inner, bytes):
            return self.check(email.message_from_bytes(inner, policy=email.policy.default))
        if self.reported(name) or any("encrypted" in p for p in self.problems):
            return []
        return [f"S/MIME {kind} part {name or ''} not reported"]


def mail_missing(raw: bytes, text: str, sections: list[str], problems: list[str], mbox: bool) -> list[str]:
    audit = _Mail(seen=Seen(text), sections=sections, problems=problems)
    wide = ("utf-16" if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-16-be" if raw[:1] == b"\x00"
            else "utf-16-le" if raw[1:2] == b"\x00" else None)
    if wide:  # a message saved whole as UTF-16 by a Windows tool
        raw = raw.decode(wide, errors="replace").encode("utf-8")
    if not mbox:
        return audit.check(email.message_from_bytes(raw, policy=email.policy.default))
    with tempfile.NamedTemporaryFile(suffix=".mbox") as f:
        f.write(raw)
        f.flush()
        box = mailbox.mbox(f.name, factory=lambda fp: email.message_from_binary_file(
            fp, policy=email.policy.default))
        return [m for message in box for m in audit.check(message)]


# --- one file -------------------------------------------------------------------------------------

_MAIL_HEAD = re.compile(rb"^(From |[A-Za-z][\w-]{1,40}:)")
_KNOWN = {".pdf", ".docx", ".xlsx", ".pptx", ".odt", ".ods", ".odp", ".html", ".htm", ".eml", ".mbox",
          ".txt", ".msg", ".tnef", ".rtf", ".doc", ".tex", ".json"}


def file_kind(path: Path, head: bytes) -> str:
    suffix = path.suffix.lower()
    if suffix in _KNOWN:
        return suffix[1:]
    if head.lstrip(b"\xff\xfe\x00").startswith(b"From ") and b"\n" in head and path.name.endswith("mbox"):
        return "mbox"
    if _MAIL_HEAD.match(head.replace(b"\x00", b"")):
        return "eml"
    return f"other ({suffix or 'no suffix'})"


@dataclass
class Row:
    path: str
    kind: str
    verdict: str
    reason: str = ""
    checked: bool = False
    seconds: float = 0.0


def audit(path: Path) -> Row:
    from assistant.documents import read_many

    raw = path.read_bytes()
    kind = file_kind(path, raw[:4096])
    t0 = time.perf_counter()
    result = read_many([path])
    seconds = time.perf_counter() - t0
    if not result.documents:
        reason = result.failures[0].reason if result.failures else ""
        return Row(str(path), kind, "reported" if reason else "missing", reason or "no text, no reason",
                   seconds=seconds)
    doc = result.documents[0]
    problems = [str(p) for p in result.failures] + list(doc.problems)
    sections = [s.section or "" for s in doc.segments]
    if kind in ("eml", "mbox"):
        missing: list[str] | None = mail_missing(raw, doc.text, sections, problems, kind == "mbox")
    else:
        text = expected_text(path.name, "", raw)
        if text is None:
            missing = None
        else:
            expected = words(text)
            absent = Seen(doc.text).absent(expected)
            missing = ([f"{len(absent)}/{len(expected)} words absent, e.g. {' '.join(absent[:10])}"]
                       if len(absent) > THRESHOLD * max(len(expected), 1) else [])
    checked = missing is not None
    if missing and not problems:
        return Row(str(path), kind, "missing", "; ".join(missing)[:400], checked, seconds)
    if problems:
        return Row(str(path), kind, "reported", problems[0], checked, seconds)
    return Row(str(path), kind, "read", "", checked, seconds)


def corpus() -> Iterator[Path]:
    for folder in FOLDERS:
        yield from (p for p in sorted((DATA / folder).rglob("*")) if p.is_file())


def table(rows: list[Row]) -> str:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        counts[row.kind][row.verdict] += 1
        counts[row.kind]["checked"] += row.checked
    lines = ["| format | files | read | reported | missing | independently checked |", "|---|---|---|---|---|---|"]
    total: Counter[str] = Counter()
    for kind in sorted(counts, key=lambda k: (-sum(counts[k][c] for c in _CLASSES), k)):
        c = counts[kind]
        n = sum(c[v] for v in _CLASSES)
        total.update(c)
        lines.append(f"| {kind} | {n} | {c['read']} | {c['reported']} | {c['missing']} | {c['checked']} |")
    n = sum(total[v] for v in _CLASSES)
    lines.append(f"| **all** | **{n}** | **{total['read']}** | **{total['reported']}** | "
                 f"**{total['missing']}** | **{total['checked']}** |")
    return "\n".join(lines)


def _before_section(path: Path) -> str:
    text = path.read_text()
    start = text.index("<!-- table -->")
    end = text.index("<!-- /table -->")
    header = text.split("\n", 3)[2] if text.count("\n") > 3 else ""
    missing = text[text.index("## Missing"):] if "## Missing" in text else ""
    return f"{header}\n\n{text[start:end + len('<!-- /table -->')]}\n\n" + missing.replace("## Missing",
                                                                                          "### Missing before")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/reading_corpus.md"))
    parser.add_argument("--before", help="an earlier run's report, whose table is shown as 'Before'")
    args = parser.parse_args()
    import assistant

    if not DATA.is_dir():
        sys.exit(f"no data at {DATA}")
    package = str(Path(assistant.__file__).resolve().parent)
    rows = []
    t0 = time.perf_counter()
    for path in corpus():
        row = audit(path)
        rows.append(row)
        if row.verdict == "missing":
            print(f"missing: {path.relative_to(DATA)}: {row.reason[:200]}", file=sys.stderr)
    elapsed = time.perf_counter() - t0
    body = table(rows)
    print(f"package read: {package}\n{body}")
    missing = [r for r in rows if r.verdict == "missing"]
    report = [
        "# Reading corpus audit: read / reported / missing",
        "",
        f"`{' '.join(['python'] + sys.argv)}` with the package at `{package}`; {platform.machine()}, "
        f"Python {platform.python_version()}, {date.today().isoformat()}; {len(rows)} files in {elapsed:.0f} s.",
        "",
        "**read**: text, nothing reported; **reported**: an InputError or parts named in Document.problems; "
        "**missing**: an independent check (stdlib email leaves, zip XML text nodes, pdfium raw text and form "
        f"values, html5lib text nodes, the raw text) finds more than {THRESHOLD:.0%} of the distinct words "
        "(4+ letters) absent, or a MIME part neither read nor reported, and nothing says why. "
        "'independently checked' counts the files one of those checks covers (others: .msg, TNEF, RTF).",
        "",
        "## After" if args.before else "## Result",
        "",
        "<!-- table -->",
        body,
        "<!-- /table -->",
        "",
    ]
    if args.before:
        report += ["## Before", "", _before_section(Path(args.before)), ""]
    report += ["## Missing", ""]
    report += [f"- `{Path(r.path).relative_to(DATA)}`: {r.reason}" for r in missing] or ["none"]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(report) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
