"""Answers computed over a table: how many rows, the total, average, highest or lowest of a column, which rows,
and a cell of the rows a question names, over every row of a sheet whose first row names its columns
(conditional compute: an exact method, as counting is, instead of a reader that sees three passages of a hundred
rows and states one row's figure, or the row beside it).

The LLM reads the question and the column names (:func:`columns_for`), each with a short example value, and
writes a query under a JSON schema whose column names are the sheet's own (:func:`query_schema`);
:func:`parse_query` keeps it only where each filter's value is written in the question (or is yes/no) and stands
in its column, and the operation is one the question asks for (:func:`cued_operations`; a lookup where it names
rows: :func:`names_rows`). The computation itself reads every row (:func:`compute`). Where any of that fails the
question is answered from passages as before, and the trace says why.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from assistant.records import Document, source_name
from assistant.ttrag.compute import cells
from assistant.ttrag.compute.cells import Compare, number
from assistant.ttrag.compute.counting import pattern_for
from assistant.ttrag.grounding import english_stemmer

Operation = Literal["count", "sum", "average", "max", "min", "list", "value"]
OPERATIONS: tuple[Operation, ...] = ("count", "sum", "average", "max", "min", "list", "value")
VALUES = 3  # distinct values a lookup may answer with; more, and the question did not name its rows
MIN_ROWS = 3  # fewer rows than this are read whole by the reader anyway
MAX_FILTERS = 3
SAMPLE_CHARS = 40  # an example value longer than this is not shown
SHOWN_COLUMNS = 24  # a wider table shows the LLM only the columns the question may be about
CATEGORIES = 20  # a column of at most this many values (or half its rows) is a category (a status, a region)
NUMERIC_SHARE = 0.8  # of a column's filled cells, the share that must be numbers for a sum, average or extreme

# What a question asks to compute, in English, German and French: a question without any of these is never
# sent here. "how many times" is the counting route's (occurrences of a word), not a count of rows.
_CUES: dict[Operation, re.Pattern[str]] = {
    "count": re.compile(r"\bhow many\b(?!\s+times\b)|\bnumber of\b|\bcount\b|\bwie viele\b|\banzahl\b|"
                        r"\bcombien\b|\bnombre de\b", re.I),
    # "how many units were sold" asks for a sum of a column, "how many tickets are open" for a count of rows
    "sum": re.compile(r"\b(?:total|sum|altogether|combined|in all|insgesamt|summe|gesamt\w*|somme|how many|"
                      r"wie viele|combien)\b(?!\s+times\b)", re.I),
    "average": re.compile(r"\b(?:average|mean|median|durchschnitt\w*|mittel\w*|moyen(?:ne)?s?)\b", re.I),
    "max": re.compile(r"\b(?:highest|largest|biggest|most|maximum|greatest|top|h\u00f6chste\w*|gr\u00f6\u00dfte\w*|"
                      r"meiste\w*|plus (?:\u00e9lev\u00e9|grand)e?s?)\b", re.I),
    "min": re.compile(r"\b(?:lowest|smallest|least|fewest|minimum|niedrigste\w*|kleinste\w*|wenigste\w*|"
                      r"plus (?:faible|petit)e?s?)\b", re.I),
    # a list asks for rows in the plural ("Which contracts ...", "list all ...", "welche Verträge"), not for
    # one row's value ("Which law governs ...?" is a question for the reader)
    "list": re.compile(r"^\W*(?:please\s+)?(?:list|name|show)\b|"
                       r"\b(?:list|show|name)\s+(?:all|every|each|the)\b|\ball\s+(?:the\s+)?\w+\s+(?:that|which|"
                       r"with|where|whose)\b|"
                       r"\bwhich\s+(?:of\s+the\s+)?(?!(?:is|was|has|does|goes)\b)\w{2,}[^s\W]s\b|"
                       r"\bwhat\s+\w{2,}[^s\W]s\s+(?:are|were|have|had)\b|\bwelche\s+\w+|"
                       r"\bquel(?:le)?s\b", re.I),
}
_YES_NO = {"yes", "no", "true", "false", "ja", "nein", "oui", "non"}
# what "how many" asks the number of: the words after it, up to a verb or a preposition
_HOW_MANY = re.compile(r"\b(?:how many\s+|wie viele\s+|combien d(?:e\s+|')|nombre d(?:e\s+|'))"
                       r"(?P<thing>[^\W\d_][\w -]{0,40}?)"
                       r"(?=\s+(?:do|does|did|are|is|were|was|have|has|had|can|will|would|should|in|at|of|from|"
                       r"for|with|on|by|we|they|there|left|remain\w*|sind|haben|hat|gibt|wurden|werden|im|am|von|"
                       r"aus|auf|avons|avez|ont|sont|y|dans|au|en|reste\w*)\b|\s*[?,.!;]|\s*$)", re.I)
# the words of a column's name saying how many of a row's thing there are, and of one saying what it costs
# ("Unit Price" is no quantity)
_QUANTITY_WORDS = ("quantity qty units stock pieces pcs onhand menge st\u00fcck stk bestand quantit\u00e9 qt\u00e9 "
                   "inventory")
_MONEY_WORDS = "price cost amount value total revenue preis kosten betrag wert prix co\u00fbt montant valeur"
_NOT_FILLED = {"no", "false", "nein", "non", "n/a", "na", "none", "-", "0"}


@dataclass(frozen=True)
class Row:
    """One row of a table: its ``number`` in the sheet (1-based), its cells, and the character offset in its
    document's text where its line (or record) starts."""

    number: int
    cells: tuple[str, ...]
    offset: int
    record: bool = False  # a record of its own (each cell a line "Column: value"), not a line of cells


