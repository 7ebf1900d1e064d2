"""A PDF page's text from PDFium in reading order, with the text a person cannot see kept apart.

The page's characters are cut into fragments (runs on one line with no wide gap, split where PDFium
breaks a line or the position jumps) with their loose glyph boxes, and laid out by
:func:`assistant.documents.pdflayout.layout`.

Text a person cannot see is kept apart: render mode invisible or clip-only (ISO 32000-1 9.3.6) unless
it lies over an image (an OCR layer), white or fully transparent fill (unless over an image or a
non-white filled shape), glyphs under 2 pt, and text whose middle lies outside the crop box.

On a scanned page (images over half of it) the text drawn invisible over the image is the scanner's OCR
layer: it reads as the page's text, and is also handed back on its own (:attr:`PageText.layer`) so the
reader can check it against the image (:mod:`assistant.documents.ocrlayer`).

A page whose text objects are all visible and whose text rectangles already run line by line, top to
bottom and left to right without wide gaps keeps PDFium's text unchanged (the fast path); only other
pages pay for per-character positions. Pages with right-to-left text always do: PDFium's bidi pass
reverses the characters of one glyph mapped to several (a whole Arabic word), which are put back in the
mapping's order. A two-byte code the file maps to nothing (PDFium reports the glyph number as a letter)
adds its ink but no text. Text PDFium leaves out in a predefined CJK CMap comes from
:mod:`assistant.documents.pdfcmap`.
"""

from __future__ import annotations

import ctypes
import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from assistant.documents.pdfcmap import unmapped_fragments
from assistant.documents.pdflayout import CELL_GAP, RTL, Fragment, layout
from assistant.documents.pdfobjects import object_bounds, scan_layer
from assistant.documents.pdfraw import RawPdf

TINY = 2.0  # points: a glyph box lower than this is not readable (1-pt text)
WHITE = 245  # 0-255: fill at least this light on every channel counts as white
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(slots=True)
class _Objects:
    """What the page's text objects say about visibility (keyed by object handle address)."""

    hidden: set[int] = field(default_factory=set)  # invisible render mode or white fill
    backgrounds: list[tuple[float, float, float, float]] = field(default_factory=list)
    unpainted: list[Any] = field(default_factory=list)  # text objects in the invisible or clip-only mode
    texts: list[Any] = field(default_factory=list)  # the page's own (not a form's) text objects in order
    images: list[tuple[float, float, float, float]] = field(default_factory=list)  # images among backgrounds


@dataclass(frozen=True, slots=True)
class PageText:
    """One page's text: what a person sees in reading order, lines joined by ``\\n``.

    Attributes:
        text: the visible text (an OCR layer over a scan included).
        invisible: the text a person cannot see.
        margin_numbers: margin line numbers left out of ``text``.
        layer: the part of ``text`` drawn invisible over a scan (a scanner's OCR layer), one line per
            baseline in drawing order; empty when the page is not a scan with such a layer.
    """

    text: str
    invisible: str = ""
    margin_numbers: tuple[str, ...] = ()
    layer: str = ""


SOFT_HYPHEN = "\u00ad"
_BROKEN_WORD = re.compile(SOFT_HYPHEN + r"[ \t]*\n[ \t]*(?=\w)")


def page_text(page: Any, textpage: Any, *, raw: RawPdf | None = None, index: int = 0) -> PageText:
    """The visible text, the invisible text, the margin line numbers and the OCR layer of one page.

    Args:
        page: a ``pypdfium2.PdfPage``; textpage: its ``PdfTextPage``.
        raw: the pages' fonts and content streams, for text PDFium gives no characters (:mod:`~.pdfcmap`);
            index: the page's index in the file.
    """
    crop = page.get_bbox()
    objects = _scan_objects(page)
    unmapped = unmapped_fragments(objects.texts, textpage, raw, index, objects.hidden)
    if not objects.hidden and not unmapped and _runs_in_order(textpage, crop):
        text = _pdfium_text(textpage)
        if not RTL.search(text):  # right-to-left text is checked for glyphs mapped to several characters
            return PageText(text)
    fragments = _fragments(textpage, objects, crop) + unmapped
    visible = [f for f in fragments if not f.hidden]
    hidden = [f for f in fragments if f.hidden]
    text = _join(layout(visible))
    return PageText(text, _join(layout(hidden)), tuple(f.text for f in visible if f.margin),
                    scan_layer(textpage, objects.unpainted, objects.images, crop))


def _pdfium_text(textpage: Any) -> str:
    return str(textpage.get_text_bounded()).replace("\r\n", "\n").replace("\r", "\n")


def _join(lines: list[str]) -> str:
    """Lines as text; a word broken by a soft hyphen at a line end ("ef-" / "ficient") is whole again."""
    text = "\n".join(lines).strip("\n")
    return _BROKEN_WORD.sub("", text).replace(SOFT_HYPHEN, "") if SOFT_HYPHEN in text else text


