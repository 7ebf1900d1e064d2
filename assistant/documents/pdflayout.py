"""A PDF page's fragments of text in reading order: lines, columns and table rows by position.

PDFium's own text (``FPDFText_GetText``) follows the order the content stream draws, so margin line
numbers come out as one block, tables column by column, and consecutive rows glued together. The page's
characters are cut into :class:`Fragment` runs (:mod:`assistant.documents.pdftext`) and laid out here by
recursive XY-cut (Nagy & Seth, "Hierarchical representation of optically scanned documents", ICPR 1984):
a white corridor running the full height of a region splits it into columns when the parts on both
sides are prose (or their lines do not line up), and into table cells when they are rows that line up;
otherwise the region is cut at its widest white bands. In a fixed-pitch font a corridor one or two
characters wide through lines that all start left of it is no corridor: a typewriter's justified lines
(filings converted from plain text) put their extra spaces at the same column by chance. A table row
becomes one line with cells joined by `` | `` (as the DOCX, sheet and slide readers do). Line numbers
in a margin (a transcript's 1-25 counting down the page) are margin matter and left out, so they do not
run into the text; other numbers beside a margin (row numbers of a list) start their line. Columns are
separated by a blank line. Pure Python over boxes: no PDFium here.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from dataclasses import dataclass

CELL_GAP = 0.8  # a horizontal gap wider than this many line heights (~1 em) separates cells or columns
PROSE_WIDTH = 8.0  # line heights (~9 em): a text column is at least this wide
WIDE_GAP = 2.0  # line heights: in a line standing alone, a gap this wide separates cells
TYPED_SPACES = 2.5  # in fixed-pitch type, white this many characters wide or less is a space between words
MAX_DEPTH = 24  # XY-cut recursion bound (pathological layouts fall back to plain rows)
_NUMBER = re.compile(r"\d{1,4}")
RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")  # Hebrew, Arabic, Syriac, Thaana, NKo


@dataclass(slots=True)
class Fragment:
    """A run of text on one line, in PDF user space (y up), with its bounding box."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    hidden: bool = False
    vertical: bool = False
    margin: bool = False  # set by :func:`layout` on margin line numbers it leaves out of the lines
    fixed: bool = False  # set in a fixed-pitch (typewriter) font

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def middle(self) -> float:
        return (self.y0 + self.y1) / 2


def layout(fragments: list[Fragment]) -> list[str]:
    """Lines of ``fragments`` in reading order: columns one after another (a blank line between),
    table rows as one line with cells joined by `` | ``. Rotated runs follow, in the file's order."""
    upright = [f for f in fragments if not f.vertical]
    lines = _region(upright, 0) if upright else []
    lines += [f.text for f in fragments if f.vertical]
    return lines


def _line_height(items: list[Fragment]) -> float:
    return max(statistics.median(f.height for f in items), 1.0)


def _region(items: list[Fragment], depth: int) -> list[str]:
    """One XY-cut step: split at full-height corridors (columns, or cells that line up), else across at
    the widest white bands; a region that cannot be cut is read row by row."""
    if len(items) <= 1 or depth > MAX_DEPTH:
        return _rows(items, [])
    h = _line_height(items)
    # one line alone: only a wide gap is a cell (justified prose stretches its spaces to ~1.5 em)
    many = any(_group_rows(items)[1:])
    stripes, gaps = _vertical_split(items, (CELL_GAP if many else WIDE_GAP) * h)
    if gaps:
        kinds = [_gap_kind(stripes, k, h) for k in range(len(gaps))]
        while "space" in kinds:  # white that runs between words by chance: not a corridor
            k = kinds.index("space")
            stripes[k:k + 2] = [stripes[k] + stripes[k + 1]]
            del gaps[k]
            kinds = [_gap_kind(stripes, j, h) for j in range(len(gaps))]
    if gaps:
        numbering = _line_numbering(stripes, kinds)
        if numbering:  # margin matter, not words of the lines: read the page without it (marked, so the
            # reader can say what it left out)
            for k in numbering:
                for f in stripes[k]:
                    f.margin = True
            return _region([f for k, stripe in enumerate(stripes) if k not in numbering for f in stripe], depth + 1)
        if "column" in kinds:
            groups: list[list[Fragment]] = [list(stripes[0])]
            for kind, stripe in zip(kinds, stripes[1:], strict=True):
                if kind == "column":
                    groups.append(list(stripe))
                else:
                    groups[-1].extend(stripe)
            lines: list[str] = []
            for group in groups:
                if lines:
                    lines.append("")
                lines += _region(group, depth + 1)
            return lines
        rows = _group_rows(items)
        if len(rows) > 2 and any(_spanning(rows, x) * 2 < len(rows) for x in gaps):
            # cells beside only a part of the lines (a numbered paragraph in a page): cut across first
            bands = _table_runs(_horizontal_split(items), CELL_GAP * h)
            if len(bands) > 1:
                return [line for band in bands for line in _region(band, depth + 1)]
        return _rows(items, list(zip(gaps, kinds, strict=True)))
    bands = _table_runs(_horizontal_split(items), CELL_GAP * h)
    if len(bands) > 1:
        return [line for band in bands for line in _region(band, depth + 1)]
    return _rows(items, [])