@dataclass(frozen=True)
class Table:
    """A sheet's rows under its header row, from one document: ``columns`` are the header's names (an empty
    header cell is ``column 3``; a repeated name gets `` (2)``)."""

    source: str
    sheet: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]

    @property
    def name(self) -> str:
        """The sheet as a person names it: ``sales`` (a CSV), ``contracts.xlsx, sheet Q3``."""
        file = source_name(self.source)
        return self.sheet if file.rsplit(".", 1)[0] == self.sheet else f"{file}, sheet {self.sheet}"

    def cell(self, row: Row, column: str) -> str:
        """The cell of ``row`` under ``column`` ('' past the row's last cell)."""
        i = self.columns.index(column)
        return row.cells[i] if i < len(row.cells) else ""

    @cached_property
    def categories(self) -> dict[str, set[str]]:
        """The columns of few values (fewer than the rows, and at most :data:`CATEGORIES` or half of them: CUAD's
        100 governing laws are 35 values) and their values; read once a table."""
        out = {}
        for column in self.columns:
            values = {" ".join(self.cell(r, column).split()) for r in self.rows} - {""}
            if values and len(values) <= max(CATEGORIES, len(self.rows) // 2) and len(values) < len(self.rows):
                out[column] = values
        return out

    def key(self, row: Row, leave: str = "") -> str:
        """The cells a person names ``row`` by: its first two filled cells other than column ``leave``."""
        cells = [c for i, c in enumerate(row.cells) if c and (i >= len(self.columns) or self.columns[i] != leave)]
        return " | ".join(" ".join(c.split())[:SAMPLE_CHARS] for c in cells[:2])


@dataclass(frozen=True)
class Filter:
    """Keep the rows whose ``column`` holds ``value`` (a yes/no value: the whole cell; a month's name: a date of
    that month; else the value as whole words, case-insensitive), or whose figure or date stands in comparison
    ``compare`` with it (:mod:`assistant.ttrag.compute.cells`); a ``value`` of '' keeps the rows whose cell is
    filled (:func:`filled`)."""

    column: str
    value: str
    compare: Compare | None = None

    def keeps(self, table: Table, row: Row) -> bool:
        cell = table.cell(row, self.column)
        if not self.value:
            return filled(cell)
        if self.compare:
            return cells.compares(cell, self.value, self.compare)
        if cells.names_month(self.value) and cells.date_of(cell) is not None:
            return cells.same_date(cell, self.value)
        return cell_holds(cell, self.value)


def filled(cell: str) -> bool:
    """Whether a cell holds something: a letter or a digit ("[]", CUAD's empty list, does not), and not a no
    ("No", "false", "n/a", "none")."""
    return re.search(r"\w", cell) is not None and cell.strip().casefold() not in _NOT_FILLED


@dataclass(frozen=True)
class Query:
    """What to compute: ``operation`` over ``column`` (the column summed, averaged or ranked, or named in a
    list; '' for a count) of the rows every filter keeps."""

    operation: Operation
    column: str
    filters: tuple[Filter, ...]


@dataclass(frozen=True)
class Computed:
    """The result of a :class:`Query`: the rows kept, the value (a count or a number; None for a list), the
    rows holding it (an extreme's rows, else the rows kept) and the kept rows whose cell was not a number."""

    rows: tuple[Row, ...]
    value: float | None
    holding: tuple[Row, ...]
    skipped: int = 0


def cued_operations(question: str) -> list[Operation]:
    """The operations ``question`` asks for by its words (several where it shows several cues); a lookup
    (``value``) is never cued by words: see :func:`names_rows`."""
    return [op for op in OPERATIONS if op in _CUES and _CUES[op].search(question)]


def names_rows(table: Table, question: str) -> bool:
    """Whether ``question`` names rows of ``table`` by a value it holds, so that a cell of theirs can be looked
    up (``value``): a table whose rows are lines of cells (not records, which are searched by name:
    :mod:`assistant.ttrag.scope`), and a category of it (:func:`named_values`) or a first-column cell of three
    characters or more written in the question as whole words. Over a sales sheet "What was the revenue of the
    North region in 2024-05?" was read as the South's row beside it."""
    if not table.rows or table.rows[0].record:
        return False
    if named_values(table, question, set()):
        return True
    keys = {" ".join(r.cells[0].split()) for r in table.rows if r.cells} - {""}
    return any(len(k) >= 3 and cell_holds(question, k) for k in keys)


def column_names(header: Sequence[str]) -> tuple[str, ...]:
    """The header's cells as column names: white space collapsed, an empty one ``column N`` (1-based), a
    repeated one numbered (``Amount (2)``)."""
    names: list[str] = []
    for i, cell in enumerate(header):
        name = " ".join(cell.split()) or f"column {i + 1}"
        base, n = name, 2
        while name in names:
            name, n = f"{base} ({n})", n + 1
        names.append(name)
    return tuple(names)


def tables(documents: Sequence[Document]) -> list[Table]:
    """The tables of ``documents``: each sheet's rows under its header row (consecutive segments of one sheet
    and header), with at least :data:`MIN_ROWS` rows."""
    found: list[Table] = []
    for doc in documents:
        current: tuple[str, tuple[str, ...]] | None = None
        rows: list[Row] = []
        for seg, start in zip(doc.segments, doc.offsets, strict=True):
            sheet = seg.sheet
            if sheet is None:
                continue
            key = (sheet.sheet, sheet.header)
            if key != current:
                if current is not None and len(rows) >= MIN_ROWS:
                    found.append(Table(doc.source, current[0], column_names(current[1]), tuple(rows)))
                current, rows = key, []
            pos = 0
            for line_number, row_cells in sheet.rows:
                offset = start
                if sheet.lines:
                    at = seg.text.find(sheet.SEPARATOR.join(row_cells), pos)
                    offset, pos = (start + at, at + 1) if at >= 0 else (start + pos, pos)
                rows.append(Row(line_number, row_cells, offset, record=not sheet.lines))
        if current is not None and len(rows) >= MIN_ROWS:
            found.append(Table(doc.source, current[0], column_names(current[1]), tuple(rows)))
    return found


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.casefold()) if len(w) > 2}


