"""OpenDocument (.odt, .ods, .odp) from the package's ``content.xml`` and ``styles.xml`` with lxml.

Text documents give their body in reading order (tables as tab-separated rows, footnotes where they are
cited, comments as ``[comment: ...]``) and the master pages' header and footer as sections; spreadsheets a
segment per sheet (``sheet: NAME``, rows of tab-separated cells); presentations a segment per slide
(``page`` = slide number), speaker notes appended. Tracked deletions are left out (the accepted view).
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assistant.documents.base import Extractor, current_limits, register
from assistant.documents.limits import megabytes
from assistant.documents.sniff import not_a_package
from assistant.errors import InputError
from assistant.records import Segment

_NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "presentation": "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0",
}
_TABLE_NAME = f"{{{_NS['table']}}}name"
_DRAW_NAME = f"{{{_NS['draw']}}}name"
_SPACES = f"{{{_NS['text']}}}c"
_SKIP = {"tracked-changes", "note-citation", "sequence-decls", "variable-decls", "user-field-decls"}
_BLOCKS = {"p", "h", "list-item", "frame", "section", "index-body", "note-body"}


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _text(el: Any, out: list[str]) -> None:
    """Append what a person sees in ``el`` (inline runs joined, blocks on their own lines)."""
    name = _local(el.tag)
    if name in _SKIP:
        return
    if name == "s":
        out.append(" " * int(el.get(_SPACES, "1") or 1))
    elif name == "tab":
        out.append("\t")
    elif name == "line-break":
        out.append("\n")
    elif name == "table-row":
        cells = [_cell(c) for c in el if _local(c.tag) in ("table-cell", "covered-table-cell")]
        while cells and not cells[-1]:
            cells.pop()
        out.append("\n" + "\t".join(cells) + "\n")
        return
    elif name == "annotation":
        body: list[str] = []
        for child in el:
            if _local(child.tag) not in ("creator", "date"):
                _text(child, body)
        out.append(f" [comment: {' '.join(''.join(body).split())}] ")
        return
    else:
        if name in _BLOCKS:
            out.append("\n")
        out.append(el.text or "")
        for child in el:
            _text(child, out)
            out.append(child.tail or "")
        if name in _BLOCKS:
            out.append("\n")


def _cell(cell: Any) -> str:
    out: list[str] = []
    for child in cell:
        _text(child, out)
    return " ".join(" ".join(line.split()) for line in "".join(out).splitlines() if line.strip())


def _clean(out: list[str]) -> str:
    lines = ["\t".join(" ".join(cell.split()) for cell in line.split("\t")) for line in "".join(out).split("\n")]
    return "\n".join(line for line in lines if line.strip())


def _xml(package: zipfile.ZipFile, name: str, path: Path) -> Any:
    from lxml import etree

    info = package.getinfo(name)
    limit = current_limits().max_file_bytes
    if info.file_size > limit:
        raise InputError(str(path), f"too large: {name} is {megabytes(info.file_size)} unpacked "
                                    f"(limit {megabytes(limit)})")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        return etree.fromstring(package.read(name), parser)
    except etree.XMLSyntaxError as exc:
        raise InputError(str(path), f"corrupt OpenDocument file ({name}: {exc})") from exc


class OdfExtractor(Extractor):
    """OpenDocument text, spreadsheet and presentation files (LibreOffice, Google Docs exports)."""

    suffixes = (".odt", ".ods", ".odp")
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        try:
            package = zipfile.ZipFile(path)
            names = set(package.namelist())
        except (zipfile.BadZipFile, OSError) as exc:
            raise InputError(str(path), not_a_package(path, "an OpenDocument file", exc)) from exc
        with package:
            if "content.xml" not in names:
                raise InputError(str(path), "corrupt or not an OpenDocument file (no content.xml)")
            manifest = package.read("META-INF/manifest.xml") if "META-INF/manifest.xml" in names else b""
            if b"encryption-data" in manifest:
                raise InputError(str(path), "encrypted OpenDocument file (password protected)")
            body = _xml(package, "content.xml", path).find("office:body", _NS)
            styles = _xml(package, "styles.xml", path) if "styles.xml" in names else None
        if body is None:
            raise InputError(str(path), "corrupt OpenDocument file (no office:body)")
        kind = next((_local(c.tag) for c in body if isinstance(c.tag, str)), "")
        if kind == "spreadsheet":
            yield from self._sheets(body)
        elif kind == "presentation":
            yield from self._slides(body)
        else:
            yield from self._text_document(body, styles)

    @staticmethod
    def _text_document(body: Any, styles: Any) -> Iterator[Segment]:
        pages = styles.find("office:master-styles", _NS) if styles is not None else None
        heads = [] if pages is None else [(_local(e.tag), e) for e in pages.iter()
                                           if _local(e.tag) in ("header", "footer", "header-first", "footer-first")]
        for section, part in heads:
            if section.startswith("header"):
                yield Segment(text=_clean_part(part), section=section.replace("-first", " (first page)"))
        out: list[str] = []
        _text(body, out)
        yield Segment(text=_clean(out))
        for section, part in heads:
            if section.startswith("footer"):
                yield Segment(text=_clean_part(part), section=section.replace("-first", " (first page)"))

    @staticmethod
    def _sheets(body: Any) -> Iterator[Segment]:
        for table in body.iterfind(".//table:table", _NS):
            out: list[str] = []
            _text(table, out)
            yield Segment(text=_clean(out), section=f"sheet: {table.get(_TABLE_NAME, '')}")

    @staticmethod
    def _slides(body: Any) -> Iterator[Segment]:
        for number, page in enumerate(body.iterfind(".//draw:page", _NS), start=1):
            out: list[str] = []
            notes: list[str] = []
            for child in page:
                _text(child, notes if _local(child.tag) == "notes" else out)
                out.append("\n")
            text = _clean(out)
            if _clean(notes):
                text += "\nNotes: " + _clean(notes)
            yield Segment(text=text, page=number, section=page.get(_DRAW_NAME))


def _clean_part(part: Any) -> str:
    out: list[str] = []
    _text(part, out)
    return _clean(out)


register(OdfExtractor())