# --- visibility of text objects -------------------------------------------------------------------

def _scan_objects(page: Any) -> _Objects:
    """The text objects drawn invisible or white, at any depth of form XObjects, and what lies behind."""
    import pypdfium2.raw as c

    found = _Objects()
    paint = _Paint()
    suspects: list[int] = []  # addresses of text objects drawn invisible or white
    text, form_kind = c.FPDF_PAGEOBJ_TEXT, c.FPDF_PAGEOBJ_FORM
    kind_of, mode_of = c.FPDFPageObj_GetType, c.FPDFTextObj_GetTextRenderMode
    forms: list[Any] = [None]
    while forms:
        form = forms.pop()
        count = c.FPDFPage_CountObjects(page.raw) if form is None else c.FPDFFormObj_CountObjects(form)
        for i in range(count):
            obj = c.FPDFPage_GetObject(page.raw, i) if form is None else c.FPDFFormObj_GetObject(form, i)
            kind = kind_of(obj)
            if kind == text:
                if form is None:
                    found.texts.append(obj)
                mode = mode_of(obj)
                if _invisible(obj, mode, paint):
                    suspects.append(ctypes.cast(obj, ctypes.c_void_p).value or 0)
                    if mode in (c.FPDF_TEXTRENDERMODE_INVISIBLE, c.FPDF_TEXTRENDERMODE_CLIP):
                        found.unpainted.append(obj)
            elif kind == form_kind:
                forms.append(obj)
    if suspects:
        found.hidden = set(suspects)
        found.backgrounds = _backgrounds(page, paint, found.images)
    return found


class _Paint:
    """Reusable out-parameters for PDFium's colour getters (allocating them per object costs more than
    the call)."""

    def __init__(self) -> None:
        self.values = [ctypes.c_uint(0) for _ in range(4)]
        self.refs = [ctypes.byref(v) for v in self.values]

    def blank(self, getter: Any, obj: Any) -> bool:
        """White on every channel (at least WHITE) or fully transparent."""
        if not getter(obj, *self.refs):
            return False
        r, g, b, a = (v.value for v in self.values)
        return a == 0 or min(r, g, b) >= WHITE


def _invisible(obj: Any, mode: int, paint: _Paint) -> bool:
    """Drawn in the invisible or clip-only render mode, or painted white or fully transparent."""
    import pypdfium2.raw as c

    if mode == c.FPDF_TEXTRENDERMODE_FILL:  # the usual case first
        return paint.blank(c.FPDFPageObj_GetFillColor, obj)
    if mode in (c.FPDF_TEXTRENDERMODE_INVISIBLE, c.FPDF_TEXTRENDERMODE_CLIP):
        return True
    fill = mode in (c.FPDF_TEXTRENDERMODE_FILL_STROKE, c.FPDF_TEXTRENDERMODE_FILL_CLIP,
                    c.FPDF_TEXTRENDERMODE_FILL_STROKE_CLIP)
    stroke = mode in (c.FPDF_TEXTRENDERMODE_STROKE, c.FPDF_TEXTRENDERMODE_FILL_STROKE,
                      c.FPDF_TEXTRENDERMODE_STROKE_CLIP, c.FPDF_TEXTRENDERMODE_FILL_STROKE_CLIP)
    if not fill and not stroke:
        return False
    return (not fill or paint.blank(c.FPDFPageObj_GetFillColor, obj)) and \
        (not stroke or paint.blank(c.FPDFPageObj_GetStrokeColor, obj))


def _backgrounds(page: Any, paint: _Paint, images: list[tuple[float, float, float, float]]
                 ) -> list[tuple[float, float, float, float]]:
    """Boxes ``(left, bottom, right, top)`` of top-level images, shadings, non-white filled paths and
    forms holding an image: text over them may be visible even when white or drawn invisible (an OCR
    layer lies over its scan). The boxes of images and forms holding one are also added to ``images``."""
    import pypdfium2.raw as c

    boxes = []
    for i in range(c.FPDFPage_CountObjects(page.raw)):
        obj = c.FPDFPage_GetObject(page.raw, i)
        kind = c.FPDFPageObj_GetType(obj)
        if kind == c.FPDF_PAGEOBJ_PATH:
            fill, stroke = ctypes.c_int(0), ctypes.c_int(0)
            if not c.FPDFPath_GetDrawMode(obj, ctypes.byref(fill), ctypes.byref(stroke)) or not fill.value \
                    or paint.blank(c.FPDFPageObj_GetFillColor, obj):
                continue
        elif kind == c.FPDF_PAGEOBJ_FORM:
            if not any(c.FPDFPageObj_GetType(c.FPDFFormObj_GetObject(obj, k)) == c.FPDF_PAGEOBJ_IMAGE
                       for k in range(c.FPDFFormObj_CountObjects(obj))):
                continue
        elif kind not in (c.FPDF_PAGEOBJ_IMAGE, c.FPDF_PAGEOBJ_SHADING):
            continue
        box = object_bounds(obj)
        if box is not None:
            boxes.append(box)
            if kind in (c.FPDF_PAGEOBJ_IMAGE, c.FPDF_PAGEOBJ_FORM):
                images.append(box)
    return boxes