def table_for(question: str, candidates: Sequence[Table]) -> Table | None:
    """The table ``question`` is about: the one whose column names and cells share the most of its words (the
    larger on a tie); None when there is none."""
    if len(candidates) < 2:
        return candidates[0] if candidates else None
    asked = _words(question)

    def score(table: Table) -> tuple[int, int]:
        words = _words(" ".join(table.columns)) | {w for r in table.rows for c in r.cells for w in _words(c)}
        return len(asked & words), len(table.rows)

    return max(candidates, key=score)


def columns_for(table: Table, question: str) -> tuple[str, ...]:
    """The columns the LLM is shown for ``question``: all of a table of at most :data:`SHOWN_COLUMNS`; of a wider
    one, the first column, those whose name shares a word with the question (stemmed, Snowball English:
    "governed" and "Governing Law") and those holding a category it names (:func:`named_values`), all of them
    where fewer than two are found. Over CUAD's 83 columns the query's prompt ran to 2,000 tokens, 30 s on two
    cores."""
    if len(table.columns) <= SHOWN_COLUMNS:
        return table.columns
    asked = _stems(question, 4)
    named = {f.column for f in named_values(table, question, set())}
    kept = [c for i, c in enumerate(table.columns) if i == 0 or c in named or asked & _stems(c, 4)]
    return tuple(kept) if len(kept) > 2 else table.columns


