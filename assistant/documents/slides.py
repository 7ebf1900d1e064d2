"""PowerPoint (.pptx) with python-pptx: each slide's text and tables, then its speaker notes."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from assistant.documents.base import Extractor, register
from assistant.documents.protected import decrypted_office
from assistant.documents.sheet import encrypted_office
from assistant.documents.sniff import not_a_package
from assistant.errors import InputError
from assistant.records import Segment


def _shape_lines(shapes: Iterable[Any]) -> Iterator[str]:
    for shape in shapes:
        if hasattr(shape, "shapes"):  # a group shape
            yield from _shape_lines(shape.shapes)
        if getattr(shape, "has_text_frame", False) and shape.text_frame.text.strip():
            yield shape.text_frame.text.strip()
        if getattr(shape, "has_table", False):
            for row in shape.table.rows:
                cells = [cell.text.strip() for cell in row.cells]
                if any(cells):
                    yield " | ".join(cells)


class PptxExtractor(Extractor):
    """One segment per slide (``page`` = slide number, ``section`` = its title), notes appended."""

    suffixes = (".pptx",)
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        import pptx
        from pptx.exc import PackageNotFoundError

        package = decrypted_office(path, "PowerPoint file") if encrypted_office(path) else None
        try:
            deck = pptx.Presentation(io.BytesIO(package) if package is not None else str(path))
        except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
            raise InputError(str(path), not_a_package(path, "a PowerPoint file", exc)) from exc
        for number, slide in enumerate(deck.slides, start=1):
            lines = list(_shape_lines(slide.shapes))
            if slide.has_notes_slide:
                notes = slide.notes_slide.notes_text_frame
                if notes is not None and notes.text.strip():
                    lines.append("Notes: " + notes.text.strip())
            title_shape = slide.shapes.title
            title = title_shape.text_frame.text.strip() if title_shape is not None else ""
            yield Segment(text="\n".join(lines), page=number, section=title or None)


register(PptxExtractor())
