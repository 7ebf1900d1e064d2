"""DOCX body text (paragraphs and tables in order) with python-docx; headings become sections."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

from assistant.documents.base import Extractor, register
from assistant.documents.sheet import encrypted_office
from assistant.errors import InputError
from assistant.records import Segment


class DocxExtractor(Extractor):
    """One segment per heading-delimited section (DOCX has no fixed pages)."""

    suffixes = (".docx",)

    def segments(self, path: Path) -> Iterator[Segment]:
        import docx
        from docx.opc.exceptions import PackageNotFoundError
        from docx.table import Table
        from docx.text.paragraph import Paragraph

        if encrypted_office(path):
            raise InputError(str(path), "encrypted Word document (password protected)")
        try:
            document = docx.Document(str(path))
        except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
            raise InputError(str(path), f"corrupt or not a Word document ({exc})") from exc
        section: str | None = None
        lines: list[str] = []
        for block in document.iter_inner_content():
            if isinstance(block, Paragraph):
                style = block.style.name if block.style is not None else ""
                if style.lower().startswith(("heading", "title")) and block.text.strip():
                    if lines:
                        yield Segment(text="\n".join(lines), section=section)
                    section, lines = block.text.strip(), []
                if block.text.strip():
                    lines.append(block.text)
            elif isinstance(block, Table):
                for row in block.rows:
                    cells = [c.text.strip() for c in row.cells]
                    if any(cells):
                        lines.append(" | ".join(cells))
        if lines:
            yield Segment(text="\n".join(lines), section=section)


register(DocxExtractor())