def query_schema(table: Table, operations: Sequence[str] = OPERATIONS,
                 columns: Sequence[str] | None = None) -> dict[str, object]:
    """The JSON schema of the query the LLM writes for ``table``: one of ``operations`` (or ``none``), the
    column, and up to :data:`MAX_FILTERS` filters, each one of ``columns`` (default: the table's) and a value."""
    columns = list(table.columns if columns is None else columns)
    return {
        "type": "object",
        "properties": {
            "operation": {"type": "string", "enum": [*operations, "none"]},
            "column": {"type": "string", "enum": ["", *columns]},
            "filters": {"type": "array", "maxItems": MAX_FILTERS, "items": {
                "type": "object",
                "properties": {"column": {"type": "string", "enum": columns},
                               "value": {"type": "string", "maxLength": 80}},
                "required": ["column", "value"]}},
        },
        "required": ["operation", "column", "filters"],
    }


def query_prompt(question: str, table: Table, columns: Sequence[str] | None = None) -> str:
    """The request for a query: the ``columns`` (default: all), each with a short value of its first rows as an
    example, and the question."""
    lines = []
    for name in table.columns if columns is None else columns:
        example = next((v for v in (" ".join(table.cell(r, name).split()) for r in table.rows[:5])
                        if v and len(v) <= SAMPLE_CHARS), "")
        lines.append(f"- {name}" + (f" (e.g. {example})" if example else ""))
    return (f"A table \"{table.name}\" has {len(table.rows)} rows. Its columns:\n" + "\n".join(lines) + "\n"
            "Task: write the computation over the table's rows that answers the question.\n"
            "- operation: count (how many rows), sum, average, max or min of a column of numbers, list (which "
            "rows), value (a column's cell in the rows the filters keep); none when the question asks for "
            "something else\n"
            "- column: the column summed, averaged, ranked, looked up, or named for each row of a list; empty for a "
            "count\n"
            "- filters: keep only the rows whose column holds the value; each value as the question writes it "
            "(or Yes / No for a yes-or-no column); none when every row counts\n"
            f"Question: {question}")


def cell_holds(cell: str, value: str) -> bool:
    """Whether ``cell`` holds ``value``: a yes/no value the whole cell; else ``value`` as whole words (case and
    white space ignored)."""
    value = " ".join(value.split())
    if value.casefold() in _YES_NO:
        return cell.strip().casefold() == value.casefold()
    return pattern_for(value).search(cell) is not None


