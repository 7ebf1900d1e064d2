"""Spreadsheets: CSV/TSV (stdlib ``csv``) and XLSX (openpyxl, read-only, cached formula values).

Rows come in blocks of :data:`ROWS_PER_SEGMENT`, cells joined by `` | ``, with the sheet and row range
as the section (``Sheet1 rows 1-50``) so an answer can cite where a number came from; a row too wide for one
chunk is read as a record of its own, each cell named by its column (:func:`row_blocks`).

XLSX trusts the cells, never the stored summaries: the sheet's declared ``<dimension>`` is ignored (a
wrong one would hide rows and columns), and a formula whose value was never computed (a file written
by a program, not by Excel) shows as ``=SUM(B2:B4) (formula; value not computed)``, not as a blank.
Every cell of a merged range shows the value Excel displays across it (stored in its top-left cell).
"""

from __future__ import annotations

import csv
import io
import re
import warnings
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, time
from pathlib import Path
from typing import Any

from assistant.documents.base import Extractor, register
from assistant.documents.limits import ISOLATE_ABOVE_BYTES
from assistant.documents.protected import decrypted_office
from assistant.documents.sniff import not_a_package
from assistant.documents.text import decode
from assistant.errors import InputError
from assistant.records import Segment, SheetRows

ROWS_PER_SEGMENT = 50
# A row longer than this (about 200 tokens, one chunk) is read as its own record: see row_blocks.
WIDE_ROW_CHARS = 800
_KEY_CHARS = 80
_NUMBER = re.compile(r"[-+(]?[$€£]?\d[\d,.' ]*%?\)?")
_OPENPYXL_SUFFIXES = (".xlsx", ".xlsm", ".xltx", ".xltm")
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
NOT_COMPUTED = "(formula; value not computed)"
# The end of a formula (``</f>`` or a self-closed shared ``<f .../>``) not followed by a cached value:
# the cell ends, or its ``<v>`` is empty. Excel always stores values, so its files skip the second pass.
_UNCACHED_FORMULA = re.compile(rb"(?:</(?:[A-Za-z_][\w.-]*:)?f>|<(?:[A-Za-z_][\w.-]*:)?f(?:\s[^<>]*)?/>)\s*"
                               rb"(?:</(?:[A-Za-z_][\w.-]*:)?c>|<(?:[A-Za-z_][\w.-]*:)?v\s*/>"
                               rb"|<(?:[A-Za-z_][\w.-]*:)?v>\s*</(?:[A-Za-z_][\w.-]*:)?v>)")
_MERGE_CELL = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?mergeCell\s[^<>]*?\bref\s*=\s*[\"']([A-Z]{1,3}\d+:[A-Z]{1,3}\d+)")


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime) and value.time() == time(0):
        # a date cell as a sheet shows it ("2024-06-17"), not Python's midnight ("2024-06-17 00:00:00")
        return value.date().isoformat()
    return str(value).strip()