# --- fast path ------------------------------------------------------------------------------------

def _runs_in_order(textpage: Any, crop: tuple[float, float, float, float]) -> bool:
    """True when PDFium's text rectangles run line by line, top to bottom, each line left to right with
    no wide gap, none under TINY high or outside ``crop``: then its own order is the reading order and
    all of it is visible. Conservative: anything else is laid out character by character."""
    import pypdfium2.raw as c

    left, top, right, bottom = (ctypes.c_double(0) for _ in range(4))
    refs = [ctypes.byref(v) for v in (left, top, right, bottom)]
    line: list[float] | None = None  # x0, y0, x1, y1 of the current line
    for i in range(c.FPDFText_CountRects(textpage.raw, 0, -1)):
        if not c.FPDFText_GetRect(textpage.raw, i, *refs):
            return False
        x0, y0, x1, y1 = left.value, bottom.value, right.value, top.value
        h = y1 - y0
        if h <= 0 or x1 <= x0:
            continue
        if h > 3 * (x1 - x0) and h > 24:  # a rotated run (PDFium glues rotated lines together)
            return False
        if h < TINY or not (crop[0] <= (x0 + x1) / 2 <= crop[2] and crop[1] <= (y0 + y1) / 2 <= crop[3]):
            return False
        if line is None:
            line = [x0, y0, x1, y1]
            continue
        lh = line[3] - line[1]
        overlap = min(y1, line[3]) - max(y0, line[1])
        if overlap > 0.5 * min(h, lh):
            gap = x0 - line[2]
            if gap < -0.2 * h or gap > CELL_GAP * 0.5 * max(h, lh):  # tight glyph boxes: ~half a line
                return False
            line = [line[0], min(y0, line[1]), x1, max(y1, line[3])]
        elif (y0 + y1) / 2 < line[1] and overlap <= 0:
            line = [x0, y0, x1, y1]
        else:
            return False
    return True


# --- characters to fragments ----------------------------------------------------------------------

