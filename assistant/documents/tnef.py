"""TNEF (``winmail.dat``, ``.tnef``) with tnefparse, an optional extra: tnefparse is LGPL-3.0, kept
out of the default install (``bash packaging/install.sh --with tnef``). Without it, TNEF files are reported
with the command that installs it into this install (:mod:`assistant.documents.extras`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from assistant.documents.base import Extractor, current_limits, nested_segments, register, report
from assistant.documents.extras import missing_extra
from assistant.documents.mime.html import html_to_text
from assistant.documents.text import decode
from assistant.errors import InputError
from assistant.records import Segment

SIGNATURE = b"\x78\x9f\x3e\x22"


def missing() -> str:
    """Why a TNEF file is not read without tnefparse, and the command that installs it here."""
    return missing_extra("TNEF (winmail.dat) files", "tnef", "tnefparse", "LGPL-3.0")


def _text(value: bytes | str | None) -> str:
    if not value:
        return ""
    return value if isinstance(value, str) else decode(value, "TNEF body")


class TnefExtractor(Extractor):
    """The body (plain, else HTML, else RTF), then every attachment through the registry.

    ``.dat`` is claimed only for TNEF content (checked by its signature); other ``.dat`` files are
    reported as unsupported.
    """

    suffixes = (".tnef", ".dat")
    isolate = True  # tnefparse takes ~30 s on 3 MB of hostile bytes (fuzzing)

    def segments(self, path: Path) -> Iterator[Segment]:
        data = path.read_bytes()
        if not data.startswith(SIGNATURE):
            raise InputError(str(path), "unsupported: .dat" if path.suffix.lower() == ".dat"
                             else "corrupt or not a TNEF file (no TNEF signature)")
        try:
            from tnefparse import TNEF
        except ImportError as exc:
            raise InputError(str(path), missing()) from exc
        try:
            tnef = TNEF(data)
        except Exception as exc:  # noqa: BLE001  (tnefparse raises many types on broken input)
            raise InputError(str(path), f"corrupt TNEF file ({type(exc).__name__}: {exc})") from exc
        body = _text(tnef.body) or html_to_text(_text(tnef.htmlbody))
        if not body.strip() and tnef.rtfbody:
            from striprtf.striprtf import rtf_to_text

            rtf = _text(tnef.rtfbody)
            body = rtf_to_text(rtf, errors="replace") if rtf.lstrip().startswith("{\\rtf") else ""
        if body.strip():
            yield Segment(text=body.replace("\r\n", "\n").strip())
        limits = current_limits()
        for count, att in enumerate(tnef.attachments, start=1):
            if count > limits.max_members:
                report(f"refused: more than {limits.max_members} attachments; the rest were not read")
                return
            yield from nested_segments(att.long_filename() or f"attachment{count}", att.data)


register(TnefExtractor())