def row_blocks(rows: Iterable[Iterable[object]], sheet: str) -> Iterator[Segment]:
    """Rows (1-based, blank rows skipped) as segments of up to ROWS_PER_SEGMENT rows, cells joined by `` | ``.

    A block holding a row longer than :data:`WIDE_ROW_CHARS` under a header row (:func:`_header`) is read as
    records: each row a segment of its own (``orders row 7``), a cell a line named by its column ("Governing Law:
    Virginia"; empty cells left out), read under its number and first cell
    (:attr:`~assistant.records.Segment.heading`). Such a row fills several chunks, and a chunk of "... | Virginia
    | ..." says neither what the value is nor whose it is (over a sheet of 100 contracts' labels a governing-law
    answer was stitched from two other rows); the block's shorter rows are records too, so that every row of a
    customer's tickets is one (:mod:`assistant.ttrag.scope` searches the records a question names).
    """
    block: list[tuple[int, list[str]]] = []
    header: list[str] | None = None
    header_at = 0

    def flush() -> Iterator[Segment]:
        if not block:
            return
        wide = bool(header) and any(len(SheetRows.SEPARATOR.join(cells)) > WIDE_ROW_CHARS for _, cells in block)
        plain = [(n, cells) for n, cells in block if not wide or n == header_at]
        if plain:
            data = tuple((n, tuple(cells)) for n, cells in plain if n != header_at)
            yield Segment(text="\n".join(SheetRows.SEPARATOR.join(cells) for _, cells in plain),
                          section=f"{sheet} rows {plain[0][0]}-{plain[-1][0]}",
                          sheet=SheetRows(sheet, tuple(header), data) if header and data else None)
        for number, cells in block if wide else ():
            if number == header_at:
                continue
            assert header
            section = f"{sheet} row {number}"
            key = next(c for c in cells if c)
            key = key if len(key) <= _KEY_CHARS else key[:_KEY_CHARS - 1] + "…"
            yield Segment(text="\n".join(f"{_column(header, i)}: {c}" for i, c in enumerate(cells) if c),
                          section=section, heading=f"{section}: {' '.join(key.split())}",
                          sheet=SheetRows(sheet, tuple(header), ((number, tuple(cells)),), lines=False))
        block.clear()

    for number, row in enumerate(rows, start=1):
        cells = [_cell(v) for v in row]
        while cells and not cells[-1]:
            cells.pop()
        if not cells:
            continue
        if header is None:
            header, header_at = _header(cells), number
        block.append((number, cells))
        if len(block) == ROWS_PER_SEGMENT:
            yield from flush()
    yield from flush()


def _header(cells: list[str]) -> list[str]:
    """``cells`` when they are a header row (two or more filled, none a number), else []."""
    filled = [c for c in cells if c]
    if len(filled) < 2 or any(_NUMBER.fullmatch(c) for c in filled):
        return []
    return cells


def _column(header: list[str], i: int) -> str:
    """The name of column ``i`` (0-based): its header, else "column 3"."""
    name = " ".join(header[i].split()) if i < len(header) else ""
    return name or f"column {i + 1}"


def encrypted_office(path: Path) -> bool:
    """True for an OLE container where an Office Open XML file is expected: how Office stores
    password-protected .docx/.xlsx/.pptx files."""
    with path.open("rb") as f:
        return f.read(8) == OLE_MAGIC


class CsvExtractor(Extractor):
    """Comma- or tab-separated text in any encoding (BOM, UTF-8, cp1252); the dialect is sniffed."""

    suffixes = (".csv", ".tsv")
    isolate_above = ISOLATE_ABOVE_BYTES

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


@dataclass(frozen=True)
class _SheetFacts:
    """What one pass over a worksheet part finds: a formula without a cached value, and merged ranges
    as ``(min_row, min_col, max_row, max_col)`` (1-based), which read-only openpyxl does not see."""

    uncached_formulas: bool
    merged: tuple[tuple[int, int, int, int], ...] = ()


def _scan_sheet(archive: zipfile.ZipFile | None, member: str | None) -> _SheetFacts:
    """The worksheet part scanned in chunks (bounded memory). Uncached formulas are assumed when the
    part cannot be read, so the formulas are then read."""
    from openpyxl.utils.cell import range_boundaries

    if archive is None or member is None:
        return _SheetFacts(True)
    uncached = False
    refs: set[bytes] = set()
    try:
        with archive.open(member) as src:
            tail = b""
            while chunk := src.read(1 << 20):
                window = tail + chunk
                uncached = uncached or _UNCACHED_FORMULA.search(window) is not None
                if b"mergeCell" in window:  # the list follows the cells, at the end of the part
                    refs.update(_MERGE_CELL.findall(window))
                tail = chunk[-512:]
    except (KeyError, OSError, zipfile.BadZipFile):
        return _SheetFacts(True)
    merged = []
    for ref in refs:
        try:
            min_col, min_row, max_col, max_row = range_boundaries(ref.decode("ascii"))
        except (TypeError, ValueError):
            continue  # a malformed range merges nothing
        if min_col and min_row and max_col and max_row and (max_row > min_row or max_col > min_col):
            merged.append((min_row, min_col, max_row, max_col))
    return _SheetFacts(uncached, tuple(sorted(merged)))


