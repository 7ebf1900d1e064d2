"""HTML pages: the visible text (no scripts or styles), parsed by the HTML5 algorithm (:mod:`.mime.html`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from assistant.documents.base import Extractor, register, report
from assistant.documents.limits import ISOLATE_ABOVE_BYTES
from assistant.documents.mime.html import hidden_reason, parse_html, tree_text, tree_title
from assistant.documents.text import decode
from assistant.records import Segment

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)


def decode_html(data: bytes, source: str) -> str:
    """Text of an HTML file: a byte order mark, else the ``<meta charset>`` it declares, else UTF-8/cp1252.

    A BOM wins over ``<meta>`` as in the HTML standard; mail attachments whose MIME charset was declared
    arrive re-encoded as BOM-marked UTF-8 (see :func:`assistant.documents.mime.parse.readable_data`).
    """
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
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
    isolate_above = ISOLATE_ABOVE_BYTES

    def segments(self, path: Path) -> Iterator[Segment]:
        # NULs are dropped first: the parser ignores them in text but reports each as an error, which
        # html5lib makes quadratic (a megabyte of NULs took minutes; found by benchmarks/fuzz_readers.py).
        tree = parse_html(decode_html(path.read_bytes(), str(path)).replace("\x00", ""))
        text, hidden = tree_text(tree)
        if hidden:  # left out (a person does not see it), but never silently
            report(hidden_reason(hidden, "the page"))
        yield Segment(text=text, section=tree_title(tree) or None)


register(HtmlExtractor())
