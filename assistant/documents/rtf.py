"""Rich Text Format with striprtf (BSD-3-Clause): the text, without control words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from assistant.documents.base import Extractor, register
from assistant.errors import InputError
from assistant.records import Segment

_CODEPAGE = re.compile(rb"\\ansicpg(\d+)")


class RtfExtractor(Extractor):
    """One segment; the ``\\ansicpg`` code page (default cp1252) decodes the 8-bit escapes."""

    suffixes = (".rtf",)
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        from striprtf.striprtf import rtf_to_text

        data = path.read_bytes()
        if not data.lstrip().startswith(b"{\\rtf"):
            raise InputError(str(path), "corrupt or not an RTF document (no {\\rtf header)")
        page = _CODEPAGE.search(data[:2048])
        encoding = f"cp{page.group(1).decode()}" if page else "cp1252"
        try:
            "".encode(encoding)
        except LookupError:
            encoding = "cp1252"
        text = rtf_to_text(data.decode("latin-1"), encoding=encoding, errors="replace")
        yield Segment(text=text.replace("\r\n", "\n").strip())


register(RtfExtractor())