def _merged_filled(rows: Iterable[tuple[object, ...]], merged: tuple[tuple[int, int, int, int], ...]
                   ) -> Iterator[tuple[object, ...]]:
    """Rows (the first is row 1) with every cell of a merged range holding its top-left cell's value, as
    a person sees it (Excel keeps the value in the top-left cell only)."""
    starting: dict[int, list[tuple[int, int, int, int]]] = {}
    for box in merged:
        starting.setdefault(box[0], []).append(box)
    open_ranges: list[tuple[int, int, int, object]] = []  # last row, first column, last column, value
    for number, row in enumerate(rows, start=1):
        for _, min_col, max_row, max_col in starting.get(number, ()):
            value = row[min_col - 1] if min_col <= len(row) else None
            if value is not None and value != "":
                open_ranges.append((max_row, min_col, max_col, value))
        if not open_ranges:
            yield row
            continue
        cells = list(row)
        for _, min_col, max_col, value in open_ranges:
            cells.extend([None] * (max_col - len(cells)))
            cells[min_col - 1:max_col] = [value] * (max_col - min_col + 1)
        open_ranges = [r for r in open_ranges if r[0] > number]
        yield tuple(cells)


def _with_formulas(values: Iterable[tuple[object, ...]], formulas: Iterable[tuple[object, ...]]
                   ) -> Iterator[tuple[object, ...]]:
    """Cached values, with the formula and a note where a formula cell has no cached value.

    Both row streams come from the same sheet XML, so they hold the same rows and cells."""
    for row, source in zip(values, formulas, strict=False):
        if not any(v is None or v == "" for v in row) or not source:
            yield row
            continue
        cells = list(row)
        for i, value in enumerate(cells):
            if (value is None or value == "") and i < len(source):
                formula = source[i]
                text = getattr(formula, "text", formula)  # ArrayFormula keeps its text in .text
                if isinstance(text, str) and text.startswith("="):
                    cells[i] = f"{text} {NOT_COMPUTED}"
        yield tuple(cells)


def _rows(sheet: Any, formula_book: Any) -> Iterator[tuple[object, ...]]:
    """A read-only sheet's rows from A1 to its last real cell, whatever its ``<dimension>`` claims."""
    sheet.reset_dimensions()
    values = sheet.iter_rows(values_only=True)
    if formula_book is None:
        return values
    source = formula_book[sheet.title]
    source.reset_dimensions()
    return _with_formulas(values, source.iter_rows(values_only=True))


class XlsxExtractor(Extractor):
    """Every worksheet, row by row, streaming (``read_only``); formulas give their last computed value,
    or their text and a note when none was ever computed."""

    suffixes = (".xlsx", ".xlsm")
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        import openpyxl

        package = decrypted_office(path, "Excel workbook") if encrypted_office(path) else None

        def source() -> Any:  # a fresh stream per workbook opened: the formula pass opens it again
            if package is not None:
                return io.BytesIO(package)
            # openpyxl refuses a file name with another suffix (a workbook named .docx is still one)
            return str(path) if path.suffix.lower() in _OPENPYXL_SUFFIXES else io.BytesIO(path.read_bytes())

        with warnings.catch_warnings():
            # openpyxl warns about features it drops (data validation, default styles): not our concern.
            warnings.filterwarnings("ignore", category=UserWarning, module="openpyxl")
            try:
                book = openpyxl.load_workbook(source(), read_only=True, data_only=True)
            except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
                raise InputError(str(path), not_a_package(path, "an Excel workbook", exc)) from exc
            formula_book: Any = None
            try:
                for sheet in book.worksheets:
                    facts = _scan_sheet(getattr(book, "_archive", None), getattr(sheet, "_worksheet_path", None))
                    formulas = facts.uncached_formulas
                    if formulas and formula_book is None:
                        # Opened once, only for a sheet with uncached formulas: a second stream of the same
                        # cells in which formula cells hold their text instead of their cached value.
                        formula_book = openpyxl.load_workbook(source(), read_only=True, data_only=False)
                    rows = _rows(sheet, formula_book if formulas else None)
                    yield from row_blocks(_merged_filled(rows, facts.merged) if facts.merged else rows, sheet.title)
            finally:
                book.close()
                if formula_book is not None:
                    formula_book.close()


register(CsvExtractor())
register(XlsxExtractor())