def _spanning(rows: list[list[Fragment]], x: float) -> int:
    """How many rows have text on both sides of ``x``."""
    return sum(1 for row in rows if any(f.x1 <= x for f in row) and any(f.x0 >= x for f in row))


def _table_runs(bands: list[list[Fragment]], min_gap: float) -> list[list[Fragment]]:
    """Consecutive one-line bands merged while a white corridor at least ``min_gap`` wide runs through
    all of them: the rows of a table, cut apart when its row spacing is the widest white on the page."""
    out: list[list[Fragment]] = []
    free: list[tuple[float, float]] = []  # corridors through the run that ``out[-1]`` ends with
    for band in bands:
        gaps = _row_gaps(band, min_gap) if len(_group_rows(band)) == 1 else []
        if out and free and gaps:
            both = [(max(a, c), min(b, d)) for a, b in free for c, d in gaps if min(b, d) - max(a, c) >= min_gap]
            if both:
                out[-1] = out[-1] + band
                free = both
                continue
        out.append(band)
        free = gaps
    return out


def _row_gaps(row: list[Fragment], min_gap: float) -> list[tuple[float, float]]:
    order = sorted(row, key=lambda f: f.x0)
    gaps = []
    right = order[0].x1
    for f in order[1:]:
        if f.x0 - right >= min_gap:
            gaps.append((right, f.x0))
        right = max(right, f.x1)
    return gaps


def _vertical_split(items: list[Fragment], min_gap: float) -> tuple[list[list[Fragment]], list[float]]:
    """Items cut at white corridors at least ``min_gap`` wide running the region's full height: the
    stripes left to right and the x middle of each corridor."""
    order = sorted(items, key=lambda f: f.x0)
    stripes: list[list[Fragment]] = [[order[0]]]
    gaps: list[float] = []
    right = order[0].x1
    for f in order[1:]:
        if f.x0 - right >= min_gap:
            gaps.append((f.x0 + right) / 2)
            stripes.append([])
        stripes[-1].append(f)
        right = max(right, f.x1)
    return stripes, gaps


def _horizontal_split(items: list[Fragment]) -> list[list[Fragment]]:
    """Items cut, top to bottom, at the widest white bands running the region's full width (the middle
    halves of lines are compared, since the loose glyph boxes of tight lines touch)."""
    order = sorted(items, key=lambda f: -(f.y1 - f.height / 4))
    bands: list[list[Fragment]] = [[order[0]]]
    widths: list[float] = []  # white band above each band after the first
    low = order[0].y0 + order[0].height / 4
    for f in order[1:]:
        top = f.y1 - f.height / 4
        if top < low:
            widths.append(low - top)
            bands.append([])
        bands[-1].append(f)
        low = min(low, f.y0 + f.height / 4)
    if not widths:
        return [items]
    cut = max(widths) * 0.8
    merged = [bands[0]]
    for width, band in zip(widths, bands[1:], strict=True):
        if width >= cut:
            merged.append(band)
        else:
            merged[-1] = merged[-1] + band
    return merged


def _gap_kind(stripes: list[list[Fragment]], k: int, h: float) -> str:
    """``"column"``, ``"margin"`` (line numbers beside text) or ``"cell"`` for the corridor after stripe k."""
    left, right = stripes[k], stripes[k + 1]
    for side, other, edge in ((left, right, k == 0), (right, left, k + 1 == len(stripes) - 1)):
        if edge and len(side) >= 2 and all(_NUMBER.fullmatch(f.text) for f in side) and \
                sum(any(ch.isalpha() for ch in f.text) for f in other) * 2 >= len(other):
            return "margin"  # numbers beside lines of words
    left_rows, right_rows = _group_rows(left), _group_rows(right)
    lo, hi = max(f.x1 for f in left), min(f.x0 for f in right)  # the white between the two stripes
    pitch = _pitch(left + right)
    if pitch is not None and hi - lo <= TYPED_SPACES * pitch and \
            all(any(f.x1 <= lo for f in row) for row in _group_rows(left + right)):
        # one or two of a typewriter's spaces, lined up by chance in lines that start at the left (a
        # line beside the white alone is a table's cell)
        return "space"
    if _prose(left, left_rows, h) and _prose(right, right_rows, h):
        return "column"
    if min(len(left_rows), len(right_rows)) >= 2 and _aligned(left_rows, right_rows) < 0.5:
        return "column"
    return "cell"


def _pitch(items: list[Fragment]) -> float | None:
    """The advance of one character where most of ``items``' text is set in a fixed-pitch (typewriter)
    font: the median width per character of those fragments; None for proportional type."""
    fixed = [f for f in items if f.fixed]
    if sum(len(f.text) for f in fixed) * 2 <= sum(len(f.text) for f in items):
        return None
    return statistics.median((f.x1 - f.x0) / len(f.text) for f in fixed)