def _fragments(textpage: Any, objects: _Objects, crop: tuple[float, float, float, float]) -> list[Fragment]:
    """The page's characters cut into fragments, in PDFium's order (the hot loop: kept flat)."""
    import pypdfium2.raw as c

    tp = textpage.raw
    box_of, object_of, unmapped = c.FPDFText_GetLooseCharBox, c.FPDFText_GetTextObject, c.FPDFText_HasUnicodeMapError
    box = c.FS_RECTF()
    out: list[Fragment] = []
    chars: list[str] = []
    hidden_run = vertical_run = False
    fx0 = fy0 = fx1 = fy1 = 0.0  # the current fragment's box
    lx0 = ly0 = lx1 = ly1 = 0.0  # the previous character's box
    space = broken = fixed_run = False
    shared = -1  # where in ``chars`` a run of right-to-left characters sharing one glyph box starts
    lcode = 0  # the previous character
    cl, cb, cr, ct = crop
    flagged = objects.hidden
    limit = CELL_GAP
    for i, code in enumerate(char_codes(textpage)):
        if code < 33 or 127 <= code < 161:  # C0/C1 controls and spaces (160: no-break space)
            if code in (10, 13):
                broken = True
            elif code in (9, 32, 160):
                space = True
            if code != 2:  # 2: PDFium's mark for a hyphen that ends a line; other controls: unmapped glyphs
                continue
        elif code > 160 and (code in (0xFFFE, 0xFFFF) or chr(code).isspace()):
            if code == 0xFFFE and chars:  # PDFium's soft hyphen at a line end: the word goes on below
                chars.append(SOFT_HYPHEN)
            space = space or code < 0xFFFE
            continue
        # a two-byte code the file maps to nothing is a glyph number, not a letter: its ink only
        ch = "" if code > 0xFF and unmapped(tp, i) else "-" if code == 2 else chr(code)
        if not box_of(tp, i, box):  # no position: it stays with the text before it
            if chars and ch:
                chars.append(" " if space else "")
                chars.append(ch)
                space = False
            continue
        x0, x1, y0, y1 = box.left, box.right, box.bottom, box.top
        if y1 < y0:
            y0, y1 = y1, y0
        h = y1 - y0
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        # an empty box says nothing (broken font metrics), a box under TINY both ways is 1-pt text
        hidden = 0 < (h if h > x1 - x0 else x1 - x0) < TINY or not (cl <= mx <= cr and cb <= my <= ct)
        if flagged and not hidden and (ctypes.cast(object_of(tp, i), ctypes.c_void_p).value or 0) in flagged:
            hidden = not any(bl <= mx <= br and bb <= my <= bt for bl, bb, br, bt in objects.backgrounds)
        join = vertical = False
        if chars and not broken and hidden == hidden_run:
            lh = ly1 - ly0
            low = h if h < lh else lh
            if h > lh:
                lh = h
            if (y1 if y1 < ly1 else ly1) - (y0 if y0 > ly0 else ly0) > 0.5 * low:  # on the same line
                reach = (limit if ch else 2 * limit) * lh  # a glyph with no text: ink of the word beside it
                join = x0 - lx1 <= reach and lx0 - x1 <= reach  # beside it, or overlapping
            elif (x1 if x1 < lx1 else lx1) > (x0 if x0 > lx0 else lx0) and (
                    _rotated(tp, i) or (-0.25 * lh <= ly0 - y1 <= limit * lh and _upright_vertical(code))):
                # one line stepping up or down: rotated text, or East Asian vertical writing (upright
                # glyphs stacked top to bottom, columns right to left)
                join = vertical = True
        if code >= 0x590 and join and not space and x0 == lx0 and x1 == lx1 and y0 == ly0 and y1 == ly1 \
                and _right_to_left(code) and _right_to_left(lcode):
            # one glyph mapped to several characters: PDFium's bidi pass reversed them with the line
            shared = len(chars) - 1 if shared < 0 else shared
        elif shared >= 0:
            chars[shared:] = chars[shared:][::-1]
            shared = -1
        if join:
            if space and ch:
                chars.append(" ")
            chars.append(ch)
            fx0, fy0 = (x0 if x0 < fx0 else fx0), (y0 if y0 < fy0 else fy0)
            fx1, fy1 = (x1 if x1 > fx1 else fx1), (y1 if y1 > fy1 else fy1)
            vertical_run = vertical_run or vertical
        else:
            if text := "".join(chars):
                out.append(Fragment(text, fx0, fy0, fx1, fy1, hidden_run, vertical_run, fixed=fixed_run))
            chars = [ch]
            fx0, fy0, fx1, fy1, hidden_run, vertical_run = x0, y0, x1, y1, hidden, False
            fixed_run = _fixed_pitch(tp, i)
        lx0, ly0, lx1, ly1, lcode = x0, y0, x1, y1, code
        space, broken = space and not ch, False  # a space before a blank glyph goes before the next letter
    if shared >= 0:
        chars[shared:] = chars[shared:][::-1]
    if text := "".join(chars):
        out.append(Fragment(text, fx0, fy0, fx1, fy1, hidden_run, vertical_run, fixed=fixed_run))
    return out


_FIXED_NAME = re.compile(r"courier|mono|typewriter|consol", re.I)


def _fixed_pitch(tp: Any, index: int) -> bool:
    """Whether character ``index`` is set in a fixed-pitch (typewriter) font: its descriptor says so
    (ISO 32000-1 9.8.2, flag 1) or its name is one (Courier, a mono font; the standard 14 fonts carry no
    descriptor)."""
    import pypdfium2.raw as c

    flags = ctypes.c_int(0)
    name = ctypes.create_string_buffer(128)
    c.FPDFText_GetFontInfo(tp, index, name, 128, ctypes.byref(flags))
    return bool(flags.value & 1) or bool(_FIXED_NAME.search(name.value.decode("latin-1")))


def char_codes(textpage: Any) -> list[int]:
    """The code point of each character index: from one ``FPDFText_GetText`` call when it gives one
    UTF-16 unit per character (it is limited to UCS-2), else character by character."""
    import pypdfium2.raw as c

    count = c.FPDFText_CountChars(textpage.raw)
    text = str(textpage.get_text_range(0, count)) if count > 0 else ""
    if len(text) == count and not _SURROGATE.search(text):
        return [ord(ch) for ch in text]
    return [c.FPDFText_GetUnicode(textpage.raw, i) for i in range(count)]


def _upright_vertical(code: int) -> bool:
    """A wide (East Asian) glyph: in vertical writing these stand upright, one below the other."""
    return code > 0x2E7F and unicodedata.east_asian_width(chr(code)) in ("W", "F")


def _right_to_left(code: int) -> bool:
    """A Hebrew or Arabic letter or a mark on one."""
    return unicodedata.bidirectional(chr(code)) in ("R", "AL", "NSM")


def _rotated(tp: Any, index: int) -> bool:
    import pypdfium2.raw as c

    angle = c.FPDFText_GetCharAngle(tp, index)
    return angle >= 0 and abs(math.sin(angle)) > 0.5
