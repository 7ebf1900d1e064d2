"""What PDFium says about one page object: its box and its text, and the OCR layer such objects make.

The OCR layer: on a scanned page (images over :data:`SCAN_COVER` of it) the text drawn invisible over the
images is a scanner's OCR, handed back on its own so the reader can check it against the image
(:mod:`assistant.documents.ocrlayer`).
"""

from __future__ import annotations

import ctypes
from typing import Any

SCAN_COVER = 0.5  # a page whose images cover at least this share of its crop box is a scan
Box = tuple[float, float, float, float]  # (left, bottom, right, top) in points


def object_bounds(obj: Any) -> Box | None:
    """A page object's box ``(left, bottom, right, top)``, or None when PDFium has none."""
    import pypdfium2.raw as c

    box = [ctypes.c_float(0) for _ in range(4)]
    if not c.FPDFPageObj_GetBounds(obj, *(ctypes.byref(v) for v in box)):
        return None
    return box[0].value, box[1].value, box[2].value, box[3].value


def scan_layer(textpage: Any, unpainted: list[Any], images: list[Box], crop: Box) -> str:
    """The text of the ``unpainted`` text objects (drawn invisible) over the page's ``images`` when those
    cover at least :data:`SCAN_COVER` of the ``crop`` box (an OCR layer over its scan), one line per
    baseline; else ``""``."""
    if not unpainted or not images:
        return ""
    cl, cb, cr, ct = crop
    area = max((cr - cl) * (ct - cb), 1.0)
    covered = sum(max(0.0, min(r, cr) - max(left, cl)) * max(0.0, min(t, ct) - max(b, cb))
                  for left, b, r, t in images)
    if covered < SCAN_COVER * area:
        return ""
    lines: list[list[str]] = []
    last: Box | None = None
    for obj in unpainted:
        box = object_bounds(obj)
        if box is None:
            continue
        mx, my = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if not any(left <= mx <= r and b <= my <= t for left, b, r, t in images):
            continue
        words = object_text(obj, textpage)
        if not words:
            continue
        if last is not None and lines and last[1] <= my <= last[3]:  # on the line of the object before
            lines[-1].append(words)
        else:
            lines.append([words])
        last = box
    return "\n".join(" ".join(line) for line in lines)


def object_text(obj: Any, textpage: Any) -> str:
    """The text a text object draws, on one line."""
    import pypdfium2.raw as c

    size = c.FPDFTextObj_GetText(obj, textpage.raw, None, 0)
    if size <= 2:
        return ""
    buf = ctypes.create_string_buffer(size)
    c.FPDFTextObj_GetText(obj, textpage.raw, ctypes.cast(buf, ctypes.POINTER(c.FPDF_WCHAR)), size)
    return " ".join(buf.raw[:size - 2].decode("utf-16-le", errors="replace").split())
