"""HTML pages: the visible text (no scripts or styles) via the mail package's ``html.parser`` converter."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from assistant.documents.base import Extractor, register
from assistant.documents.text import decode
from assistant.mail.html import html_to_text
from assistant.records import Segment

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def decode_html(data: bytes, source: str) -> str:
    """Text of an HTML file: the ``<meta charset>`` it declares, else BOM/UTF-8/cp1252."""
    declared = _META_CHARSET.search(data[:4096])
    if declared and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode(declared.group(1).decode("ascii"))
        except (LookupError, UnicodeDecodeError):
            pass
    return decode(data, source)


class HtmlExtractor(Extractor):
    """One segment: the page's visible text, with the ``<title>`` as its section."""

    suffixes = (".html", ".htm", ".xhtml")

    def segments(self, path: Path) -> Iterator[Segment]:
        markup = decode_html(path.read_bytes(), str(path))
        title = _TITLE.search(markup)
        body = re.sub(r"<title[^>]*>.*?</title>", " ", markup, flags=re.IGNORECASE | re.DOTALL)
        heading = " ".join(html_to_text(title.group(1)).split()) if title else ""
        yield Segment(text=html_to_text(body), section=heading or None)


register(HtmlExtractor())
