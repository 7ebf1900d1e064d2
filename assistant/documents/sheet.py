"""Spreadsheets: CSV/TSV (stdlib ``csv``) and XLSX (openpyxl, read-only, cached formula values).

Rows come in blocks of :data:`ROWS_PER_SEGMENT`, cells joined by `` | ``, with the sheet and row range
as the section (``Sheet1 rows 1-50``) so an answer can cite where a number came from.
"""

from __future__ import annotations

import csv
import io
import warnings
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from assistant.documents.base import Extractor, register
from assistant.documents.text import decode
from assistant.errors import InputError
from assistant.records import Segment

ROWS_PER_SEGMENT = 50
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def row_blocks(rows: Iterable[Iterable[object]], sheet: str) -> Iterator[Segment]:
    """Rows (1-based, blank rows skipped) as segments of up to ROWS_PER_SEGMENT rows."""
    lines: list[str] = []
    first = last = 0
    for number, row in enumerate(rows, start=1):
        cells = [_cell(v) for v in row]
        while cells and not cells[-1]:
            cells.pop()
        if not cells:
            continue
        if not lines:
            first = number
        lines.append(" | ".join(cells))
        last = number
        if len(lines) == ROWS_PER_SEGMENT:
            yield Segment(text="\n".join(lines), section=f"{sheet} rows {first}-{last}")
            lines = []
    if lines:
        yield Segment(text="\n".join(lines), section=f"{sheet} rows {first}-{last}")


def encrypted_office(path: Path) -> bool:
    """True for an OLE container where an Office Open XML file is expected: how Office stores
    password-protected .docx/.xlsx/.pptx files."""
    with path.open("rb") as f:
        return f.read(8) == OLE_MAGIC


class CsvExtractor(Extractor):
    """Comma- or tab-separated text in any encoding (BOM, UTF-8, cp1252); the dialect is sniffed."""

    suffixes = (".csv", ".tsv")

    def segments(self, path: Path) -> Iterator[Segment]:
        text = decode(path.read_bytes(), str(path))
        try:
            dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:8192], delimiters=",;\t|")
        except csv.Error:
            dialect = csv.excel_tab if path.suffix.lower() == ".tsv" else csv.excel
        try:
            yield from row_blocks(csv.reader(io.StringIO(text, newline=""), dialect), path.stem)
        except csv.Error as exc:
            raise InputError(str(path), f"malformed CSV ({exc})") from exc


class XlsxExtractor(Extractor):
    """Every worksheet, row by row, streaming (``read_only``); formulas give their last computed value."""

    suffixes = (".xlsx", ".xlsm")

    def segments(self, path: Path) -> Iterator[Segment]:
        import openpyxl

        if encrypted_office(path):
            raise InputError(str(path), "encrypted Excel workbook (password protected)")
        with warnings.catch_warnings():
            # openpyxl warns about features it drops (data validation, default styles): not our concern.
            warnings.filterwarnings("ignore", category=UserWarning, module="openpyxl")
            try:
                book = openpyxl.load_workbook(str(path), read_only=True, data_only=True)
            except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
                raise InputError(str(path), f"corrupt or not an Excel workbook ({exc})") from exc
            try:
                for sheet in book.worksheets:
                    yield from row_blocks(sheet.iter_rows(values_only=True), sheet.title)
            finally:
                book.close()


register(CsvExtractor())
register(XlsxExtractor())