def parse_query(raw: str, table: Table, question: str,
                allowed: Sequence[str] | None = None) -> tuple[Query | None, str]:
    """The query in the LLM's reply ``raw``, checked: ``(query, '')``, or ``(None, why not)`` when the reply is
    malformed, says none, asks for an operation not ``allowed`` (default: those the question asks for,
    :func:`cued_operations`), names a column that is not the table's, or filters by a value the question does
    not write (yes/no aside) or that no row of its column holds."""
    try:
        data = json.loads(raw)
        operation, column, filters = data["operation"], data.get("column", ""), data.get("filters", [])
        pairs = [(str(f["column"]), " ".join(str(f["value"]).split())) for f in filters]
    except (ValueError, KeyError, TypeError, AttributeError):
        return None, "malformed query"
    if operation not in OPERATIONS:
        return None, "not a computation over rows"
    if operation not in (cued_operations(question) if allowed is None else allowed):
        return None, f"the question does not ask for {operation}"
    if column and column not in table.columns:
        return None, f"no column {column!r}"
    if operation in ("sum", "average", "max", "min", "value") and not column:
        return None, f"{operation} of no column"
    asked = " ".join(question.split()).casefold()
    pairs = _with_range(pairs, question)
    kept: list[Filter] = []
    for name, written in pairs[:MAX_FILTERS]:
        if name not in table.columns or not written:
            return None, f"a filter on no column ({name!r})"
        compare, value = cells.split_compared(written)
        value = cells.written_as(value, question) or value  # "5,000" where the LLM wrote 5000
        if value.casefold() not in _YES_NO and not _written(value, asked):
            return None, f"the filter value {value!r} is not in the question"
        # "started before 2012" is no filter "Start Year = 2012": the question's words before a figure or a date
        compare = compare or cells.comparison(question, value)
        if compare:
            if not cells.comparable([table.cell(r, name) for r in table.rows], value):
                return None, f"the question compares with {value!r}, {name} holds no figures or dates"
            f = Filter(name, value, compare)
        else:
            f = Filter(_category_column(table, name, value), value)
            if not any(f.keeps(table, r) for r in table.rows):
                f = Filter(f.column, _cell_named(table, f.column, value))
            if not f.value or not any(f.keeps(table, r) for r in table.rows):
                return None, f"no row holds {value!r} in {name}"
        if f not in kept:
            kept.append(f)
    for f in named_values(table, question, {f.column for f in kept} | {column}):
        if not any(f.value.casefold() in k.value.casefold() for k in kept):
            kept.append(f)
    for f in _negated_yes_no(table, question):
        if any(k.column == f.column and k.value.casefold() != f.value.casefold() for k in kept):
            return None, f"the question asks for {f.column} {f.value}, the query the opposite"
        if not any(k.column == f.column for k in kept):
            kept.append(f)
    for compare, value in cells.compared_in(question):
        # "How many invoices over 2,000 are still unpaid?" was queried as the unpaid ones alone: the comparison
        # goes to the one column it can be made in, else the query is refused
        if not any(k.compare and cells.same_value(k.value, value) for k in kept):
            held = _compared_column(table, question, value, {k.column for k in kept})
            if not held:
                return None, f"the query leaves out the comparison {compare} {value}"
            kept.append(Filter(held, value, compare))
    if operation == "count" and not kept and column:
        # "How many contracts have a non-compete clause?" was queried as a count of the column "Non-Compete": the
        # rows that have one
        kept.append(Filter(column, ""))
    quantity = quantity_column(table)
    if operation in ("count", "sum") and quantity and "sum" in (allowed or cued_operations(question)) and \
            counts_items(question, kept):
        # "How many cordless drills do we have in Leipzig?" asks for the drills, not for the rows that hold them
        return Query("sum", quantity, tuple(kept)), ""
    if operation in ("sum", "average", "max", "min", "value") and not _named(column, question) and not (
            operation != "value" and _only_figures(table, column)):
        # "What is the total of the unpaid invoices?" names no column: the sheet's one column of figures is summed
        return None, f"the question does not name the column {column!r}"
    if operation == "value" and column in {f.column for f in kept}:
        return None, f"a lookup of {column} in the rows it filters"
    if operation in ("list", "count", "value") and not kept:
        # a count or a list of every row is never what a question over a table asks
        return None, f"a {operation} of every row"
    return Query(operation, column, tuple(kept)), ""