def _line_numbering(stripes: list[list[Fragment]], kinds: list[str]) -> set[int]:
    """The edge stripes that number the lines beside them (a court transcript's 1-25, pleading paper's
    1-28, every fifth line of a statute): three or more numbers counting down the page by a constant
    step beside lines of words. Numbers beside table cells (row numbers) are the table's own."""
    if "cell" in kinds:
        return set()
    found = set()
    for k, kind in ((0, kinds[0]), (len(stripes) - 1, kinds[-1])):
        if kind != "margin" or len(stripes[k]) < 3 or not all(_NUMBER.fullmatch(f.text) for f in stripes[k]):
            continue
        values = [int(f.text) for f in sorted(stripes[k], key=lambda f: -f.middle)]
        steps = {b - a for a, b in zip(values, values[1:], strict=False)}
        if len(steps) != 1 or min(steps) < 1:
            continue
        other = [f for j, stripe in enumerate(stripes) if j != k for f in stripe]
        if sum(len(f.text.split()) for f in other) >= 3 * len(_group_rows(other)):  # lines, not a list
            found.add(k)
    return found


def _prose(stripe: list[Fragment], rows: list[list[Fragment]], h: float) -> bool:
    x0 = min(f.x0 for f in stripe)
    width = max(f.x1 for f in stripe) - x0
    if width < PROSE_WIDTH * h or len(rows) < 2:
        return False
    full = sum(1 for row in rows if max(f.x1 for f in row) - min(f.x0 for f in row) >= 0.6 * width)
    words = sum(len(f.text.split()) + sum(unicodedata.east_asian_width(ch) == "W" for ch in f.text) // 2
                for f in stripe)  # CJK runs have no spaces: two wide characters count as a word
    return full * 2 >= len(rows) and words >= 3 * len(rows)


def _aligned(a: list[list[Fragment]], b: list[list[Fragment]]) -> float:
    """Share of the rows of the side with fewer rows that have a row on the other side at the same height."""
    few, many = (a, b) if len(a) <= len(b) else (b, a)
    bands = [(min(f.y0 for f in row), max(f.y1 for f in row)) for row in many]
    hits = 0
    for row in few:
        y0, y1 = min(f.y0 for f in row), max(f.y1 for f in row)
        if any(min(y1, t) - max(y0, b0) > 0.5 * min(y1 - y0, t - b0) for b0, t in bands):
            hits += 1
    return hits / len(few)


def _group_rows(items: list[Fragment]) -> list[list[Fragment]]:
    """Items grouped into rows (vertical overlap of at least half the smaller height), top to bottom."""
    rows: list[list[Fragment]] = []
    band = (0.0, 0.0)
    for f in sorted(items, key=lambda f: -f.middle):
        if rows:
            overlap = min(f.y1, band[1]) - max(f.y0, band[0])
            if overlap > 0.5 * min(f.height, band[1] - band[0]):
                rows[-1].append(f)
                band = (min(band[0], f.y0), max(band[1], f.y1)) if f.height <= band[1] - band[0] else band
                continue
        rows.append([f])
        band = (f.y0, f.y1)
    return rows


def _rtl(row: list[Fragment]) -> bool:
    if not any(RTL.search(f.text) for f in row):
        return False
    strong = [_direction(ch) for f in row for ch in f.text if ch.isalpha()]
    return strong.count("R") * 2 >= len(strong) > 0  # a tie reads from the right


def _direction(ch: str) -> str:
    """``"R"`` for right-to-left letters (Hebrew, Arabic), ``"L"`` for other letters, else ``""``."""
    if not ch.isalpha():
        return ""
    return "R" if unicodedata.bidirectional(ch) in ("R", "AL") else "L"


def _rows(items: list[Fragment], cuts: list[tuple[float, str]]) -> list[str]:
    """One line per row. Fragments either side of a corridor in ``cuts`` (x, kind from :func:`_gap_kind`)
    are joined by `` | `` (a line number in a margin by a space); others by a space where they are apart
    or overlap, or the writing direction changes."""
    lines = []
    for row in _group_rows(items):
        rtl = _rtl(row)
        row.sort(key=lambda f: -f.x1 if rtl else f.x0)
        h = _line_height(row)
        parts = [row[0].text]
        edge = row[0].x0 if rtl else row[0].x1  # how far the row reaches so far
        for f in row[1:]:
            gap = (edge - f.x1) if rtl else (f.x0 - edge)
            lo, hi = (f.x1, edge) if rtl else (edge, f.x0)
            cut = next((kind for x, kind in cuts if lo <= x <= hi), None)
            if cut is not None:
                parts.append(" | " if cut == "cell" else " ")
            elif abs(gap) > 0.1 * h or {_direction(parts[-1][-1]), _direction(f.text[0])} == {"L", "R"}:
                parts.append(" ")
            parts.append(f.text)
            edge = min(edge, f.x0) if rtl else max(edge, f.x1)
        lines.append("".join(parts))
    return lines
