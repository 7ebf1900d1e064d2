"""Plain text and Markdown. Pages: form feeds, or ``<!-- page N -->`` marker lines; sections: headings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from assistant.documents.base import Extractor, register
from assistant.documents.limits import ISOLATE_ABOVE_BYTES
from assistant.errors import InputError
from assistant.records import Segment

PAGE_MARKER = re.compile(r"^<!--\s*page\s+(\d+)\s*-->\s*$", re.MULTILINE | re.IGNORECASE)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def decode(data: bytes, source: str) -> str:
    """Text of ``data``: BOM-marked UTF-8/16, else UTF-8, else cp1252 (never a crash on valid bytes)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputError(source, f"broken UTF-16 text ({exc.reason})") from exc
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


class TextExtractor(Extractor):
    """``.txt``/``.md``: one segment per page (form feed or page marker), tagged with the last heading."""

    suffixes = (".txt", ".text", ".md", ".markdown", ".rst", ".log")
    isolate_above = ISOLATE_ABOVE_BYTES

    def segments(self, path: Path) -> Iterator[Segment]:
        text = decode(path.read_bytes(), str(path)).replace("\r\n", "\n")
        pages = self._pages(text)
        section = None
        for page, body in pages:
            heads = HEADING.findall(body)
            yield Segment(text=body.strip("\n"), page=page, section=section or (heads[0] if heads else None))
            if heads:
                section = heads[-1]

    @staticmethod
    def _pages(text: str) -> list[tuple[int | None, str]]:
        marks = list(PAGE_MARKER.finditer(text))
        if marks:
            out: list[tuple[int | None, str]] = [(None, text[:marks[0].start()])] if marks[0].start() else []
            for i, m in enumerate(marks):
                end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
                out.append((int(m.group(1)), text[m.end():end]))
            return out
        if "\f" in text:
            return [(i + 1, body) for i, body in enumerate(text.split("\f"))]
        return [(None, text)]


register(TextExtractor())