def _compared_column(table: Table, question: str, value: str, filtered: set[str]) -> str:
    """The one column a comparison with ``value`` the query left out can be made in: of the columns not
    ``filtered``, those of the value's kind (:func:`_value_kind`: a figure's, a date's or a year's), narrowed
    to those ``question`` names where it names any; '' where there is none or several ("over 2,000" of a sheet
    with an Amount and a Total, or a bare year of a sheet with a date and a figure)."""
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+", value.strip()):
        return ""  # "über 1.500": 1,500 as German writes it, or 1.5
    kinds = {"figure"} if cells.date_of(value) is None else {"date", "year"} if number(value) is None else \
        {"figure", "date", "year"}
    found = [c for c in table.columns if c not in filtered and _value_kind(table, c) in kinds]
    named = [c for c in found if _named(c, question)]
    found = named or found
    return found[0] if len(found) == 1 else ""


def _only_figures(table: Table, column: str) -> bool:
    """Whether ``column`` is the table's one column of figures (:func:`_value_kind`; a year's column is none)."""
    return [c for c in table.columns if _value_kind(table, c) == "figure"] == [column]


def _value_kind(table: Table, column: str) -> str:
    """What 4 in 5 of ``column``'s filled cells are: ``date`` (a date that is no number: "2024-03-15",
    "15.03.2024"), ``year`` (a number that reads as a year), ``figure`` (numbers, years among them), or ''."""
    filled = [c for c in (table.cell(r, column) for r in table.rows) if c.strip()]
    if not filled:
        return ""
    numbers = [number(c) is not None for c in filled]
    dates = [cells.date_of(c) is not None for c in filled]
    least = 0.8 * len(filled)
    if sum(d and not n for d, n in zip(dates, numbers, strict=True)) >= least:
        return "date"
    if sum(d and n for d, n in zip(dates, numbers, strict=True)) >= least:
        return "year"
    return "figure" if sum(numbers) >= least else ""


def _with_range(pairs: list[tuple[str, str]], question: str) -> list[tuple[str, str]]:
    """``pairs`` (column, value) with the filters of a column whose values are figures or dates replaced by the
    two ends of the range the question writes: "between 2010 and 2015" was queried as 2010, 2011 and 2012."""
    ends = cells.range_in(question)
    if ends is None:
        return pairs
    ranged = [c for c, v in pairs
              if (bare := cells.split_compared(v)[1]) and (cells.figure_in(bare) is not None or
                                                           cells.date_of(bare) is not None)]
    if not ranged:
        return pairs
    column = ranged[0]
    rest = [(c, v) for c, v in pairs if c != column]
    return [(column, ends[0]), (column, ends[1]), *rest]


def _negated_yes_no(table: Table, question: str) -> list[Filter]:
    """Filters "No" for the yes/no columns ``question`` names negated ("unpaid", "not yet paid", "non-exclusive"
    of a column "Paid", "Exclusive"): the query of "How many invoices of Harbor Foods are not yet paid?" kept the
    client alone."""
    asked = " ".join(question.split()).casefold()
    found = []
    for column, values in table.categories.items():  # a yes/no column has few values
        if not {v.casefold() for v in values} <= _YES_NO:
            continue
        name = column.casefold()
        for word in re.findall(r"[^\W\d_]{3,}", name):
            if re.search(rf"\b(?:un-?|non-?|not\s+){re.escape(word)}\b", name):
                continue  # "Non-Compete" negates nothing in "a non-compete clause"
            if re.search(rf"\b(?:un-?|non-?|not\s+(?:yet\s+|been\s+)?|never\s+(?:been\s+)?){re.escape(word)}\b", asked):
                found.append(Filter(column, "No"))
                break
    return found


def _category_column(table: Table, column: str, value: str) -> str:
    """The column a filter on ``value`` reads: ``column``, unless ``value`` is a whole cell of it nowhere and is
    one of the values of a single category column (:attr:`Table.categories`) whose name shares a word with it: the
    column that states the value, not a text that mentions it. CUAD's "Governing Law" clauses mention New York in
    a contract whose "Governing Law-Answer" is California (its clauses name both)."""
    wanted = value.casefold()
    if any(" ".join(table.cell(r, column).split()).casefold() == wanted for r in table.rows):
        return column
    words = set(re.findall(r"\w{3,}", column.casefold()))
    found = [c for c, values in table.categories.items() if c != column and wanted in {v.casefold() for v in values}
             and words & set(re.findall(r"\w{3,}", c.casefold()))]
    return found[0] if len(found) == 1 else column


def _cell_named(table: Table, column: str, value: str) -> str:
    """The one cell value of ``column`` that ``value`` names in another form of its words (stemmed, Snowball
    English: "cordless drills" for "Cordless Drill"); '' where none or several do."""
    wanted = _stems(value)
    found = {cell for cell in (" ".join(table.cell(r, column).split()) for r in table.rows)
             if cell and _stems(cell) == wanted}
    return found.pop() if len(found) == 1 else ""


def named_values(table: Table, question: str, leave: set[str]) -> list[Filter]:
    """Filters for the categories ``question`` names that the query left out: a whole cell value of a column of
    few values (:attr:`Table.categories`; not a number, not yes/no) written in the question as whole words, in one
    column only (not one of ``leave``). "Which tickets of Nimbus Bank are open?" was queried with the customer
    alone; "open" is a value of the status column."""
    found: dict[str, list[Filter]] = {}
    for column, values in table.categories.items():
        if column in leave:
            continue
        for value in sorted(values):
            if value.casefold() in _YES_NO or number(value) is not None or len(value) < 2:
                continue
            # in the plural too: "How many hammers ..." names the rows of "Hammer"
            if any(cell_holds(question, v) for v in (value, f"{value}s", f"{value}es")):
                found.setdefault(value.casefold(), []).append(Filter(column, value))
    # one column may write a value in two cases ("Open", "open"): a name of one column, not of two
    named = [fs[0] for fs in found.values() if len({f.column for f in fs}) == 1]
    # the longest name wins over a name inside it ("New York" over "York")
    return [f for f in named if not any(f is not g and f.value.casefold() in g.value.casefold() for g in named)]


def _stems(text: str, least: int = 1) -> set[str]:
    """The stems (Snowball English) of the words of ``text`` of ``least`` characters or more."""
    return set(english_stemmer().stemWords(re.findall(rf"\w{{{least},}}", text.casefold())))


def _written(value: str, question: str) -> bool:
    """Whether ``question`` writes ``value``: as it stands, or each of its words in another form (stemmed,
    Snowball English: "drills" for "Drill", "cancellations" for "Cancelled" in a German question's translation)."""
    return value.casefold() in question.casefold() or bool(_stems(value)) and _stems(value) <= _stems(question)


def _named(column: str, question: str) -> bool:
    """Whether ``question`` names ``column``: a word of the column's name stands in it, both stemmed (Snowball
    English). A lookup of "shipping cost" read the amount column; "What does the status 'Held' mean?" was read as
    an average."""
    return bool(_stems(column, 3) & _stems(question, 3))


def quantity_column(table: Table) -> str:
    """The one column of numbers that says how many of a row's thing there are ("Quantity", "Units", "Stock",
    "Menge", "Stück", "Quantité"); '' where there is none or several."""
    quantity, money = _stems(_QUANTITY_WORDS), _stems(_MONEY_WORDS)
    found = [c for c in table.columns if _stems(c, 2) & quantity and not _stems(c, 2) & money and _numeric(table, c)]
    return found[0] if len(found) == 1 else ""


def counts_items(question: str, filters: Sequence[Filter]) -> bool:
    """Whether ``question`` asks how many of a thing a filter's value names ("how many cordless drills ..."
    filtered on Product "Cordless Drill"), not how many rows ("how many orders ..."): the last word of what
    follows "how many" (or "wie viele", "combien de") is, stemmed, a word of a filter's value."""
    values = set().union(*(_stems(f.value) for f in filters if f.value and not f.compare)) if filters else set()
    for m in _HOW_MANY.finditer(question):
        words = re.findall(r"\w+", m["thing"])
        if words and values and _stems(words[-1]) <= values:
            return True
    return False


def _numeric(table: Table, column: str) -> bool:
    """Whether ``column`` is one of numbers: :data:`NUMERIC_SHARE` of its filled cells, over every row."""
    filled_cells = [c for c in (table.cell(r, column) for r in table.rows) if c.strip()]
    return bool(filled_cells) and \
        sum(number(c) is not None for c in filled_cells) >= NUMERIC_SHARE * len(filled_cells)


def compute(table: Table, query: Query) -> Computed:
    """``query`` over every row of ``table``, exactly. A sum, average or extreme reads the rows whose cell is a
    number and counts the others as skipped."""
    rows = tuple(r for r in table.rows if all(f.keeps(table, r) for f in query.filters))
    if query.operation == "count":
        return Computed(rows, float(len(rows)), rows)
    if query.operation in ("list", "value"):
        return Computed(rows, None, rows)
    numbers = [(r, number(table.cell(r, query.column))) for r in rows]
    valued = [(r, v) for r, v in numbers if v is not None]
    skipped = len(rows) - len(valued)
    if not valued:
        return Computed(rows, None, (), skipped)
    values = [v for _, v in valued]
    if query.operation == "sum":
        return Computed(rows, sum(values), tuple(r for r, _ in valued), skipped)
    if query.operation == "average":
        return Computed(rows, sum(values) / len(values), tuple(r for r, _ in valued), skipped)
    best = max(values) if query.operation == "max" else min(values)
    return Computed(rows, best, tuple(r for r, v in valued if v == best), skipped)


def unanswered(table: Table, query: Query, result: Computed) -> str:
    """Why ``result`` does not answer: a sum, average or extreme of a column that is not one of numbers (fewer
    than :data:`NUMERIC_SHARE` of its filled cells, over every row, are numbers) or of no row with a number; a
    lookup whose filters keep no row, or rows of more than :data:`VALUES` values; '' when it answers."""
    if query.operation == "value":
        values = {table.cell(r, query.column) for r in result.rows}
        return "" if result.rows and len(values) <= VALUES else \
            f"the filters keep {len(result.rows)} rows of {len(values)} values"
    if query.operation in ("count", "list"):
        return ""
    if not _numeric(table, query.column):
        return f"{query.column} is not a column of numbers"
    return "" if result.value is not None else f"no row kept has a number in {query.column}"


def row_quote(table: Table, row: Row, query: Query, text: str) -> tuple[int, str]:
    """Where ``row`` stands in its document's ``text`` and what a source quotes of it: a line of cells whole;
    of a record, the line of the column its first filter reads (the query's column where it has none)."""
    if not row.record:
        return row.offset, text[row.offset:].split("\n", 1)[0]
    columns = [c for c in (*(f.column for f in query.filters), query.column) if c]
    for column in columns:
        cell = table.cell(row, column)
        if cell:
            line = f"{column}: {cell}"
            at = text.find(line, row.offset)
            if at >= 0:
                return at, line
    return row.offset, text[row.offset:].split("\n", 1)[0]
